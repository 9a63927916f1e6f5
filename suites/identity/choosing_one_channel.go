package identity

import (
	"slices"
	"strconv"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

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
				label := idLabel(t)
				ids := idConcurrentCreates(t, creator, 2, label)
				t.Expect(idFind(t, t.Connect(creator), nostr.TagMap{"P": {creator.PubKey}, "t": {label}})).To(Equal(idSorted(ids...)))
			}},
		{Case: framework.NewCase("identity/choose/2", framework.MUST,
			"N concurrent creates by one creator with the same label all succeed as distinct channels, all found by #P+#t, each with a created_at tag.",
			"identity/choosing-one-channel.1", "identity/creation-time.1").
			WithHeavy(),
			Run: func(t *framework.T) {
				creator := t.Actor("creator")
				label := idLabel(t)
				ids := idConcurrentCreates(t, creator, 8, label)
				got := t.Query(t.Connect(creator), nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"P": {creator.PubKey}, "t": {label}}})
				t.Expect(idChannelSet(got)).To(Equal(idSorted(ids...)))
				for _, ev := range got {
					_, ok := idCreatedAtOf(ev)
					t.Expect(ok).To(BeTrue(), "39000 of %s needs a decimal created_at tag", framework.TagOf(ev, "d"))
				}
			}},
		{Case: framework.NewCase("identity/choose/3", framework.MUST,
			"created_at tags follow creation order: of channels created one after the other, a later one never has a lower created_at tag.",
			"identity/creation-time.1").
			WithReading("Tags have second resolution: equal values are allowed (the d tag then breaks the tie) and noted."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				label := idLabel(t)
				var ids []string
				for i := 0; i < 4; i++ {
					ids = append(ids, idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: []string{label}}))
				}
				byID := map[string]*nostr.Event{}
				for _, ev := range t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": ids}}) {
					byID[framework.TagOf(ev, "d")] = ev
				}
				var prev int64
				ties := 0
				for i, id := range ids {
					t.Expect(byID).To(HaveKey(id))
					at, ok := idCreatedAtOf(byID[id])
					t.Expect(ok).To(BeTrue(), "39000 of %s needs a decimal created_at tag", id)
					if i > 0 {
						t.Expect(at).To(BeNumerically(">=", prev), "channel %d was created after channel %d", i, i-1)
						if at == prev {
							ties++
						}
					}
					prev = at
				}
				if ties > 0 {
					t.Note("%d of 3 consecutive creates share a created_at second (the d tag breaks ties)", ties)
				}
			}},
		{Case: framework.NewCase("identity/choose/4", framework.MUST,
			"The oldest rule (lowest created_at tag, then lowest d) picks the same channel before and after both channels are edited.",
			"identity/creation-time.2").
			WithReading("The oldest channel is edited last, with the latest created_at, so a relay whose tag follows edits flips the choice."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				label := idLabel(t)
				a := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: []string{label}})
				b := idChannel(t, c, idChanOpts{Type: fixtures.TypeForum, Visibility: fixtures.Open, Labels: []string{label}})
				f := nostr.TagMap{"P": {c.Actor().PubKey}, "t": {label}}
				before := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: f})
				t.Expect(idChannelSet(before)).To(Equal(idSorted(a, b)))
				first := idOldest(before)
				other := a
				if first == a {
					other = b
				}
				now := time.Now()
				t.Accept(c, idEditAt(c.Actor(), other, now.Add(30*time.Second), nostr.Tag{"name", t.Unique("edited")}), "edit the younger channel")
				t.Accept(c, idEditAt(c.Actor(), first, now.Add(60*time.Second), nostr.Tag{"name", t.Unique("edited")}, nostr.Tag{"t", label}), "edit the older channel")
				after := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: f})
				t.Expect(idChannelSet(after)).To(Equal(idSorted(a, b)))
				t.Expect(idOldest(after)).To(Equal(first), "the oldest channel after both were edited")
			}},
		{Case: framework.NewCase("identity/choose/5", framework.MUST,
			"Concurrent replace-all label edits by an owner and an admin end in exactly one of the submitted label sets (never a mix), the same on 39000, 39001 and 39002.",
			"identity/labels.3", "identity/labels.6").
			WithReading("Repeated Env.Rounds times (max 10); both edits must be accepted.").
			WithHeavy(),
			Run: func(t *framework.T) {
				owner, admin, ch := framework.ChannelWithMember(t, fixtures.Open, "admin")
				rounds := min(t.Env.Rounds, 10)
				for r := 0; r < rounds; r++ {
					sets := [][]string{idLabels(t, 3), idLabels(t, 3)}
					conns := []*fixtures.Client{owner, admin}
					t.Go(2, func(i int) {
						t.Accept(conns[i], fixtures.EditChannel(conns[i].Actor(), ch, idTTags(sets[i]...)...), "concurrent label replace")
					})
					st := idStateOf(t, owner, ch)
					got := idLabelsOf(st[fixtures.KindMetadata])
					t.Expect(slices.ContainsFunc(sets, func(s []string) bool { return slices.Equal(idSorted(s...), idSorted(got...)) })).
						To(BeTrue(), "round %d: labels %v must be exactly one of %v", r, got, sets)
					for _, k := range []int{fixtures.KindAdmins, fixtures.KindMembers} {
						if st[k] == nil {
							continue // not published (optional in NIP-29)
						}
						t.Expect(idLabelsOf(st[k])).To(Equal(got), "round %d: kind %d labels", r, k)
					}
				}
			}},
		{Case: framework.NewCase("identity/choose/6", framework.MUST,
			"Labels are not unique across keys: an owner and an admin may put on their channels a label another key's channel already carries; #t then finds all of them.",
			"identity/choosing-one-channel.2"),
			Run: func(t *framework.T) {
				first := t.Connect(t.Actor("first"))
				label := idLabel(t)
				a := idChannel(t, first, idChanOpts{Visibility: fixtures.Open, Labels: []string{label}})
				owner, admin, b := framework.ChannelWithMember(t, fixtures.Open, "admin")
				t.Accept(owner, fixtures.EditChannel(owner.Actor(), b, idTTags(label)...), "an owner takes a label another key uses")
				c := idChannel(t, owner, idChanOpts{Type: fixtures.TypeForum, Visibility: fixtures.Open})
				t.Accept(owner, fixtures.PutUser(owner.Actor(), c, admin.Actor().PubKey, "admin"), "add the admin")
				t.Accept(admin, fixtures.EditChannel(admin.Actor(), c, idTTags(label)...), "an admin takes the same label")
				t.Expect(idFind(t, first, nostr.TagMap{"t": {label}})).To(Equal(idSorted(a, b, c)))
			}},
	}
}

