package suites

import (
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// readsIdentitySpecs are the read-matrix cases of this profile.
func readsIdentitySpecs() []Spec { return readsSpecs(identitySystemRule()) }

// identitySystemRule: reads that do not name a system channel leave it out,
// even for its members, whatever the filter (identity/reads-leave-out: an
// ids filter names no channel, only #h does, or #d on a filter of kinds
// 39000-39003 alone); COUNT likewise; naming or opting in reads it under
// the ordinary rules (identity/naming, identity/asking-for-system), which
// still withhold a private one from outsiders.
func identitySystemRule() readRule {
	meta := []int{fixtures.KindMetadata}
	return readRule{
		name: "system-channel", profile: ProfileIdentity, level: MUST,
		clause: "identity/reads-leave-out.1",
		rests:  "a private system channel's state is left out of every read that does not name it or opt in",
		build:  buildIdentitySystem,
		shapes: []readShape{
			controlShape("kinds", `{"kinds":[39000],"since":fixture start}`, func(fx *readFx) []nostr.Filter {
				return one(nostr.Filter{Kinds: meta, Since: ts(fx.t0)})
			}),
			controlShape("authors", `{"authors":[relay key],"kinds":[39000],"since":fixture start}`, func(fx *readFx) []nostr.Filter {
				return one(nostr.Filter{Authors: []string{fx.relay}, Kinds: meta, Since: ts(fx.t0)})
			}),
			reqShape("ids", `{"ids":[the system channel's 39000]}`, func(fx *readFx) []nostr.Filter {
				return one(nostr.Filter{IDs: []string{fx.ev["target"].ID}})
			}),
			controlShape("t-label", `{"kinds":[39000],"#t":[label]}`, func(fx *readFx) []nostr.Filter {
				return one(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"t": {fx.label}}})
			}),
			limitShape("t-limit", `{"kinds":[39000],"#t":[label],"limit":1} with the system channel newer than an open stream`, func(fx *readFx) []nostr.Filter {
				return one(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"t": {fx.label}}, Limit: 1})
			}),
			countShape("count", `COUNT {"kinds":[39000],"#t":[label]}`, func(fx *readFx) []nostr.Filter {
				return one(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"t": {fx.label}}})
			}),
			reqShape("member-list", `{"kinds":[39002],"#p":[reader]}`, func(fx *readFx) []nostr.Filter {
				return one(nostr.Filter{Kinds: []int{fixtures.KindMembers}, Tags: nostr.TagMap{"p": {fx.viewer.Actor().PubKey}}})
			}),
			controlShape("multi", `two filters in one REQ: {"kinds":[9],"#h":[system channel]} (names it), {"kinds":[39000],"#t":[label]}`, func(fx *readFx) []nostr.Filter {
				return one(nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {fx.ch}}},
					nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"t": {fx.label}}})
			}),
			reqShape("d-named", `{"kinds":[39000],"#d":[system channel]} (names it)`, func(fx *readFx) []nostr.Filter {
				return one(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"d": {fx.ch}}})
			}),
			reqShape("d-no-kinds", `{"#d":[system channel]} without kinds (does not name it)`, func(fx *readFx) []nostr.Filter {
				return one(nostr.Filter{Tags: nostr.TagMap{"d": {fx.ch}}})
			}),
			reqShape("t-system", `{"kinds":[39000],"#t":["system"],"since":fixture start} (opts in)`, func(fx *readFx) []nostr.Filter {
				return one(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"t": {fixtures.TypeSystem}}, Since: ts(fx.t0)})
			}),
			reqShape("P", `{"kinds":[39000],"#P":[creator]} (opts in)`, func(fx *readFx) []nostr.Filter {
				return one(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"P": {fx.owner.Actor().PubKey}}})
			}),
			liveShape(`live {"kinds":[39000],"#t":[label]}: a rename of the system channel, then one of the open stream`, true),
		},
		rows: []readRow{
			{id: "identity/reads/1", shape: "kinds", viewer: viewMember, want: wantWithheld},
			{id: "identity/reads/2", shape: "authors", viewer: viewMember, want: wantWithheld},
			{id: "identity/reads/3", shape: "ids", viewer: viewMember, want: wantWithheld},
			{id: "identity/reads/4", shape: "t-label", viewer: viewMember, want: wantWithheld},
			{id: "identity/reads/5", shape: "t-limit", viewer: viewMember, want: wantWithheld},
			{id: "identity/reads/6", shape: "count", viewer: viewMember, want: wantWithheld, clause: "identity/reads-leave-out.4"},
			{id: "identity/reads/7", shape: "member-list", viewer: viewMember, want: wantWithheld, clause: "identity/reads-leave-out.3"},
			{id: "identity/reads/8", shape: "multi", viewer: viewMember, want: wantWithheld, clause: "identity/naming.5"},
			{id: "identity/reads/9", shape: "d-named", viewer: viewMember, want: wantSeen, clause: "identity/naming.2"},
			{id: "identity/reads/10", shape: "d-no-kinds", viewer: viewMember, want: wantWithheld, clause: "identity/naming.3"},
			{id: "identity/reads/11", shape: "t-system", viewer: viewMember, want: wantSeen, clause: "identity/asking-for-system.1"},
			{id: "identity/reads/12", shape: "ids", viewer: viewOutside, want: wantWithheld},
			{id: "identity/reads/13", shape: "t-label", viewer: viewOutside, want: wantWithheld},
			{id: "identity/reads/14", shape: "d-named", viewer: viewOutside, want: wantWithheld, clause: "identity/naming.4"},
			{id: "identity/reads/15", shape: "t-system", viewer: viewOutside, want: wantWithheld, clause: "identity/asking-for-system.7"},
			{id: "identity/reads/16", shape: "live", viewer: viewMember, want: wantWithheld, clause: "identity/reads-leave-out.6"},
			{id: "identity/reads/17", shape: "d-named", viewer: viewRemoved, want: wantWithheld, clause: "identity/naming.4"},
			{id: "identity/reads/18", shape: "t-system", viewer: viewRemoved, want: wantWithheld, clause: "identity/asking-for-system.7"},
			{id: "identity/reads/19", shape: "P", viewer: viewMember, want: wantSeen, clause: "identity/asking-for-system.2"},
			{id: "identity/reads/20", shape: "P", viewer: viewOutside, want: wantWithheld, clause: "identity/asking-for-system.7"},
		},
	}
}

