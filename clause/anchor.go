package clause

// Anchor fingerprints one sentence of a draft that a clause derives from:
// the draft, the heading the sentence stands under, and the sentence's
// fingerprint (spec.Fingerprint: the first 16 hex digits of the SHA-256 of
// the sentence lowercased, white space folded, Markdown emphasis, links and
// backticks stripped). An anchor never holds the sentence itself, so the
// catalogue carries no draft prose, and any edit to the sentence's wording
// shows as a stale anchor (nipcl-conform spec check).
type Anchor struct {
	Doc     string // DocIdentity or DocLabels
	Heading string // heading the sentence falls under, as the draft writes it
	Hash    string // spec.Fingerprint of the sentence
}

// docTitles are the titles the drafts carry; a draft whose title names
// one of them belongs to that document's profile.
var docTitles = map[string]string{
	DocIdentity: "Channel Identity and Discovery",
	DocLabels:   "Channel Labels",
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

// Anchors returns the anchors of a clause (nil for clauses without).
func Anchors(clauseID string) []Anchor {
	return append([]Anchor(nil), anchors[clauseID]...)
}
