package identity

import (
	"time"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// sysWorld is the fixture of the system-channel cases. The creator O owns
// four channels that all carry the label L:
//
//	sys        system, created without visibility (private by default)
//	sysOpen    system, ["visibility","open"]
//	stream     stream, open      (control: a legacy type)
//	streamPriv stream, private   (control)
//
// M (member) belongs to sys, sysOpen and streamPriv; X (outsider of sys
// and streamPriv) belongs to sysOpen and stream. Every channel has one kind
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
		L: idLabel(t), Since: nostr.Timestamp(time.Now().Add(-5 * time.Second).Unix()),
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
	w.Sys = idChannel(t, w.O, idChanOpts{Type: fixtures.TypeSystem, Labels: []string{w.L}})
	w.SysOpen = idChannel(t, w.O, idChanOpts{Type: fixtures.TypeSystem, Visibility: fixtures.Open, Labels: []string{w.L}})
	for _, ch := range []string{w.Sys, w.SysOpen} {
		t.Accept(w.O, fixtures.PutUser(o, ch, w.M.Actor().PubKey, "member"), "add M to a system channel")
	}
	t.Accept(w.O, fixtures.PutUser(o, w.SysOpen, w.X.Actor().PubKey, "member"), "add X to the open system channel")
	for _, ch := range []string{w.Sys, w.SysOpen} {
		w.post(t, ch)
	}
	w.Stream = idChannel(t, w.O, idChanOpts{Visibility: fixtures.Open, Labels: []string{w.L}})
	w.StreamPriv = idChannel(t, w.O, idChanOpts{Visibility: fixtures.Private, Labels: []string{w.L}})
	t.Accept(w.O, fixtures.PutUser(o, w.StreamPriv, w.M.Actor().PubKey, "member"), "add M to the private stream")
	t.Accept(w.O, fixtures.PutUser(o, w.Stream, w.X.Actor().PubKey, "member"), "add X to the open stream")
	for _, ch := range []string{w.StreamPriv, w.Stream} {
		w.post(t, ch)
	}
}

// post publishes a kind 9 message tagged ["t", L] in ch as O.
func (w *sysWorld) post(t *framework.T, ch string) *nostr.Event {
	m := w.O.Actor().Event(fixtures.KindMessage, nostr.Tags{{"h", ch}, {"t", w.L}}, t.Unique("message"))
	t.Accept(w.O, m, "message")
	w.Msg[ch] = m
	return m
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
	return idSorted(w.Stream, w.StreamPriv)
}

// systemFor is the system channels the reader may read.
func (w *sysWorld) systemFor(c *fixtures.Client) []string {
	if c == w.X {
		return []string{w.SysOpen}
	}
	return idSorted(w.Sys, w.SysOpen)
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
	return idOnly(idChannelsOf(evs), idSorted(w.all()...))
}

