package labels

import (
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/readmatrix"
)

// labelShapes are the read shapes of the labels rules: label x (the rule's
// label), the older readable channel fx.open, and the target channel fx.ch.
func labelShapes(x func(fx *readmatrix.ReadFx) string) []readmatrix.ReadShape {
	meta := []int{fixtures.KindMetadata}
	l := func(fx *readmatrix.ReadFx) nostr.TagMap { return nostr.TagMap{"l": {x(fx)}} }
	return []readmatrix.ReadShape{
		readmatrix.ControlShape("l", `{"kinds":[39000],"#l":[x]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: meta, Tags: l(fx)})
		}),
		readmatrix.ControlShape("L", `{"kinds":[39000],"#L":["nip-cl"],"since":fixture start} (the namespace alone)`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"L": {labelNS}}, Since: readmatrix.Ts(fx.T0)})
		}),
		readmatrix.ControlShape("L-l", `{"kinds":[39000],"#L":["nip-cl"],"#l":[x]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"L": {labelNS}, "l": {x(fx)}}})
		}),
		readmatrix.LimitShape("l-limit", `{"kinds":[39000],"#l":[x],"limit":1} with the target newer than the readable match`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: meta, Tags: l(fx), Limit: 1})
		}),
		readmatrix.ControlShape("ids", `{"ids":[target snapshot, readable snapshot],"#l":[x]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{IDs: []string{fx.Ev["target"].ID, fx.Ev["readable"].ID}, Tags: l(fx)})
		}),
		readmatrix.ControlShape("until", `{"kinds":[39000],"#l":[x],"until":created_at of the target snapshot}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: meta, Tags: l(fx), Until: readmatrix.Ts(fx.Ev["target"].CreatedAt)})
		}),
		readmatrix.ControlShape("authors", `{"authors":[relay key],"kinds":[39000],"#l":[x]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Authors: []string{fx.RelayKey()}, Kinds: meta, Tags: l(fx)})
		}),
		readmatrix.ControlShape("multi", `two filters in one REQ: {"kinds":[39000],"#d":[readable]}, {"kinds":[39000],"#l":[x]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"d": {fx.Open}}}, nostr.Filter{Kinds: meta, Tags: l(fx)})
		}),
		readmatrix.WithControl(readmatrix.ExactShape("d", `exact read {"kinds":[39000],"#d":[target channel]}, heads counted`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"d": {fx.Ch}}})
		}), `the exact read {"kinds":[39000],"#d":[readable channel]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"d": {fx.Open}}})
		}),
		readmatrix.CountShape("count", `COUNT {"kinds":[39000],"#l":[x]}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: meta, Tags: l(fx)})
		}),
		readmatrix.LiveShape(`live {"kinds":[39000],"#l":[x]}: a label change on the target channel, then one on the readable channel`, true),
		readmatrix.LimitShape("ids-l-limit", `{"ids":[target snapshot, readable snapshot],"#l":[x],"limit":1} with the target newer than the readable match`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{IDs: []string{fx.Ev["target"].ID, fx.Ev["readable"].ID}, Tags: l(fx), Limit: 1})
		}),
		readmatrix.CountShape("count-limit", `COUNT {"kinds":[39000],"#l":[x],"limit":2} (two matches at most: whether a limit caps a count or not, the number is the same)`, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: meta, Tags: l(fx), Limit: 2})
		}),
		readmatrix.CountShapeBase("count-d", `COUNT {"kinds":[39000],"#d":[target channel]} (nothing readable besides the target: 0 to a withholding viewer)`, 0, func(fx *readmatrix.ReadFx) []nostr.Filter {
			return readmatrix.One(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"d": {fx.Ch}}})
		}),
	}
}

