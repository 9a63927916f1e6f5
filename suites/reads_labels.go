package suites

import (
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// readsLabelsSpecs are the read-matrix cases of this profile.
func readsLabelsSpecs() []Spec {
	return readsSpecs(labelsSupersededRule(), labelsInaccessibleRule(), labelsTagPositionRule())
}

// labelShapes are the read shapes of the labels rules: label x (the rule's
// label), the older readable channel fx.open, and the target channel fx.ch.
func labelShapes(x func(fx *readFx) string) []readShape {
	meta := []int{fixtures.KindMetadata}
	l := func(fx *readFx) nostr.TagMap { return nostr.TagMap{"l": {x(fx)}} }
	return []readShape{
		controlShape("l", `{"kinds":[39000],"#l":[x]}`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{Kinds: meta, Tags: l(fx)})
		}),
		controlShape("L", `{"kinds":[39000],"#L":["nip-cl"],"since":fixture start} (the namespace alone)`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"L": {labelNS}}, Since: ts(fx.t0)})
		}),
		controlShape("L-l", `{"kinds":[39000],"#L":["nip-cl"],"#l":[x]}`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"L": {labelNS}, "l": {x(fx)}}})
		}),
		limitShape("l-limit", `{"kinds":[39000],"#l":[x],"limit":1} with the target newer than the readable match`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{Kinds: meta, Tags: l(fx), Limit: 1})
		}),
		controlShape("ids", `{"ids":[target snapshot, readable snapshot],"#l":[x]}`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{IDs: []string{fx.ev["target"].ID, fx.ev["readable"].ID}, Tags: l(fx)})
		}),
		controlShape("until", `{"kinds":[39000],"#l":[x],"until":created_at of the target snapshot}`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{Kinds: meta, Tags: l(fx), Until: ts(fx.ev["target"].CreatedAt)})
		}),
		controlShape("authors", `{"authors":[relay key],"kinds":[39000],"#l":[x]}`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{Authors: []string{fx.relayKey()}, Kinds: meta, Tags: l(fx)})
		}),
		controlShape("multi", `two filters in one REQ: {"kinds":[39000],"#d":[readable]}, {"kinds":[39000],"#l":[x]}`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"d": {fx.open}}}, nostr.Filter{Kinds: meta, Tags: l(fx)})
		}),
		exactShape("d", `exact read {"kinds":[39000],"#d":[target channel]}, heads counted`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{Kinds: meta, Tags: nostr.TagMap{"d": {fx.ch}}})
		}),
		countShape("count", `COUNT {"kinds":[39000],"#l":[x]}`, func(fx *readFx) []nostr.Filter {
			return one(nostr.Filter{Kinds: meta, Tags: l(fx)})
		}),
		liveShape(`live {"kinds":[39000],"#l":[x]}: a label change on the target channel, then one on the readable channel`, true),
	}
}

// relayKey is the key relay-signed state carries.
func (fx *readFx) relayKey() string { return fx.relay }

// labelsSupersededRule: a snapshot replaced by a label change is no longer
// current and must not be served by label reads, nor use up their limit,
// whatever the request's shape (labels/finding-channels.6, MUST).
func labelsSupersededRule() readRule {
	return readRule{
		name: "superseded-snapshot", profile: ProfileLabels, level: MUST,
		clause: "labels/finding-channels.6",
		rests:  "a snapshot superseded by a label change is never served by a label read nor uses up its limit",
		build:  buildLabelsSuperseded,
		shapes: labelShapes(func(fx *readFx) string { return fx.label }),
		rows: []readRow{
			{id: "labels/reads/1", shape: "l", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/2", shape: "L-l", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/3", shape: "l-limit", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/4", shape: "ids", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/5", shape: "until", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/6", shape: "authors", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/7", shape: "multi", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/8", shape: "d", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/9", shape: "count", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/10", shape: "l", viewer: viewMember, want: wantWithheld},
			{id: "labels/reads/35", shape: "L", viewer: viewOutside, want: wantWithheld},
		},
	}
}

// buildLabelsSuperseded: two open channels labeled x, the readable one
// older; the target channel gets another label (a snapshot with x strictly
// newer than the readable one's: the target), then trades x for a third
// label, so the target is superseded by a newer snapshot without x.
func buildLabelsSuperseded(t *T, viewer, _ string) *readFx {
	t0 := nostr.Timestamp(time.Now().Add(-5 * time.Second).Unix())
	owner := t.Connect(t.Actor("owner"))
	member := t.Connect(t.Actor("member"))
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
		failf("labels draft (labels/add-remove): the label change published no new snapshot of %s", ch)
	}
	readSnap := snapshot(t, owner, readable)
	return &readFx{
		owner: owner, viewer: viewerClient(t, viewer, member), ch: ch, open: readable, t0: t0,
		ev:    map[string]*nostr.Event{"target": old, "readable": readSnap},
		label: x, relay: t.Env.RelayPubKey,
		isTarget:  func(ev *nostr.Event) bool { return ev.ID == old.ID || (dTag(ev) == ch && hasLabel(ev, x)) },
		base:      []string{readSnap.ID},
		countBase: 1, countTargets: 1,
	}
}

