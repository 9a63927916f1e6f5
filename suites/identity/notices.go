package identity

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// noticesSpecs are the cases of identity/notices.
func noticesSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/notices/1", framework.MUST,
			`Every membership notice the relay sends is stored and relay-signed, with ["p", member], one ["h", UUID] and ["t", the channel's type] (system for a system channel).`,
			"identity/notices.1", "identity/notices.2").
			WithFreshKeys().
			WithReading(readingNoNotices + " " + readingSysNotices + " " + readingCreatorNote),
			Run: func(t *framework.T) {
				t.Checking("identity/notices.1")
				w := newNoticeWorld(t)
				for _, ev := range w.All {
					t.RequireRelaySigned(ev)
					t.Expect(fixtures.TagValues(ev, "p")).To(Equal([]string{w.M.Actor().PubKey}), "notice %s p tag", ev.ID)
					t.Expect(fixtures.TagValues(ev, "h")).To(HaveLen(1), "notice %s h tag", ev.ID)
					want := ""
					switch framework.TagOf(ev, "h") {
					case w.Stream:
						want = fixtures.TypeStream
					case w.System:
						want = fixtures.TypeSystem
					default:
						framework.Failf("notice %s for M names channel %q, which is not one M joined", ev.ID, framework.TagOf(ev, "h"))
					}
					t.Expect(fixtures.TagValues(ev, "t")).To(Equal([]string{want}), "notice %s t tag = channel type", ev.ID)
				}
				t.Note("M's notices: %v", noticeKeys(w.All))
				w.noteSystem(t)
				own := t.QueryResult(w.O, nostr.Filter{Kinds: noticeKinds, Tags: nostr.TagMap{"p": {w.O.Actor().PubKey}, "t": allTypes}})
				t.Note("the creator has %d notices of its own (44100 at creation: %v)", len(own.Events), len(own.Events) > 0)
				if len(own.Events) > 0 {
					t.Reading(clause.ReadingIdentityCreatorNotice, "sent")
				} else {
					t.Reading(clause.ReadingIdentityCreatorNotice, "not-sent")
				}
			}},
		{Case: framework.NewCase("identity/notices/2", framework.MUST,
			"A notice filter with #t matches only notices of the listed types; without #t only legacy-type notices (never a system one).",
			"identity/notices.3", "identity/notices.4").
			WithFreshKeys().
			WithReading(readingNoNotices + " " + readingSysNotices),
			Run: func(t *framework.T) {
				t.Checking("identity/notices.3")
				w := newNoticeWorld(t)
				stream, system := noticeKeys(w.of(w.Stream)), noticeKeys(w.of(w.System))
				t.Expect(noticeKeys(t.Query(w.M, w.mine(nil)))).To(Equal(stream), "no #t: exactly the stream notices")
				t.Expect(noticeKeys(t.Query(w.M, w.mine([]string{fixtures.TypeSystem})))).To(Equal(system), "#t:[system]: exactly the system notices")
				t.Expect(noticeKeys(t.Query(w.M, w.mine([]string{fixtures.TypeStream})))).To(Equal(stream), "#t:[stream]")
				t.Expect(noticeKeys(t.Query(w.M, w.mine([]string{fixtures.TypeForum})))).To(BeEmpty(), "#t:[forum]")
				w.noteSystem(t)
			}},
		{Case: framework.NewCase("identity/notices/3", framework.MUST,
			"Notices go only to the pubkey in their p tag: another user, the channel owner and an anonymous reader get none of M's notices, by #p or by ids.",
			"identity/notices.10", "identity/notices.9").
			WithReading(readingNoNotices + " " + "A relay may also refuse such a read with CLOSED; that withholds as surely and is noted."),
			Run: func(t *framework.T) {
				t.Checking("identity/notices.9")
				w := newNoticeWorld(t)
				ids := framework.IDs(w.All)
				for _, c := range []*fixtures.Client{w.X, w.O, t.Connect(nil)} {
					who := framework.ActorName(c)
					t.Note("%s, #p:[M] #t:[every type]: %s", who, t.QueryAbsent(c, "#p:[M] #t:[every type] by someone else", w.mine(allTypes)))
					t.Note("%s, #p:[M]: %s", who, t.QueryAbsent(c, "#p:[M] by someone else", w.mine(nil)))
					t.Note("%s, ids: %s", who, t.QueryAbsent(c, "ids of M's notices by someone else", nostr.Filter{IDs: ids}))
					// The owner may get its own notices by #h; none of M's.
					byH := t.QueryResult(c, nostr.Filter{Kinds: noticeKinds, Tags: nostr.TagMap{"h": {w.Stream, w.System}, "t": allTypes}})
					for _, ev := range byH.Events {
						t.Expect(fixtures.TagValues(ev, "p")).NotTo(ContainElement(w.M.Actor().PubKey), "#h by %s: a notice for M (%s)", who, ev.ID)
					}
				}
			}},
		{Case: framework.NewCase("identity/notices/4", framework.MUST,
			"COUNT obeys the notice rules: the member's count without #t covers only the stream notices, with every type all of them, with #t:[system] the system ones; another user counts none, also by ids.",
			"identity/notices.10", "identity/notices.7", "identity/notices.9").
			WithFreshKeys().
			WithReading(readingNoNotices + " " + readingSysNotices),
			Run: func(t *framework.T) {
				t.Checking("identity/notices.7")
				w := newNoticeWorld(t)
				t.ExpectCount(w.M, int64(len(w.of(w.Stream))), "M, no #t", w.mine(nil))
				t.ExpectCount(w.M, int64(len(w.All)), "M, #t of every type", w.mine(allTypes))
				t.ExpectCount(w.M, int64(len(w.of(w.System))), "M, #t:[system]", w.mine([]string{fixtures.TypeSystem}))
				ids := framework.IDs(w.All)
				for _, c := range []*fixtures.Client{w.X, w.O} {
					t.Note("%s, COUNT #p:[M]: %s", framework.ActorName(c), countNone(t, c, "someone else, #p:[M]", w.mine(allTypes)))
					t.Note("%s, COUNT ids: %s", framework.ActorName(c), countNone(t, c, "someone else, ids", nostr.Filter{IDs: ids}))
				}
				w.noteSystem(t)
			}},
		{Case: framework.NewCase("identity/notices/5", framework.MUST,
			"Live delivery obeys the notice rules: a subscription without #t never gets a system notice and gets the stream notices a #t subscription gets; another user's subscription to M's notices gets none.",
			"identity/notices.6", "identity/notices.9").
			WithReading(readingSysNotices + " " + "A message posted after the membership changes is the marker on every subscription. A relay that delivers no notice live makes the case unsupported (identity/notices/6 checks live delivery after a since read)."),
			Run: func(t *framework.T) {
				t.Checking("identity/notices.6")
				w := newNoticeActors(t)
				w.channels(t)
				plain := t.Subscribe(w.M, w.mine(nil), w.markerFilter())
				typed := t.Subscribe(w.M, w.mine(allTypes), w.markerFilter())
				spy := t.Subscribe(w.X, w.mine(allTypes), w.markerFilter())
				w.put(t, w.System)
				w.put(t, w.Stream)
				marker := w.postMarker(t)
				typedN, ok := untilMarker(t, typed, marker)
				t.Must(errIf(!ok, "the marker message was not delivered live to M"), "live delivery of the marker (control)")
				plainN, _ := untilMarker(t, plain, marker)
				spyN, spyOK := untilMarker(t, spy, marker)
				t.Expect(noticeKeys(spyN)).To(BeEmpty(), "another user's live subscription to M's notices")
				if !spyOK {
					t.Note("the other user's subscription did not receive the marker message")
				}
				for _, ev := range plainN {
					t.Expect(framework.TagOf(ev, "h")).NotTo(Equal(w.System), "without #t: the system channel's notice %s was delivered live (t %v)", ev.ID, fixtures.TagValues(ev, "t"))
				}
				if len(typedN) == 0 {
					w.noNotices(t, "no notice was delivered live on M's #t subscription: the live type rule cannot be observed")
				}
				var typedStream, typedSystem []*nostr.Event
				for _, ev := range typedN {
					switch framework.TagOf(ev, "h") {
					case w.Stream:
						typedStream = append(typedStream, ev)
					case w.System:
						typedSystem = append(typedSystem, ev)
					}
				}
				t.Expect(noticeKeys(plainN)).To(Equal(noticeKeys(typedStream)), "without #t: the stream notices the #t subscription got")
				t.Note("delivered live: with #t %v, without #t %v", noticeKeys(typedN), noticeKeys(plainN))
				if len(typedSystem) == 0 {
					t.Note("no notice for the system channel was delivered live (allowed: the draft does not say one is produced)")
				} else {
					for _, ev := range typedSystem {
						t.Expect(fixtures.TagValues(ev, "t")).To(Equal([]string{fixtures.TypeSystem}), "live system notice %s t tag", ev.ID)
					}
				}
			}},
		{Case: framework.NewCase("identity/notices/6", framework.MUST,
			"Notices are stored: resubscribing with since = the newest notice seen returns the ones missed while away, then new ones live.",
			"identity/notices.2").
			WithFreshKeys().
			WithReading(readingNoNotices + " " + readingSysNotices + " " + framework.LiveDeliveryReading),
			Run: func(t *framework.T) {
				w := newNoticeActors(t)
				w.channels(t)
				w.put(t, w.Stream)
				first := w.stored(t, w.M)
				if len(first) == 0 {
					w.noNotices(t, "no stored notice for a member added to a stream channel: the relay sends (or stores) no membership notices; identity/notices/1 tells which")
				}
				t.Expect(noticeKeys(first)).To(Equal([]string{w.Stream + "/added"}), "the first notice")
				since := first[0].CreatedAt
				w.M.Close()
				w.remove(t, w.Stream)
				w.put(t, w.System)
				m := t.Connect(w.M.Actor())
				history := noticeKeys(w.stored(t, m))
				sub := t.Subscribe(m, nostr.Filter{Kinds: noticeKinds, Tags: nostr.TagMap{"p": {w.M.Actor().PubKey}, "t": allTypes}, Since: &since})
				var missed []*nostr.Event
				for _, ev := range sub.Stored() {
					if ev.ID != first[0].ID {
						missed = append(missed, ev)
					}
				}
				want := []string{w.Stream + "/removed"}
				if slices.Contains(history, w.System+"/added") {
					want = append(want, w.System+"/added")
				} else {
					t.Note("no notice for the system channel (allowed: the draft does not say one is produced)")
				}
				t.Expect(noticeKeys(missed)).To(ConsistOf(want), "missed notices from since")
				w.put(t, w.Stream)
				readded := func(ev *nostr.Event) bool {
					return framework.TagOf(ev, "h") == w.Stream && ev.Kind == fixtures.KindMemberAdded && ev.ID != first[0].ID
				}
				t.WaitLiveSigned(m, sub, readded, nostr.Filter{Kinds: []int{fixtures.KindMemberAdded}, Tags: nostr.TagMap{"p": {w.M.Actor().PubKey}, "h": {w.Stream}}},
					"the next notice arrives live on the same subscription")
			}},
		{Case: framework.NewCase("identity/notices/7", framework.MUST,
			"A channel keeps its type: after a 9002 that tries to change channel_type, the 39000 and any later notice still carry the original type.",
			"identity/notices.12").
			WithReading("The 9002 with a channel_type tag may be accepted (tag ignored) or refused; either way the type must not change. " + readingSysNotices),
			Run: func(t *framework.T) {
				w := newNoticeActors(t)
				w.channels(t)
				ok := t.Publish(w.O, fixtures.EditChannel(w.O.Actor(), w.System, nostr.Tag{"channel_type", fixtures.TypeStream}, nostr.Tag{"name", t.Unique("renamed")}))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("9002 with a channel_type tag refused: %s", ok)
				}
				requireIdentityAll(t, w.O, w.System, fixtures.TypeSystem, nil, w.O.Actor().PubKey)
				w.put(t, w.System)
				var sys []*nostr.Event
				for _, ev := range w.stored(t, w.M) {
					if framework.TagOf(ev, "h") == w.System {
						sys = append(sys, ev)
					}
				}
				if len(sys) == 0 {
					t.Note("no notice for the system channel (allowed: the draft does not say one is produced); the 39000 was checked")
					return
				}
				for _, ev := range sys {
					t.Expect(fixtures.TagValues(ev, "t")).To(Equal([]string{fixtures.TypeSystem}), "notice %s type after the attempted change", ev.ID)
				}
			}},
		{Case: framework.NewCase("identity/notices/8", framework.MUST,
			"The notice type rule holds whatever else a filter asks for: the member's #p filter without kinds, or with kind 9 beside 44100/44101, returns, counts and delivers live only stream notices without #t, and only system notices with #t:[system].",
			"identity/notices.3", "identity/notices.4", "identity/notices.6", "identity/notices.7").
			WithFreshKeys().
			WithReading(readingNoNotices + " " + readingSysNotices),
			Run: func(t *framework.T) {
				t.Checking("identity/notices.3")
				w := newNoticeActors(t)
				w.channels(t)
				me := w.M.Actor().PubKey
				noKinds := nostr.Filter{Tags: nostr.TagMap{"p": {me}}}
				mixed := nostr.Filter{Kinds: []int{fixtures.KindMemberAdded, fixtures.KindMemberGone, fixtures.KindMessage}, Tags: nostr.TagMap{"p": {me}}}
				live := t.Subscribe(w.M, noKinds, w.markerFilter())
				delivered, markerSeen := w.churn(t, live)
				stream, system := noticeKeys(w.of(w.Stream)), noticeKeys(w.of(w.System))
				for _, f := range []nostr.Filter{noKinds, mixed} {
					what := framework.FilterString([]nostr.Filter{f})
					t.Checking("identity/notices.4")
					t.Expect(noticeKeys(noticesOf(t.Query(w.M, f)))).To(Equal(stream), "identity/notices.4: %s (no #t): exactly the stream notices", what)
					typed := withT(f, fixtures.TypeSystem)
					t.Checking("identity/notices.3")
					t.Expect(noticeKeys(noticesOf(t.Query(w.M, typed)))).To(Equal(system), "identity/notices.3: %s: exactly the system notices", framework.FilterString([]nostr.Filter{typed}))
				}
				// Kind 9 events p-tagging a fresh key are none: the count is the notices'.
				t.Checking("identity/notices.7")
				t.ExpectCount(w.M, int64(len(stream)), "identity/notices.7: COUNT kinds [44100, 44101, 9] #p:[me] (no #t)", mixed)
				t.ExpectCount(w.M, int64(len(system)), "identity/notices.7: COUNT kinds [44100, 44101, 9] #p:[me] #t:[system]", withT(mixed, fixtures.TypeSystem))
				for _, ev := range noticesOf(delivered) {
					t.Checking("identity/notices.6")
					t.Expect(framework.TagOf(ev, "h")).NotTo(Equal(w.System), "identity/notices.6: live {\"#p\":[me]} without kinds or #t: the system channel's notice %s was delivered (t %v)", ev.ID, fixtures.TagValues(ev, "t"))
				}
				switch {
				case !markerSeen:
					t.Note("the marker message was not delivered live; live delivery was not observed")
				default:
					t.Note("delivered live on {\"#p\":[me]}: %v", noticeKeys(noticesOf(delivered)))
				}
				w.noteSystem(t)
			}},
	}
}

