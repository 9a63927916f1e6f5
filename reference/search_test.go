package reference

import (
	"slices"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func TestSearchTerms(t *testing.T) {
	for _, tc := range []struct {
		search string
		want   []string
	}{
		{"Orange", []string{"orange"}},
		{"  best  Nostr apps ", []string{"best", "nostr", "apps"}},
		{"purple include:spam language:en", []string{"purple"}},
		{"domain:example.com", nil},
		{"https://example.com a:b:c", []string{"https://example.com"}},
		{":x y: 1a:b", []string{":x", "y:", "1a:b"}},
		{"ÄÖ", []string{"ÄÖ"}}, // ASCII folding only, as SQLite's lower()
	} {
		if got := searchTerms(tc.search); !slices.Equal(got, tc.want) {
			t.Errorf("searchTerms(%q) = %q, want %q", tc.search, got, tc.want)
		}
	}
}

// TestSearch checks NIP-50 search over the wire in every profile: content
// terms match case-insensitively, extensions are ignored, the read-access
// rule and the limit apply, and COUNT and live delivery agree with REQ.
func TestSearch(t *testing.T) {
	for _, profile := range nip29Profiles {
		t.Run(profile, func(t *testing.T) {
			_, url := startRelay(t, Config{Profile: profile})
			owner, outsider := newActor(t), newActor(t)
			co, cx := dial(t, url), dial(t, url)
			co.auth(owner)
			cx.auth(outsider)
			open := group(t, co, owner, nostr.Tag{"name", "open"})
			priv := group(t, co, owner, nostr.Tag{"name", "private"}, nostr.Tag{"private"})
			word := "zebra" + newChannelID()[:8]
			a := owner.msg(t, open, "an "+word+" in the open group", -2)
			b := owner.msg(t, open, "ANOTHER "+word+" WORD", -1)
			c := owner.msg(t, priv, "a private "+word, 0)
			other := owner.msg(t, open, "nothing to see", 0)
			for _, ev := range []*nostr.Event{a, b, c, other} {
				co.mustPublish(ev)
			}
			ids := func(evs []nostr.Event) []string {
				out := []string{}
				for _, ev := range evs {
					out = append(out, ev.ID)
				}
				slices.Sort(out)
				return out
			}
			sorted := func(s ...string) []string { slices.Sort(s); return s }
			f := nostr.Filter{Kinds: []int{kindChatMessage}, Search: "Zebra" + word[5:] + " include:spam"}
			if got, want := ids(co.query(f)), sorted(a.ID, b.ID, c.ID); !slices.Equal(got, want) {
				t.Errorf("owner search = %v, want %v", got, want)
			}
			if got, want := ids(cx.query(f)), sorted(a.ID, b.ID); !slices.Equal(got, want) {
				t.Errorf("outsider search = %v, want the open group's %v", got, want)
			}
			if n := cx.count(f); n != 2 {
				t.Errorf("outsider COUNT search = %d, want 2", n)
			}
			two := nostr.Filter{Kinds: []int{kindChatMessage}, Search: word + " word"}
			if got := ids(co.query(two)); !slices.Equal(got, []string{b.ID}) {
				t.Errorf("two-term search = %v, want [%s]", got, b.ID)
			}
			limited := f
			limited.Limit = 1
			if got := ids(cx.query(limited)); !slices.Equal(got, []string{b.ID}) {
				t.Errorf("outsider search limit 1 = %v, want the newest readable match %s", got, b.ID)
			}
			// Live: only matching, readable events arrive.
			cx.req("live", nostr.Filter{Kinds: []int{kindChatMessage}, Search: word, Since: ptr(nostr.Now())})
			co.mustPublish(owner.msg(t, priv, "private "+word, 0))
			co.mustPublish(owner.msg(t, open, "no match here", 0))
			last := owner.msg(t, open, "last "+word, 0)
			co.mustPublish(last)
			got, err := cx.live("live", func(*nostr.Event) bool { return true })
			if err != nil || got.ID != last.ID {
				t.Errorf("first live search event = %v (%v), want the last open match %s", got, err, last.ID)
			}
		})
	}
}
