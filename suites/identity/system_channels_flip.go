package identity

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// visibilityEdit is c's 9002 for ch with its current metadata, made open
// (["public"], ["visibility","open"]) or private (["private"],
// ["visibility","private"]): the NIP-29 flag tag relay29 reads and the
// draft's own visibility tag. The hidden tag is never sent: it is the
// relay's to set on a private system channel.
func visibilityEdit(t *framework.T, c *fixtures.Client, ch string, open bool) *nostr.Event {
	set, drop, vis := "private", "public", "private"
	if open {
		set, drop, vis = "public", "private", "open"
	}
	full := t.FullEdit(c, ch, nostr.Tag{set})
	var tags []nostr.Tag
	for _, tag := range full.Tags {
		if len(tag) == 0 || tag[0] == "h" || tag[0] == drop || tag[0] == "hidden" || tag[0] == "visible" || tag[0] == "visibility" {
			continue
		}
		tags = append(tags, tag)
	}
	return fixtures.EditChannel(c.Actor(), ch, append(tags, nostr.Tag{"visibility", vis})...)
}

// systemChannelsFlipSpecs are the cases of identity/system-channels that
// change a system channel's visibility.
func systemChannelsFlipSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: idCase("identity/system/4", []string{"identity/system-channels.3"}, "identity/system-channels", framework.MUST,
			`A private system channel made open by its creator's 9002 loses the ["hidden"] tag from its 39000 (and the private flag); made private again, its 39000 carries ["hidden"] again.`,
			`"While a system channel is private, its kind:39000 carries the NIP-29 hidden tag": hidden follows the visibility. The 9002 sends both NIP-29's flag tag (public or private) and the draft's visibility tag, never hidden itself; a relay that refuses to change a system channel's visibility leaves nothing to follow (unsupported).`),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("creator"))
				ch := idChannel(t, owner, idChanOpts{Type: fixtures.TypeSystem})
				meta := t.MustStateEvent(owner, fixtures.KindMetadata, ch)
				if !fixtures.HasTag(meta, "private") || !fixtures.HasTag(meta, "hidden") {
					t.Blocked(framework.Precondition{ID: "private-system-channel", Need: "a new system channel is private and hidden (identity/system/2, /3 judge it)", Adapt: "create system channels private and hidden"}, framework.TagsOf(meta))
				}
				for _, open := range []bool{true, false} {
					ev := visibilityEdit(t, owner, ch, open)
					what := "making the private system channel open"
					if !open {
						what = "making the system channel private again"
					}
					if ok := t.Publish(owner, ev); !ok.Accepted {
						framework.CheckPrefix("OK", ok.Reason)
						t.Unsupported(fmt.Sprintf("the creator's 9002 %s was refused (%s): the relay does not change a system channel's visibility", what, ok))
					}
					t.Track(ev)
					var last *nostr.Event
					if !t.Within(func(g Gomega) {
						last = t.StateEvent(owner, fixtures.KindMetadata, ch)
						g.Expect(last).NotTo(BeNil())
						g.Expect(fixtures.HasTag(last, "private")).To(Equal(!open))
					}) {
						t.Blocked(framework.Precondition{ID: "visibility-edit", Need: "a 9002 with public/private and visibility changes the channel's private flag", Adapt: "apply the visibility of an accepted 9002"}, fmt.Sprintf("after the accepted 9002 %s: %s", what, framework.TagsOf(last)))
					}
					if fixtures.HasTag(last, "hidden") == open {
						t.Violates("identity/system-channels.3", "identity draft (identity/system-channels.3): while a system channel is private its 39000 carries hidden, and only then; after the accepted 9002 %s, the 39000 (private: %v) has hidden: %v (%s)", what, !open, fixtures.HasTag(last, "hidden"), framework.TagsOf(last))
					}
				}
			}},
	}
}