// identitySystemSpecs: "System channels" and "Reads that leave system
// channels out".
func identitySystemSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: idCase("identity/system/1", []string{"identity/system-channels.1", "identity/system-channels.4"}, "identity/system-channels", framework.MUST,
			`A 9007 with ["channel_type","system"] creates a channel whose 39000-39002 start with ["t","system"]; members read it by #d, post in it, and roles and labels work like in any channel.`),
			Run: func(t *framework.T) {
				o, m := t.Connect(t.Actor("creator")), t.Connect(t.Actor("member"))
				labels := idLabels(t, 1)
				ch := idChannel(t, o, idChanOpts{Type: fixtures.TypeSystem, Labels: labels})
				t.Accept(o, fixtures.PutUser(o.Actor(), ch, m.Actor().PubKey, "member"), "add a member")
				requireIdentityAll(t, m, ch, fixtures.TypeSystem, labels, o.Actor().PubKey)
				msg := fixtures.Message(m.Actor(), ch, "config")
				t.Accept(m, msg, "a member posts in the system channel")
				t.Expect(framework.IDs(t.Query(m, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}}))).To(Equal([]string{msg.ID}), "the member reads it by #h")
				// Roles work as usual: an admin adds a member and changes the labels.
				admin := t.Connect(t.Actor("admin"))
				t.Accept(o, fixtures.PutUser(o.Actor(), ch, admin.Actor().PubKey, "admin"), "add an admin")
				t.Accept(admin, fixtures.PutUser(admin.Actor(), ch, t.Actor("late").PubKey, "member"), "the admin adds a member")
				next := idLabels(t, 2)
				t.Accept(admin, fixtures.EditChannel(admin.Actor(), ch, idTTags(next...)...), "the admin relabels")
				requireIdentityAll(t, m, ch, fixtures.TypeSystem, next, o.Actor().PubKey)
			}},
		{Case: idCase("identity/system/2", []string{"identity/naming.4", "identity/system-channels.2"}, "identity/system-channels", framework.MUST,
			"A system channel created without a visibility tag is private: an outsider reads neither its 39000-39002 (by #d) nor its messages (by #h or id)."),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				for _, c := range []*fixtures.Client{w.X, t.Connect(nil)} {
					who := framework.ActorName(c)
					t.Note("%s by #d: %s", who, t.QueryAbsent(c, "outsider by #d", nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers}, Tags: nostr.TagMap{"d": {w.Sys}}}))
					t.Note("%s by #h: %s", who, t.QueryAbsent(c, "outsider by #h", nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {w.Sys}}}))
					t.Note("%s by id: %s", who, t.QueryAbsent(c, "outsider by id", nostr.Filter{IDs: []string{w.Msg[w.Sys].ID}}))
				}
				t.Expect(fixtures.HasTag(t.MustStateEvent(w.M, fixtures.KindMetadata, w.Sys), "private")).To(BeTrue(), "39000 of the private system channel is marked private")
			}},
		{Case: idCase("identity/system/3", []string{"identity/system-channels.3"}, "identity/system-channels", framework.MUST,
			`A private system channel's 39000 carries the NIP-29 ["hidden"] tag; an open system channel's does not.`),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				t.Expect(fixtures.HasTag(t.MustStateEvent(w.M, fixtures.KindMetadata, w.Sys), "hidden")).To(BeTrue(), "private system channel: hidden")
				t.Expect(fixtures.HasTag(t.MustStateEvent(w.X, fixtures.KindMetadata, w.SysOpen), "hidden")).To(BeFalse(), "open system channel: no hidden")
			}},
		{Case: idCase("identity/leave/1", []string{"identity/asking-for-system.5", "identity/reads-leave-out.1"}, "identity/reads-leave-out", framework.MUST,
			"A 39000 REQ that does not name a channel (generic, or by label) returns no system channel to a member or an outsider, but does return the readable stream channels (control)."),
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
		{Case: idCase("identity/leave/2", []string{"identity/reads-leave-out.2"}, "identity/reads-leave-out", framework.MUST,
			"A kind 9 REQ that does not name a channel returns no system-channel message to a member or an outsider, but does return readable stream messages (control)."),
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
		{Case: idCase("identity/leave/3", []string{"identity/reads-leave-out.3"}, "identity/reads-leave-out", framework.MUST,
			`kinds:[39002] #p:[me] ("the channels I belong to") leaves out the system channels the reader belongs to and lists the stream channels (control).`),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				t.Expect(idFindOf(t, w.M, fixtures.KindMembers, nostr.TagMap{"p": {w.M.Actor().PubKey}})).To(Equal([]string{w.StreamPriv}), "member: 39002 #p:[me]")
				t.Expect(idFindOf(t, w.X, fixtures.KindMembers, nostr.TagMap{"p": {w.X.Actor().PubKey}})).To(Equal([]string{w.Stream}), "outsider: 39002 #p:[me]")
			}},
		{Case: idCase("identity/leave/4", []string{"identity/reads-leave-out.4"}, "identity/reads-leave-out", framework.MUST,
			"COUNT leaves system channels out like REQ: 39000 and kind 9 counts by label, generic ones without any tag (by ids, by author) and 39002 #p:[me] cover only the readable stream channels."),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				ids := idStateIDs(t, w.O, w.all())
				for _, r := range w.readers() {
					n := int64(len(w.legacyFor(r.c)))
					t.Expect(t.Count(r.c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"t": {w.L}}})).To(Equal(n), "%s: COUNT 39000 #t:[label]", r.name)
					t.Expect(t.Count(r.c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"t": {w.L}}})).To(Equal(n), "%s: COUNT kind 9 #t:[label]", r.name)
					t.Expect(t.Count(r.c, nostr.Filter{Kinds: []int{fixtures.KindMembers}, Tags: nostr.TagMap{"p": {r.c.Actor().PubKey}}})).To(Equal(int64(1)), "%s: COUNT 39002 #p:[me]", r.name)
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
		{Case: idCase("identity/leave/5", []string{"identity/reads-leave-out.6"}, "identity/reads-leave-out", framework.MUST,
			"Live subscriptions opened before the channels exist (generic 39000-39002, kind 9, 39002 #p:[me]) receive the stream channels' events but nothing of the system channels (create, membership, edit, message)."),
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
		{Case: idCase("identity/leave/6", []string{"identity/reads-leave-out.5"}, "identity/reads-leave-out", framework.MUST,
			"NIP-50 search leaves system channels out (checked only when the relay advertises NIP-50)."),
			Run: func(t *framework.T) {
				if t.Env.Info == nil || !t.Env.Info.Supports(50) {
					t.Unsupported("the relay does not advertise NIP-50 search")
				}
				w := newSysWorld(t)
				for _, r := range w.readers() {
					got := t.Query(r.c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Search: w.Msg[w.SysOpen].Content})
					t.Expect(w.ours(got)).To(BeEmpty(), "%s: search for the open system channel's message", r.name)
					got = t.Query(r.c, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Search: w.Msg[w.Stream].Content})
					t.Expect(w.ours(got)).To(Equal([]string{w.Stream}), "%s: search for the stream message (control)", r.name)
				}
			}},
	}
}

// findOf returns the distinct channels of one kind matching tags.
func idFindOf(t *framework.T, c *fixtures.Client, kind int, tags nostr.TagMap) []string {
	return idChannelSet(t.Query(c, nostr.Filter{Kinds: []int{kind}, Tags: tags}))
}
