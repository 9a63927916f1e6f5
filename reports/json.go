package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// WriteJSON renders r as indented JSON (schema: docs/report-schema.md).
func WriteJSON(w io.Writer, r *Results) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadJSON loads results written by WriteJSON.
func ReadJSON(path string) (*Results, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	var r Results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s is not a nipcl-conform JSON report: %w", path, err)
	}
	return &r, nil
}
