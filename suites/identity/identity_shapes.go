package identity

import (
	"github.com/nbd-wtf/go-nostr"
	"github.com/nipcl/nipcl-conform/suites/framework"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// identityShapesSpecs: shapes the identity draft implies that no older
// case sent.
func identityShapesSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: idCase("identity/optin/7", []string{"identity/asking-for-system.2", "identity/asking-for-system.7"}, "identity/asking-for-system", framework.MUST,
			"#P:[creator] with #t:[label] on a 39000 filter opts in for every reader, but never past the channel ACL: each reader (a member of every channel, and a reader who is a member of the open ones only) gets exactly the creator's labeled channels it may read; the private system channel and the private stream reach the full member only."),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"P": {w.O.Actor().PubKey}, "t": {w.L}}}
				for _, r := range w.readers() {
					want := idSorted(append(w.legacyFor(r.c), w.systemFor(r.c)...)...)
					t.Expect(idChannelSet(t.Query(r.c, f))).To(Equal(want), "%s: #P:[creator] #t:[label]", r.name)
				}
			}},
		{Case: idCase("identity/labels/17", []string{"identity/label-rules.2", "identity/label-rules.5"}, "identity/label-rules", framework.MUST,
			`A one-element ["t"] on a 9007 is no label: alone, the 9007 is refused (no channel) or creates a channel without labels; beside ["t",label], it is refused as an invalid or empty label (no channel) or ignored (the channel has exactly that label). An empty label is never stored.`),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				for _, shape := range []struct {
					why    string
					labels []string
				}{{`9007 with ["t"] alone`, nil}, {`9007 with ["t"] and ["t",label]`, []string{idLabel(t)}}} {
					ev, ch := idCreateEvent(t, c.Actor(), idChanOpts{Visibility: fixtures.Open, Extra: append(nostr.Tags{{"t"}}, idTTags(shape.labels...)...)})
					ok := t.Publish(c, ev)
					if !ok.Accepted {
						framework.CheckPrefix("OK", ok.Reason)
						idRequireNoChannel(t, c, ch, "refused "+shape.why)
						t.Note("%s: refused (%s)", shape.why, ok.Reason)
						continue
					}
					requireIdentityAll(t, c, ch, fixtures.TypeStream, shape.labels, c.Actor().PubKey)
					t.Note("%s: accepted, the bare t tag ignored (labels %v)", shape.why, shape.labels)
				}
			}},
		{Case: idCase("identity/optin/8", []string{"identity/asking-for-system.4"}, "identity/asking-for-system", framework.MUST,
			"The #P opt-in with a limit still matches as usual, newest first: with a labeled stream and a newer labeled system channel of one creator, {\"kinds\":[39000],\"#P\":[creator],\"#t\":[label],\"limit\":1} returns the system channel, and limit 2 returns both."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := idLabel(t)
				stream := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: []string{x}})
				older := t.GroupMetadata(c, stream)
				sys := idChannel(t, c, idChanOpts{Type: fixtures.TypeSystem, Visibility: fixtures.Open, Labels: []string{x}})
				// The system channel's snapshot is made strictly the newest match.
				t.NewerMetadata(c, sys, older.CreatedAt)
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"P": {c.Actor().PubKey}, "t": {x}}, Limit: 1}
				if got := idChannelSet(t.Query(c, f)); len(got) != 1 || got[0] != sys {
					framework.Failf("#P:[creator] #t:[%s] limit 1 must return the newest match, the system channel %s (the stream %s is older), got %v", x, sys, stream, got)
				}
				f.Limit = 2
				t.Expect(idChannelSet(t.Query(c, f))).To(Equal(idSorted(stream, sys)), "#P:[creator] #t:[label] limit 2: the system channel and the stream")
			}},
	}
}