// labelsInaccessibleRule: a private channel's snapshots are read by its
// members only; for anyone else they are neither returned, counted nor
// delivered, and never use up a label read's limit, whatever the request's
// shape (labels/finding-channels.7 with labels/authorization.8; live
// delivery labels/finding-channels.10). A 9001 ends access.
func labelsInaccessibleRule() readRule {
	return readRule{
		name: "private-snapshot", profile: ProfileLabels, level: MUST,
		clause: "labels/finding-channels.7",
		rests:  "a private channel's labeled snapshot is read by its members only and never uses up another reader's limit",
		build:  buildLabelsPrivate,
		shapes: labelShapes(func(fx *readFx) string { return fx.label }),
		rows: []readRow{
			{id: "labels/reads/11", shape: "l", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/12", shape: "L-l", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/13", shape: "l-limit", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/14", shape: "ids", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/15", shape: "until", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/16", shape: "authors", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/17", shape: "multi", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/18", shape: "d", viewer: viewOutside, want: wantWithheld, clause: "labels/authorization.8"},
			{id: "labels/reads/19", shape: "count", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/20", shape: "live", viewer: viewOutside, want: wantWithheld, clause: "labels/finding-channels.10"},
			{id: "labels/reads/21", shape: "l", viewer: viewAnon, want: wantWithheld},
			{id: "labels/reads/22", shape: "l-limit", viewer: viewAnon, want: wantWithheld},
			{id: "labels/reads/23", shape: "d", viewer: viewAnon, want: wantWithheld, clause: "labels/authorization.8"},
			{id: "labels/reads/24", shape: "l", viewer: viewMember, want: wantSeen},
			{id: "labels/reads/25", shape: "l-limit", viewer: viewMember, want: wantSeen},
			{id: "labels/reads/26", shape: "ids", viewer: viewMember, want: wantSeen},
			{id: "labels/reads/27", shape: "d", viewer: viewMember, want: wantSeen, clause: "labels/finding-channels.3"},
			{id: "labels/reads/28", shape: "count", viewer: viewMember, want: wantSeen},
			{id: "labels/reads/29", shape: "live", viewer: viewAnon, want: wantWithheld, clause: "labels/finding-channels.10"},
			{id: "labels/reads/30", shape: "l", viewer: viewRemoved, want: wantWithheld},
			{id: "labels/reads/31", shape: "ids", viewer: viewRemoved, want: wantWithheld},
			{id: "labels/reads/32", shape: "d", viewer: viewRemoved, want: wantWithheld, clause: "labels/authorization.8"},
			{id: "labels/reads/33", shape: "count", viewer: viewRemoved, want: wantWithheld},
			{id: "labels/reads/34", shape: "L", viewer: viewOutside, want: wantWithheld},
			{id: "labels/reads/36", shape: "L", viewer: viewMember, want: wantSeen},
		},
	}
}

// buildLabelsPrivate: an open channel labeled x, then (newer) a private,
// hidden channel (NIP-29's flags; its metadata seen withheld from a
// non-member) labeled x with a member; the private channel's snapshot is
// the target.
func buildLabelsPrivate(t *T, viewer, _ string) *readFx {
	t0 := nostr.Timestamp(time.Now().Add(-5 * time.Second).Unix())
	owner := t.Connect(t.Actor("owner"))
	member := t.Connect(t.Actor("member"))
	x := lbl(t, "priv")
	readable := createLabeled(t, owner, "", fixtures.Open, x)
	// The channel is made private and hidden with NIP-29's flags and its
	// metadata seen withheld from a non-member (the row's own viewer when it
	// is one) before it is labeled.
	vc := viewerClient(t, viewer, member)
	prober := vc
	if viewer == viewMember || viewer == viewRemoved {
		prober = t.Connect(t.Actor("outsider"))
	}
	ch := createWithheld(t, owner, prober, x)
	t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, member.Actor().PubKey, "member"), "add the member")
	// A replacement snapshot, strictly newer than the readable one's.
	acceptNew(t, owner, mutationEv(owner.Actor(), ch, []string{lbl(t, "tmp")}, nil), "add a second label")
	removeViewer(t, viewer, owner, member, ch)
	target := snapshot(t, owner, ch)
	readSnap := snapshot(t, owner, readable)
	fx := &readFx{
		owner: owner, viewer: vc, ch: ch, open: readable, t0: t0,
		ev:    map[string]*nostr.Event{"target": target, "readable": readSnap},
		label: x, relay: t.Env.RelayPubKey,
		isTarget:  func(ev *nostr.Event) bool { return dTag(ev) == ch },
		base:      []string{readSnap.ID},
		countBase: 1, countTargets: 1,
		liveFilter: nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {x}}},
	}
	fx.live = func() (*nostr.Event, string) {
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
func labelsTagPositionRule() readRule {
	return readRule{
		name: "tag-position", profile: ProfileLabels, level: MUST,
		clause: "nip01/filters.1",
		rests:  "#l matches the first value of an l tag only, so the namespace element (third position) finds no snapshot",
		build:  buildLabelsOpen,
		shapes: []readShape{
			reqShape("l-namespace", `{"kinds":[39000],"#l":["nip-cl"],"since":fixture start}`, func(fx *readFx) []nostr.Filter {
				return one(nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {labelNS}}, Since: ts(fx.t0)})
			}),
		},
		rows: []readRow{
			{id: "labels/reads/37", shape: "l-namespace", viewer: viewOutside, want: wantWithheld},
		},
	}
}

// buildLabelsOpen: one open labeled channel, its snapshot the target.
func buildLabelsOpen(t *T, viewer, _ string) *readFx {
	t0 := nostr.Timestamp(time.Now().Add(-5 * time.Second).Unix())
	owner := t.Connect(t.Actor("owner"))
	ch := createLabeled(t, owner, "", fixtures.Open, lbl(t, "pos"))
	return &readFx{
		owner: owner, viewer: viewerClient(t, viewer, nil), ch: ch, t0: t0,
		isTarget: func(ev *nostr.Event) bool { return dTag(ev) == ch },
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