// noticesOf keeps the 44100/44101 events.
func noticesOf(evs []*nostr.Event) []*nostr.Event {
	var out []*nostr.Event
	for _, ev := range evs {
		if ev.Kind == fixtures.KindMemberAdded || ev.Kind == fixtures.KindMemberGone {
			out = append(out, ev)
		}
	}
	return out
}

// withT returns a copy of f with #t set to types.
func withT(f nostr.Filter, types ...string) nostr.Filter {
	tags := nostr.TagMap{}
	for k, v := range f.Tags {
		tags[k] = v
	}
	tags["t"] = types
	f.Tags = tags
	return f
}

var (
	noticeKinds = []int{fixtures.KindMemberAdded, fixtures.KindMemberGone}
	allTypes    = []string{fixtures.TypeStream, fixtures.TypeForum, fixtures.TypeDM, fixtures.TypeWorkflow, fixtures.TypeSystem}
)

// Readings of the notice cases. The newest identity text says what every
// 44100/44101 carries and which filters see it, but no text we test
// against makes a relay send notices at all (44100/44101 are not NIP-29
// kinds), nor says that a system channel's membership change produces one.
const (
	readingNoNotices  = "A relay that sends no 44100/44101 notices at all (none stored or delivered live for a member added to and removed from a stream channel) makes the case unsupported."
	readingSysNotices = "Whether a system channel's membership change produces a notice is not stated: a relay that sends none for system channels passes with a note. Any notice it does send must carry [\"t\", type] and reach only the filters the type rule allows."
)

