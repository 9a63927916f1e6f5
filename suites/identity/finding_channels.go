package identity

import (
	"fmt"
	"sync"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// findingChannelsSpecs are the cases of identity/finding-channels.
func findingChannelsSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/find/1", framework.MUST,
			"kinds:[39000] #P:[creator] returns exactly the channels that key created (every type), none of another creator's.",
			"identity/finding-channels.1").
			WithFreshKeys(),
			Run: func(t *framework.T) {
				a, b := t.Connect(t.Actor("creator")), t.Connect(t.Actor("other"))
				label := freshLabel(t)
				var want []string
				for _, typ := range []string{fixtures.TypeStream, fixtures.TypeForum, fixtures.TypeDM, fixtures.TypeWorkflow} {
					want = append(want, mkChannel(t, a, chanOpts{Type: typ, Visibility: fixtures.Open, Labels: []string{label}}))
				}
				mkChannel(t, b, chanOpts{Visibility: fixtures.Open, Labels: []string{label}})
				t.Expect(findChannels(t, b, nostr.TagMap{"P": {a.Actor().PubKey}})).To(Equal(sortedCopy(want...)))
			}},
		{Case: framework.NewCase("identity/find/2", framework.MUST,
			"kinds:[39000] #t:[label] returns exactly the channels with that label, whoever created them and whatever their type.",
			"identity/finding-channels.2", "identity/choosing-one-channel.2"),
			Run: func(t *framework.T) {
				t.Checking("identity/finding-channels.2")
				a, b := t.Connect(t.Actor("creator")), t.Connect(t.Actor("other"))
				label, otherLabel := freshLabel(t), freshLabel(t)
				want := []string{
					mkChannel(t, a, chanOpts{Visibility: fixtures.Open, Labels: []string{label}}),
					mkChannel(t, a, chanOpts{Type: fixtures.TypeForum, Visibility: fixtures.Open, Labels: []string{otherLabel, label}}),
					mkChannel(t, b, chanOpts{Type: fixtures.TypeWorkflow, Visibility: fixtures.Open, Labels: []string{label}}),
				}
				mkChannel(t, a, chanOpts{Visibility: fixtures.Open, Labels: []string{otherLabel}})
				mkChannel(t, b, chanOpts{Visibility: fixtures.Open})
				t.Expect(findChannels(t, b, nostr.TagMap{"t": {label}})).To(Equal(sortedCopy(want...)))
			}},
		{Case: framework.NewCase("identity/find/3", framework.MUST,
			"#P and #t together are AND: one creator's channels with the label, not the creator's other channels nor others' channels with the label.",
			"identity/finding-channels.3"),
			Run: func(t *framework.T) {
				a, b := t.Connect(t.Actor("creator")), t.Connect(t.Actor("other"))
				label := freshLabel(t)
				want := []string{
					mkChannel(t, a, chanOpts{Visibility: fixtures.Open, Labels: []string{label}}),
					mkChannel(t, a, chanOpts{Type: fixtures.TypeForum, Visibility: fixtures.Open, Labels: []string{freshLabel(t), label}}),
				}
				mkChannel(t, a, chanOpts{Visibility: fixtures.Open, Labels: []string{freshLabel(t)}})
				mkChannel(t, b, chanOpts{Visibility: fixtures.Open, Labels: []string{label}})
				t.Expect(findChannels(t, b, nostr.TagMap{"P": {a.Actor().PubKey}, "t": {label}})).To(Equal(sortedCopy(want...)))
			}},
		{Case: framework.NewCase("identity/find/4", framework.MUST,
			"#t:[type] matches the channel type: with #P it returns exactly that creator's channels of the type.",
			"identity/finding-channels.4").
			WithFreshKeys(),
			Run: func(t *framework.T) {
				a := t.Connect(t.Actor("creator"))
				forums := []string{
					mkChannel(t, a, chanOpts{Type: fixtures.TypeForum, Visibility: fixtures.Open}),
					mkChannel(t, a, chanOpts{Type: fixtures.TypeForum, Visibility: fixtures.Open, Labels: freshLabels(t, 1)}),
				}
				stream := mkChannel(t, a, chanOpts{Visibility: fixtures.Open})
				workflow := mkChannel(t, a, chanOpts{Type: fixtures.TypeWorkflow, Visibility: fixtures.Open})
				pk := a.Actor().PubKey
				t.Expect(findChannels(t, a, nostr.TagMap{"P": {pk}, "t": {fixtures.TypeForum}})).To(Equal(sortedCopy(forums...)), "#t:[forum]")
				t.Expect(findChannels(t, a, nostr.TagMap{"P": {pk}, "t": {fixtures.TypeStream}})).To(Equal([]string{stream}), "#t:[stream]")
				t.Expect(findChannels(t, a, nostr.TagMap{"P": {pk}, "t": {fixtures.TypeWorkflow, fixtures.TypeForum}})).To(Equal(sortedCopy(append(forums, workflow)...)), "#t:[workflow, forum]")
			}},
		{Case: framework.NewCase("identity/find/5", framework.MUST,
			"Values in one tag filter are OR: #t:[l1, l2] returns channels with either label (and both), not channels with neither.",
			"identity/finding-channels.5"),
			Run: func(t *framework.T) {
				a := t.Connect(t.Actor("creator"))
				l1, l2 := freshLabel(t), freshLabel(t)
				want := []string{
					mkChannel(t, a, chanOpts{Visibility: fixtures.Open, Labels: []string{l1}}),
					mkChannel(t, a, chanOpts{Visibility: fixtures.Open, Labels: []string{l2}}),
					mkChannel(t, a, chanOpts{Visibility: fixtures.Open, Labels: []string{l2, l1}}),
				}
				mkChannel(t, a, chanOpts{Visibility: fixtures.Open, Labels: []string{freshLabel(t)}})
				t.Expect(findChannels(t, a, nostr.TagMap{"t": {l1, l2}})).To(Equal(sortedCopy(want...)), "#t:[l1, l2]")
				t.Expect(findChannels(t, a, nostr.TagMap{"t": {l2, l1}})).To(Equal(sortedCopy(want...)), "#t:[l2, l1]")
			}},
		{Case: framework.NewCase("identity/find/6", framework.MUST,
			"Lookups follow label changes: after a 9002 replaces the labels, #t:[old] no longer returns the channel and #t:[new] does.",
			"identity/finding-channels.2", "identity/labels.3"),
			Run: func(t *framework.T) {
				t.Checking("identity/finding-channels.2")
				a := t.Connect(t.Actor("creator"))
				old, next := freshLabel(t), freshLabel(t)
				ch := mkChannel(t, a, chanOpts{Visibility: fixtures.Open, Labels: []string{old}})
				t.Expect(findChannels(t, a, nostr.TagMap{"t": {old}})).To(Equal([]string{ch}), "before the edit")
				t.Accept(a, fixtures.EditChannel(a.Actor(), ch, tTags(next)...), "replace the label")
				t.Expect(findChannels(t, a, nostr.TagMap{"t": {old}})).To(BeEmpty(), "#t:[old] after the edit")
				t.Expect(findChannels(t, a, nostr.TagMap{"t": {next}})).To(Equal([]string{ch}), "#t:[new] after the edit")
			}},
		{Case: framework.NewCase("identity/find/7", framework.MUST,
			"#P and #t also match 39001 and 39002, which carry the identity tags.",
			"identity/finding-channels.3"),
			Run: func(t *framework.T) {
				a := t.Connect(t.Actor("creator"))
				label := freshLabel(t)
				ch := mkChannel(t, a, chanOpts{Visibility: fixtures.Open, Labels: []string{label}})
				published := t.RequireStateKinds(fixtures.KindAdmins, fixtures.KindMembers)
				got := t.Query(a, nostr.Filter{Kinds: []int{fixtures.KindAdmins, fixtures.KindMembers}, Tags: nostr.TagMap{"P": {a.Actor().PubKey}, "t": {label}}})
				kinds := []int{}
				for _, ev := range got {
					t.Expect(framework.TagOf(ev, "d")).To(Equal(ch))
					kinds = append(kinds, ev.Kind)
				}
				t.Expect(kinds).To(ConsistOf(published), "the kinds among 39001 and 39002 this relay publishes")
			}},
	}
}

