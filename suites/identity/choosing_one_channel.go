package identity

import (
	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"
	"strconv"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// choosingOneChannelSpecs are the cases of identity/choosing-one-channel.
func choosingOneChannelSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/choose/1", framework.MUST,
			"Two concurrent creates by one creator with the same label both succeed as distinct channels, and #P+#t finds both.",
			"identity/choosing-one-channel.1"),
			Run: func(t *framework.T) {
				creator := t.Actor("creator")
				label := freshLabel(t)
				ids := concurrentCreates(t, creator, 2, label)
				t.Expect(findChannels(t, t.Connect(creator), nostr.TagMap{"P": {creator.PubKey}, "t": {label}})).To(Equal(sortedCopy(ids...)))
			}},
		{Case: framework.NewCase("identity/choose/2", framework.MUST,
			"N concurrent creates by one creator with the same label all succeed as distinct channels, all found by #P+#t, each with a created_at tag.",
			"identity/choosing-one-channel.1", "identity/creation-time.1").
			WithHeavy(),
			Run: func(t *framework.T) {
				t.Checking("identity/choosing-one-channel.1")
				creator := t.Actor("creator")
				label := freshLabel(t)
				ids := concurrentCreates(t, creator, 8, label)
				got := t.Query(t.Connect(creator), nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"P": {creator.PubKey}, "t": {label}}})
				t.Expect(channelSet(got)).To(Equal(sortedCopy(ids...)))
				for _, ev := range got {
					_, ok := createdAtOf(ev)
					t.Expect(ok).To(BeTrue(), "39000 of %s needs a decimal created_at tag", framework.TagOf(ev, "d"))
				}
			}},
		{Case: framework.NewCase("identity/choose/6", framework.MUST,
			"Labels are not unique across keys: an owner and an admin may put on their channels a label another key's channel already carries; #t then finds all of them.",
			"identity/choosing-one-channel.2"),
			Run: func(t *framework.T) {
				first := t.Connect(t.Actor("first"))
				label := freshLabel(t)
				a := mkChannel(t, first, chanOpts{Visibility: fixtures.Open, Labels: []string{label}})
				owner, admin, b := framework.ChannelWithMember(t, fixtures.Open, "admin")
				t.Accept(owner, fixtures.EditChannel(owner.Actor(), b, tTags(label)...), "an owner takes a label another key uses")
				c := mkChannel(t, owner, chanOpts{Type: fixtures.TypeForum, Visibility: fixtures.Open})
				t.Accept(owner, fixtures.PutUser(owner.Actor(), c, admin.Actor().PubKey, t.PutRoles(owner, c, "admin")...), "add the admin")
				t.Accept(admin, fixtures.EditChannel(admin.Actor(), c, tTags(label)...), "an admin takes the same label")
				t.Expect(findChannels(t, first, nostr.TagMap{"t": {label}})).To(Equal(sortedCopy(a, b, c)))
			}},
	}
}

// createdAtOf returns the created_at tag of a 39000 as an integer (ok false
// when missing or not a decimal).
func createdAtOf(ev *nostr.Event) (int64, bool) {
	v, n := createdAtTag(ev)
	if n == 0 || !decimalSeconds.MatchString(v) {
		return 0, false
	}
	at, err := strconv.ParseInt(v, 10, 64)
	return at, err == nil
}

// oldest applies the draft's rule: lowest created_at tag, then lowest d;
// channels without the tag rank after those with it.
func oldestOf(evs []*nostr.Event) string {
	best := -1
	for i, ev := range evs {
		if best < 0 {
			best = i
			continue
		}
		a, aok := createdAtOf(ev)
		b, bok := createdAtOf(evs[best])
		da, db := framework.TagOf(ev, "d"), framework.TagOf(evs[best], "d")
		switch {
		case aok && !bok:
			best = i
		case aok == bok && aok && (a < b || (a == b && da < db)):
			best = i
		case !aok && !bok && da < db:
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return framework.TagOf(evs[best], "d")
}

// concurrentCreates creates n channels with one label at once, by one
// creator on n connections, and returns their UUIDs.
func concurrentCreates(t *framework.T, creator *fixtures.Actor, n int, label string) []string {
	conns := make([]*fixtures.Client, n)
	evs := make([]*nostr.Event, n)
	ids := make([]string, n)
	for i := range conns {
		conns[i] = t.Connect(creator)
		evs[i], ids[i] = createEvent(t, creator, chanOpts{Visibility: fixtures.Open, Labels: []string{label}})
	}
	t.Go(n, func(i int) { t.Accept(conns[i], evs[i], "concurrent create with the same label") })
	return ids
}