// noticeWorld: O owns an open stream channel and a private system channel;
// M is added to both and removed from both. All is M's notices as the
// relay stores them, read with #t of every type (the reference set the
// filter cases compare against).
type noticeWorld struct {
	O, M, X        *fixtures.Client
	Stream, System string
	All            []*nostr.Event
}

func newNoticeActors(t *framework.T) *noticeWorld {
	return &noticeWorld{O: t.Connect(t.Actor("creator")), M: t.Connect(t.Actor("member")), X: t.Connect(t.Actor("other"))}
}

func (w *noticeWorld) channels(t *framework.T) {
	w.Stream = mkChannel(t, w.O, chanOpts{Visibility: fixtures.Open})
	w.System = mkChannel(t, w.O, chanOpts{Type: fixtures.TypeSystem})
}

func (w *noticeWorld) put(t *framework.T, ch string) {
	t.Accept(w.O, fixtures.PutUser(w.O.Actor(), ch, w.M.Actor().PubKey, "member"), "add M")
}

func (w *noticeWorld) remove(t *framework.T, ch string) {
	t.Accept(w.O, fixtures.RemoveUser(w.O.Actor(), ch, w.M.Actor().PubKey), "remove M")
}

// markerFilter matches the kind 9 messages of the stream channel: a message
// posted there after the membership changes is the marker that ends a live
// observation (every notice sent before it has arrived by then).
func (w *noticeWorld) markerFilter() nostr.Filter {
	return nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {w.Stream}}}
}