// labelsSupersededRule: a snapshot replaced by a label change is no longer
// current and must not be served by label reads, nor use up their limit,
// whatever the request's shape (labels/finding-channels.6, MUST).
func labelsSupersededRule(rows []readmatrix.ReadRow) readmatrix.ReadRule {
	return readmatrix.ReadRule{
		Name: "superseded-snapshot", Refusal: framework.RefusalFailsCase, Level: framework.MUST,
		Clause: "labels/finding-channels.6",
		Rests:  "a snapshot superseded by a label change is never served by a label read nor uses up its limit",
		Build:  buildLabelsSuperseded,
		Shapes: labelShapes(func(fx *readmatrix.ReadFx) string { return fx.Label }),
		Rows:   rows,
	}
}

// buildLabelsSuperseded: two open channels labeled x, the readable one
// older; the target channel gets another label (a snapshot with x strictly
// newer than the readable one's: the target), then trades x for a third
// label, so the target is superseded by a newer snapshot without x.
func buildLabelsSuperseded(t *framework.T, viewer, _ string) *readmatrix.ReadFx {
	t0 := nostr.Timestamp(time.Now().Add(-5 * time.Second).Unix())
	owner := t.Connect(t.Actor("owner"))
	member := t.Connect(t.ActorAs(readmatrix.MemberKind(viewer), "member"))
	x := lbl(t, "gone")
	readable := createLabeled(t, owner, "", fixtures.Open, x)
	ch := createLabeled(t, owner, "", fixtures.Open, x)
	t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, member.Actor().PubKey, "member"), "add the member")
	// A second snapshot with x, strictly newer than the readable one's
	// (a replacement is newer than what it replaces), becomes the target.
	acceptNew(t, owner, mutationEv(owner.Actor(), ch, []string{lbl(t, "tmp")}, nil), "add a second label")
	old := snapshot(t, owner, ch)
	acceptNew(t, owner, mutationEv(owner.Actor(), ch, []string{lbl(t, "other")}, []string{x}), "trade x for another label")
	cur := snapshot(t, owner, ch)
	if cur.ID == old.ID {
		framework.Failf("labels draft (labels/add-remove): the label change published no new snapshot of %s", ch)
	}
	readSnap := snapshot(t, owner, readable)
	return &readmatrix.ReadFx{
		Owner: owner, Viewer: readmatrix.ViewerClient(t, viewer, member), Ch: ch, Open: readable, T0: t0,
		Ev:    map[string]*nostr.Event{"target": old, "readable": readSnap},
		Label: x, Relay: t.Env.RelayPubKey,
		IsTarget:  func(ev *nostr.Event) bool { return ev.ID == old.ID || (framework.DTag(ev) == ch && hasLabel(ev, x)) },
		Base:      []string{readSnap.ID},
		CountBase: 1, CountTargets: 1,
	}
}

// labelsInaccessibleRule: a private channel's snapshots are read by its
// members only; for anyone else they are neither returned, counted nor
// delivered, and never use up a label read's limit, whatever the request's
// shape (labels/finding-channels.7 with labels/authorization.8; live
// delivery labels/finding-channels.10). A 9001 ends access.
func labelsInaccessibleRule(rows []readmatrix.ReadRow) readmatrix.ReadRule {
	return readmatrix.ReadRule{
		Name: "private-snapshot", Refusal: framework.RefusalFailsCase, Level: framework.MUST,
		Clause: "labels/finding-channels.7",
		Rests:  "a private channel's labeled snapshot is read by its members only and never uses up another reader's limit",
		Build:  buildLabelsPrivate,
		Shapes: labelShapes(func(fx *readmatrix.ReadFx) string { return fx.Label }),
		Rows:   rows,
	}
}

