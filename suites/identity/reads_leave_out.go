package identity

import (
	"fmt"
	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/readmatrix"
)

// readsLeaveOutSpecs are the cases of identity/reads-leave-out. The NIP-50
// search cases (identity/leave/7 and 8: "This applies to: ... COUNT and
// NIP-50 search") follow the naming rule a search filter follows like any
// other filter (identity/naming). NIP-50 is optional: a relay that does not
// list 50 in supported_nips makes them unsupported. Each posts its own
// messages carrying one fresh word in every channel of a sysWorld and
// searches for that word (helpers_search.go); a search that does not find
// a readable legacy channel's message (the positive control) leaves the
// case unsupported, since NIP-50 leaves matching to the relay.
func readsLeaveOutSpecs() []framework.Spec {
	return append([]framework.Spec{
		{Case: framework.NewCase("identity/leave/1", framework.MUST,
			"A 39000 REQ that does not name a channel (generic, or by label) returns no system channel to a member or an outsider, but does return the readable stream channels (control).",
			"identity/reads-leave-out.1", "identity/asking-for-system.5"),
			Run: func(t *framework.T) {
				t.Checking("identity/reads-leave-out.1")
				w := newSysWorld(t)
				for _, r := range w.readers() {
					got := t.Query(r.c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"t": {w.L}}})
					t.Expect(channelSet(got)).To(Equal(w.legacyFor(r.c)), "%s: kinds:[39000] #t:[label]", r.name)
					since := w.sinceOwn(t, fixtures.KindMetadata)
					got = t.QueryEvery(r.c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Since: &since})
					t.Expect(w.ours(got)).To(Equal(w.legacyFor(r.c)), "%s: kinds:[39000] since (generic)", r.name)
					got = t.Query(r.c, nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers}, Tags: nostr.TagMap{"t": {w.L}}})
					t.Expect(channelSet(got)).To(Equal(w.legacyFor(r.c)), "%s: kinds:[39000,39001,39002] #t:[label]", r.name)
				}
			}},
		{Case: framework.NewCase("identity/leave/2", framework.MUST,
			"A kind 9 REQ that does not name a channel returns no system-channel message to a member or an outsider, but does return readable stream messages (control).",
			"identity/reads-leave-out.2"),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				for _, r := range w.readers() {
					got := t.Query(r.c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"t": {w.L}}})
					t.Expect(channelsOf(got)).To(Equal(w.legacyFor(r.c)), "%s: kinds:[9] #t:[label]", r.name)
					since := w.sinceOwn(t, fixtures.KindMessage)
					got = t.QueryEvery(r.c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Since: &since})
					t.Expect(w.ours(got)).To(Equal(w.legacyFor(r.c)), "%s: kinds:[9] since (generic)", r.name)
					got = t.Query(r.c, nostr.Filter{Authors: []string{w.O.Actor().PubKey}})
					t.Expect(w.ours(got)).To(Equal(w.legacyFor(r.c)), "%s: authors:[creator], no kinds", r.name)
				}
			}},
		{Case: framework.NewCase("identity/leave/3", framework.MUST,
			`kinds:[39002] #p:[me] ("the channels I belong to") leaves out the system channels the reader belongs to and lists the stream channels (control).`,
			"identity/reads-leave-out.3").
			WithFreshKeys(),
			Run: func(t *framework.T) {
				t.RequireStateKinds(fixtures.KindMembers)
				w := newSysWorld(t)
				t.Expect(findOf(t, w.M, fixtures.KindMembers, nostr.TagMap{"p": {w.M.Actor().PubKey}})).To(Equal([]string{w.StreamPriv}), "member: 39002 #p:[me]")
				t.Expect(findOf(t, w.X, fixtures.KindMembers, nostr.TagMap{"p": {w.X.Actor().PubKey}})).To(Equal([]string{w.Stream}), "outsider: 39002 #p:[me]")
			}},
		{Case: framework.NewCase("identity/leave/4", framework.MUST,
			"COUNT leaves system channels out like REQ: 39000 and kind 9 counts by label, generic ones without any tag (by ids, by author) and 39002 #p:[me] cover only the readable stream channels.",
			"identity/reads-leave-out.4").
			WithFreshKeys(),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				ids := stateIDs(t, w.O, w.all())
				for _, r := range w.readers() {
					n := int64(len(w.legacyFor(r.c)))
					t.ExpectCount(r.c, n, fmt.Sprintf("%s: COUNT 39000 #t:[label]", r.name), nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"t": {w.L}}})
					t.ExpectCount(r.c, n, fmt.Sprintf("%s: COUNT kind 9 #t:[label]", r.name), nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"t": {w.L}}})
					if len(t.StateKinds(fixtures.KindMembers)) > 0 {
						t.ExpectCount(r.c, 1, fmt.Sprintf("%s: COUNT 39002 #p:[me]", r.name), nostr.Filter{Kinds: []int{fixtures.KindMembers}, Tags: nostr.TagMap{"p": {r.c.Actor().PubKey}}})
					}
					// Generic filters without any tag: the world's 39000s by
					// ids, and the creator's messages by author (fresh key).
					for _, f := range []nostr.Filter{
						{Kinds: []int{fixtures.KindMetadata}, IDs: ids},
						{Kinds: []int{fixtures.KindMessage}, Authors: []string{w.O.Actor().PubKey}},
					} {
						got := t.Query(r.c, f)
						what := framework.FilterString([]nostr.Filter{f})
						t.Expect(onlyOf(w.ours(got), w.system())).To(BeEmpty(), "%s: REQ %s must leave the system channels out", r.name, what)
						t.Expect(w.ours(got)).To(ContainElement(w.Stream), "%s: REQ %s reads the open stream channel", r.name, what)
						if r.c == w.M {
							t.Expect(w.ours(got)).To(Equal(w.legacyFor(r.c)), "%s: REQ %s reads both stream channels", r.name, what)
						}
						t.ExpectCount(r.c, int64(len(got)), fmt.Sprintf("%s: COUNT %s counts what the REQ returns (no system channel)", r.name, what), f)
					}
				}
			}},
		{Case: framework.NewCase("identity/leave/5", framework.MUST,
			"Live subscriptions opened before the channels exist (generic 39000-39002, kind 9, 39002 #p:[me]) receive the stream channels' events but nothing of the system channels (create, membership, edit, message).",
			"identity/reads-leave-out.6"),
			Run: func(t *framework.T) {
				w := newSysActors(t)
				// A member its relay could not know when the subscriptions
				// opened (no AUTH, no challenge) is only known after build's
				// control read: what it received before is the anonymous view.
				anonymous := w.M.Unidentified()
				subs := map[*fixtures.Client]*fixtures.Subscription{}
				for _, r := range w.readers() {
					subs[r.c] = t.Subscribe(r.c,
						nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers}, Tags: nostr.TagMap{"t": {w.L}}},
						nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindMessage}, Since: &w.Since},
						nostr.Filter{Kinds: []int{fixtures.KindMembers}, Tags: nostr.TagMap{"p": {r.c.Actor().PubKey}}})
				}
				w.build(t)
				if anonymous && w.M.Authed() {
					t.Blocked(framework.PreAuth, "member: its connection had never authenticated when its live subscriptions opened (the relay sent no NIP-42 challenge on connect or on the harness's writes; the member authenticated only when its control read was answered auth-required:), so what they received is the anonymous view, not the member's")
				}
				// Edit and post in the system channels, then one last stream message.
				t.Accept(w.O, fixtures.EditChannel(w.O.Actor(), w.Sys, nostr.Tag{"name", t.Unique("renamed")}), "rename the system channel")
				w.post(t, w.SysOpen)
				last := w.post(t, w.Stream)
				for _, r := range w.readers() {
					seen, err := subs[r.c].WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.ID == last.ID })
					t.Must(err, r.name+": live delivery of the last stream message (control)")
					seen = append(seen, subs[r.c].Drain()...)
					got := w.ours(seen)
					t.Expect(got).To(Equal(w.legacyFor(r.c)), "%s: channels of live events", r.name)
				}
			}},
		{Case: framework.NewCase("identity/leave/6", framework.MUST,
			"NIP-50 search leaves system channels out (checked only when the relay advertises NIP-50).",
			"identity/reads-leave-out.5"),
			Run: func(t *framework.T) {
				needSearch(t)
				w := newSysWorld(t)
				for _, r := range w.readers() {
					// Control first: the search finds the stream message by its content.
					got := searchREQ(t, r.c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Search: w.Msg[w.Stream].Content})
					searchControl(t, r.name, got, w.Msg, []string{w.Stream})
					t.Expect(onlyOf(w.ours(got), w.system())).To(BeEmpty(), "%s: search for the stream message returned a system channel's message", r.name)
					got = searchREQ(t, r.c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Search: w.Msg[w.SysOpen].Content})
					t.Expect(onlyOf(w.ours(got), w.system())).To(BeEmpty(), "%s: search for the open system channel's message", r.name)
				}
			}},
		{Case: framework.NewCase("identity/leave/7", framework.MUST,
			"A NIP-50 search that names a system channel by #h finds its matching message for a member (an open one for anyone, a private one never for an outsider); the same search without #h leaves system channels out and finds the legacy channels' matches (control). Checked only when the relay advertises NIP-50.",
			"identity/reads-leave-out.5", "identity/naming.1", "identity/naming.4"),
			Run: func(t *framework.T) {
				t.Checking("identity/reads-leave-out.5")
				w, word, msg := searchWorld(t)
				find := func(tags nostr.TagMap) nostr.Filter {
					return nostr.Filter{Kinds: []int{fixtures.KindMessage}, Search: word, Tags: tags}
				}
				for _, r := range w.readers() {
					got := searchREQ(t, r.c, find(nil))
					searchControl(t, r.name, got, msg, w.legacyFor(r.c))
					t.Checking("identity/reads-leave-out.5")
					t.Expect(onlyOf(w.ours(got), w.system())).To(BeEmpty(),
						"%s: a search without #h must leave the system channels out (identity/reads-leave-out.5)", r.name)
					got = searchREQ(t, r.c, find(nostr.TagMap{"h": {w.SysOpen}}))
					t.Checking("identity/naming.1")
					t.Expect(framework.IDs(got)).To(ContainElement(msg[w.SysOpen].ID),
						"%s: a search naming the open system channel by #h finds its message (identity/naming.1)", r.name)
				}
				got := searchREQ(t, w.M, find(nostr.TagMap{"h": {w.Sys}}))
				t.Checking("identity/naming.1")
				t.Expect(framework.IDs(got)).To(ContainElement(msg[w.Sys].ID),
					"member: a search naming the private system channel by #h finds its message (identity/naming.1)")
				t.Checking("identity/naming.4")
				t.Note("outsider, search naming the private system channel by #h: %s",
					t.QueryAbsent(w.X, "outsider, search naming the private system channel by #h (identity/naming.4)", find(nostr.TagMap{"h": {w.Sys}})))
			}},
		{Case: framework.NewCase("identity/leave/8", framework.MUST,
			"Naming is per filter for NIP-50 search too: in one REQ, a search naming the private system channel by #h (its creator's messages only) and the same search without #h, in either order, the filter without #h gains nothing of the system channel (the member's own message there stays out). Checked only when the relay advertises NIP-50.",
			"identity/reads-leave-out.5", "identity/naming.1", "identity/naming.5"),
			Run: func(t *framework.T) {
				t.Checking("identity/reads-leave-out.5")
				w, word, msg := searchWorld(t)
				// The member's own message in the private system channel: the
				// named filter (authors: creator) never matches it, so only a
				// filter without #h that gained the channel could return it.
				own := postWord(t, w.M, w.Sys, word)
				named := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Search: word, Authors: []string{w.O.Actor().PubKey},
					Tags: nostr.TagMap{"h": {w.Sys}}}
				generic := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Search: word}
				searchControl(t, "member", searchREQ(t, w.M, generic), msg, w.legacyFor(w.M))
				t.Checking("identity/naming.1")
				t.Expect(framework.IDs(searchREQ(t, w.M, named))).To(ContainElement(msg[w.Sys].ID),
					"member: the search naming the private system channel by #h finds the creator's message there (identity/naming.1)")
				for _, order := range []struct {
					what    string
					filters []nostr.Filter
				}{
					{"[named #h, without #h]", []nostr.Filter{named, generic}},
					{"[without #h, named #h]", []nostr.Filter{generic, named}},
				} {
					got := searchREQ(t, w.M, order.filters...)
					ids := framework.IDs(got)
					t.Checking("identity/naming.1")
					t.Expect(ids).To(ContainElement(msg[w.Sys].ID), "member: REQ %s returns the named filter's match (identity/naming.1)", order.what)
					for _, ch := range w.legacyFor(w.M) {
						t.Expect(ids).To(ContainElement(msg[ch].ID), "member: REQ %s returns the legacy channels' matches", order.what)
					}
					t.Checking("identity/naming.5")
					t.Expect(ids).NotTo(ContainElement(own.ID),
						"member: REQ %s: the filter without #h gained the system channel named by the other filter, returning the member's own message there (identity/naming.5)", order.what)
					t.Checking("identity/reads-leave-out.5")
					t.Expect(ids).NotTo(ContainElement(msg[w.SysOpen].ID),
						"member: REQ %s returned the open system channel, which no filter names (identity/reads-leave-out.5)", order.what)
				}
			}},
	}, readmatrix.ReadsSpecs(
		identitySystemRule([]readmatrix.ReadRow{
			{Id: "identity/reads/1", Shape: "kinds", Viewer: readmatrix.ViewMember, Want: readmatrix.WantWithheld},
			{Id: "identity/reads/2", Shape: "authors", Viewer: readmatrix.ViewMember, Want: readmatrix.WantWithheld},
			{Id: "identity/reads/3", Shape: "ids", Viewer: readmatrix.ViewMember, Want: readmatrix.WantWithheld},
			{Id: "identity/reads/4", Shape: "t-label", Viewer: readmatrix.ViewMember, Want: readmatrix.WantWithheld},
			{Id: "identity/reads/5", Shape: "t-limit", Viewer: readmatrix.ViewMember, Want: readmatrix.WantWithheld},
			{Id: "identity/reads/6", Shape: "count", Viewer: readmatrix.ViewMember, Want: readmatrix.WantWithheld, Clause: "identity/reads-leave-out.4"},
			{Id: "identity/reads/7", Shape: "member-list", Viewer: readmatrix.ViewMember, Want: readmatrix.WantWithheld, Clause: "identity/reads-leave-out.3"},
			{Id: "identity/reads/12", Shape: "ids", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "identity/reads/13", Shape: "t-label", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "identity/reads/16", Shape: "live", Viewer: readmatrix.ViewMember, Want: readmatrix.WantWithheld, Clause: "identity/reads-leave-out.6"},
		}),
	)...)
}