// postMarker posts the marker message in the stream channel.
func (w *noticeWorld) postMarker(t *framework.T) *nostr.Event {
	GinkgoHelper()
	m := fixtures.Message(w.O.Actor(), w.Stream, t.Unique("marker"))
	t.Accept(w.O, m, "marker message")
	return m
}

// untilMarker collects the notices delivered on sub before the marker
// message; ok is false when the marker never arrived (no live delivery).
func untilMarker(t *framework.T, sub *fixtures.Subscription, marker *nostr.Event) (notices []*nostr.Event, ok bool) {
	GinkgoHelper()
	seen, err := sub.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.ID == marker.ID })
	seen = append(seen, sub.Drain()...)
	for _, ev := range seen {
		if ev.Kind == fixtures.KindMemberAdded || ev.Kind == fixtures.KindMemberGone {
			notices = append(notices, ev)
		}
	}
	return notices, err == nil
}

// newNoticeWorld adds and removes M in the system channel, then in the
// stream, while M watches its notices live; it makes the case unsupported
// when the relay sends no notice at all, and fails when a notice delivered
// live was not stored.
func newNoticeWorld(t *framework.T) *noticeWorld {
	GinkgoHelper()
	w := newNoticeActors(t)
	w.channels(t)
	live := t.Subscribe(w.M, w.mine(allTypes), w.mine(nil), w.markerFilter())
	delivered, markerSeen := w.churn(t, live)
	stored := map[string]bool{}
	for _, ev := range w.All {
		stored[ev.ID] = true
	}
	done := t.Invariant("identity/notices.2") // every notice delivered live is stored
	for _, ev := range delivered {
		t.Expect(stored).To(HaveKey(ev.ID), "notice %s (%s) was delivered live but is not in stored history: the relay stores notices like any other 44100/44101", ev.ID, noticeKeys([]*nostr.Event{ev}))
	}
	done()
	if !markerSeen {
		t.Note("the marker message was not delivered live; the notices were observed in stored history only")
	}
	return w
}

