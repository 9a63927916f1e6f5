package nip29

import (
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/readmatrix"
)

// basePrivateRule: NIP-29's private groups are read by members only, and
// that holds whatever the filter looks like (nip29/read-access.1 and .3,
// MUST); hidden newer private messages do not use up an outsider's limit
// (read-access.2, SHOULD); COUNT counts what the reader may read (NIP-45:
// count.1 MUST for what the reader may read, count.3 SHOULD for the rest).
// A 9001 ends membership, so a removed member reads like an outsider.
func basePrivateRule(rows []readmatrix.ReadRow) readmatrix.ReadRule {
	return readmatrix.ReadRule{
		Name: "private-group", Refusal: framework.RefusalBlocksCase, Level: framework.MUST,
		Clause: "nip29/read-access.1", SeenCl: "nip29/read-access.3",
		Rests: "a private group's messages are read by its members only, whatever the filter",
		Build: func(t *framework.T, viewer, shape string) *readmatrix.ReadFx {
			return buildBasePrivate(t, viewer, shape, false)
		},
		Shapes:        basePrivateShapes(),
		Rows:          rows,
		LevelReadings: privateLevelReadings,
	}
}

// privateLevelReadings are the levels the private-group rows are judged
// at, by clause: NIP-29 defines private without a keyword.
var privateLevelReadings = map[string]string{
	"nip29/read-access.1": "Level: \"private indicates that only members can read group messages\" is a definition without a keyword. It is held at MUST as binding on a relay that shows the flag: every row judges only after the group's 39000 shows private (else blocked on flag-private), so the relay's own metadata tells clients that only members read, and serving a message to anyone else makes what it published false.",
	"nip29/read-access.3": "Level: \"private indicates that only members can read group messages\" is a definition without a keyword. It is held at MUST for members too: a private group is one its members read, and a relay that withholds their own group's messages from members has no private group at all (a refused read blocks the row; it does not fail it).",
	"nip29/read-access.2": "Level: SHOULD. NIP-29 says nothing of limits: that unreadable private messages do not use up an outsider's limit follows from the private definition read with NIP-01's \"Relays SHOULD use the limit value to guide how many events are returned\" and \"it is assumed that the events returned in the initial query will be the last n events\" (of those the reader may get). NIP-01's \"Returning fewer events is acceptable\" keeps it below MUST.",
	"nip45/count.1":       "Level: MUST, from NIP-45 (a COUNT is answered with the count of what the filters match) with the private definition (\"only members can read\", no keyword) deciding that a member's COUNT counts the private messages; a refused COUNT blocks the row.",
	"nip45/count.3":       "Level: SHOULD. NIP-45 does not name private groups; that a COUNT must not count what the reader may not read follows from the private definition (\"only members can read group messages\", no keyword) and is held at SHOULD, because a count discloses how many messages exist, not what they say.",
}

// basePrivateShapes are the read shapes of the NIP-29 private-group rules.
func basePrivateShapes() []readmatrix.ReadShape {
	kind9 := []int{fixtures.KindMessage}
	return []readmatrix.ReadShape{
		readmatrix.ReqShape("h", `{"kinds":[9],"#h":[private]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: kind9, Tags: nostr.TagMap{"h": {fx.Ch}}})
		}),
		readmatrix.ReqShape("ids", `{"ids":[private message]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{IDs: []string{fx.Ev["secret"].ID}})
		}),
		readmatrix.ReqShape("authors", `{"authors":[poster]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Authors: []string{fx.Owner.Actor().PubKey}})
		}),
		readmatrix.ReqShape("kinds", `{"kinds":[9],"since":fixture start}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: kind9, Since: readmatrix.Ts(fx.T0)})
		}),
		readmatrix.ReqShape("since-until", `{"kinds":[9],"since":t,"until":t} around the private message, no #h`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			at := fx.Ev["secret"].CreatedAt
			return readmatrix.One(nostr.Filter{Kinds: kind9, Since: readmatrix.Ts(at), Until: readmatrix.Ts(at)})
		}),
		readmatrix.ReqShape("multi", `two filters in one REQ: {"ids":[open message]}, {"kinds":[9],"#h":[private]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{IDs: []string{fx.Ev["open"].ID}}, nostr.Filter{Kinds: kind9, Tags: nostr.TagMap{"h": {fx.Ch}}})
		}),
		readmatrix.LimitShape("limit", `{"kinds":[9],"#h":[open, private],"limit":1} with the private messages newer than the open one`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: kind9, Tags: nostr.TagMap{"h": {fx.Open, fx.Ch}}, Limit: 1})
		}),
		readmatrix.CountShape("count-h", `COUNT {"kinds":[9],"#h":[private]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: kind9, Tags: nostr.TagMap{"h": {fx.Ch}}})
		}),
		readmatrix.CountShape("count-ids", `COUNT {"ids":[private message]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{IDs: []string{fx.Ev["secret"].ID}})
		}),
		readmatrix.LiveShape(`live {"kinds":[9],"#h":[private, open]}: a new private message, then an open one`, false),
	}
}

// baseFlippedRule: a group made private by a 9002 after its messages were
// posted is, from then on, read by its members only (nip29/read-access.1
// and .3 on the group's current flags; COUNT nip45/count.3).
func baseFlippedRule(rows []readmatrix.ReadRow) readmatrix.ReadRule {
	return readmatrix.ReadRule{
		Name: "flipped-private", Refusal: framework.RefusalBlocksCase, Level: framework.MUST,
		Clause: "nip29/read-access.1", SeenCl: "nip29/read-access.3",
		Rests: "an open group's messages are read by its members only once a 9002 makes it private",
		Build: func(t *framework.T, viewer, shape string) *readmatrix.ReadFx {
			return buildBasePrivate(t, viewer, shape, true)
		},
		Shapes:        basePrivateShapes(),
		Rows:          rows,
		LevelReadings: privateLevelReadings,
	}
}

// buildBasePrivate: an open group with an older message, then a private
// group (the owner and a member) with one newer message; the viewer is
// opened, and a removed member removed, before any read. With flip, the
// group is created open, its message posted, and then a 9002 makes it
// private. The open group is made only for the shapes that read it.
func buildBasePrivate(t *framework.T, viewer, shape string, flip bool) *readmatrix.ReadFx {
	t0 := nostr.Timestamp(time.Now().Add(-60 * time.Second).Unix())
	vis := fixtures.Private
	if flip {
		vis = ""
	}
	owner, member, ch := framework.ChannelWithMemberKind(t, vis, "member", readmatrix.MemberKind(viewer))
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
			framework.CheckPrefix("OK", ok.Reason)
			t.RefusedWrite(framework.PreEditMetadata, ok, "the creator's 9002 making the group private")
		}
	}
	t.RequireFlags(owner, ch, fixtures.FlagPrivate)
	readmatrix.RemoveViewer(t, viewer, owner, member, ch)
	fx := &readmatrix.ReadFx{
		Owner: owner, Viewer: readmatrix.ViewerClient(t, viewer, member), Ch: ch, Open: open, T0: t0,
		Ev:           map[string]*nostr.Event{"secret": secret, "open": older},
		IsTarget:     func(ev *nostr.Event) bool { return ev.Kind == fixtures.KindMessage && hTag(ev) == ch },
		CountTargets: 1,
		LiveFilter:   nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch, open}}},
	}
	if older != nil {
		fx.Base = []string{older.ID}
	}
	fx.Live = func() (*nostr.Event, string) {
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
