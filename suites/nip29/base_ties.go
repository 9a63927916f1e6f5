package nip29

import (
	"fmt"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// Same-second sequences. NIP-29 decides membership by "the latest of
// either kind:9000 or kind:9001" and has the 39000 "reflect the latest
// group state"; NIP-01 settles ties of replaceable events by the lowest id
// ("the event with the lowest id (first in lexical order) should be
// retained"). With equal created_at a careful relay may read "latest" as
// the order it accepted the commands in, or by NIP-01's tie rule (lowest id
// first). Each case builds two ties: one where both readings agree (the
// later command also has the lower id), which must end one way, and one
// where they disagree, where either outcome passes and the report notes
// which reading the relay showed.

// Readings of a same-second tie, as noted in the report.
const (
	tieReadingArrival = "arrival order (the later accepted command is the latest)"
	tieReadingLowID   = "NIP-01's tie rule (the lower id is the latest)"
)

// tieNote says how a tie was built.
func tieNote(what string, first, second *nostr.Event) string {
	order := "after"
	if second.ID < first.ID {
		order = "before"
	}
	return fmt.Sprintf("%s: both created_at %d; the second (%s) was sent after the first (%s) and its id sorts %s it", what, first.CreatedAt, second.ID[:12], first.ID[:12], order)
}

func baselineTiesSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.Case{ID: "base/ties/1", Clauses: []string{"nip29/leave.3"}, Area: "join", Section: "nip29/leave", Level: framework.MUST,
			Requirement: "A member's leave request in the same second as the 9000 that added the member, its id sorting first, removes the member.",
			Reading:     "With equal created_at the leave is the latest both by arrival and by NIP-01's lowest-id rule; no careful reading lets the earlier put win."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				member := t.Connect(t.Actor("member"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				pk := member.Actor().PubKey
				at := t.SameSecond(ch)
				put := signTie(owner.Actor(), fixtures.PutUser(owner.Actor(), ch, pk, ""), at, "", false)
				leave := signTie(member.Actor(), fixtures.LeaveRequest(member.Actor(), ch), at, put.ID, true)
				t.Accept(owner, put, "put the member (the leave follows in the same second)")
				framework.RequireListed(t, owner, ch, pk)
				t.Note("%s", tieNote("put then leave", put, leave))
				ok := t.Publish(member, leave)
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					framework.Failf("NIP-29 (nip29/leave.3): any member can send a leave request to be removed, and the 39002 listed this member; the same-second leave was refused: %s", ok)
				}
				framework.AwaitListed(t, owner, ch, pk, false, "NIP-29 (nip29/leave.3): the member whose same-second leave was accepted")
			}},
		{Case: framework.Case{ID: "base/ties/2", Clauses: []string{"nip29/membership.6"}, Area: "membership", Section: "nip29/membership", Level: framework.SHOULD,
			Requirement: "A 9001 in the same second as the 9000 that put the user takes the user out when its id sorts first; when its id sorts after, either outcome passes and the reading is noted.",
			Reading:     "NIP-29's \"latest of either kind:9000 or kind:9001\" with equal created_at: arrival order or NIP-01's lowest-id rule. Both pass where they disagree; the report notes which the relay showed."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				// Both readings agree: the removal is later and has the lower id.
				a := t.Actor("removed").PubKey
				at := t.SameSecond(ch)
				put := signTie(owner.Actor(), fixtures.PutUser(owner.Actor(), ch, a, ""), at, "", false)
				rm := signTie(owner.Actor(), fixtures.RemoveUser(owner.Actor(), ch, a), at, put.ID, true)
				t.Accept(owner, put, "put the user (the removal follows in the same second)")
				framework.RequireListed(t, owner, ch, a)
				t.Note("%s", tieNote("put then removal", put, rm))
				t.Accept(owner, rm, "remove the user in the same second, its id sorting first")
				framework.AwaitListed(t, owner, ch, a, false, "NIP-29 (nip29/membership.6): the user whose same-second 9001 is the latest by arrival and by id")

				// The readings disagree: the removal is later, the put has the lower id.
				b := t.Actor("contested").PubKey
				at = t.SameSecond(ch)
				put = signTie(owner.Actor(), fixtures.PutUser(owner.Actor(), ch, b, ""), at, "", false)
				rm = signTie(owner.Actor(), fixtures.RemoveUser(owner.Actor(), ch, b), at, put.ID, false)
				t.Accept(owner, put, "put a second user (its removal follows in the same second)")
				framework.RequireListed(t, owner, ch, b)
				t.Note("%s", tieNote("put then removal", put, rm))
				ok := t.Publish(owner, rm)
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("the relay refused the same-second removal whose id sorts after the put's: %s (NIP-01's tie rule makes the put the latest)", ok)
				}
				if listed := framework.ListedNow(t, owner, ch, b); listed {
					t.Note("reading seen: %s — the user is still listed at the first read after the removal", tieReadingLowID)
				} else {
					t.Note("reading seen: %s", tieReadingArrival)
				}
			}},
		{Case: framework.Case{ID: "base/ties/3", Clauses: []string{"nip29/metadata.3"}, Area: "groups", Section: "nip29/metadata", Level: framework.SHOULD,
			Requirement: "After two 9002 edits in the same second, the 39000 carries the second's name when its id sorts first; when it sorts after, either name passes and the reading is noted.",
			Reading:     "The 39000 \"should reflect the latest group state\"; with equal created_at the latest edit is the later accepted or, by NIP-01's tie rule, the one with the lower id. Both pass where they disagree; the report notes which the relay showed."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				edit := func(name string) *nostr.Event {
					return fixtures.EditGroup(c.Actor(), ch, fixtures.GroupMetadata{Name: name, About: "nipcl-conform test group"})
				}
				// Both readings agree on the second edit.
				first, second := t.Unique("first"), t.Unique("second")
				at := t.SameSecond(ch)
				e1 := signTie(c.Actor(), edit(first), at, "", false)
				e2 := signTie(c.Actor(), edit(second), at, e1.ID, true)
				t.Accept(c, e1, "the first same-second edit")
				t.Accept(c, e2, "the second same-second edit, its id sorting first")
				t.Note("%s", tieNote("two edits", e1, e2))
				awaitName(t, c, ch, []string{second}, "NIP-29 (nip29/metadata.3): the 39000 after two same-second edits, the second latest by arrival and by id")

				// The readings disagree: the second is later, the first has the lower id.
				third, fourth := t.Unique("third"), t.Unique("fourth")
				at = t.SameSecond(ch)
				e3 := signTie(c.Actor(), edit(third), at, "", false)
				e4 := signTie(c.Actor(), edit(fourth), at, e3.ID, false)
				t.Accept(c, e3, "the third edit")
				t.Note("%s", tieNote("two more edits", e3, e4))
				ok := t.Publish(c, e4)
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("the relay refused the same-second edit whose id sorts after the previous one's: %s", ok)
				}
				switch awaitName(t, c, ch, []string{third, fourth}, "NIP-29 (nip29/metadata.3): the 39000 after two same-second edits the readings order differently") {
				case fourth:
					t.Note("reading seen: %s", tieReadingArrival)
				default:
					t.Note("reading seen: %s", tieReadingLowID)
				}
			}},
		{Case: framework.Case{ID: "base/ties/4", Clauses: []string{"nip01/replaceable.1"}, Area: "state-events", Section: "nip01/replaceable", Level: framework.SHOULD,
			Requirement: "Of two versions of an addressable event with the same created_at, the relay keeps the one with the lowest id, whichever came first.",
			Reading:     "NIP-01: \"In case of replaceable events with the same timestamp, the event with the lowest id (first in lexical order) should be retained, and the other discarded\", read as covering addressable events (same kind, pubkey and d). The harness's own kind 30078 events in its group; a relay may refuse the discarded version or accept and drop it."},
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				a := c.Actor()
				at := nostr.Now()
				version := func(d string) *nostr.Event {
					return &nostr.Event{Kind: kindAppData, Tags: nostr.Tags{{"d", d}, {"h", ch}}}
				}
				for _, lowerSecond := range []bool{true, false} {
					d := t.Unique("tie")
					v1 := signTie(a, version(d), at, "", false)
					v2 := signTie(a, version(d), at, v1.ID, lowerSecond)
					keep, drop := v2, v1
					if !lowerSecond {
						keep, drop = v1, v2
					}
					t.Accept(c, v1, "the first version of an addressable event")
					t.Note("%s", tieNote("two versions of "+d, v1, v2))
					ok := t.Publish(c, v2)
					if !ok.Accepted {
						framework.CheckPrefix("OK", ok.Reason)
						if keep == v2 {
							framework.Failf("NIP-01 (nip01/replaceable.1): the same-second version with the lower id should be retained; it was refused: %s", ok)
						}
						t.Note("the same-second version with the higher id was refused: %s", ok)
					}
					// #h too: a NIP-29 relay may serve group events only to
					// reads that name the group.
					got := t.Query(c, nostr.Filter{Kinds: []int{kindAppData}, Authors: []string{a.PubKey}, Tags: nostr.TagMap{"d": {d}, "h": {ch}}})
					ids := framework.IDs(got)
					if !containsID(got, keep.ID) || containsID(got, drop.ID) {
						framework.Failf("NIP-01 (nip01/replaceable.1): of two versions with created_at %d the lowest id %s should be retained and %s discarded; the relay serves %v", at, keep.ID, drop.ID, ids)
					}
				}
			}},
	}
}

