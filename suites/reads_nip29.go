package suites

import (
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// readsBaselineSpecs are the read-matrix cases of this profile.
func readsBaselineSpecs() []Spec { return readsSpecs(basePrivateRule(), baseFlippedRule()) }

// basePrivateRule: NIP-29's private groups are read by members only, and
// that holds whatever the filter looks like (nip29/read-access.1 and .3,
// MUST); hidden newer private messages do not use up an outsider's limit
// (read-access.2, SHOULD); COUNT counts what the reader may read (NIP-45:
// count.1 MUST for what the reader may read, count.3 SHOULD for the rest).
// A 9001 ends membership, so a removed member reads like an outsider.
func basePrivateRule() readRule {
	return readRule{
		name: "private-group", profile: ProfileBaseline, level: MUST,
		clause: "nip29/read-access.1", seenCl: "nip29/read-access.3",
		rests:  "a private group's messages are read by its members only, whatever the filter",
		build:  func(t *T, viewer, shape string) *readFx { return buildBasePrivate(t, viewer, shape, false) },
		shapes: basePrivateShapes(),
		rows: []readRow{
			{id: "base/reads/1", shape: "h", viewer: viewMember, want: wantSeen},
			{id: "base/reads/2", shape: "ids", viewer: viewMember, want: wantSeen},
			{id: "base/reads/3", shape: "authors", viewer: viewMember, want: wantSeen},
			{id: "base/reads/4", shape: "since-until", viewer: viewMember, want: wantSeen},
			{id: "base/reads/5", shape: "multi", viewer: viewMember, want: wantSeen},
			{id: "base/reads/6", shape: "live", viewer: viewMember, want: wantSeen},
			{id: "base/reads/7", shape: "h", viewer: viewOutside, want: wantWithheld},
			{id: "base/reads/8", shape: "ids", viewer: viewOutside, want: wantWithheld},
			{id: "base/reads/9", shape: "authors", viewer: viewOutside, want: wantWithheld},
			{id: "base/reads/10", shape: "kinds", viewer: viewOutside, want: wantWithheld},
			{id: "base/reads/11", shape: "since-until", viewer: viewOutside, want: wantWithheld},
			{id: "base/reads/12", shape: "multi", viewer: viewOutside, want: wantWithheld},
			{id: "base/reads/13", shape: "live", viewer: viewOutside, want: wantWithheld},
			{id: "base/reads/14", shape: "h", viewer: viewAnon, want: wantWithheld},
			{id: "base/reads/15", shape: "ids", viewer: viewAnon, want: wantWithheld},
			{id: "base/reads/16", shape: "kinds", viewer: viewAnon, want: wantWithheld},
			{id: "base/reads/17", shape: "since-until", viewer: viewAnon, want: wantWithheld},
			{id: "base/reads/18", shape: "multi", viewer: viewAnon, want: wantWithheld},
			{id: "base/reads/19", shape: "h", viewer: viewRemoved, want: wantWithheld},
			{id: "base/reads/20", shape: "ids", viewer: viewRemoved, want: wantWithheld},
			{id: "base/reads/21", shape: "authors", viewer: viewRemoved, want: wantWithheld},
			{id: "base/reads/22", shape: "since-until", viewer: viewRemoved, want: wantWithheld},
			{id: "base/reads/23", shape: "multi", viewer: viewRemoved, want: wantWithheld},
			{id: "base/reads/24", shape: "live", viewer: viewRemoved, want: wantWithheld},
			{id: "base/reads/25", shape: "limit", viewer: viewOutside, want: wantWithheld, level: SHOULD, clause: "nip29/read-access.2"},
			{id: "base/reads/26", shape: "limit", viewer: viewAnon, want: wantWithheld, level: SHOULD, clause: "nip29/read-access.2"},
			{id: "base/reads/27", shape: "limit", viewer: viewRemoved, want: wantWithheld, level: SHOULD, clause: "nip29/read-access.2"},
			{id: "base/reads/28", shape: "count-h", viewer: viewMember, want: wantSeen, clause: "nip45/count.1"},
			{id: "base/reads/29", shape: "count-h", viewer: viewOutside, want: wantWithheld, level: SHOULD, clause: "nip45/count.3"},
			{id: "base/reads/30", shape: "count-ids", viewer: viewOutside, want: wantWithheld, level: SHOULD, clause: "nip45/count.3"},
			{id: "base/reads/31", shape: "count-h", viewer: viewRemoved, want: wantWithheld, level: SHOULD, clause: "nip45/count.3"},
			{id: "base/reads/32", shape: "count-h", viewer: viewAnon, want: wantWithheld, level: SHOULD, clause: "nip45/count.3"},
		},
	}
}

// basePrivateShapes are the read shapes of the NIP-29 private-group rules.
func basePrivateShapes() []readShape {
	kind9 := []int{fixtures.KindMessage}
	return []readShape{
		reqShape("h", `{"kinds":[9],"#h":[private]}`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{Kinds: kind9, Tags: nostr.TagMap{"h": {fx.ch}}})
		}),
		reqShape("ids", `{"ids":[private message]}`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{IDs: []string{fx.ev["secret"].ID}})
		}),
		reqShape("authors", `{"authors":[poster]}`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{Authors: []string{fx.owner.Actor().PubKey}})
		}),
		reqShape("kinds", `{"kinds":[9],"since":fixture start}`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{Kinds: kind9, Since: ts(fx.t0)})
		}),
		reqShape("since-until", `{"kinds":[9],"since":t,"until":t} around the private message, no #h`, func(fx *readFx) []nostr.Filter {
			at := fx.ev["secret"].CreatedAt
			return one(nostr.Filter{Kinds: kind9, Since: ts(at), Until: ts(at)})
		}),
		reqShape("multi", `two filters in one REQ: {"ids":[open message]}, {"kinds":[9],"#h":[private]}`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{IDs: []string{fx.ev["open"].ID}}, nostr.Filter{Kinds: kind9, Tags: nostr.TagMap{"h": {fx.ch}}})
		}),
		limitShape("limit", `{"kinds":[9],"#h":[open, private],"limit":1} with the private messages newer than the open one`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{Kinds: kind9, Tags: nostr.TagMap{"h": {fx.open, fx.ch}}, Limit: 1})
		}),
		countShape("count-h", `COUNT {"kinds":[9],"#h":[private]}`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{Kinds: kind9, Tags: nostr.TagMap{"h": {fx.ch}}})
		}),
		countShape("count-ids", `COUNT {"ids":[private message]}`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{IDs: []string{fx.ev["secret"].ID}})
		}),
		liveShape(`live {"kinds":[9],"#h":[private, open]}: a new private message, then an open one`, false),
	}
}