// buildLabelsPrivate: an open channel labeled x, then (newer) a private,
// hidden channel (NIP-29's flags; its metadata seen withheld from a
// non-member) labeled x with a member; the private channel's snapshot is
// the target.
func buildLabelsPrivate(t *framework.T, viewer, _ string) *readmatrix.ReadFx {
	t0 := nostr.Timestamp(time.Now().Add(-5 * time.Second).Unix())
	owner := t.Connect(t.Actor("owner"))
	member := t.Connect(t.ActorAs(readmatrix.MemberKind(viewer), "member"))
	x := lbl(t, "priv")
	readable := createLabeled(t, owner, "", fixtures.Open, x)
	// The channel is made private and hidden with NIP-29's flags and its
	// metadata seen withheld from a non-member (the row's own viewer when it
	// is one) before it is labeled.
	vc := readmatrix.ViewerClient(t, viewer, member)
	prober := vc
	if viewer == readmatrix.ViewMember || viewer == readmatrix.ViewRemoved {
		prober = t.Connect(t.Actor("outsider"))
	}
	ch := createWithheld(t, owner, prober, x)
	t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, member.Actor().PubKey, "member"), "add the member")
	// A replacement snapshot, strictly newer than the readable one's.
	acceptNew(t, owner, mutationEv(owner.Actor(), ch, []string{lbl(t, "tmp")}, nil), "add a second label")
	readmatrix.RemoveViewer(t, viewer, owner, member, ch)
	target := snapshot(t, owner, ch)
	readSnap := snapshot(t, owner, readable)
	fx := &readmatrix.ReadFx{
		Owner: owner, Viewer: vc, Ch: ch, Open: readable, T0: t0,
		Ev:    map[string]*nostr.Event{"target": target, "readable": readSnap},
		Label: x, Relay: t.Env.RelayPubKey,
		IsTarget:  func(ev *nostr.Event) bool { return framework.DTag(ev) == ch },
		Base:      []string{readSnap.ID},
		CountBase: 1, CountTargets: 1,
		LiveFilter: nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {x}}},
	}
	fx.Live = func() (*nostr.Event, string) {
		acceptNew(t, owner, mutationEv(owner.Actor(), ch, []string{lbl(t, "more")}, nil), "label change on the private channel")
		tgt := snapshot(t, owner, ch)
		acceptNew(t, owner, mutationEv(owner.Actor(), readable, []string{lbl(t, "more")}, nil), "label change on the open channel")
		return tgt, snapshot(t, owner, readable).ID
	}
	return fx
}

// labelsTagPositionRule: a tag filter matches a tag's first value only
// (NIP-01), so the nip-cl namespace that closes every snapshot l tag is not
// a value #l finds (nip01/filters.1: every returned event matches).
func labelsTagPositionRule(rows []readmatrix.ReadRow) readmatrix.ReadRule {
	return readmatrix.ReadRule{
		Name: "tag-position", Refusal: framework.RefusalFailsCase, Level: framework.MUST,
		Clause: "nip01/filters.1",
		Rests:  "#l matches the first value of an l tag only, so the namespace element (third position) finds no snapshot",
		Build:  buildLabelsOpen,
		Shapes: []readmatrix.ReadShape{
			readmatrix.ReqShape("l-namespace", `{"kinds":[39000],"#l":["nip-cl"],"since":fixture start}`, func(fx *readmatrix.ReadFx) []nostr.Filter {
				return readmatrix.One(nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {labelNS}}, Since: readmatrix.Ts(fx.T0)})
			}),
		},
		Rows: rows,
	}
}

// buildLabelsOpen: one open labeled channel, its snapshot the target.
func buildLabelsOpen(t *framework.T, viewer, _ string) *readmatrix.ReadFx {
	t0 := nostr.Timestamp(time.Now().Add(-5 * time.Second).Unix())
	owner := t.Connect(t.Actor("owner"))
	ch := createLabeled(t, owner, "", fixtures.Open, lbl(t, "pos"))
	return &readmatrix.ReadFx{
		Owner: owner, Viewer: readmatrix.ViewerClient(t, viewer, nil), Ch: ch, T0: t0,
		IsTarget: func(ev *nostr.Event) bool { return framework.DTag(ev) == ch },
	}
}

// hasLabel reports whether a snapshot carries the nip-cl label v.
func hasLabel(ev *nostr.Event, v string) bool {
	for _, tag := range ev.Tags {
		if len(tag) >= 2 && tag[0] == "l" && tag[1] == v {
			return true
		}
	}
	return false
}