// kindAppData is NIP-78's addressable kind for application data, the
// harness's own addressable events.
const kindAppData = 30078

// awaitName waits within the step deadline until the group's 39000 (read
// as c) carries one of names, and returns it.
func awaitName(t *framework.T, c *fixtures.Client, ch string, names []string, what string) string {
	var got string
	t.Eventually(func(g Gomega) {
		r, err := c.Query(t.Ctx(), nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(r.Closed).To(BeFalse(), "the 39000 read was answered CLOSED %q", r.ClosedReason)
		meta := framework.NewestHead(r.Events)
		g.Expect(meta).NotTo(BeNil(), "no 39000 is served for the group")
		got = framework.TagOf(meta, "name")
		g.Expect(names).To(ContainElement(got), "the 39000's name is %q, want one of %q", got, names)
	}, what)
	return got
}

// signTie re-signs ev as a with created_at at and, varying its content (a
// NIP-29 command's optional reason), an id that sorts before other's
// (before) or after it (!before).
func signTie(a *fixtures.Actor, ev *nostr.Event, at nostr.Timestamp, other string, before bool) *nostr.Event {
	for n := 0; ; n++ {
		ev.CreatedAt = at
		ev.Content = fmt.Sprintf("same-second step %d", n)
		a.Sign(ev)
		if ev.ID != other && (ev.ID < other) == before {
			return ev
		}
	}
}