// baseFlippedRule: a group made private by a 9002 after its messages were
// posted is, from then on, read by its members only (nip29/read-access.1
// and .3 on the group's current flags; COUNT nip45/count.3).
func baseFlippedRule() readRule {
	return readRule{
		name: "flipped-private", profile: ProfileBaseline, level: MUST,
		clause: "nip29/read-access.1", seenCl: "nip29/read-access.3",
		rests:  "an open group's messages are read by its members only once a 9002 makes it private",
		build:  func(t *T, viewer, shape string) *readFx { return buildBasePrivate(t, viewer, shape, true) },
		shapes: basePrivateShapes(),
		rows: []readRow{
			{id: "base/reads/33", shape: "h", viewer: viewMember, want: wantSeen},
			{id: "base/reads/34", shape: "h", viewer: viewOutside, want: wantWithheld},
			{id: "base/reads/35", shape: "ids", viewer: viewOutside, want: wantWithheld},
			{id: "base/reads/36", shape: "since-until", viewer: viewAnon, want: wantWithheld},
			{id: "base/reads/37", shape: "multi", viewer: viewOutside, want: wantWithheld},
			{id: "base/reads/38", shape: "count-h", viewer: viewOutside, want: wantWithheld, level: SHOULD, clause: "nip45/count.3"},
		},
	}
}

// buildBasePrivate: an open group with an older message, then a private
// group (the owner and a member) with one newer message; the viewer is
// opened, and a removed member removed, before any read. With flip, the
// group is created open, its message posted, and then a 9002 makes it
// private. The open group is made only for the shapes that read it.
func buildBasePrivate(t *T, viewer, shape string, flip bool) *readFx {
	t0 := nostr.Timestamp(time.Now().Add(-60 * time.Second).Unix())
	vis := fixtures.Private
	if flip {
		vis = ""
	}
	owner, member, ch := channelWithMember(t, vis, "member")
	var open string
	var older *nostr.Event
	if shape == "multi" || shape == "limit" || shape == "live" {
		open = t.CreateChannel(owner, fixtures.ChannelSpec{})
		older = owner.Actor().EventAt(time.Now().Add(-30*time.Second), fixtures.KindMessage, nostr.Tags{{"h", open}}, "readable older message")
		t.Accept(owner, older, "older message in the open group")
	}
	secret := fixtures.Message(owner.Actor(), ch, t.Unique("secret"))
	t.Accept(owner, secret, "message in the group")
	if flip {
		meta := fixtures.GroupMetadata{Name: t.Unique("flipped"), About: "nipcl-conform test group", Flags: []string{fixtures.FlagPrivate}}
		ok := t.Publish(owner, fixtures.EditGroup(owner.Actor(), ch, meta))
		if !ok.Accepted {
			checkPrefix("OK", ok.Reason)
			t.refusedWrite(PreEditMetadata, ok, "the creator's 9002 making the group private")
		}
	}
	t.RequireFlags(owner, ch, fixtures.FlagPrivate)
	removeViewer(t, viewer, owner, member, ch)
	fx := &readFx{
		owner: owner, viewer: viewerClient(t, viewer, member), ch: ch, open: open, t0: t0,
		ev:           map[string]*nostr.Event{"secret": secret, "open": older},
		isTarget:     func(ev *nostr.Event) bool { return ev.Kind == fixtures.KindMessage && hTag(ev) == ch },
		countTargets: 1,
		liveFilter:   nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch, open}}},
	}
	if older != nil {
		fx.base = []string{older.ID}
	}
	fx.live = func() (*nostr.Event, string) {
		m := fixtures.Message(owner.Actor(), ch, t.Unique("live secret"))
		t.Accept(owner, m, "new message in the private group")
		control := fixtures.Message(owner.Actor(), open, t.Unique("live control"))
		t.Accept(owner, control, "new message in the open group")
		return m, control.ID
	}
	return fx
}

// hTag is an event's h value ("" when it has none).
func hTag(ev *nostr.Event) string {
	v, _ := fixtures.TagValue(ev, "h")
	return v
}