// churn adds and removes M in the system channel, then in the stream,
// while live (M's subscription, with the marker filter) watches; it reads
// M's stored notices into w.All and returns what live delivered up to the
// marker and whether the marker came. A relay that sends no notice at all
// makes the case unsupported.
func (w *noticeWorld) churn(t *framework.T, live *fixtures.Subscription) (delivered []*nostr.Event, markerSeen bool) {
	GinkgoHelper()
	w.put(t, w.System)
	w.put(t, w.Stream)
	w.remove(t, w.System)
	w.remove(t, w.Stream)
	delivered, markerSeen = untilMarker(t, live, w.postMarker(t))
	w.All = w.stored(t, w.M)
	if len(w.All) == 0 && len(delivered) == 0 {
		w.noNotices(t, "the relay sends no 44100/44101 membership notices: none stored or delivered live for a member added to and removed from a stream and a system channel")
	}
	return delivered, markerSeen
}

// noNotices ends a case that saw no notice for M. The draft serves a
// notice only to the pubkey in its p tag, so silence is evidence only when
// the relay knew the reader was M: a connection that never authenticated
// (the relay sent no NIP-42 challenge, on connect, on a write or on the
// read) blocks the case on auth instead of calling notices unsupported.
func (w *noticeWorld) noNotices(t *framework.T, observed string) {
	GinkgoHelper()
	if w.M.Unidentified() {
		t.Blocked(framework.PreAuth, fmt.Sprintf("%s, but M's connection never authenticated: the relay sent no NIP-42 challenge, on connect, on a write or on the read, so it could not know the reader is the notice's p-tagged member (the draft: the relay \"delivers a 44100/44101 only to the pubkey in its p tag\")", observed))
	}
	t.Unsupported(observed)
}

