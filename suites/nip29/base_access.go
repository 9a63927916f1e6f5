package nip29

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
)

// baselineAccessSpecs: NIP-29's join and leave requests and the private,
// hidden and restricted flags.
func baselineAccessSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.Case{ID: "base/join/1", Clauses: []string{"nip29/join.1"}, Area: "join", Section: "nip29/join", Level: framework.MUST,
			Requirement: "A join request to an open group is either refused (OK false) or accepted with the user added to the group.",
			Reading:     "An accepted 9021 means admission; the relay may add the user in the same step or publish the 9000 a moment later, so the 39002 is awaited within the step deadline. NIP-29 lets the relay admit at once or defer every request to an administrator (a refusal then): both pass, noted as reading nip29-join-open-group=admit or review."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				joiner := t.Connect(t.Actor("joiner"))
				ok := t.Publish(joiner, fixtures.JoinRequest(joiner.Actor(), ch, ""))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("the relay refused the join request: %s (NIP-29 allows review or refusal)", ok)
					t.Reading(clause.ReadingNIP29JoinOpen, "review")
					return
				}
				awaitMember(t, owner, ch, joiner.Actor().PubKey, true, "NIP-29 (nip29/join.1): the join request was accepted, so the user must have been added")
				t.Reading(clause.ReadingNIP29JoinOpen, "admit")
			}},
		{Case: framework.Case{ID: "base/join/2", Clauses: []string{"nip01/ok-prefix.1", "nip29/join.2"}, Area: "join", Section: "nip29/join", Level: framework.MUST,
			Requirement: "A join request from a current member is refused with the duplicate: prefix."},
			Run: func(t *framework.T) {
				_, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				t.Reject(member, fixtures.JoinRequest(member.Actor(), ch, ""), "duplicate:", "NIP-29 (nip29/join.2): a member's join request")
			}},
		{Case: framework.Case{ID: "base/join/3", Clauses: []string{"nip29/join.3"}, Area: "join", Section: "nip29/join", Level: framework.MUST,
			Requirement: "A join request without an invite code to a closed group is refused and the user is not added."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{Flags: []string{fixtures.FlagClosed}})
				t.RequireFlags(owner, ch, fixtures.FlagClosed)
				joiner := t.Connect(t.Actor("joiner"))
				ok := t.Publish(joiner, fixtures.JoinRequest(joiner.Actor(), ch, ""))
				if ok.Accepted {
					framework.Failf("NIP-29 (nip29/join.3): join requests to a closed group are not honoured, and a request that does not add the user must be rejected; it was accepted: %s", ok)
				}
				framework.CheckPrefix("OK", ok.Reason)
				if found, _ := framework.HasP(t.StateEvent(owner, fixtures.KindMembers, ch), joiner.Actor().PubKey); found {
					framework.Failf("NIP-29 (nip29/join.3): the refused join request to the closed group still added the user")
				}
			}},
		{Case: framework.Case{ID: "base/leave/1", Clauses: []string{"nip29/leave.1"}, Area: "join", Section: "nip29/leave", Level: framework.MUST,
			Requirement: "A member's leave request removes the member from the group."},
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				pk := member.Actor().PubKey
				// The precondition, judged before the step: 39002 lists the member.
				framework.RequireListed(t, owner, ch, pk)
				ok := t.Publish(member, fixtures.LeaveRequest(member.Actor(), ch))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					framework.Failf("NIP-29 (nip29/leave.1): any member can send a leave request to be removed; it was refused: %s", ok)
				}
				// After the step nothing blocks: a lost leave is a failure.
				framework.AwaitListed(t, owner, ch, pk, false, "NIP-29 (nip29/leave.1): the member who asked to leave")
			}},
		{Case: framework.Case{ID: "base/leave/2", Clauses: []string{"nip29/leave.2"}, Area: "join", Section: "nip29/leave", Level: framework.SHOULD,
			Requirement: "The relay answers an honoured leave request with a 9001 removing the user."},
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				pk := member.Actor().PubKey
				t.Accept(member, fixtures.LeaveRequest(member.Actor(), ch), "leave request")
				f := nostr.Filter{Kinds: []int{fixtures.KindRemoveUser}, Tags: nostr.TagMap{"h": {ch}, "p": {pk}}}
				t.Eventually(func(g Gomega) {
					r, err := owner.Query(t.Ctx(), f)
					g.Expect(err).NotTo(HaveOccurred())
					g.Expect(r.Closed).To(BeFalse(), "REQ %s answered CLOSED %q", f, r.ClosedReason)
					g.Expect(r.Events).NotTo(BeEmpty(), "NIP-29 (nip29/leave.2): no 9001 removing the user who left")
				}, "the relay's 9001 after the leave request")
			}},
		{Case: framework.Case{ID: "base/read/1", Clauses: []string{"nip01/ok-prefix.2", "nip29/read-access.1", "nip29/read-access.3"}, Area: "read-access", Section: "nip29/read-access", Level: framework.MUST,
			Requirement: "A private group's messages reach its members and nobody else, by #h or by id, anonymous or not."},
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Private, "member")
				t.RequireFlags(owner, ch, fixtures.FlagPrivate)
				m := fixtures.Message(owner.Actor(), ch, "secret")
				t.Accept(owner, m, "message in the private group")
				f := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}}
				r := t.QueryResult(member, f)
				if r.Closed || !slices.Contains(framework.IDs(r.Events), m.ID) {
					framework.Failf("NIP-29 (nip29/read-access.3): a member must read the private group's message; got %v (CLOSED %q)", framework.IDs(r.Events), r.ClosedReason)
				}
				outsider := t.Connect(t.Actor("outsider"))
				var how []string
				how = append(how, "outsider by #h: "+t.QueryAbsent(outsider, "NIP-29 (nip29/read-access.1): an outsider reading the private group by #h", f))
				how = append(how, "outsider by id: "+t.QueryAbsent(outsider, "NIP-29 (nip29/read-access.1): an outsider reading the private message by id", nostr.Filter{IDs: []string{m.ID}}))
				how = append(how, "anonymous by #h: "+t.QueryAbsent(t.Connect(nil), "NIP-29 (nip29/read-access.1): an anonymous reader of the private group", f))
				t.Note("withheld: %s", strings.Join(how, "; "))
			}},
		{Case: framework.Case{ID: "base/read/2", Clauses: []string{"nip29/read-access.1", "nip29/read-access.2"}, Area: "read-access", Section: "nip29/read-access", Level: framework.SHOULD,
			Requirement: "Newer messages of private groups do not use up an outsider's limit: limit 1 returns the readable older message."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				open := t.CreateChannel(owner, fixtures.ChannelSpec{})
				old := owner.Actor().EventAt(time.Now().Add(-30*time.Second), fixtures.KindMessage, nostr.Tags{{"h", open}}, "readable")
				t.Accept(owner, old, "older message in the open group")
				priv := t.CreateChannel(owner, fixtures.ChannelSpec{Visibility: fixtures.Private})
				t.RequireFlags(owner, priv, fixtures.FlagPrivate)
				for i := 0; i < 5; i++ {
					t.Accept(owner, fixtures.Message(owner.Actor(), priv, fmt.Sprintf("secret %d", i)), "newer private message")
				}
				outsider := t.Connect(t.Actor("outsider"))
				r := t.QueryResult(outsider, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {open, priv}}, Limit: 1})
				if r.Closed {
					framework.CheckPrefix("CLOSED", r.ClosedReason)
					t.Note("the relay refused the mixed REQ (CLOSED %q): nothing was disclosed, and the limit question does not arise", r.ClosedReason)
					return
				}
				for _, ev := range r.Events {
					if mustH(ev) == priv {
						framework.Failf("NIP-29 (nip29/read-access.1): an outsider got a private group's message %s", ev.ID)
					}
				}
				t.Expect(framework.IDs(r.Events)).To(Equal([]string{old.ID}), "NIP-29 private with NIP-01 limit (nip29/read-access.2): limit 1 returns the one message the outsider may read")
			}},
		{Case: framework.Case{ID: "base/read/3", Clauses: []string{"nip29/hidden.1"}, Area: "read-access", Section: "nip29/hidden", Level: framework.SHOULD,
			Requirement: "A hidden group's 39000 is served to members and withheld from outsiders and anonymous readers."},
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				t.Accept(owner, fixtures.EditGroup(owner.Actor(), ch, fixtures.GroupMetadata{Name: t.Unique("hidden"), Flags: []string{fixtures.FlagHidden}}), "make the group hidden")
				t.RequireFlags(owner, ch, fixtures.FlagHidden)
				t.Expect(t.StateEvent(member, fixtures.KindMetadata, ch)).NotTo(BeNil(), "a member reads the hidden group's 39000")
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}}
				t.QueryAbsent(t.Connect(t.Actor("outsider")), "NIP-29 (nip29/hidden.1): an outsider reading the hidden group's 39000", f)
				t.QueryAbsent(t.Connect(nil), "NIP-29 (nip29/hidden.1): an anonymous reader of the hidden group's 39000", f)
			}},
		{Case: framework.Case{ID: "base/read/4", Clauses: []string{"nip29/hidden.2"}, Area: "read-access", Section: "nip29/hidden", Level: framework.SHOULD,
			Requirement: "Hidden groups do not use up a non-member's limit on 39000: limit 1 over one visible and five hidden groups returns the visible one."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				visible := t.CreateChannel(owner, fixtures.ChannelSpec{})
				seen := t.GroupMetadata(owner, visible).CreatedAt
				// Every hidden 39000 must be strictly newer than the visible
				// one: in a shared second a relay that cuts the limit before
				// withholding could return the visible group by its tie order.
				t.RelayClockPast(seen, "the relay's clock past the visible group's 39000")
				ids := []string{visible}
				for i := 0; i < 5; i++ {
					h := t.CreateChannel(owner, fixtures.ChannelSpec{Flags: []string{fixtures.FlagHidden}})
					if i == 0 {
						t.RequireFlags(owner, h, fixtures.FlagHidden)
					}
					t.NewerMetadata(owner, h, seen)
					ids = append(ids, h)
				}
				t.Note("the visible group's 39000 has created_at %d; every hidden group's is newer", seen)
				outsider := t.Connect(t.Actor("outsider"))
				r := t.QueryResult(outsider, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": ids}, Limit: 1})
				if r.Closed {
					framework.CheckPrefix("CLOSED", r.ClosedReason)
					t.Note("the relay refused the mixed REQ (CLOSED %q)", r.ClosedReason)
					return
				}
				t.Expect(framework.DTags(r.Events)).To(Equal([]string{visible}), "NIP-29 hidden with NIP-01 limit (nip29/hidden.2): limit 1 returns the one group the outsider may see")
			}},
		{Case: framework.Case{ID: "base/restricted/1", Clauses: []string{"nip29/restricted.1"}, Area: "read-access", Section: "nip29/restricted", Level: framework.MUST,
			Requirement: "A non-member's message to a restricted group is refused."},
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{Flags: []string{fixtures.FlagRestricted}})
				t.RequireFlags(owner, ch, fixtures.FlagRestricted)
				outsider := t.Connect(t.Actor("outsider"))
				t.Reject(outsider, fixtures.Message(outsider.Actor(), ch, "not a member"), "", "NIP-29 (nip29/restricted.1): a non-member writes to a restricted group")
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
