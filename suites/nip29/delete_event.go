package nip29

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// deleteEventSpecs are the cases of nip29/delete-event: 9005 delete-event: the event is gone from every read path.
func deleteEventSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/delete-event/1", framework.MUST,
			"After the creator's accepted 9005, the event is served by no read: #h, ids, authors, kinds, nor a subscription opened afterwards; the group's other messages still are.",
			"nip29/delete-event.1").
			WithReading("9005 is optional (moderation events are): a refused 9005 from the creator makes the case unsupported, quoting the refusal. Level: the row \"9005 | delete-event | e with event id hex\" has no keyword; its name is its definition. Held at MUST for a 9005 the relay accepted: NIP-01's OK true says the command was accepted, and a delete-event whose event every read still serves was not performed. Deleting the event from storage or only withholding it from every read both pass. The reader needs no particular power: the creator's own reads must not serve the event either."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{})
				gone := fixtures.Message(owner.Actor(), ch, "delete me "+t.Unique("m"))
				kept := fixtures.Message(owner.Actor(), ch, "keep me "+t.Unique("m"))
				t.Accept(owner, gone, "the message to delete")
				t.Accept(owner, kept, "a message that stays")
				requireServed(t, owner, gone, "the message before the 9005")
				ok := t.Publish(owner, deleteEvent(owner.Actor(), ch, gone.ID))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Unsupported("the creator's 9005 delete-event was refused (moderation events are optional): " + ok.String())
				}
				reader := t.Connect(t.Actor("reader"))
				paths := []nostr.Filter{
					{IDs: []string{gone.ID}},
					{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}},
					{Authors: []string{owner.Actor().PubKey}, Kinds: []int{fixtures.KindMessage}},
					{Kinds: []int{fixtures.KindMessage}, Since: &gone.CreatedAt},
				}
				for _, c := range []*fixtures.Client{owner, reader} {
					t.Eventually(func(g Gomega) {
						for _, f := range paths {
							r, err := c.Query(t.Ctx(), f)
							g.Expect(err).NotTo(HaveOccurred())
							g.Expect(framework.IDs(r.Events)).NotTo(ContainElement(gone.ID), "REQ %s as %s still serves the deleted %s", framework.FilterString([]nostr.Filter{f}), framework.ActorName(c), gone.ID)
						}
					}, "NIP-29 (nip29/delete-event.1): the event named by the accepted 9005 is no longer served")
				}
				sub := t.Subscribe(reader, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}})
				stored := framework.IDs(sub.Stored())
				if slices.Contains(stored, gone.ID) {
					t.Violates("nip29/delete-event.1", "NIP-29 (nip29/delete-event.1): a subscription opened after the 9005 still receives the deleted %s", gone.ID)
				}
				if !slices.Contains(stored, kept.ID) {
					framework.Failf("the group's other message %s is not served after the 9005 either (stored part: %v), so the deletion cannot be told from an empty read", kept.ID, stored)
				}
			}},
	}
}