// buildIdentitySystem: an open stream labeled L, then (newer) a private
// system channel labeled L with a member; the system channel's state is
// the target.
func buildIdentitySystem(t *T, viewer, _ string) *readFx {
	t0 := nostr.Timestamp(time.Now().Add(-5 * time.Second).Unix())
	owner := t.Connect(t.Actor("creator"))
	member := t.Connect(t.Actor("member"))
	label := idLabel(t)
	open := idChannel(t, owner, idChanOpts{Visibility: fixtures.Open, Labels: []string{label}})
	openMeta := t.MustStateEvent(owner, fixtures.KindMetadata, open)
	ch := idChannel(t, owner, idChanOpts{Type: fixtures.TypeSystem, Labels: []string{label}})
	t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, member.Actor().PubKey, "member"), "add the member to the system channel")
	t.Accept(owner, fixtures.Message(owner.Actor(), ch, t.Unique("system message")), "message in the system channel")
	removeViewer(t, viewer, owner, member, ch)
	target := t.OneHead(owner, fixtures.KindMetadata, ch)
	if target == nil {
		failf("identity draft (identity/naming.2): the creator naming the system channel by #d got no 39000")
	}
	fx := &readFx{
		owner: owner, viewer: viewerClient(t, viewer, member), ch: ch, open: open, t0: t0,
		ev: map[string]*nostr.Event{"target": target},
		isTarget: func(ev *nostr.Event) bool {
			return ev.Kind >= fixtures.KindMetadata && ev.Kind <= fixtures.KindRoles && dTag(ev) == ch
		},
		base:  []string{openMeta.ID},
		label: label, relay: t.Env.RelayPubKey,
		countBase: 1, countTargets: 1,
		liveFilter: nostr.Filter{Kinds: meta(), Tags: nostr.TagMap{"t": {label}}},
	}
	fx.live = func() (*nostr.Event, string) {
		t.Accept(owner, fixtures.EditChannel(owner.Actor(), ch, nostr.Tag{"name", t.Unique("renamed")}), "rename the system channel")
		tgt := t.OneHead(owner, fixtures.KindMetadata, ch)
		t.Accept(owner, fixtures.EditChannel(owner.Actor(), open, nostr.Tag{"name", t.Unique("renamed")}), "rename the open stream")
		return tgt, t.OneHead(owner, fixtures.KindMetadata, open).ID
	}
	return fx
}

// meta is the kinds list of 39000 reads.
func meta() []int { return []int{fixtures.KindMetadata} }
