package identity

import (
	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// readsLeaveOutSpecs are the cases of identity/reads-leave-out; the NIP-50
// search cases beyond identity/leave/6 are in search.go.
func readsLeaveOutSpecs() []framework.Spec {
	return append([]framework.Spec{
		{Case: framework.NewCase("identity/leave/1", framework.MUST,
			"A 39000 REQ that does not name a channel (generic, or by label) returns no system channel to a member or an outsider, but does return the readable stream channels (control).",
			"identity/reads-leave-out.1", "identity/asking-for-system.5"),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				for _, r := range w.readers() {
					got := t.Query(r.c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"t": {w.L}}})
					t.Expect(idChannelSet(got)).To(Equal(w.legacyFor(r.c)), "%s: kinds:[39000] #t:[label]", r.name)
					since := w.sinceOwn(t, fixtures.KindMetadata)
					got = t.QueryEvery(r.c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Since: &since})
					t.Expect(w.ours(got)).To(Equal(w.legacyFor(r.c)), "%s: kinds:[39000] since (generic)", r.name)
					got = t.Query(r.c, nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers}, Tags: nostr.TagMap{"t": {w.L}}})
					t.Expect(idChannelSet(got)).To(Equal(w.legacyFor(r.c)), "%s: kinds:[39000,39001,39002] #t:[label]", r.name)
				}
			}},
		{Case: framework.NewCase("identity/leave/2", framework.MUST,
			"A kind 9 REQ that does not name a channel returns no system-channel message to a member or an outsider, but does return readable stream messages (control).",
			"identity/reads-leave-out.2"),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				for _, r := range w.readers() {
					got := t.Query(r.c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"t": {w.L}}})
					t.Expect(idChannelsOf(got)).To(Equal(w.legacyFor(r.c)), "%s: kinds:[9] #t:[label]", r.name)
					since := w.sinceOwn(t, fixtures.KindMessage)
					got = t.QueryEvery(r.c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Since: &since})
					t.Expect(w.ours(got)).To(Equal(w.legacyFor(r.c)), "%s: kinds:[9] since (generic)", r.name)
					got = t.Query(r.c, nostr.Filter{Authors: []string{w.O.Actor().PubKey}})
					t.Expect(w.ours(got)).To(Equal(w.legacyFor(r.c)), "%s: authors:[creator], no kinds", r.name)
				}
			}},
		{Case: framework.NewCase("identity/leave/3", framework.MUST,
			`kinds:[39002] #p:[me] ("the channels I belong to") leaves out the system channels the reader belongs to and lists the stream channels (control).`,
			"identity/reads-leave-out.3"),
			Run: func(t *framework.T) {
				t.RequireStateKinds(fixtures.KindMembers)
				w := newSysWorld(t)
				t.Expect(idFindOf(t, w.M, fixtures.KindMembers, nostr.TagMap{"p": {w.M.Actor().PubKey}})).To(Equal([]string{w.StreamPriv}), "member: 39002 #p:[me]")
				t.Expect(idFindOf(t, w.X, fixtures.KindMembers, nostr.TagMap{"p": {w.X.Actor().PubKey}})).To(Equal([]string{w.Stream}), "outsider: 39002 #p:[me]")
			}},
		{Case: framework.NewCase("identity/leave/4", framework.MUST,
			"COUNT leaves system channels out like REQ: 39000 and kind 9 counts by label, generic ones without any tag (by ids, by author) and 39002 #p:[me] cover only the readable stream channels.",
			"identity/reads-leave-out.4"),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				ids := idStateIDs(t, w.O, w.all())
				for _, r := range w.readers() {
					n := int64(len(w.legacyFor(r.c)))
					t.Expect(t.Count(r.c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"t": {w.L}}})).To(Equal(n), "%s: COUNT 39000 #t:[label]", r.name)
					t.Expect(t.Count(r.c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"t": {w.L}}})).To(Equal(n), "%s: COUNT kind 9 #t:[label]", r.name)
					if len(t.StateKinds(fixtures.KindMembers)) > 0 {
						t.Expect(t.Count(r.c, nostr.Filter{Kinds: []int{fixtures.KindMembers}, Tags: nostr.TagMap{"p": {r.c.Actor().PubKey}}})).To(Equal(int64(1)), "%s: COUNT 39002 #p:[me]", r.name)
					}
					// Generic filters without any tag: the world's 39000s by
					// ids, and the creator's messages by author (fresh key).
					for _, f := range []nostr.Filter{
						{Kinds: []int{fixtures.KindMetadata}, IDs: ids},
						{Kinds: []int{fixtures.KindMessage}, Authors: []string{w.O.Actor().PubKey}},
					} {
						got := t.Query(r.c, f)
						what := framework.FilterString([]nostr.Filter{f})
						t.Expect(idOnly(w.ours(got), w.system())).To(BeEmpty(), "%s: REQ %s must leave the system channels out", r.name, what)
						t.Expect(w.ours(got)).To(ContainElement(w.Stream), "%s: REQ %s reads the open stream channel", r.name, what)
						if r.c == w.M {
							t.Expect(w.ours(got)).To(Equal(w.legacyFor(r.c)), "%s: REQ %s reads both stream channels", r.name, what)
						}
						t.Expect(t.Count(r.c, f)).To(Equal(int64(len(got))), "%s: COUNT %s counts what the REQ returns (no system channel)", r.name, what)
					}
				}
			}},
		{Case: framework.NewCase("identity/leave/5", framework.MUST,
			"Live subscriptions opened before the channels exist (generic 39000-39002, kind 9, 39002 #p:[me]) receive the stream channels' events but nothing of the system channels (create, membership, edit, message).",
			"identity/reads-leave-out.6"),
			Run: func(t *framework.T) {
				w := newSysActors(t)
				subs := map[*fixtures.Client]*fixtures.Subscription{}
				for _, r := range w.readers() {
					subs[r.c] = t.Subscribe(r.c,
						nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers}, Tags: nostr.TagMap{"t": {w.L}}},
						nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindMessage}, Since: &w.Since},
						nostr.Filter{Kinds: []int{fixtures.KindMembers}, Tags: nostr.TagMap{"p": {r.c.Actor().PubKey}}})
				}
				w.build(t)
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
				idNeedSearch(t)
				w := newSysWorld(t)
				for _, r := range w.readers() {
					// Control first: the search finds the stream message by its content.
					got := idSearch(t, r.c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Search: w.Msg[w.Stream].Content})
					idSearchControl(t, r.name, got, w.Msg, []string{w.Stream})
					t.Expect(idOnly(w.ours(got), w.system())).To(BeEmpty(), "%s: search for the stream message returned a system channel's message", r.name)
					got = idSearch(t, r.c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Search: w.Msg[w.SysOpen].Content})
					t.Expect(idOnly(w.ours(got), w.system())).To(BeEmpty(), "%s: search for the open system channel's message", r.name)
				}
			}},
	}, searchSpecs()...)
}