// findChannels runs a 39000 query and returns the distinct channel IDs.
func findChannels(t *framework.T, c *fixtures.Client, tags nostr.TagMap) []string {
	return channelSet(t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: tags}))
}

// distractorChannel describes the non-matching channels of a limit case.
type distractorChannel struct {
	actor  *fixtures.Actor
	labels []string
}

// createDistractors creates n channels concurrently on a few connections;
// spec(i) says who creates channel i and with which labels. It returns the
// UUIDs in creation order per connection, and the last few of each
// connection (created after everything before them on that connection).
func createDistractors(t *framework.T, n int, spec func(i int) distractorChannel) []string {
	const workers = 4
	ids := make([]string, n)
	var mu sync.Mutex
	conns := map[string]*fixtures.Client{}
	connFor := func(w int, a *fixtures.Actor) *fixtures.Client {
		key := fmt.Sprintf("%d/%s", w, a.PubKey)
		mu.Lock()
		c := conns[key]
		mu.Unlock()
		if c == nil {
			c = t.Connect(a)
			mu.Lock()
			conns[key] = c
			mu.Unlock()
		}
		return c
	}
	t.Go(workers, func(w int) {
		for i := w; i < n; i += workers {
			s := spec(i)
			c := connFor(w, s.actor)
			ev, id := createEvent(t, s.actor, chanOpts{Visibility: fixtures.Open, Labels: s.labels})
			t.Accept(c, ev, "distractor channel")
			ids[i] = id
		}
	})
	return ids
}

