package nip29

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// preLiveMarker: the subscriptions cases judge what a relay sends under
// one id by what it sends under another, open beside it; a relay that
// delivers nothing live leaves them nothing to compare (base/live/1 judges
// live delivery itself).
var preLiveMarker = framework.Precondition{ID: "live-delivery", Need: "the relay delivers a new message to an open subscription of its group (the marker the case compares with)", Adapt: "deliver newly stored events to open subscriptions (NIP-01 SHOULD)"}

// groupMessages is the filter of a group's messages.
func groupMessages(ch string) nostr.Filter {
	return nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}}
}

// openSub subscribes under id (a run-unique one when id is "", so that no
// other connection's subscription shares it), blocked when the relay
// refuses the read of a group the reader created.
func openSub(t *framework.T, c *fixtures.Client, id string, f nostr.Filter) *fixtures.Subscription {
	if id == "" {
		id = subID(t, "mark")
	}
	s, err := c.SubscribeID(t.Ctx(), id, f)
	t.Must(err, "REQ "+framework.FilterString([]nostr.Filter{f}))
	if closed, reason := s.ClosedReason(); closed {
		t.Blocked(framework.PreReadServed, fmt.Sprintf("REQ %s of the reader's own open group answered CLOSED %q", framework.FilterString([]nostr.Filter{f}), reason))
	}
	return s
}

// subID is a run-unique subscription id (NIP-01: at most 64 characters).
func subID(t *framework.T, prefix string) string {
	id := t.Unique(prefix)
	if len(id) > 64 {
		id = id[len(id)-64:]
	}
	return id
}

// markerSaw waits until marker receives ev live, then for one REQ round
// trip on c (everything the relay sent before it has arrived), and
// returns every live event subs received meanwhile, per subscription.
func markerSaw(t *framework.T, c *fixtures.Client, marker *fixtures.Subscription, ev *nostr.Event, subs ...*fixtures.Subscription) [][]string {
	if _, err := marker.WaitFor(t.Ctx(), func(e *nostr.Event) bool { return e.ID == ev.ID }); err != nil {
		t.Blocked(preLiveMarker, err.Error())
	}
	t.Must(c.Ping(t.Ctx()), "REQ round trip after the marker's event")
	out := make([][]string, len(subs))
	for i, s := range subs {
		out[i] = framework.IDs(s.Drain())
	}
	return out
}

