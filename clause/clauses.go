package clause

import (
	"fmt"
	"slices"
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
	Level   Level  // MUST, MUST NOT, SHOULD, SHOULD NOT, MAY, or RULE (declarative rule)
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
	// (clause/anchors.txt). `nipcl-conform
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

// Level is the one vocabulary of requirement levels: a clause's (RFC 2119
// keyword, or RULE for a declarative statement of behaviour without one:
// "the relay leaves system channels out …"), and a case's, which is MUST,
// SHOULD or MAY (CaseLevel; framework.Level and clientmode.Case.Level are
// this type).
type Level string

// Levels.
const (
	LevelMust      Level = "MUST"
	LevelMustNot   Level = "MUST NOT"
	LevelShould    Level = "SHOULD"
	LevelShouldNot Level = "SHOULD NOT"
	LevelMay       Level = "MAY"
	LevelRule      Level = "RULE"
)

// CaseLevel is the level a case checking a clause of this level runs at:
// MUST for MUST, MUST NOT and RULE; SHOULD for SHOULD and SHOULD NOT; MAY.
func (l Level) CaseLevel() Level {
	switch l {
	case LevelMust, LevelMustNot, LevelRule:
		return LevelMust
	case LevelShould, LevelShouldNot:
		return LevelShould
	}
	return l
}

// Rank orders case levels, strongest highest: MUST 3, SHOULD 2, MAY 1,
// anything else 0.
func (l Level) Rank() int {
	switch l.CaseLevel() {
	case LevelMust:
		return 3
	case LevelShould:
		return 2
	case LevelMay:
		return 1
	}
	return 0
}

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

// clauses is built once from the per-document lists (a new table file
// adds its list here).
var clauses = func() []Clause {
	var out []Clause
	for _, list := range [][]Clause{baselineClauses, nip29ClientClauses, nip29ModerationClauses, protocolClauses, identityClauses, labelsClauses} {
		out = append(out, list...)
	}
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

// clausePos is each clause's position in Clauses.
var clausePos = func() map[string]int {
	m := make(map[string]int, len(clauses))
	for i, c := range clauses {
		m[c.ID] = i
	}
	return m
}()

// InOrder returns the IDs of ids that name a clause, once each, in the
// order of Clauses (without copying the catalogue, as a loop over
// Clauses would for every case a run reports).
func InOrder(ids []string) []string {
	var out []string
	for _, id := range ids {
		if _, ok := clausePos[id]; ok && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	sort.Slice(out, func(i, j int) bool { return clausePos[out[i]] < clausePos[out[j]] })
	return out
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

// One constructor per document. Each makes a testable relay clause of
// its document's source: the section is the ID's ("nip29/join.1" →
// "nip29/join"), the anchors are clause/anchors.txt's; client and
// untestable clauses say so with .client(reason) and .untestable(reason).

// nip01, nip11, nip29, nip42 and nip45 make a clause of a published NIP
// (SourceNIP) whose ID is in that NIP's sections; ref says where its
// sentence stands.
func nip01(id string, level Level, ref, text string) Clause {
	return newClause("nip01/", id, level, SourceNIP, ref, text)
}
func nip11(id string, level Level, ref, text string) Clause {
	return newClause("nip11/", id, level, SourceNIP, ref, text)
}
func nip29(id string, level Level, ref, text string) Clause {
	return newClause("nip29/", id, level, SourceNIP, ref, text)
}
func nip42(id string, level Level, ref, text string) Clause {
	return newClause("nip42/", id, level, SourceNIP, ref, text)
}
func nip45(id string, level Level, ref, text string) Clause {
	return newClause("nip45/", id, level, SourceNIP, ref, text)
}

// contract makes a point of the target contract (SourceContract), in any
// section: what the harness needs of a relay, which no NIP requires; ref
// says what for.
func contract(id string, level Level, ref, text string) Clause {
	return newClause("", id, level, SourceContract, ref, text)
}

// identityDraft and labelsDraft make a clause of a NIP-CL draft
// (SourceDraft), whose sentence stands under its section's heading.
func identityDraft(id string, level Level, text string) Clause {
	return draftClause("identity/", id, level, text)
}
func labelsDraft(id string, level Level, text string) Clause {
	return draftClause("labels/", id, level, text)
}

func draftClause(prefix, id string, level Level, text string) Clause {
	c := newClause(prefix, id, level, SourceDraft, "", text)
	if s, ok := Lookup(c.Section); ok {
		c.Ref = s.Doc + " § " + s.Title
	}
	return c
}

// newClause makes a testable relay clause. An ID outside the document's
// prefix is a mistake in a table, stopped at start (every test shows it).
func newClause(prefix, id string, level Level, source, ref, text string) Clause {
	if !strings.HasPrefix(id, prefix) {
		panic(fmt.Sprintf("clause %s is made by the constructor of %s clauses", id, prefix))
	}
	section, _, _ := SplitClauseID(id)
	return Clause{ID: id, Section: section, Level: level, Subject: SubjectRelay, Testable: true,
		Source: source, Ref: ref, Text: text, Anchors: Anchors(id)}
}

// client marks a clause binding clients, which the relay suites cannot
// observe: not testable, for reason.
func (c Clause) client(reason string) Clause {
	c.Subject = SubjectClient
	return c.untestable(reason)
}

// untestable marks a clause no conversation with a relay can show to
// hold or not, for reason.
func (c Clause) untestable(reason string) Clause {
	c.Testable, c.Reason = false, reason
	return c
}