// stored reads M's stored notices (as c, M's own connection) with #t of
// every type and without #t, and returns them all. Every notice a filter
// without #t returns has a legacy type or no t tag, so #t of every type
// must return it too; a relay that returns it only without #t fails.
func (w *noticeWorld) stored(t *framework.T, c *fixtures.Client) []*nostr.Event {
	GinkgoHelper()
	typed := t.Query(c, w.mine(allTypes))
	plain := t.Query(c, w.mine(nil))
	ids := map[string]bool{}
	for _, ev := range typed {
		ids[ev.ID] = true
	}
	out := typed
	for _, ev := range plain {
		if !ids[ev.ID] {
			// Held on every stored notice, whatever the case cites: a notice
			// without a t tag lacks its type (every notice carries one); a
			// typed one fails to match its own type.
			if len(fixtures.TagValues(ev, "t")) == 0 {
				defer t.Invariant("identity/notices.1")()
			} else {
				defer t.Invariant("identity/notices.3")()
			}
			framework.Failf("notice %s (%v, t %v) is returned without #t but not with #t of every type: a typed legacy notice matches its type, and one without t matches every legacy type", ev.ID, noticeKeys([]*nostr.Event{ev}), fixtures.TagValues(ev, "t"))
		}
	}
	return out
}

// of returns the world's notices about channel ch.
func (w *noticeWorld) of(ch string) []*nostr.Event {
	var out []*nostr.Event
	for _, ev := range w.All {
		if framework.TagOf(ev, "h") == ch {
			out = append(out, ev)
		}
	}
	return out
}

// noteSystem records which reading the relay took for system channels.
func (w *noticeWorld) noteSystem(t *framework.T) {
	if n := len(w.of(w.System)); n == 0 {
		t.Note("the relay sent no notice for the system channel's membership changes (allowed: the draft does not say one is produced)")
		t.Reading(clause.ReadingIdentitySystemNotices, "not-sent")
	} else {
		t.Note("the relay sent %d notice(s) for the system channel's membership changes", n)
		t.Reading(clause.ReadingIdentitySystemNotices, "sent")
	}
}

// mine is M's notice filter, with #t when types is not nil.
func (w *noticeWorld) mine(types []string) nostr.Filter {
	f := nostr.Filter{Kinds: noticeKinds, Tags: nostr.TagMap{"p": {w.M.Actor().PubKey}}}
	if types != nil {
		f.Tags["t"] = types
	}
	return f
}

// noticeKeys returns "channel/kind" of notices, sorted.
func noticeKeys(evs []*nostr.Event) []string {
	out := []string{}
	for _, ev := range evs {
		out = append(out, framework.TagOf(ev, "h")+"/"+noticeKindName(ev.Kind))
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

// countNone requires that a COUNT returns nothing for c: 0, or a CLOSED
// refusal (a lawful way to withhold), or no answer from a relay that does
// not advertise NIP-45. It returns how, for a note.
func countNone(t *framework.T, c *fixtures.Client, why string, filters ...nostr.Filter) string {
	GinkgoHelper()
	r, err := c.Count(t.Ctx(), filters...)
	advertised := t.Env.Info != nil && t.Env.Info.Supports(45)
	if err != nil && errors.Is(err, fixtures.ErrTimeout) && !advertised {
		return "no COUNT answer (NIP-45 not advertised)"
	}
	t.Must(err, "count: "+why)
	if r.Closed {
		framework.CheckPrefix("CLOSED", r.ClosedReason)
		return fmt.Sprintf("refused with CLOSED %q", r.ClosedReason)
	}
	if r.Approximate {
		t.NotJudged(framework.ApproximateCount(c, r, filters))
		return "an estimate (not judged)"
	}
	t.Expect(r.Count).To(BeZero(), "%s: COUNT %s as %s", why, framework.FilterString(filters), framework.ActorName(c))
	return "0"
}

// errIf returns an error with msg when cond holds.
func errIf(cond bool, msg string) error {
	if cond {
		return errors.New(msg)
	}
	return nil
}