// limitCase creates matching channels, then t.Env.Scale newer
// non-matching ones, and checks that a query with limit = number of matches
// returns exactly the matches, newest first.
func limitCase(t *framework.T, tags func(creator *fixtures.Actor, label string) nostr.TagMap, distractor func(i int, creator, other *fixtures.Actor, label string) distractorChannel) {
	creator, other := t.Actor("creator"), t.Actor("other")
	c := t.Connect(creator)
	label := freshLabel(t)
	var matches []string
	for _, typ := range []string{fixtures.TypeStream, fixtures.TypeForum, fixtures.TypeWorkflow} {
		matches = append(matches, mkChannel(t, c, chanOpts{Type: typ, Visibility: fixtures.Open, Labels: []string{label}}))
	}
	var newestMatch nostr.Timestamp
	for _, ev := range t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": matches}}) {
		if ev.CreatedAt > newestMatch {
			newestMatch = ev.CreatedAt
		}
	}
	ds := createDistractors(t, max(t.Env.Scale, len(matches)+2), func(i int) distractorChannel { return distractor(i, creator, other, label) })
	// Replacement state events are strictly newer than the ones they replace,
	// so editing the last distractors makes at least len(matches) of them
	// strictly newer than every match (no second-resolution tie can hide a
	// relay that applies limit first).
	last := ds[len(ds)-min(len(ds), len(matches)+2):]
	t.Go(len(last), func(i int) {
		s := distractor(len(ds)-len(last)+i, creator, other, label)
		dc := t.Connect(s.actor)
		t.Accept(dc, fixtures.EditChannel(s.actor, last[i], nostr.Tag{"name", t.Unique("newer")}), "rename a distractor")
	})
	newer := 0
	for _, ev := range t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": last}}) {
		if ev.CreatedAt > newestMatch {
			newer++
		}
	}
	t.Expect(newer).To(BeNumerically(">=", len(matches)), "setup: %d distractors must be strictly newer than the matches", len(matches))

	got := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: tags(creator, label), Limit: len(matches)})
	t.Expect(channelSet(got)).To(Equal(sortedCopy(matches...)), "limit %d behind %d newer non-matching channels returns every match", len(matches), len(ds))
	for i := 1; i < len(got); i++ {
		t.Expect(got[i].CreatedAt).To(BeNumerically("<=", got[i-1].CreatedAt), "results newest first")
	}
}