// createdAtOf returns the created_at tag of a 39000 as an integer (ok false
// when missing or not a decimal).
func idCreatedAtOf(ev *nostr.Event) (int64, bool) {
	v, n := idCreatedAtTag(ev)
	if n == 0 || !idDecimalSeconds.MatchString(v) {
		return 0, false
	}
	at, err := strconv.ParseInt(v, 10, 64)
	return at, err == nil
}

// oldest applies the draft's rule: lowest created_at tag, then lowest d;
// channels without the tag rank after those with it.
func idOldest(evs []*nostr.Event) string {
	best := -1
	for i, ev := range evs {
		if best < 0 {
			best = i
			continue
		}
		a, aok := idCreatedAtOf(ev)
		b, bok := idCreatedAtOf(evs[best])
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
func idConcurrentCreates(t *framework.T, creator *fixtures.Actor, n int, label string) []string {
	conns := make([]*fixtures.Client, n)
	evs := make([]*nostr.Event, n)
	ids := make([]string, n)
	for i := range conns {
		conns[i] = t.Connect(creator)
		evs[i], ids[i] = idCreateEvent(t, creator, idChanOpts{Visibility: fixtures.Open, Labels: []string{label}})
	}
	t.Go(n, func(i int) { t.Accept(conns[i], evs[i], "concurrent create with the same label") })
	return ids
}
