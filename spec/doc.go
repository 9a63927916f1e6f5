// Package spec reads specification drafts the way a spec editor does:
// it parses a draft (Markdown, or the plain-text export some drafts come
// in), extracts its normative sentences, fingerprints them, and relates
// them to the clause catalogue (package clause) and, through a case
// lookup, to the conformance cases.
//
// Three reports build on that:
//
//   - Check: which normative sentences of a draft have a clause (and cases),
//     which have none (new or changed wording), and which clauses point at
//     sentences the draft no longer has (stale).
//   - Diff: the normative changes between two revisions of a draft — added,
//     removed, reworded (matched by similarity) and level changes — with the
//     clauses and cases each one affects.
//   - Annotate: the draft as one self-contained HTML page, each normative
//     sentence marked with its cases and every implementation's outcome.
//
// The three read a sentence alike (model.go): a sentence a clause is
// anchored to is a rule whatever its wording, on both sides of a diff.
// Diff closes with a gate (DiffGate) an editor's CI can act on, and
// ReadDraft refuses a file that is not a draft before any of them runs.
//
// A clause records the sentences it derives from as fingerprints
// (clause.Anchor): the section heading plus a hash of the sentence after
// Normalize, never the sentence itself. Nothing here knows the text of a
// particular draft; every decision is made from the Markdown structure and
// the wording rules in normative.go.
package spec
