package version

import (
	"slices"
	"strings"

	"github.com/nipcl/nipcl-conform/clause"
)

// Spec is one revision of a specification the case catalogue targets.
type Spec struct {
	// Profile is the profile whose own cases the revision backs: "nip29"
	// (the baseline cases, which run in every profile), "identity" or
	// "labels".
	Profile string `json:"profile"`
	// Name names the text: a draft's file name, or "nostr-protocol/nips
	// NIP-29".
	Name string `json:"name"`
	// Docs are the clause documents (clause.Section.Doc) whose clauses were
	// written against this revision.
	Docs []string `json:"docs"`
	// Revision pins the text: "sha256:" and the first 12 hex digits of the
	// SHA-256 of a draft file's bytes, or "git:" and the commit of the
	// nostr-protocol/nips repository the NIP clauses were audited against.
	Revision string `json:"revision"`
	// Date is when the revision was audited (git revisions).
	Date string `json:"date,omitempty"`
	// Current is false for an earlier revision that is recorded (the spec
	// tools and tests read it) but that no case targets.
	Current bool `json:"current"`
}

// NIPsCommit is the nostr-protocol/nips commit the baseline clauses (NIP-29
// and the NIP-01/11/42/45 rules it rests on, clause/baseline_clauses.go)
// were audited against.
const (
	NIPsCommit     = "db5fe3de8c5d1443b634c9bbf66ecb004f337057"
	NIPsCommitDate = "2026-07-22"
)

// Draft fingerprints: the first 12 hex digits of the SHA-256 of each draft
// file's bytes (../shared/spec/<file> beside the repository). The drafts are
// not part of the repository, so the fingerprints are recorded here;
// TestDraftFingerprints recomputes them when the drafts are present and
// fails when a draft changed without this table.
const (
	IdentityDraftSHA   = "5cf67f017c7a" // nip-cl-identity.md
	IdentityR1DraftSHA = "fd057fc36e16" // nip-cl-identity-r1.md
	LabelsDraftSHA     = "f3f5f551a3c1" // nip-cl-labels.md
)

// IdentityR1 is the file name of the earlier identity revision (before
// system channels), which `spec diff` and the spec tests compare with.
const IdentityR1 = "nip-cl-identity-r1.md"

var specs = []Spec{
	{
		Profile: "nip29", Name: "nostr-protocol/nips NIP-29",
		Docs:     []string{clause.DocNIP01, clause.DocNIP11, clause.DocNIP29, clause.DocNIP42, clause.DocNIP45},
		Revision: "git:" + NIPsCommit, Date: NIPsCommitDate, Current: true,
	},
	{
		Profile: "identity", Name: clause.DocIdentity,
		Docs: []string{clause.DocIdentity}, Revision: "sha256:" + IdentityDraftSHA, Current: true,
	},
	{
		Profile: "labels", Name: clause.DocLabels,
		Docs: []string{clause.DocLabels}, Revision: "sha256:" + LabelsDraftSHA, Current: true,
	},
	{
		Profile: "identity", Name: IdentityR1,
		Docs: []string{clause.DocIdentity}, Revision: "sha256:" + IdentityR1DraftSHA, Current: false,
	},
}

// Specs returns every recorded revision: the current ones first (nip29,
// identity, labels), then earlier ones.
func Specs() []Spec {
	out := make([]Spec, len(specs))
	for i, s := range specs {
		out[i] = s
		out[i].Docs = slices.Clone(s.Docs)
	}
	return out
}

// SpecForDoc returns the current revision that backs a clause document
// (clause.Section.Doc).
func SpecForDoc(doc string) (Spec, bool) {
	for _, s := range Specs() {
		if s.Current && slices.Contains(s.Docs, doc) {
			return s, true
		}
	}
	return Spec{}, false
}

// SpecsForProfile returns the current revisions a run of the profile checks:
// NIP-29 (the baseline cases run in every profile) and, for a NIP-CL
// profile, its draft. Unknown profiles get the baseline only.
func SpecsForProfile(profile string) []Spec {
	var out []Spec
	for _, s := range Specs() {
		if s.Current && (s.Profile == "nip29" || s.Profile == profile) {
			out = append(out, s)
		}
	}
	return out
}

// Short is a compact reference to the revision: "nip-cl-labels.md@f3f5f551a3c1"
// or "nips@db5fe3de8c5d".
func (s Spec) Short() string {
	if c, ok := strings.CutPrefix(s.Revision, "git:"); ok {
		return "nips@" + shorten(c, 12)
	}
	if h, ok := strings.CutPrefix(s.Revision, "sha256:"); ok {
		return s.Name + "@" + h
	}
	return s.Name + "@" + s.Revision
}

// String describes the revision for people.
func (s Spec) String() string {
	out := s.Name + " " + s.Revision
	if s.Date != "" {
		out += " (" + s.Date + ")"
	}
	if !s.Current {
		out += " (earlier revision; no case targets it)"
	}
	return out
}
