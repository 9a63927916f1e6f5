package clause

import (
	_ "embed"
	"strings"
)

// Anchor fingerprints one sentence of a draft (or of a NIP text, for the
// baseline clauses) that a clause derives from: the document, the heading the sentence stands under, and the sentence's
// fingerprint (spec.Fingerprint: the first 16 hex digits of the SHA-256 of
// the sentence lowercased, white space folded, Markdown emphasis, links and
// backticks stripped). An anchor never holds the sentence itself, so the
// catalogue carries no draft prose, and any edit to the sentence's wording
// shows as a stale anchor (nipcl-conform spec check).
type Anchor struct {
	Doc     string // DocIdentity, DocLabels, or a NIP (DocNIP29, DocNIP01 ...)
	Heading string // heading the sentence falls under, as the draft writes it
	Hash    string // spec.Fingerprint of the sentence
}

// docTitles are the titles the drafts carry; a draft whose title names
// one of them belongs to that document's profile.
var docTitles = map[string]string{
	DocIdentity: "Channel Identity and Discovery",
	DocLabels:   "Channel Labels",
	DocNIP01:    "Basic protocol flow description",
	DocNIP11:    "Relay Information Document",
	DocNIP29:    "Relay-based Groups",
	DocNIP42:    "Authentication of clients to relays",
	DocNIP45:    "Event Counts",
}

// DocTitle returns the title a draft document carries, or "".
func DocTitle(doc string) string { return docTitles[doc] }

// ProfileDoc returns the draft document of a profile ("identity" →
// nip-cl-identity.md), or "" for a profile without a draft of its own.
func ProfileDoc(profile string) string {
	switch profile {
	case "identity":
		return DocIdentity
	case "labels":
		return DocLabels
	}
	return ""
}

// DraftProfiles lists the profiles that have a draft document.
var DraftProfiles = []string{"identity", "labels"}

// specProfileDocs maps each spec profile (what `spec check --profile`
// takes) to its document: the two drafts, NIP-29 (the nip29 profile's own
// text) and the NIPs the baseline clauses rest on.
var specProfileDocs = map[string]string{
	"identity": DocIdentity,
	"labels":   DocLabels,
	"nip29":    DocNIP29,
	"nip01":    DocNIP01,
	"nip11":    DocNIP11,
	"nip42":    DocNIP42,
	"nip45":    DocNIP45,
}

// SpecProfiles lists the spec profiles, drafts first: each names one
// document whose sentences clauses are anchored to.
var SpecProfiles = []string{"identity", "labels", "nip29", "nip01", "nip11", "nip42", "nip45"}

// SpecProfileDoc returns the document of a spec profile ("nip29" →
// NIP-29), or "".
func SpecProfileDoc(profile string) string { return specProfileDocs[profile] }

// SpecProfile returns the spec profile whose document the clause belongs
// to, named by its ID's first part ("nip29/join.1" → "nip29",
// "labels/snapshot.3" → "labels"), or "" for another prefix.
func (c Clause) SpecProfile() string {
	p, _, _ := strings.Cut(c.ID, "/")
	if specProfileDocs[p] == "" {
		return ""
	}
	return p
}

// Anchors returns the anchors of a clause (nil for clauses without), as
// clause/anchors.txt lists them.
func Anchors(clauseID string) []Anchor {
	return append([]Anchor(nil), anchorIndex[clauseID]...)
}

// anchorsText is clause/anchors.txt: every clause's anchors, as data.
//
//go:embed anchors.txt
var anchorsText string

// anchorIndex is anchors.txt read once; a malformed line stops the
// program at start with its line number (go test ./clause/ says it first).
var anchorIndex = func() map[string][]Anchor {
	m, err := parseAnchors(anchorsText)
	if err != nil {
		panic("clause/anchors.txt: " + err.Error())
	}
	return m
}()