// nip01SubscriptionsSpecs are the cases of nip01/subscriptions.
func nip01SubscriptionsSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/subscriptions/1", framework.SHOULD,
			"A REQ under the id of an open subscription replaces it: a new message of the old filter's group no longer comes under that id; one of the new filter's group does.",
			"nip01/subscriptions.1"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a := t.CreateChannel(c, fixtures.ChannelSpec{})
				b := t.CreateChannel(c, fixtures.ChannelSpec{})
				r := t.Connect(t.Actor("owner"))
				replace := subID(t, "replace")
				openSub(t, r, replace, groupMessages(a))
				s := openSub(t, r, replace, groupMessages(b))
				ma := fixtures.Message(c.Actor(), a, "old filter")
				t.Accept(c, ma, "message in the old filter's group")
				mb := fixtures.Message(c.Actor(), b, "new filter")
				t.Accept(c, mb, "message in the new filter's group")
				seen, err := s.WaitFor(t.Ctx(), func(e *nostr.Event) bool { return e.ID == mb.ID })
				if err != nil {
					t.Violates("nip01/subscriptions.1", "NIP-01 (nip01/subscriptions.1): after a second REQ under id %q for group %s, its new message %s never came under that id (%v)", s.ID, b, mb.ID, err)
				}
				t.Must(r.Ping(t.Ctx()), "REQ round trip")
				got := append(framework.IDs(seen), framework.IDs(s.Drain())...)
				if slices.Contains(got, ma.ID) {
					t.Violates("nip01/subscriptions.1", "NIP-01 (nip01/subscriptions.1): a REQ under id %q replaced the subscription of group %s by one of group %s, yet the old group's new message %s still came under that id", s.ID, a, b, ma.ID)
				}
			}},
		{Case: framework.NewCase("base/subscriptions/2", framework.SHOULD,
			"After CLOSE, a subscription receives no more events: a new message of its group comes to a subscription opened beside it, not under the closed id.",
			"nip01/subscriptions.2"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a := t.CreateChannel(c, fixtures.ChannelSpec{})
				r := t.Connect(t.Actor("owner"))
				closing := openSub(t, r, subID(t, "closing"), groupMessages(a))
				t.Must(closing.SendClose(t.Ctx()), "CLOSE")
				// The marker opens after the CLOSE. A relay that reads one
				// connection's messages in order has applied the CLOSE
				// when it answers the marker's REQ; NIP-01 orders none of
				// them, and a relay that handles each message on its own
				// (khatru) may apply the CLOSE later.
				marker := openSub(t, r, "", groupMessages(a))
				m := fixtures.Message(c.Actor(), a, "after close")
				t.Accept(c, m, "message after the CLOSE")
				got := markerSaw(t, r, marker, m, closing)
				if !slices.Contains(got[0], m.ID) {
					return
				}
				// The first message came under the closed id: the relay
				// may apply the CLOSE later than it answered the messages
				// after it (khatru, under load, by tens of milliseconds).
				// Fresh messages, each published once the one before
				// reached the marker, must stop coming under the id within
				// the settle window.
				late, last := []string{m.ID}, ""
				stopped := t.Within(func(g Gomega) {
					mi := fixtures.Message(c.Actor(), a, "after close, again")
					t.Accept(c, mi, "another message after the CLOSE")
					got := markerSaw(t, r, marker, mi, closing)
					last = mi.ID
					if slices.Contains(got[0], mi.ID) {
						late = append(late, mi.ID)
					}
					g.Expect(got[0]).NotTo(ContainElement(mi.ID))
				})
				if !stopped {
					t.Violates("nip01/subscriptions.2", "NIP-01 (nip01/subscriptions.2): subscription %q was closed (CLOSE) before messages %s, which all still came under its id, each published once the one before had reached another subscription (%s)", closing.ID, strings.Join(late, ", "), t.LastSettle())
				}
				t.Note("%d message(s) still came under the closed id %q, the next one %s did not: the relay applied the CLOSE after it answered the REQ sent after it (it handles a connection's messages concurrently; NIP-01 orders none)", len(late), closing.ID, last)
			}},
		{Case: framework.NewCase("base/subscriptions/3", framework.MUST,
			"Subscription ids belong to their connection: two connections open the same id on a group, and a new message of the group comes to both.",
			"nip01/subscriptions.3"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a := t.CreateChannel(c, fixtures.ChannelSpec{})
				r1, r2 := t.Connect(t.Actor("owner")), t.Connect(t.Actor("owner"))
				id := subID(t, "shared")
				s1 := openSub(t, r1, id, groupMessages(a))
				s2 := openSub(t, r2, id, groupMessages(a))
				marker1 := openSub(t, r1, "", groupMessages(a))
				marker2 := openSub(t, r2, "", groupMessages(a))
				m := fixtures.Message(c.Actor(), a, "to both")
				t.Accept(c, m, "message for both connections")
				for i, side := range []struct {
					c       *fixtures.Client
					s, mark *fixtures.Subscription
				}{{r1, s1, marker1}, {r2, s2, marker2}} {
					if got := markerSaw(t, side.c, side.mark, m, side.s); !slices.Contains(got[0], m.ID) {
						t.Violates("nip01/subscriptions.3", "NIP-01 (nip01/subscriptions.3): connection %d's subscription %q got no message %s, which its other subscription of the same filter got: the same id opened on the other connection took it over", i+1, id, m.ID)
					}
				}
			}},
		{Case: framework.NewCase("base/subscriptions/4", framework.MUST,
			"EOSE ends the stored events: a REQ by ids for a stored message gets the message before its EOSE, not after it.",
			"nip01/subscriptions.4"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a := t.CreateChannel(c, fixtures.ChannelSpec{})
				m := fixtures.Message(c.Actor(), a, "stored")
				t.Accept(c, m, "message")
				r := t.Connect(t.Actor("owner"))
				s := openSub(t, r, "", nostr.Filter{IDs: []string{m.ID}})
				if slices.Contains(framework.IDs(s.Stored()), m.ID) {
					return
				}
				t.Must(r.Ping(t.Ctx()), "REQ round trip after the EOSE")
				if slices.Contains(framework.IDs(s.Drain()), m.ID) {
					t.Violates("nip01/subscriptions.4", "NIP-01 (nip01/subscriptions.4): stored message %s came after the EOSE of REQ {ids:[%s]}, as if newly received; EOSE marks the end of stored events", m.ID, m.ID)
				}
				t.Blocked(framework.PreReadServed, fmt.Sprintf("REQ by ids of the reader's own message %s in an open group returned nothing, before or after EOSE", m.ID))
			}},
		{Case: framework.NewCase("base/subscriptions/5", framework.MUST,
			"Each live event comes under the id of the receiving connection's own subscription that matches it: one connection with a subscription on group A and one on group B, a second connection with one on A (opened last); new messages of A and B come to the first connection each under its own group's id, never under the other group's or the other connection's.",
			"nip01/subscriptions.5").
			WithReading("NIP-01: \"EVENT messages MUST be sent only with a subscription ID related to a subscription previously initiated by the client\": an id another connection opened was not initiated by this client, and the subscription of another group is not the one a message relates to. The second connection's delivery is the marker (none: blocked on live-delivery, which base/live/1 judges); the first connection's frames are read until both messages came or a settle window passed. Every case also runs the framework's subscription-id watch (an EVENT under an id no REQ of the connection opened)."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a := t.CreateChannel(c, fixtures.ChannelSpec{})
				b := t.CreateChannel(c, fixtures.ChannelSpec{})
				r1, r2 := t.Connect(t.Actor("owner")), t.Connect(t.Actor("owner"))
				sA := openSub(t, r1, subID(t, "route-a"), groupMessages(a))
				sB := openSub(t, r1, subID(t, "route-b"), groupMessages(b))
				sC := openSub(t, r2, subID(t, "route-c"), groupMessages(a))
				ma := fixtures.Message(c.Actor(), a, "routed to group A")
				t.Accept(c, ma, "message in group A")
				mb := fixtures.Message(c.Actor(), b, "routed to group B")
				t.Accept(c, mb, "message in group B")
				if _, err := sC.WaitFor(t.Ctx(), func(e *nostr.Event) bool { return e.ID == ma.ID }); err != nil {
					t.Blocked(preLiveMarker, err.Error())
				}
				got := map[*fixtures.Subscription][]string{}
				strayOf := func(id string) bool {
					return slices.ContainsFunc(r1.StrayEvents(), func(line string) bool { return strings.Contains(line, id) })
				}
				came := func(id string) bool {
					return slices.Contains(got[sA], id) || slices.Contains(got[sB], id) || strayOf(id)
				}
				drain := func() {
					for _, s := range []*fixtures.Subscription{sA, sB} {
						got[s] = append(got[s], framework.IDs(s.Drain())...)
					}
				}
				t.Within(func(g Gomega) {
					drain()
					g.Expect(came(ma.ID) && came(mb.ID)).To(BeTrue())
				})
				t.Must(r1.Ping(t.Ctx()), "REQ round trip on the first connection")
				drain()
				if strays := r1.StrayEvents(); len(strays) > 0 {
					t.Violates("nip01/subscriptions.5", "NIP-01 (nip01/subscriptions.5): EVENT messages must be sent only under the id of a subscription the client opened; the first connection opened %q (group %s) and %q (group %s), the second %q (group %s), yet %s", sA.ID, a, sB.ID, b, sC.ID, a, strings.Join(strays, "; "))
				}
				for _, w := range []struct {
					s    *fixtures.Subscription
					m    *nostr.Event
					want string
				}{{sB, ma, a}, {sA, mb, b}} {
					if slices.Contains(got[w.s], w.m.ID) {
						t.Violates("nip01/subscriptions.5", "NIP-01 (nip01/subscriptions.5): message %s of group %s came under subscription %q, whose filter names another group; an EVENT goes only under a subscription it relates to", w.m.ID, w.want, w.s.ID)
					}
				}
				if !came(ma.ID) && !came(mb.ID) {
					t.Blocked(preLiveMarker, fmt.Sprintf("the first connection received neither new message (%s, %s) under any id, though the second connection's subscription got %s", ma.ID, mb.ID, ma.ID))
				}
			}},
	}
}
