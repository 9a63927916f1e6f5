package nip29

import (
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// timelineSpecs are the cases of nip29/timeline: timeline references (previous): unknown references refused, known ones accepted.
func timelineSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/timeline/1", framework.SHOULD,
			"A group message whose previous tag adds a reference matching no event of the relay to three valid ones is refused.",
			"nip29/timeline.1").
			WithReading(timelineReading),
			Run: func(t *framework.T) {
				owner, refs, ch := timelineSetup(t)
				valid := fixtures.Message(owner.Actor(), ch, "in context "+t.Unique("m"))
				valid.Tags = append(valid.Tags, append(nostr.Tag{"previous"}, refs...))
				if ok := t.Publish(owner, owner.Actor().Sign(valid)); !ok.Accepted {
					t.Violates("nip29/timeline.2", "NIP-29 (nip29/timeline.2): a message whose three previous references name the member's messages was refused (%s), so the refusal of an unknown reference would prove nothing", ok)
				}
				unknown := unknownPrefix()
				bad := fixtures.Message(owner.Actor(), ch, "out of context "+t.Unique("m"))
				bad.Tags = append(bad.Tags, append(nostr.Tag{"previous"}, append(slices.Clone(refs), unknown)...))
				ok := t.Publish(owner, owner.Actor().Sign(bad))
				if ok.Accepted {
					t.Violates("nip29/timeline.1", "NIP-29 (nip29/timeline.1): relays are expected to reject events with timeline references to events not found in their database, but a message referencing %s (which names no event the harness sent; random 4 bytes) was accepted", unknown)
				}
				framework.CheckPrefix("OK", ok.Reason)
				t.Note("the unknown reference was refused: %s", ok)
			}},
		{Case: framework.NewCase("base/timeline/2", framework.MUST,
			"A group message whose previous tag names three of other members' recent messages (first 8 hex digits) is accepted and served.",
			"nip29/timeline.2").
			WithReading(timelineReading),
			Run: func(t *framework.T) {
				owner, refs, ch := timelineSetup(t)
				ev := fixtures.Message(owner.Actor(), ch, "in context "+t.Unique("m"))
				ev.Tags = append(ev.Tags, append(nostr.Tag{"previous"}, refs...))
				ev = owner.Actor().Sign(ev)
				if ok := t.Publish(owner, ev); !ok.Accepted {
					t.Violates("nip29/timeline.2", "NIP-29 (nip29/timeline.2): events sent to groups may contain previous references; one whose references name the member's three messages was refused: %s", ok)
				}
				requireServed(t, owner, ev, "the message with timeline references")
			}},
	}
}

// timelineReading is the reading both timeline cases take.
const timelineReading = "\"Relays are expected to reject any events that contain timeline references to events not found in their own database\" has no RFC 2119 keyword; \"expected\" is read as SHOULD. " +
	"References are checked against the whole database, so the unknown reference names no event at all. The valid ones are the first 8 hex digits of three messages another member posted just before, " +
	"sent as one [\"previous\", ...] tag, so a relay that enforces the recommended minimum of three, or the window of the last 50 events not by the author, accepts them too."

// timelineSetup creates an open group whose member posts three messages and
// returns the creator's connection, the messages' 8-digit prefixes and the
// group id.
func timelineSetup(t *framework.T) (*fixtures.Client, []string, string) {
	owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
	var refs []string
	for i := 0; i < 3; i++ {
		m := fixtures.Message(member.Actor(), ch, fmt.Sprintf("context %d %s", i, t.Unique("m")))
		t.Accept(member, m, "a member's message to reference")
		refs = append(refs, m.ID[:8])
	}
	return owner, refs, ch
}
