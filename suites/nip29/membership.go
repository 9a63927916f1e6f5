package nip29

import (
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// membershipSpecs are the cases of nip29/membership.
func membershipSpecs() []framework.Spec {
	return []framework.Spec{
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
	}
}

// awaitMember waits, within the step deadline, until the group's 39002 (as
// read by reader) lists pubkey (want true) or no longer does (want false).
// A relay that publishes no 39002 blocks the case; a CLOSED read is never
// "not listed" (see awaitListed).
func awaitMember(t *framework.T, reader *fixtures.Client, ch, pubkey string, want bool, what string) {
	t.MustStateEvent(reader, fixtures.KindMembers, ch)
	framework.AwaitListed(t, reader, ch, pubkey, want, what)
}
