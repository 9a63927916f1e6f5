package identity

import (
	"fmt"
	"slices"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// sysWorld is the fixture of the system-channel cases. The creator O owns
// four channels that all carry the label L:
//
//	Sys        system, created without visibility (private by default)
//	SysOpen    system, ["visibility","open"]
//	Stream     stream, open      (control: a legacy type)
//	StreamPriv stream, private   (control)
//
// M (member) belongs to Sys, SysOpen and StreamPriv; X (outsider of Sys
// and StreamPriv) belongs to SysOpen and Stream. Every channel has one kind
// 9 message tagged ["t", L].
type sysWorld struct {
	O, M, X *fixtures.Client
	L       string
	Since   nostr.Timestamp // a little before the world was built

	Sys, SysOpen, Stream, StreamPriv string
	Msg                              map[string]*nostr.Event
}

// newSysActors opens the three connections and picks the label; build
// creates the channels (so a case can subscribe in between).
func newSysActors(t *framework.T) *sysWorld {
	return &sysWorld{
		O: t.Connect(t.Actor("creator")), M: t.Connect(t.Actor("member")), X: t.Connect(t.Actor("outsider")),
		L: freshLabel(t), Since: nostr.Timestamp(time.Now().Add(-5 * time.Second).Unix()),
		Msg: map[string]*nostr.Event{},
	}
}

func newSysWorld(t *framework.T) *sysWorld {
	w := newSysActors(t)
	w.build(t)
	return w
}

// build creates the system channels first, then the legacy ones (so in
// live cases the last events are the controls').
func (w *sysWorld) build(t *framework.T) {
	o := w.O.Actor()
	w.Sys = mkChannel(t, w.O, chanOpts{Type: fixtures.TypeSystem, Labels: []string{w.L}})
	w.SysOpen = mkChannel(t, w.O, chanOpts{Type: fixtures.TypeSystem, Visibility: fixtures.Open, Labels: []string{w.L}})
	for _, ch := range []string{w.Sys, w.SysOpen} {
		t.Accept(w.O, fixtures.PutUser(o, ch, w.M.Actor().PubKey, "member"), "add M to a system channel")
	}
	t.Accept(w.O, fixtures.PutUser(o, w.SysOpen, w.X.Actor().PubKey, "member"), "add X to the open system channel")
	for _, ch := range []string{w.Sys, w.SysOpen} {
		w.post(t, ch)
	}
	w.Stream = mkChannel(t, w.O, chanOpts{Visibility: fixtures.Open, Labels: []string{w.L}})
	w.StreamPriv = mkChannel(t, w.O, chanOpts{Visibility: fixtures.Private, Labels: []string{w.L}})
	t.Accept(w.O, fixtures.PutUser(o, w.StreamPriv, w.M.Actor().PubKey, "member"), "add M to the private stream")
	t.Accept(w.O, fixtures.PutUser(o, w.Stream, w.X.Actor().PubKey, "member"), "add X to the open stream")
	for _, ch := range []string{w.StreamPriv, w.Stream} {
		w.post(t, ch)
	}
	requireKnownMember(t, w.M, w.Msg[w.StreamPriv])
}

// requireKnownMember is the positive control of a member's reads: member
// reads the message msg of a private channel it belongs to, naming the
// channel (a relay that asks for AUTH there gets it: the client answers
// "auth-required:"). A relay that sent the connection no NIP-42 challenge,
// on connect or on any answer, and serves it nothing cannot know the
// reader is a member (NIP-42 lets a client authenticate only when
// challenged): what the member reads is not observable, and the case is
// blocked on AUTH rather than judged on an anonymous view.
func requireKnownMember(t *framework.T, member *fixtures.Client, msg *nostr.Event) {
	GinkgoHelper()
	if member.Authed() || msg == nil {
		return
	}
	h := msg.Tags.Find("h")
	if len(h) < 2 {
		return
	}
	f := nostr.Filter{Kinds: []int{msg.Kind}, Tags: nostr.TagMap{"h": {h[1]}}}
	r := t.QueryResult(member, f)
	for _, ev := range r.Events {
		if ev.ID == msg.ID {
			return
		}
	}
	if member.Unidentified() {
		t.Blocked(framework.PreAuth, fmt.Sprintf("member: %s (its own private channel's messages) returned none of them to the member, whose connection never authenticated: the relay sent no NIP-42 challenge, on connect, on its writes or on this read, so it could not know the reader is a member", framework.FilterString([]nostr.Filter{f})))
	}
}

// post publishes a kind 9 message tagged ["t", L] in ch as O.
func (w *sysWorld) post(t *framework.T, ch string) *nostr.Event {
	m := w.O.Actor().Event(fixtures.KindMessage, nostr.Tags{{"h", ch}, {"t", w.L}}, t.Unique("message"))
	t.Accept(w.O, m, "message")
	w.Msg[ch] = m
	return m
}

// rename renames ch as O with one 9002 carrying the new name, the about
// and picture, and every NIP-29 flag the channel's current 39000 shows, so
// the edit changes nothing but the name whether the relay reads a 9002 as
// a patch or as the whole new metadata (reading nip29-edit-metadata).
func (w *sysWorld) rename(t *framework.T, ch string) {
	GinkgoHelper()
	meta := t.GroupMetadata(w.O, ch)
	m := fixtures.GroupMetadata{Name: t.Unique("renamed")}
	m.About, _ = fixtures.TagValue(meta, "about")
	m.Picture, _ = fixtures.TagValue(meta, "picture")
	for _, f := range []string{fixtures.FlagPrivate, fixtures.FlagClosed, fixtures.FlagHidden, fixtures.FlagRestricted} {
		if fixtures.HasFlag(meta, f) {
			m.Flags = append(m.Flags, f)
		}
	}
	t.Accept(w.O, fixtures.EditGroup(w.O.Actor(), ch, m), "rename a system channel (with its current about, picture and flags)")
}

// sinceOwn is the oldest created_at among the world's current events of
// kind (its 39000 heads, read as the creator, or its messages): a since
// taken from the events themselves, so neither clock skew nor other
// cases' events of the seconds before widen a generic read.
func (w *sysWorld) sinceOwn(t *framework.T, kind int) nostr.Timestamp {
	var oldest nostr.Timestamp
	take := func(ts nostr.Timestamp) {
		if oldest == 0 || ts < oldest {
			oldest = ts
		}
	}
	if kind == fixtures.KindMessage {
		for _, m := range w.Msg {
			take(m.CreatedAt)
		}
	} else {
		for _, ch := range w.all() {
			take(t.MustStateEvent(w.O, kind, ch).CreatedAt)
		}
	}
	if oldest == 0 {
		return w.Since
	}
	return oldest
}

func (w *sysWorld) all() []string { return []string{w.Sys, w.SysOpen, w.Stream, w.StreamPriv} }

func (w *sysWorld) system() []string { return []string{w.Sys, w.SysOpen} }

// legacyFor is what a reader may see without naming: readable legacy channels.
func (w *sysWorld) legacyFor(c *fixtures.Client) []string {
	if c == w.X {
		return []string{w.Stream}
	}
	return sortedCopy(w.Stream, w.StreamPriv)
}

// systemFor is the system channels the reader may read.
func (w *sysWorld) systemFor(c *fixtures.Client) []string {
	if c == w.X {
		return []string{w.SysOpen}
	}
	return sortedCopy(w.Sys, w.SysOpen)
}

// readers are M and X with their names for messages.
func (w *sysWorld) readers() []struct {
	name string
	c    *fixtures.Client
} {
	return []struct {
		name string
		c    *fixtures.Client
	}{{"member", w.M}, {"outsider", w.X}}
}

// ours keeps the events of this world's channels.
func (w *sysWorld) ours(evs []*nostr.Event) []string {
	return onlyOf(channelsOf(evs), sortedCopy(w.all()...))
}

// findOf returns the distinct channels of one kind matching tags.
func findOf(t *framework.T, c *fixtures.Client, kind int, tags nostr.TagMap) []string {
	return channelSet(t.Query(c, nostr.Filter{Kinds: []int{kind}, Tags: tags}))
}

// present keeps, of pairs ("channel/kind", see pairsOf), those whose
// state event the relay serves the world's creator now: NIP-29 lets a
// relay have none of a state kind ("a single instance of each (or none)"),
// for a while too, so a case expects of a reader only what exists.
func (w *sysWorld) present(t *framework.T, pairs []string) []string {
	GinkgoHelper()
	have := pairsFor(t.Query(w.O, nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers}, Tags: nostr.TagMap{"d": w.all()}}), w.all())
	out := []string{}
	for _, p := range pairs {
		if slices.Contains(have, p) {
			out = append(out, p)
		}
	}
	return out
}

// requireNoUnreadableSystem fails at identity/asking-for-system.7 when got
// holds a system channel of this world outside readable: an opt-in that
// returned a channel past its ACL breaks that sentence, whatever the
// filter's own opt-in sentence (checked after this, on what is left).
func (w *sysWorld) requireNoUnreadableSystem(t *framework.T, got, readable []string, what string) {
	GinkgoHelper()
	for _, ch := range got {
		if slices.Contains(w.system(), ch) && !slices.Contains(readable, ch) {
			t.Violates("identity/asking-for-system.7", "identity draft (identity/asking-for-system.7): %s returned the system channel %s, which this reader may not read (readable: %v)", what, ch, readable)
		}
	}
}
