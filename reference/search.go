package reference

import (
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// --- NIP-50 search ------------------------------------------------------------
//
// A filter's "search" string is split on white space into terms. A term of
// the form key:value is a NIP-50 extension; the relay supports none, so it
// ignores them all ("Relays SHOULD ignore extensions they don't support").
// Every other term must occur in the event's content, ASCII letters
// compared case-insensitively (SQLite's lower() folds ASCII only, and the
// live path folds the same way, so history, COUNT and live delivery agree).
// A search with no term left matches every event. The match is one more
// predicate of the filter: the access rule, the profile's read rule (the
// identity profile leaves system channels out of a search that does not
// name them) and the limit apply as to any filter. Results keep the usual
// newest-first order, which NIP-50 leaves to the implementation ("quality
// of search result"), and the limit applies after the match.

// searchTerms returns the terms of a search string that the relay matches,
// ASCII-folded, without the extensions it ignores.
func searchTerms(search string) []string {
	var out []string
	for _, tok := range strings.Fields(search) {
		if isSearchExtension(tok) {
			continue
		}
		out = append(out, foldASCII(tok))
	}
	return out
}

// isSearchExtension reports whether a search token is a NIP-50 key:value
// extension: a key of letters, digits, '_' or '-' starting with a letter, a
// colon, and a value (not a URL's "//").
func isSearchExtension(tok string) bool {
	key, value, ok := strings.Cut(tok, ":")
	if !ok || key == "" || value == "" || strings.HasPrefix(value, "/") {
		return false
	}
	for i, c := range key {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '_' || c == '-')) {
			return false
		}
	}
	return true
}

// foldASCII lowercases ASCII letters only, as SQLite's lower() does.
func foldASCII(s string) string {
	return strings.Map(func(c rune) rune {
		if c >= 'A' && c <= 'Z' {
			return c + ('a' - 'A')
		}
		return c
	}, s)
}

// searchSQL is a filter's search as an SQL condition over e, "" when the
// filter has no search or no term the relay matches.
func searchSQL(f *nostr.Filter) (string, []any) {
	terms := searchTerms(f.Search)
	if len(terms) == 0 {
		return "", nil
	}
	conds := make([]string, len(terms))
	args := make([]any, len(terms))
	for i, term := range terms {
		conds[i] = "instr(lower(e.content), ?) > 0"
		args[i] = term
	}
	return strings.Join(conds, " AND "), args
}

// searchMatches is searchSQL in Go, for live delivery.
func searchMatches(f *nostr.Filter, ev *nostr.Event) bool {
	terms := searchTerms(f.Search)
	if len(terms) == 0 {
		return true
	}
	content := foldASCII(ev.Content)
	for _, term := range terms {
		if !strings.Contains(content, term) {
			return false
		}
	}
	return true
}

// profileReadSQL is the profile's read rule for one stored read (REQ
// history and COUNT), as filterSQL adds it: the rule applies to a search
// filter as to any other, except under the search faults.
func (r *Relay) profileReadSQL(f *nostr.Filter, rd *reader) (string, []any) {
	view := r.searchProfileView(f)
	cond, args := r.profile.readSQL(view, rd)
	return r.profileGrantSQL(view, rd, cond, args)
}

// profileReadMatch is profileReadSQL's rule for live delivery.
func (r *Relay) profileReadMatch(f *nostr.Filter, rd *reader, ev *nostr.Event, ch *Channel) bool {
	view := r.searchProfileView(f)
	return r.profile.readMatch(view, rd, ev, ch) || r.profileGranted(view, rd, ev, ch)
}

// searchProfileView is the filter the profile's read rule judges: f itself,
// except under the fault identity-search-drops-named-h, where the rule of
// a search filter does not see its #h, so a channel the filter names by #h
// counts as not named (the core still matches #h).
func (r *Relay) searchProfileView(f *nostr.Filter) *nostr.Filter {
	if f.Search == "" || f.Tags["h"] == nil || !r.fault(faultIDSearchDropsNamedH) {
		return f
	}
	cp := *f
	cp.Tags = nostr.TagMap{}
	for name, vals := range f.Tags {
		if name != "h" {
			cp.Tags[name] = vals
		}
	}
	return &cp
}
