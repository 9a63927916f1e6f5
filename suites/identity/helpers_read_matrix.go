package identity

import (
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/readmatrix"
)

// identitySystemRule: reads that do not name a system channel leave it out,
// even for its members, whatever the filter (identity/reads-leave-out: an
// ids filter names no channel, only #h does, or #d on a filter of kinds
// 39000-39003 alone); COUNT likewise; naming or opting in reads it under
// the ordinary rules (identity/naming, identity/asking-for-system), which
// still withhold a private one from outsiders.
func identitySystemRule(rows []readmatrix.ReadRow) readmatrix.ReadRule {
	meta := []int{fixtures.KindMetadata}
	return readmatrix.ReadRule{
		Name: "system-channel", Refusal: framework.RefusalFailsCase, Level: framework.MUST,
		Clause: "identity/reads-leave-out.1",
		Rests:  "a private system channel's state is left out of every read that does not name it or opt in",
		Build:  buildIdentitySystem,
		Shapes: []readmatrix.ReadShape{
			readmatrix.ControlShape("kinds", `{"kinds":[39000],"since":fixture start}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Kinds: meta, Since: readmatrix.Ts(fx.T0)})
			}),
			readmatrix.ControlShape("authors", `{"authors":[relay key],"kinds":[39000],"since":fixture start}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Authors: []string{fx.Relay}, Kinds: meta, Since: readmatrix.Ts(fx.T0)})
			}),
			readmatrix.WithControl(readmatrix.ReqShape("ids", `{"ids":[the system channel's 39000]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{IDs: []string{fx.Ev["target"].ID}})
			}), `{"ids":[the open stream's 39000]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{IDs: fx.Base})
			}),
			readmatrix.ControlShape("t-label", `{"kinds":[39000],"#t":[label]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"t": {fx.Label}}})
			}),
			readmatrix.LimitShape("t-limit", `{"kinds":[39000],"#t":[label],"limit":1} with the system channel newer than an open stream`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"t": {fx.Label}}, Limit: 1})
			}),
			readmatrix.CountShape("count", `COUNT {"kinds":[39000],"#t":[label]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"t": {fx.Label}}})
			}),
			readmatrix.WithControl(readmatrix.ReqShape("member-list", `{"kinds":[39002],"#p":[reader]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Kinds: []int{fixtures.KindMembers}, Tags: nostr.TagMap{"p": {fx.Viewer.Actor().PubKey}}})
			}), `{"kinds":[39000],"#d":[open stream]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"d": {fx.Open}}})
			}),
			readmatrix.ControlShape("multi", `two filters in one REQ: {"kinds":[9],"#h":[system channel]} (names it), {"kinds":[39000],"#t":[label]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {fx.Ch}}},
					nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"t": {fx.Label}}})
			}),
			readmatrix.WithControl(readmatrix.ReqShape("d-named", `{"kinds":[39000],"#d":[system channel]} (names it)`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"d": {fx.Ch}}})
			}), `{"kinds":[39000],"#d":[open stream]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"d": {fx.Open}}})
			}),
			readmatrix.WithControl(readmatrix.ReqShape("d-no-kinds", `{"#d":[system channel]} without kinds (does not name it)`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Tags: nostr.TagMap{"d": {fx.Ch}}})
			}), `{"#d":[open stream]} without kinds`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Tags: nostr.TagMap{"d": {fx.Open}}})
			}),
			readmatrix.WithControl(readmatrix.ReqShape("t-system", `{"kinds":[39000],"#t":["system"],"since":fixture start} (opts in)`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"t": {fixtures.TypeSystem}}, Since: readmatrix.Ts(fx.T0)})
			}), `{"kinds":[39000],"#t":[label],"since":fixture start}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"t": {fx.Label}}, Since: readmatrix.Ts(fx.T0)})
			}),
			readmatrix.WithControl(readmatrix.ReqShape("P", `{"kinds":[39000],"#P":[creator]} (opts in)`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"P": {fx.Owner.Actor().PubKey}}})
			}), `{"kinds":[39000],"#d":[open stream]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"d": {fx.Open}}})
			}),
			readmatrix.LiveShape(`live {"kinds":[39000],"#t":[label]}: a rename of the system channel, then one of the open stream`, true),
		},
		Rows: rows,
	}
}

// buildIdentitySystem: an open stream labeled L, then (newer) a private
// system channel labeled L with a member; the system channel's state is
// the target.
func buildIdentitySystem(t *framework.T, viewer, _ string) *readmatrix.ReadFx {
	t0 := nostr.Timestamp(time.Now().Add(-5 * time.Second).Unix())
	owner := t.Connect(t.Actor("creator"))
	member := t.Connect(t.ActorAs(readmatrix.MemberKind(viewer), "member"))
	label := freshLabel(t)
	open := mkChannel(t, owner, chanOpts{Visibility: fixtures.Open, Labels: []string{label}})
	openMeta := t.MustStateEvent(owner, fixtures.KindMetadata, open)
	ch := mkChannel(t, owner, chanOpts{Type: fixtures.TypeSystem, Labels: []string{label}})
	t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, member.Actor().PubKey, "member"), "add the member to the system channel")
	t.Accept(owner, fixtures.Message(owner.Actor(), ch, t.Unique("system message")), "message in the system channel")
	readmatrix.RemoveViewer(t, viewer, owner, member, ch)
	target := t.OneHead(owner, fixtures.KindMetadata, ch)
	if target == nil {
		t.Violates("identity/naming.2", "identity draft (identity/naming.2): the creator naming the system channel by #d got no 39000")
	}
	fx := &readmatrix.ReadFx{
		Owner: owner, Viewer: readmatrix.ViewerClient(t, viewer, member), Ch: ch, Open: open, T0: t0,
		Ev: map[string]*nostr.Event{"target": target},
		IsTarget: func(ev *nostr.Event) bool {
			return ev.Kind >= fixtures.KindMetadata && ev.Kind <= fixtures.KindRoles && framework.DTag(ev) == ch
		},
		Base:  []string{openMeta.ID},
		Label: label, Relay: t.Env.RelayPubKey,
		CountBase: 1, CountTargets: 1,
		LiveFilter: nostr.Filter{Kinds: meta(), Tags: nostr.TagMap{"t": {label}}},
	}
	fx.Live = func() (*nostr.Event, string) {
		t.Accept(owner, fixtures.EditChannel(owner.Actor(), ch, nostr.Tag{"name", t.Unique("renamed")}), "rename the system channel")
		tgt := t.OneHead(owner, fixtures.KindMetadata, ch)
		t.Accept(owner, fixtures.EditChannel(owner.Actor(), open, nostr.Tag{"name", t.Unique("renamed")}), "rename the open stream")
		return tgt, t.OneHead(owner, fixtures.KindMetadata, open).ID
	}
	return fx
}

// meta is the kinds list of 39000 reads.
func meta() []int { return []int{fixtures.KindMetadata} }
