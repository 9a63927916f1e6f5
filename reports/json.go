package reports

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// WriteJSON renders r as indented JSON (schema: docs/report-schema.md). It
// stores the per-outcome counts of r's cases and the file's digest; r itself
// is not changed.
func WriteJSON(w io.Writer, r *Results) error {
	out := *r
	out.StoredCounts = AllCounts(r)
	out.Digest = ""
	compact, err := json.Marshal(&out)
	if err != nil {
		return fmt.Errorf("encode results: %w", err)
	}
	if out.Digest, err = Digest(compact); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&out)
}

// AllCounts is Counts with every outcome class present (zeros included), as
// results.json stores it.
func AllCounts(r *Results) map[Outcome]int {
	m := r.Counts()
	for _, o := range Outcomes {
		m[o] += 0
	}
	return m
}

// Digest returns "sha256:" + the SHA-256 of the canonical form of a
// results JSON document: the document without its top-level "digest"
// member, re-encoded compactly with object keys sorted and numbers as
// written. Fields this version does not know are part of it, so a newer
// writer's file verifies with an older reader.
func Digest(doc []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return "", fmt.Errorf("results digest: %w", err)
	}
	delete(v, "digest")
	canon, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("results digest: %w", err)
	}
	sum := sha256.Sum256(canon)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// ReadJSON loads results written by WriteJSON.
func ReadJSON(path string) (*Results, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	return parseJSON(path, data)
}

func parseJSON(name string, data []byte) (*Results, error) {
	var r Results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s is not a nipcl-conform JSON report: %w", name, err)
	}
	return &r, nil
}
