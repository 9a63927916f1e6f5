package nip29

import (
	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/readmatrix"
)

// hiddenSpecs are the cases of nip29/hidden.
func hiddenSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/read/3", framework.SHOULD,
			"A hidden group's 39000 is served to members and withheld from outsiders and anonymous readers.",
			"nip29/hidden.1"),
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
				t.Accept(owner, fixtures.EditGroup(owner.Actor(), ch, fixtures.GroupMetadata{Name: t.Unique("hidden"), Flags: []string{fixtures.FlagHidden}}), "make the group hidden")
				t.RequireFlags(owner, ch, fixtures.FlagHidden)
				t.Expect(t.StateEvent(member, fixtures.KindMetadata, ch)).NotTo(BeNil(), "a member reads the hidden group's 39000")
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}}
				t.QueryAbsent(t.Connect(t.Actor("outsider")), "NIP-29 (nip29/hidden.1): an outsider reading the hidden group's 39000", f)
				t.QueryAbsent(t.Connect(nil), "NIP-29 (nip29/hidden.1): an anonymous reader of the hidden group's 39000", f)
			}},
		{Case: framework.NewCase("base/read/4", framework.SHOULD,
			"Hidden groups do not use up a non-member's limit on 39000: limit 1 over one visible and five hidden groups returns the visible one.",
			"nip29/hidden.2"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				visible := t.CreateChannel(owner, fixtures.ChannelSpec{})
				seen := t.GroupMetadata(owner, visible).CreatedAt
				// Every hidden 39000 must be strictly newer than the visible
				// one: in a shared second a relay that cuts the limit before
				// withholding could return the visible group by its tie order.
				// NewerMetadata renames a hidden group that is not, and waits
				// for the relay's clock only when a rename is not newer either.
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
				// The visible group first, last and second (NIP-01 matches a
				// list by any of its values: a relay reading only the first
				// must not pass).
				for _, fs := range readmatrix.Orders([]nostr.Filter{{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": ids}, Limit: 1}}) {
					r := t.QueryResult(outsider, fs...)
					if r.Closed {
						framework.CheckPrefix("CLOSED", r.ClosedReason)
						t.Note("the relay refused the mixed REQ %s (CLOSED %q)", framework.FilterString(fs), r.ClosedReason)
						continue
					}
					t.Checking("nip29/hidden.2")
					t.Expect(framework.DTags(r.Events)).To(Equal([]string{visible}), "NIP-29 hidden with NIP-01 limit (nip29/hidden.2): limit 1 returns the one group the outsider may see, for "+framework.FilterString(fs))
				}
			}},
	}
}
