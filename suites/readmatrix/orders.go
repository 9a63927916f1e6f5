package readmatrix

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/nbd-wtf/go-nostr"
)

// Orders are the orders a read asks its filters in: as written, then, when
// a list (ids, authors, kinds, a tag) has several values or the REQ several
// filters, every list and the filters reversed (what was first is last),
// and every list rotated right by one (its last value first, so what was
// first is second). NIP-01 matches a list by any of its values and a REQ
// by any of its filters, wherever they stand (nip01/filters.5,
// nip01/filters.3): a relay that reads only the first value, or only one
// filter, answers some order wrongly. The first order is fs itself; orders
// that come out equal are left out.
func Orders(fs []nostr.Filter) [][]nostr.Filter {
	out := [][]nostr.Filter{fs}
	seen := map[string]bool{ordersKey(fs): true}
	for _, v := range [][]nostr.Filter{reorder(fs, reversed[string], reversed[int], true), reorder(fs, rotated[string], rotated[int], false)} {
		if k := ordersKey(v); !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
}

// reorder applies perm to every list of every filter (and, with
// backwards, reverses the filters).
func reorder(fs []nostr.Filter, perm func([]string) []string, permInt func([]int) []int, backwards bool) []nostr.Filter {
	out := make([]nostr.Filter, len(fs))
	for i, f := range fs {
		g := f
		g.IDs = perm(f.IDs)
		g.Authors = perm(f.Authors)
		g.Kinds = permInt(f.Kinds)
		if f.Tags != nil {
			g.Tags = nostr.TagMap{}
			for name, vals := range f.Tags {
				g.Tags[name] = perm(vals)
			}
		}
		out[i] = g
	}
	if backwards {
		slices.Reverse(out)
	}
	return out
}

func reversed[E any](s []E) []E {
	if s == nil {
		return nil
	}
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

func rotated[E any](s []E) []E {
	if len(s) < 2 {
		return slices.Clone(s)
	}
	return append([]E{s[len(s)-1]}, s[:len(s)-1]...)
}

// ordersKey identifies one order of filters: every list in its order,
// tag filters by name.
func ordersKey(fs []nostr.Filter) string {
	var key []any
	for _, f := range fs {
		names := slices.Sorted(maps.Keys(f.Tags))
		tags := make([][]string, 0, len(names))
		for _, n := range names {
			tags = append(tags, append([]string{n}, f.Tags[n]...))
		}
		key = append(key, []any{f.IDs, f.Authors, f.Kinds, tags})
	}
	b, _ := json.Marshal(key)
	return string(b)
}
