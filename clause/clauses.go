package clause

import (
	"sort"
	"strconv"
	"strings"
)

// Clause is one normative statement of a specification: a MUST, MUST NOT,
// SHOULD, SHOULD NOT or MAY sentence, or a declarative rule the relay
// follows ("the relay leaves … out"). Cases cover clauses (see
// suites.ClauseCases); a clause that cannot be observed over the wire says
// why.
type Clause struct {
	ID      string // "<section ID>.<n>", e.g. "labels/snapshot.3"
	Section string // the Section the statement belongs to
	Level   string // MUST, MUST NOT, SHOULD, SHOULD NOT, MAY, or RULE (declarative rule)
	Subject string // SubjectRelay or SubjectClient
	Text    string // one line, our own words
	// Testable is false when no conversation with a relay can show whether
	// the statement holds; Reason then says why.
	Testable bool
	Reason   string
	// Source is whose rule the clause is: SourceNIP (a sentence of a
	// published NIP), SourceDraft (a sentence of a NIP-CL draft) or
	// SourceContract (something the harness needs of a target to drive its
	// scenarios, which no NIP requires). Only nip and draft clauses can make
	// a relay fail; an unmet contract clause blocks the cases that need it.
	Source string
	// Ref says where the sentence is: "NIP-29 § Event definitions: join
	// request", "nip-cl-labels.md § Metadata snapshot", or for a contract
	// clause what the harness needs it for. Never the sentence itself.
	Ref string
	// Anchors fingerprint the draft sentence(s) the clause derives from
	// (identity and labels clauses; see clause/anchors.go). `nipcl-conform
	// spec check` uses them to tell which sentences of a draft have a
	// clause and which clauses lost their sentence.
	Anchors []Anchor
}

// Clause sources (Clause.Source).
const (
	SourceNIP      = "nip"
	SourceDraft    = "draft"
	SourceContract = "contract"
)

// Sources lists the clause sources, strongest authority first.
var Sources = []string{SourceNIP, SourceDraft, SourceContract}

// Clause levels. RULE marks a declarative statement of behaviour without an
// RFC 2119 keyword ("the relay leaves system channels out …").
const (
	LevelMust      = "MUST"
	LevelMustNot   = "MUST NOT"
	LevelShould    = "SHOULD"
	LevelShouldNot = "SHOULD NOT"
	LevelMay       = "MAY"
	LevelRule      = "RULE"
)

// Clause subjects.
const (
	SubjectRelay  = "relay"
	SubjectClient = "client"
)

// Reasons shared by many clauses.
const (
	reasonClient = "client obligation: the relay suites cannot observe what a client does with what it reads, and no client-mode case (nipcl-conform client) covers it yet"
)

// Profile returns the profile the clause belongs to: "identity", "labels",
// or "" for the NIP-01/11/29/42/45 baseline every profile relies on.
func (c Clause) Profile() string {
	doc, _, _ := strings.Cut(c.ID, "/")
	switch doc {
	case "identity", "labels":
		return doc
	}
	return ""
}

// clauses is built once from the per-document lists.
var clauses = func() []Clause {
	var out []Clause
	out = append(out, withNIPAnchors(baselineClauses)...)
	out = append(out, withNIPAnchors(nip29ClientClauses)...)
	out = append(out, withNIPAnchors(nip29ModerationClauses)...)
	out = append(out, withNIPAnchors(protocolClauses)...)
	out = append(out, withDraftSource(identityClauses)...)
	out = append(out, withDraftSource(labelsClauses)...)
	sort.SliceStable(out, func(i, j int) bool { return clauseLess(out[i].ID, out[j].ID) })
	return out
}()

var clauseByID = func() map[string]Clause {
	m := make(map[string]Clause, len(clauses))
	for _, c := range clauses {
		m[c.ID] = c
	}
	return m
}()

// Clauses returns every clause, ordered by section ID and then by number.
func Clauses() []Clause {
	return append([]Clause(nil), clauses...)
}

// LookupClause returns the clause with the given ID.
func LookupClause(id string) (Clause, bool) {
	c, ok := clauseByID[id]
	return c, ok
}

// SectionClauses returns the clauses of one section, in number order.
func SectionClauses(section string) []Clause {
	var out []Clause
	for _, c := range clauses {
		if c.Section == section {
			out = append(out, c)
		}
	}
	return out
}

// SplitClauseID splits "labels/snapshot.3" into "labels/snapshot" and 3.
// ok is false when id has no numeric suffix.
func SplitClauseID(id string) (section string, n int, ok bool) {
	i := strings.LastIndexByte(id, '.')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil || n <= 0 || strconv.Itoa(n) != id[i+1:] {
		return "", 0, false
	}
	return id[:i], n, true
}

// clauseLess orders by section, then numerically by clause number.
func clauseLess(a, b string) bool {
	sa, na, oka := SplitClauseID(a)
	sb, nb, okb := SplitClauseID(b)
	if !oka || !okb || sa != sb {
		if oka && okb {
			return sa < sb
		}
		return a < b
	}
	return na < nb
}

// withNIPAnchors fills the anchors of baseline clauses (anchors_nips.go).
func withNIPAnchors(in []Clause) []Clause {
	out := make([]Clause, len(in))
	for i, c := range in {
		if c.Anchors == nil {
			c.Anchors = Anchors(c.ID)
		}
		out[i] = c
	}
	return out
}

// withDraftSource fills Source and Ref of a NIP-CL draft's clauses: every
// one of them is a sentence of that draft, found under its section heading.
func withDraftSource(in []Clause) []Clause {
	out := make([]Clause, len(in))
	for i, c := range in {
		if c.Source == "" {
			c.Source = SourceDraft
		}
		if c.Ref == "" {
			if s, ok := Lookup(c.Section); ok {
				c.Ref = s.Doc + " § " + s.Title
			}
		}
		if c.Anchors == nil {
			c.Anchors = Anchors(c.ID)
		}
		out[i] = c
	}
	return out
}
