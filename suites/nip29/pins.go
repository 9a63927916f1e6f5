package nip29

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// pinsSpecs are the cases of nip29/pins.
func pinsSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/pins/1", framework.MUST,
			"After the owner's accepted 9010 [e2, a, e1], the group's relay-signed 39005 lists those references in that order.",
			"nip29/pins.1").
			WithReading("Pinned events are optional: a relay that refuses the owner's 9010 (with the a tag and without it), or accepts it but publishes no 39005 for the group at all, is unsupported. An a tag may be refused for an address the relay does not hold; the case then pins e tags only, noted."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				group, _, _, pinned := pinnedGroup(t, owner)
				ev := awaitPins(t, owner, group, pinned, "NIP-29 (nip29/pins.1): the relay regenerates the 39005 to mirror an accepted 9010, in order; the 39005")
				t.RequireRelaySigned(ev)
			}},
		{Case: framework.NewCase("base/pins/2", framework.MUST,
			"A second 9010 that unpins one event and reorders the rest, then a third with no references, are each mirrored by the 39005.",
			"nip29/pins.2").
			WithReading("Level: \"Whenever one is accepted the relay regenerates this event to mirror it\" has no keyword. It is held at MUST as the definition of kind 39005, which exists only to mirror the last accepted 9010: pins are optional (a relay without a 39005 it signed is unsupported), but a relay that shows pins and keeps an old list after accepting a new 9010 publishes a 39005 that is not the NIP's. \"The relay may choose to limit the number of pins\" is respected: the case pins two events."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				group, e1, e2, pinned := pinnedGroup(t, owner)
				awaitPins(t, owner, group, pinned, "the 39005 after the first 9010")
				t.Accept(owner, pinList(owner.Actor(), group, nostr.Tag{"e", e1}, nostr.Tag{"e", e2}), "the 9010 reordering the pins (and unpinning the address, if pinned)")
				awaitPins(t, owner, group, []string{e1, e2}, "NIP-29 (nip29/pins.2): unpinning and reordering are done by submitting a new list; after the second 9010, the 39005")
				t.Accept(owner, pinList(owner.Actor(), group), "the 9010 with no references (clearing the pins)")
				awaitPins(t, owner, group, []string{}, "NIP-29 (nip29/pins.2): clearing is done by submitting an empty list; after the empty 9010, the 39005")
			}},
		{Case: framework.NewCase("base/pins/3", framework.SHOULD,
			"A 9010 from a member without a privileged role is refused and the 39005 keeps the owner's list.",
			"nip29/pins.3"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				group, e1, _, pinned := pinnedGroup(t, owner)
				awaitPins(t, owner, group, pinned, "the 39005 after the owner's 9010")
				member := t.Connect(t.ActorAs(framework.KindUnprivileged, "member"))
				t.Accept(owner, fixtures.PutUser(owner.Actor(), group, member.Actor().PubKey, t.PutRoles(owner, group, "member")...), "put user as member")
				t.Reject(member, pinList(member.Actor(), group, nostr.Tag{"e", e1}), "", "NIP-29 (nip29/pins.3): moderation events should be rejected unless they come from an authorized admin; a plain member's 9010")
				awaitPins(t, owner, group, pinned, "NIP-29 (nip29/pins.3): after the member's refused 9010, the 39005")
			}},
	}
}

// NIP-29 pinned events.
const (
	kindUpdatePins = 9010
	kindGroupPins  = 39005
)

// pinList builds a signed 9010 update-pin-list with the given references.
func pinList(a *fixtures.Actor, group string, refs ...nostr.Tag) *nostr.Event {
	return a.Event(kindUpdatePins, append(nostr.Tags{{"h", group}}, refs...), "")
}

// pinRefs are the e and a values of a 39005, in order.
func pinRefs(ev *nostr.Event) []string {
	out := []string{}
	if ev == nil {
		return out
	}
	for _, tag := range ev.Tags {
		if len(tag) >= 2 && (tag[0] == "e" || tag[0] == "a") {
			out = append(out, tag[1])
		}
	}
	return out
}

// awaitPins waits until the group's 39005 lists exactly want, in order,
// and returns it.
func awaitPins(t *framework.T, c *fixtures.Client, group string, want []string, what string) *nostr.Event {
	GinkgoHelper()
	var ev *nostr.Event
	t.Eventually(func(g Gomega) {
		ev = t.StateEvent(c, kindGroupPins, group)
		g.Expect(ev).NotTo(BeNil(), "%s: no 39005", what)
		got := pinRefs(ev)
		g.Expect(slices.Equal(got, want)).To(BeTrue(), "%s: references %q, want %q", what, got, want)
	}, what)
	return ev
}

// pinnedGroup creates a group with two messages of its owner and pins
// [e2, a, e1] (e1 < e2) with the owner's 9010. A relay that refuses that 9010 and
// one without the a tag does not support pins (unsupported). It returns
// the references the accepted 9010 carried.
func pinnedGroup(t *framework.T, owner *fixtures.Client) (group string, e1, e2 string, pinned []string) {
	GinkgoHelper()
	group = t.CreateChannel(owner, fixtures.ChannelSpec{})
	m1 := fixtures.Message(owner.Actor(), group, "pin me first")
	m2 := fixtures.Message(owner.Actor(), group, "pin me second")
	t.Accept(owner, m1, "the owner's first message")
	t.Accept(owner, m2, "the owner's second message")
	// e1 is the smaller id: [e2, a, e1] is never in sorted order, so a
	// relay that sorts the list cannot pass by chance.
	e1, e2 = m1.ID, m2.ID
	if e1 > e2 {
		e1, e2 = e2, e1
	}
	addr := "30023:" + owner.Actor().PubKey + ":" + t.Unique("article")
	refs := []nostr.Tag{{"e", e2}, {"a", addr}, {"e", e1}}
	ok := t.Publish(owner, pinList(owner.Actor(), group, refs...))
	if !ok.Accepted {
		framework.CheckPrefix("OK", ok.Reason)
		t.Note("the 9010 with an a tag for an address the relay does not hold was refused: %s", ok)
		refs = []nostr.Tag{{"e", e2}, {"e", e1}}
		if ok = t.Publish(owner, pinList(owner.Actor(), group, refs...)); !ok.Accepted {
			framework.CheckPrefix("OK", ok.Reason)
			t.Unsupported("the relay refused the group owner's 9010 update-pin-list (" + ok.String() + "); pinned events (39005) are optional")
		}
	}
	for _, r := range refs {
		pinned = append(pinned, r[1])
	}
	// Support is observed: a relay that never publishes a 39005 may have
	// stored the 9010 as an ordinary group event ("Groups may accept any
	// event kind").
	f := nostr.Filter{Kinds: []int{kindGroupPins}, Tags: nostr.TagMap{"d": {group}}}
	published := t.Within(func(g Gomega) {
		r, err := owner.Query(t.Ctx(), f)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(r.Events).NotTo(BeEmpty())
	})
	if !published {
		t.Unsupported("the relay accepted the group owner's 9010 but published no 39005 for the group (" + t.LastSettle() + "); it may store 9010 as an ordinary group event (pinned events, 39005, are optional)")
	}
	return group, e1, e2, pinned
}
