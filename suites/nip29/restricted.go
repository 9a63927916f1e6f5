package nip29

import (
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// restrictedSpecs are the cases of nip29/restricted.
func restrictedSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/restricted/2", framework.MUST,
			"A non-member's message to a closed group that is neither restricted nor private is accepted, as it is in a group without flags.",
			"nip29/restricted.2").
			WithReading("\"restricted indicates that only members can write ... Omitting this tag indicates that anyone can send messages\"; closed only says join requests are ignored. The same non-member first writes to a group without flags: when even that is refused, the relay's refusal is not about closed and the case is unsupported."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				plain := t.CreateChannel(owner, fixtures.ChannelSpec{})
				closed := t.CreateChannel(owner, fixtures.ChannelSpec{Flags: []string{fixtures.FlagClosed}})
				meta := t.RequireFlags(owner, closed, fixtures.FlagClosed)
				if fixtures.HasFlag(meta, fixtures.FlagRestricted) || fixtures.HasFlag(meta, fixtures.FlagPrivate) {
					// Closed taken for restricted (or private) is what this
					// case is about: the relay conflates them in its 39000.
					t.Violates("nip29/restricted.2", "NIP-29 (nip29/restricted.2): closed limits joining, only restricted limits writing; yet the group set only closed shows restricted or private (39000 tags: %s)", framework.TagsOf(meta))
				}
				// A non-member's message must be accepted whatever its power:
				// any admitted key that is not a member plays the outsider.
				outsider := t.Connect(t.ActorAs(framework.KindAny, "outsider"))
				if ok := t.Publish(outsider, fixtures.Message(outsider.Actor(), plain, "to a group without flags")); !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Unsupported("the relay refuses a non-member's message even to a group without flags (" + ok.String() + "), so what closed does to writes cannot be told apart")
				}
				ok := t.Publish(outsider, fixtures.Message(outsider.Actor(), closed, "to a closed group"))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Violates("nip29/restricted.2", "NIP-29 (nip29/restricted.2): only restricted limits writing to members (\"Omitting this tag indicates that anyone can send messages\"); closed limits joining. The non-member's message to the closed, unrestricted group was refused (while one to a group without flags was accepted): %s", ok)
				}
			}},
		{Case: framework.NewCase("base/restricted/1", framework.MUST,
			"A non-member's message to a restricted group is refused.",
			"nip29/restricted.1").
			WithReading("Level: \"restricted indicates that only members can write messages to the group\" is a definition without a keyword. It is held at MUST as binding on a relay that shows the flag: the case judges only after the group's 39000 shows restricted (else it is blocked on flag-restricted), so the relay's own metadata tells clients that only members write, and accepting a non-member's message makes what it published false. The weaker reading (39000s are \"merely informative\" and \"should reflect the latest group state\") is not taken: the flag is the relay's own statement of the group's rule, not a description of someone else's."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(owner, fixtures.ChannelSpec{Flags: []string{fixtures.FlagRestricted}})
				t.RequireFlags(owner, ch, fixtures.FlagRestricted)
				outsider := t.Connect(t.Actor("outsider"))
				t.Reject(outsider, fixtures.Message(outsider.Actor(), ch, "not a member"), "", "NIP-29 (nip29/restricted.1): a non-member writes to a restricted group")
			}},
	}
}
