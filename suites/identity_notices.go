package suites

import (
	"sort"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

var (
	idNoticeKinds = []int{fixtures.KindMemberAdded, fixtures.KindMemberGone}
	idAllTypes    = []string{fixtures.TypeStream, fixtures.TypeForum, fixtures.TypeDM, fixtures.TypeWorkflow, fixtures.TypeSystem}
)

// noticeWorld: O owns an open stream channel and a private system channel;
// M is added to both and removed from both, so M has four notices.
type noticeWorld struct {
	O, M, X        *fixtures.Client
	Stream, System string
}

func newNoticeActors(t *T) *noticeWorld {
	return &noticeWorld{O: t.Connect(t.Actor("creator")), M: t.Connect(t.Actor("member")), X: t.Connect(t.Actor("other"))}
}

func (w *noticeWorld) channels(t *T) {
	w.Stream = idChannel(t, w.O, idChanOpts{Visibility: fixtures.Open})
	w.System = idChannel(t, w.O, idChanOpts{Type: fixtures.TypeSystem})
}

func (w *noticeWorld) put(t *T, ch string) {
	t.Accept(w.O, fixtures.PutUser(w.O.Actor(), ch, w.M.Actor().PubKey, "member"), "add M")
}

func (w *noticeWorld) remove(t *T, ch string) {
	t.Accept(w.O, fixtures.RemoveUser(w.O.Actor(), ch, w.M.Actor().PubKey), "remove M")
}

// newNoticeWorld adds and removes M in the system channel, then in the stream.
func newNoticeWorld(t *T) *noticeWorld {
	w := newNoticeActors(t)
	w.channels(t)
	w.put(t, w.System)
	w.put(t, w.Stream)
	w.remove(t, w.System)
	w.remove(t, w.Stream)
	return w
}

// mine is M's notice filter, with #t when types is not nil.
func (w *noticeWorld) mine(types []string) nostr.Filter {
	f := nostr.Filter{Kinds: idNoticeKinds, Tags: nostr.TagMap{"p": {w.M.Actor().PubKey}}}
	if types != nil {
		f.Tags["t"] = types
	}
	return f
}

// noticeKeys returns "channel/kind" of notices, sorted.
func noticeKeys(evs []*nostr.Event) []string {
	out := []string{}
	for _, ev := range evs {
		out = append(out, tagOf(ev, "h")+"/"+noticeKindName(ev.Kind))
	}
	sort.Strings(out)
	return out
}

func noticeKindName(k int) string {
	switch k {
	case fixtures.KindMemberAdded:
		return "added"
	case fixtures.KindMemberGone:
		return "removed"
	}
	return "other"
}

func noticeKeysFor(chans ...string) []string {
	out := []string{}
	for _, ch := range chans {
		out = append(out, ch+"/added", ch+"/removed")
	}
	sort.Strings(out)
	return out
}

// identityNoticeSpecs: "Membership notices carry the channel type".
func identityNoticeSpecs() []Spec {
	return []Spec{
		{idCase("identity/notices/1", "identity/notices", MUST,
			`Put and remove user produce stored, relay-signed 44100/44101 notices with ["p", member], ["h", UUID] and ["t", channel type], also for a private system channel the member has left.`,
			idReadingCreatorNote),
			func(t *T) {
				w := newNoticeWorld(t)
				got := t.Query(w.M, w.mine(idAllTypes))
				Expect(noticeKeys(got)).To(Equal(noticeKeysFor(w.Stream, w.System)), "M's notices with #t of every type")
				for _, ev := range got {
					t.RequireRelaySigned(ev)
					Expect(fixtures.TagValues(ev, "p")).To(Equal([]string{w.M.Actor().PubKey}), "notice p tag")
					Expect(fixtures.TagValues(ev, "h")).To(HaveLen(1), "notice h tag")
					want := fixtures.TypeStream
					if tagOf(ev, "h") == w.System {
						want = fixtures.TypeSystem
					}
					Expect(fixtures.TagValues(ev, "t")).To(Equal([]string{want}), "notice t tag = channel type")
				}
				own := t.Query(w.O, nostr.Filter{Kinds: idNoticeKinds, Tags: nostr.TagMap{"p": {w.O.Actor().PubKey}, "t": idAllTypes}})
				t.Note("the creator has %d notices of its own (44100 at creation: %v)", len(own), len(own) > 0)
			}},
		{idCase("identity/notices/2", "identity/notices", MUST,
			"A notice filter with #t matches only notices of the listed types; without #t only legacy-type notices (never system ones)."),
			func(t *T) {
				w := newNoticeWorld(t)
				Expect(noticeKeys(t.Query(w.M, w.mine(nil)))).To(Equal(noticeKeysFor(w.Stream)), "no #t: only the stream notices")
				Expect(noticeKeys(t.Query(w.M, w.mine([]string{fixtures.TypeSystem})))).To(Equal(noticeKeysFor(w.System)), "#t:[system]")
				Expect(noticeKeys(t.Query(w.M, w.mine([]string{fixtures.TypeStream})))).To(Equal(noticeKeysFor(w.Stream)), "#t:[stream]")
				Expect(noticeKeys(t.Query(w.M, w.mine([]string{fixtures.TypeForum})))).To(BeEmpty(), "#t:[forum]")
			}},
		{idCase("identity/notices/3", "identity/notices", MUST,
			"Notices go only to the pubkey in their p tag: another user, the channel owner and an anonymous reader get none of M's notices, by #p or by ids.",
			"A relay may also refuse a foreign #p with CLOSED; that counts as returning nothing."),
			func(t *T) {
				w := newNoticeWorld(t)
				ids := IDs(t.Query(w.M, w.mine(idAllTypes)))
				Expect(ids).To(HaveLen(4), "M reads its own four notices")
				for _, c := range []*fixtures.Client{w.X, w.O, t.Connect(nil)} {
					Expect(t.Query(c, w.mine(idAllTypes))).To(BeEmpty(), "#p:[M] #t:[every type] by someone else")
					Expect(t.Query(c, w.mine(nil))).To(BeEmpty(), "#p:[M] by someone else")
					Expect(t.Query(c, nostr.Filter{IDs: ids})).To(BeEmpty(), "ids of M's notices by someone else")
					// The owner may get its own notices by #h; none of M's.
					byH := t.Query(c, nostr.Filter{Kinds: idNoticeKinds, Tags: nostr.TagMap{"h": {w.Stream, w.System}, "t": idAllTypes}})
					Expect(IDs(byH)).NotTo(ContainElements(ids), "#h of the channels by someone else returns none of M's notices")
					for _, ev := range byH {
						Expect(fixtures.TagValues(ev, "p")).NotTo(ContainElement(w.M.Actor().PubKey), "#h by someone else: a notice for M")
					}
				}
			}},
		{idCase("identity/notices/4", "identity/notices", MUST,
			"COUNT obeys the notice rules: the member counts 2 without #t and 4 with every type; another user counts 0, also by ids."),
			func(t *T) {
				w := newNoticeWorld(t)
				Expect(t.Count(w.M, w.mine(nil))).To(Equal(int64(2)), "M, no #t")
				Expect(t.Count(w.M, w.mine(idAllTypes))).To(Equal(int64(4)), "M, #t of every type")
				Expect(t.Count(w.M, w.mine([]string{fixtures.TypeSystem}))).To(Equal(int64(2)), "M, #t:[system]")
				ids := IDs(t.Query(w.M, w.mine(idAllTypes)))
				for _, c := range []*fixtures.Client{w.X, w.O} {
					Expect(t.Count(c, w.mine(idAllTypes))).To(BeZero(), "someone else, #p:[M]")
					Expect(t.Count(c, nostr.Filter{IDs: ids})).To(BeZero(), "someone else, ids")
				}
			}},
		{idCase("identity/notices/5", "identity/notices", MUST,
			"Live delivery obeys the notice rules: a subscription without #t gets the stream notice but not the system one, one with #t gets both, another user's gets none."),
			func(t *T) {
				w := newNoticeActors(t)
				w.channels(t)
				plain := t.Subscribe(w.M, w.mine(nil))
				typed := t.Subscribe(w.M, w.mine(idAllTypes))
				spy := t.Subscribe(w.X, w.mine(idAllTypes))
				sync := t.Subscribe(w.X, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {w.Stream}}})
				w.put(t, w.System)
				w.put(t, w.Stream)
				msg := fixtures.Message(w.O.Actor(), w.Stream, "sync")
				t.Accept(w.O, msg, "sync message")

				isStream := func(ev *nostr.Event) bool { return tagOf(ev, "h") == w.Stream }
				seen, err := plain.WaitFor(t.Ctx(), isStream)
				t.Must(err, "live stream notice without #t")
				Expect(noticeKeys(seen)).To(Equal([]string{w.Stream + "/added"}), "without #t: the stream notice only")
				var got []*nostr.Event
				for len(got) < 2 {
					ev, err := typed.Next(t.Ctx())
					t.Must(err, "live notices with #t")
					got = append(got, ev)
				}
				Expect(noticeKeys(got)).To(ConsistOf(w.System+"/added", w.Stream+"/added"), "with #t: both notices")
				_, err = sync.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.ID == msg.ID })
				t.Must(err, "sync message for the other user")
				Expect(spy.Drain()).To(BeEmpty(), "another user's subscription to M's notices")
				Expect(plain.Drain()).To(BeEmpty(), "nothing more without #t")
			}},
		{idCase("identity/notices/6", "identity/notices", MUST,
			"Notices are stored: resubscribing with since = the newest notice seen returns the ones missed while away, then new ones live."),
			func(t *T) {
				w := newNoticeActors(t)
				w.channels(t)
				w.put(t, w.System)
				first := t.Query(w.M, w.mine(idAllTypes))
				Expect(noticeKeys(first)).To(Equal([]string{w.System + "/added"}), "the first notice")
				since := first[0].CreatedAt
				w.M.Close()
				w.put(t, w.Stream)
				w.remove(t, w.System)
				m := t.Connect(w.M.Actor())
				sub := t.Subscribe(m, nostr.Filter{Kinds: idNoticeKinds, Tags: nostr.TagMap{"p": {w.M.Actor().PubKey}, "t": idAllTypes}, Since: &since})
				var missed []*nostr.Event
				for _, ev := range sub.Stored() {
					if ev.ID != first[0].ID {
						missed = append(missed, ev)
					}
				}
				Expect(noticeKeys(missed)).To(ConsistOf(w.Stream+"/added", w.System+"/removed"), "missed notices from since")
				w.remove(t, w.Stream)
				_, err := sub.WaitFor(t.Ctx(), func(ev *nostr.Event) bool {
					return tagOf(ev, "h") == w.Stream && ev.Kind == fixtures.KindMemberGone
				})
				t.Must(err, "the next notice arrives live on the same subscription")
			}},
		{idCase("identity/notices/7", "identity/notices", MUST,
			"A channel keeps its type: after a 9002 that tries to change channel_type, the 39000 and later notices still carry the original type.",
			"The 9002 with a channel_type tag may be accepted (tag ignored) or refused; either way the type must not change."),
			func(t *T) {
				w := newNoticeActors(t)
				w.channels(t)
				ok := t.Publish(w.O, fixtures.EditChannel(w.O.Actor(), w.System, nostr.Tag{"channel_type", fixtures.TypeStream}, nostr.Tag{"name", t.Unique("renamed")}))
				if !ok.Accepted {
					t.Note("9002 with a channel_type tag refused: %s", ok)
				}
				requireIdentityAll(t, w.O, w.System, fixtures.TypeSystem, nil, w.O.Actor().PubKey)
				w.put(t, w.System)
				got := t.Query(w.M, w.mine(idAllTypes))
				Expect(noticeKeys(got)).To(Equal([]string{w.System + "/added"}))
				Expect(fixtures.TagValues(got[0], "t")).To(Equal([]string{fixtures.TypeSystem}), "notice type after the attempted change")
			}},
	}
}
