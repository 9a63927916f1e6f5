package labels

import (
	"errors"

	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/readmatrix"
)

// findingChannelsSpecs are the cases of labels/finding-channels.
func findingChannelsSpecs() []framework.Spec {
	out := append([]framework.Spec{
		{Case: framework.NewCase("labels/discovery/8", framework.MUST,
			"authors on a 39000 label filter selects the relay signer: the relay key finds the snapshot, the creator's key finds none.",
			"labels/finding-channels.5"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "authors")
				ch := createLabeled(t, c, "", fixtures.Open, x)
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"L": {labelNS}, "l": {x}}}
				f.Authors = []string{t.Env.RelayPubKey}
				t.Expect(framework.DTags(t.Query(c, f))).To(Equal([]string{ch}), "authors = relay key")
				f.Authors = []string{c.Actor().PubKey}
				t.Expect(t.Query(c, f)).To(BeEmpty(), "authors = creator")
			}},
		{Case: framework.NewCase("labels/discovery/9", framework.MUST,
			"Label reads respect the channel ACL on every path: an outsider's stored #L/#l read finds the open channel that gained the label and not the private one, and no live snapshot of the private channel ever reaches a subscription of the outsider (by #L and #l, #l alone or #L alone) or of a member removed before the label change.",
			"labels/finding-channels.10").
			WithReading("The draft promises no global live metadata feed, so live delivery on an unscoped #l subscription is optional: the stored reads decide, and the report notes whether the open channel's snapshot arrived live. What does arrive live must obey the current ACL; the open channel's snapshot (labeled after the private one) is the marker that proves the private one was not sent before it."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				x := lbl(t, "live")
				open := createLabeled(t, owner, "", fixtures.Open)
				outsider := t.Connect(t.Actor("outsider"))
				priv := createWithheld(t, owner, outsider)
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"L": {labelNS}, "l": {x}}}
				since := nostr.Now()
				former := withRoles(t, owner, priv, "member")[0]
				paths := []struct {
					who  string
					conn *fixtures.Client
					sub  *fixtures.Subscription
				}{
					{"outsider, #L and #l", outsider, t.Subscribe(outsider, f)},
					{"outsider, #l alone", outsider, t.Subscribe(outsider, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {x}}})},
					{"outsider, #L alone", outsider, t.Subscribe(outsider, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"L": {labelNS}}, Since: &since})},
					{"removed member, #L and #l", former, t.Subscribe(former, f)},
				}
				subM := t.Subscribe(owner, f)
				// The member subscribed while it could read the channel; it is
				// removed before the label change, so the current ACL excludes it.
				t.Accept(owner, fixtures.RemoveUser(owner.Actor(), priv, former.Actor().PubKey), "remove the member before the label change")
				acceptNew(t, owner, mutationEv(owner.Actor(), priv, []string{x}, nil), "label the private channel")
				acceptNew(t, owner, mutationEv(owner.Actor(), open, []string{x}, nil), "label the open channel")
				// Stored reads: what the draft requires.
				t.Expect(framework.DTags(findL(t, outsider, []string{x}, nil, 50))).To(Equal([]string{open}), "the outsider's stored read finds only the open channel")
				t.Expect(framework.DTags(findL(t, former, []string{x}, nil, 50))).To(Equal([]string{open}), "the removed member's stored read finds only the open channel")
				t.Expect(framework.DTags(findL(t, owner, []string{x}, nil, 50))).To(ConsistOf(open, priv), "the owner's stored read finds both")
				// Live: optional, but never past the current ACL. The open
				// channel's snapshot is the marker on each path; a relay that
				// holds back a channel's snapshots to deliver only its latest
				// (a lawful reading) may send the private one after it, so
				// where the owner's subscription shows the private snapshot
				// went out live, each connection's own barrier (a REQ's EOSE)
				// comes before its subscriptions are drained.
				live := 0
				ownerGotPrivate := false
				for i, p := range paths {
					var got []*nostr.Event
					var err error
					if live > 0 || i == 0 {
						// Absence by barrier (issue 36): a stored read on the
						// path's connection finds the open channel's labeled
						// snapshot, then a settle window.
						w := t.AwaitLive(p.conn, p.sub, func(ev *nostr.Event) bool { return ev.Tags.GetD() == open && hasLabel(ev, x) },
							nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {open}}})
						got, err = w.Seen, w.Err
						if !w.Live && w.Stored != "" {
							err = errors.New(w.Why)
						}
					}
					if i == 0 && err == nil {
						if _, perr := subM.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.Tags.GetD() == priv }); perr == nil {
							ownerGotPrivate = true
						}
					}
					if ownerGotPrivate {
						if perr := p.conn.Ping(t.Ctx()); perr != nil {
							t.Note("%s: the barrier read after the owner's live copy failed: %v", p.who, perr)
						}
					}
					got = append(got, p.sub.Drain()...)
					for _, ev := range got {
						t.Expect(ev.Tags.GetD()).NotTo(Equal(priv), "%s: the live subscription received the private channel's snapshot %s", p.who, ev.ID)
						checkCanonical(t, ev)
					}
					if err == nil && len(got) > 0 {
						live++
						t.Note("%s: the open channel's snapshot arrived live", p.who)
					} else {
						t.Note("%s: no live snapshot of the open channel (%v); nothing private arrived either", p.who, err)
					}
				}
				if live == 0 {
					t.Note("the relay offers no live label feed on these subscriptions")
					return
				}
				if !ownerGotPrivate {
					t.Note("the owner's #l subscription received no live snapshot of the private channel")
				} else {
					t.Note("the owner's #l subscription received the private channel's snapshot live")
				}
			}},
		{Case: framework.NewCase("labels/discovery/10", framework.MUST,
			"A subscription on #l is not a removal feed: the replacement snapshot of a channel that lost the label does not match it and is never delivered to it.",
			"labels/finding-channels.11").
			WithReading("Live delivery on #l is optional (no global live feed is promised). A second channel gaining the label afterwards is the marker: once its snapshot arrives, the replacement would have arrived before it. A relay that delivers no live snapshot on the subscription passes with a note."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "leaving")
				ch := createLabeled(t, c, "", fixtures.Open, x)
				marker := createLabeled(t, c, "", fixtures.Open)
				watcher := t.Connect(c.Actor())
				sub := t.Subscribe(watcher, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {x}}})
				// The channel's own snapshots, on the same connection: once
				// its replacement arrives there, a barrier read shows whether
				// it went to the #l subscription too (a relay that delivers
				// only a channel's latest snapshot may send it after the
				// marker's).
				own := t.Subscribe(watcher, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{x}), "remove the label")
				acceptNew(t, c, mutationEv(c.Actor(), marker, []string{x}, nil), "label the marker channel")
				// Absence by barrier (issue 36): a stored read finds the
				// marker's labeled snapshot, then a settle window.
				w := t.AwaitLive(watcher, sub, func(ev *nostr.Event) bool { return ev.Tags.GetD() == marker && hasLabel(ev, x) },
					nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {marker}}})
				seen, err := w.Seen, w.Err
				if !w.Live && w.Stored != "" {
					err = errors.New(w.Why)
				}
				if err == nil {
					if _, oerr := own.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return !hasLabel(ev, x) }); oerr == nil {
						if perr := watcher.Ping(t.Ctx()); perr != nil {
							t.Note("the barrier read after the replacement arrived failed: %v", perr)
						}
					}
				}
				seen = append(seen, sub.Drain()...)
				for _, ev := range seen {
					t.Expect(ev.Tags.GetD()).NotTo(Equal(ch), "the snapshot without the label was delivered to the #l subscription: %s %v", ev.ID, ev.Tags)
				}
				if err != nil {
					t.Note("no live snapshot arrived on the #l subscription (%v); the relay offers no live label feed there", err)
				}
				t.Expect(framework.DTags(findL(t, c, []string{x}, nil, 50))).To(Equal([]string{marker}), "stored #l read after the removal")
			}},
		{Case: framework.NewCase("labels/discovery/11", framework.MUST,
			"A read naming 39000 beside another kind ({\"kinds\":[39000,1],\"#L\":[\"nip-cl\"],\"#l\":[x],\"limit\":1}) matches snapshots by their labels like a 39000-only read: it returns the newer of two labeled channels.",
			"labels/finding-channels.1"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "mixedkind")
				older := createLabeled(t, c, "", fixtures.Open, x)
				newer := createLabeled(t, c, "", fixtures.Open, x)
				// A replacement is newer than what it replaces: the newer
				// channel's snapshot is strictly the newest match.
				acceptNew(t, c, mutationEv(c.Actor(), newer, []string{lbl(t, "tmp")}, nil), "a second label on the newer channel")
				want := snapshot(t, c, newer)
				// A newer unlabeled channel of this case's own, so a relay
				// that applies the limit before matching labels meets a
				// newer 39000 to stop at even when the case runs alone.
				t.NewerMetadata(c, createLabeled(t, c, "", fixtures.Open), want.CreatedAt)
				reader := t.Connect(t.Actor("reader"))
				got := t.Query(reader, nostr.Filter{Kinds: []int{fixtures.KindMetadata, 1}, Tags: nostr.TagMap{"L": {labelNS}, "l": {x}}, Limit: 1})
				if len(got) != 1 || got[0].ID != want.ID {
					framework.Failf("{\"kinds\":[39000,1],\"#L\",\"#l\":[%s],\"limit\":1} must return the newest labeled snapshot %s (channel %s; the older one is %s), got %d event(s): %v", x, want.ID, newer, older, len(got), framework.IDs(got))
				}
			}},
		{Case: framework.NewCase("labels/discovery/14", framework.MUST,
			"A mixed-kinds label read ({\"kinds\":[39000,1] and [1,39000],\"#L\":[\"nip-cl\"],\"#l\":[x],\"limit\":1}) made after newer unlabeled channels (and a newer kind 1 event where the relay takes one) returns the labeled snapshot: labels are matched before the limit, whichever kind comes first.",
			"labels/finding-channels.1", "labels/finding-channels.8"),
			Run: func(t *framework.T) {
				t.Checking("labels/finding-channels.1")
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "behind")
				labeled := createLabeled(t, c, "", fixtures.Open, x)
				want := snapshot(t, c, labeled)
				for i := 0; i < 2; i++ {
					t.NewerMetadata(c, createLabeled(t, c, "", fixtures.Open), want.CreatedAt)
				}
				if ok := t.Publish(c, c.Actor().EventAt(framework.After(want.CreatedAt), 1, nil, "a newer kind 1 event")); !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("the relay refused a kind 1 event (%s): only the newer unlabeled snapshots stand in front", ok)
				}
				reader := t.Connect(t.Actor("reader"))
				for _, kinds := range [][]int{{fixtures.KindMetadata, 1}, {1, fixtures.KindMetadata}} {
					f := nostr.Filter{Kinds: kinds, Tags: nostr.TagMap{"L": {labelNS}, "l": {x}}, Limit: 1}
					got := t.Query(reader, f)
					switch {
					case len(got) == 0:
						// Nothing came back. The same read without its limit
						// tells which sentence: it finds the snapshot (the
						// limit was applied before the labels were matched,
						// finding-channels.8) or it does not (the labels are
						// not matched in a mixed-kinds read, finding-channels.1).
						open := f
						open.Limit = 0
						if slices.Contains(framework.IDs(t.Query(reader, open)), want.ID) {
							t.Violates("labels/finding-channels.8", "labels draft (labels/finding-channels.8): %s returned nothing, while the same read without its limit returns the labeled snapshot %s: the limit was applied before the labels were matched", f, want.ID)
						}
						t.Violates("labels/finding-channels.1", "labels draft (labels/finding-channels.1): %s matched nothing, nor does it without its limit, although the snapshot %s carries the label", f, want.ID)
					case len(got) != 1 || got[0].ID != want.ID:
						t.Violates("labels/finding-channels.8", "labels draft (labels/finding-channels.8): %s must return the labeled snapshot %s behind the newer unlabeled channels, got %d event(s): %v", f, want.ID, len(got), framework.IDs(got))
					}
				}
			}},
		{Case: framework.NewCase("labels/discovery/15", framework.MUST,
			"A user-signed kind 39000 carrying [\"L\",\"nip-cl\"] and [\"l\",x,\"nip-cl\"] (for an existing channel and for an unused id), whatever its OK, is never what a label read returns: {\"kinds\":[39000],\"#L\":[\"nip-cl\"],\"#l\":[x]} returns only relay-signed snapshots, and with limit 1 the channel's relay-signed snapshot, although the user's events are newer.",
			"labels/finding-channels.1"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "forged")
				ch := createLabeled(t, c, "", fixtures.Open, x)
				want := snapshot(t, c, ch)
				user := t.Connect(t.Actor("user"))
				for _, d := range []string{ch, fixtures.NewChannelID()} {
					forged := user.Actor().EventAt(framework.After(want.CreatedAt), fixtures.KindMetadata, nostr.Tags{{"d", d}, {"name", "forged"}, {"L", labelNS}, {"l", x, labelNS}}, "")
					if ok := t.Publish(user, forged); ok.Accepted {
						t.Note("the relay accepted a user-signed 39000 for %s (%s; NIP-29's state-event cases judge that)", d, ok)
					} else {
						framework.CheckPrefix("OK", ok.Reason)
					}
				}
				reader := t.Connect(t.Actor("reader"))
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"L": {labelNS}, "l": {x}}}
				for _, ev := range t.Query(reader, f) {
					if ev.PubKey != t.Env.RelayPubKey {
						t.Violates("labels/finding-channels.1", "labels draft (labels/finding-channels.1): %s returned %s, signed by %s, not the relay: label reads match relay-signed snapshots only", f, ev.ID, ev.PubKey)
					}
				}
				f.Limit = 1
				got := t.Query(reader, f)
				if len(got) != 1 || got[0].ID != want.ID {
					t.Violates("labels/finding-channels.1", "labels draft (labels/finding-channels.1): %s must return the channel's relay-signed snapshot %s, got %v", f, want.ID, framework.IDs(got))
				}
			}},
		{Case: framework.NewCase("labels/discovery/12", framework.MUST,
			"A client's whole discovery filter ({\"authors\":[relay],\"kinds\":[39000],\"#L\":[\"nip-cl\"],\"#l\":[x],\"#t\":[\"stream\"],\"limit\":10}) returns exactly the stream channels carrying the label, not a forum carrying it; with the creator as author it returns none.",
			"labels/finding-channels.1", "labels/finding-channels.2", "labels/finding-channels.5"),
			Run: func(t *framework.T) {
				t.Checking("labels/finding-channels.1")
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "discover")
				stream := createLabeled(t, c, fixtures.TypeStream, fixtures.Open, x)
				createLabeled(t, c, fixtures.TypeForum, fixtures.Open, x)
				reader := t.Connect(t.Actor("reader"))
				f := nostr.Filter{Authors: []string{t.Env.RelayPubKey}, Kinds: []int{fixtures.KindMetadata},
					Tags: nostr.TagMap{"L": {labelNS}, "l": {x}, "t": {fixtures.TypeStream}}, Limit: 10}
				t.Expect(framework.DTags(t.Query(reader, f))).To(Equal([]string{stream}), "the discovery filter with #t stream finds the labeled stream only")
				f.Authors = []string{c.Actor().PubKey}
				t.Expect(t.Query(reader, f)).To(BeEmpty(), "the same filter with the creator as author finds nothing (snapshots are relay-signed)")
			}},
		{Case: framework.NewCase("labels/discovery/13", framework.MUST,
			"ids with a limit: a withheld snapshot does not use up the limit. An outsider's {\"kinds\":[39000],\"ids\":[private, open],\"limit\":1}, naming a newer private, hidden channel's snapshot and an older open one's, returns the open one; the owner's returns the private one.",
			"labels/finding-channels.7"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				outsider := t.Connect(t.Actor("outsider"))
				x := lbl(t, "ids")
				open := snapshot(t, owner, createLabeled(t, owner, "", fixtures.Open, x))
				priv := t.NewerMetadata(owner, createWithheld(t, owner, outsider, x), open.CreatedAt)
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, IDs: []string{priv.ID, open.ID}, Limit: 1}
				if got := t.Query(outsider, f); len(got) != 1 || got[0].ID != open.ID {
					framework.Failf("an outsider's ids read with limit 1 naming a withheld snapshot %s and an older open one %s must return the open one, got %d event(s): %v", priv.ID, open.ID, len(got), framework.IDs(got))
				}
				if got := t.Query(owner, f); len(got) != 1 || got[0].ID != priv.ID {
					framework.Failf("the owner's ids read with limit 1 must return the newer private snapshot %s, got %d event(s): %v", priv.ID, len(got), framework.IDs(got))
				}
			}},
	}, readmatrix.ReadsSpecs(
		labelsSupersededRule([]readmatrix.ReadRow{
			{Id: "labels/reads/1", Shape: "l", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/2", Shape: "L-l", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/3", Shape: "l-limit", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/4", Shape: "ids", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/5", Shape: "until", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/6", Shape: "authors", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/7", Shape: "multi", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/8", Shape: "d", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/9", Shape: "count", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/10", Shape: "l", Viewer: readmatrix.ViewMember, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/35", Shape: "L", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/44", Shape: "ids-l-limit", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
		}),
		labelsInaccessibleRule([]readmatrix.ReadRow{
			{Id: "labels/reads/11", Shape: "l", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/12", Shape: "L-l", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/13", Shape: "l-limit", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/14", Shape: "ids", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/15", Shape: "until", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/16", Shape: "authors", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/17", Shape: "multi", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/19", Shape: "count", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/20", Shape: "live", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld, Clause: "labels/finding-channels.10"},
			{Id: "labels/reads/21", Shape: "l", Viewer: readmatrix.ViewAnon, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/22", Shape: "l-limit", Viewer: readmatrix.ViewAnon, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/24", Shape: "l", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen},
			{Id: "labels/reads/25", Shape: "l-limit", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen},
			{Id: "labels/reads/26", Shape: "ids", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen},
			{Id: "labels/reads/27", Shape: "d", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen, Clause: "labels/finding-channels.3"},
			{Id: "labels/reads/28", Shape: "count", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen},
			{Id: "labels/reads/29", Shape: "live", Viewer: readmatrix.ViewAnon, Want: readmatrix.WantWithheld, Clause: "labels/finding-channels.10"},
			{Id: "labels/reads/30", Shape: "l", Viewer: readmatrix.ViewRemoved, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/31", Shape: "ids", Viewer: readmatrix.ViewRemoved, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/33", Shape: "count", Viewer: readmatrix.ViewRemoved, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/34", Shape: "L", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/36", Shape: "L", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen},
			{Id: "labels/reads/38", Shape: "count-limit", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/39", Shape: "count-limit", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen},
			{Id: "labels/reads/42", Shape: "ids-l-limit", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "labels/reads/43", Shape: "ids-l-limit", Viewer: readmatrix.ViewAnon, Want: readmatrix.WantWithheld},
		}),
	)...)
	// "Finding channels".
	out = append(out, []framework.Spec{
		{Case: framework.NewCase("labels/discovery/1", framework.MUST,
			"#L nip-cl with #l finds exactly the channels carrying the label, with their canonical snapshot.",
			"labels/finding-channels.1"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "find")
				a := createLabeled(t, c, "", fixtures.Open, x, lbl(t, "other"))
				b := createLabeled(t, c, fixtures.TypeForum, fixtures.Open, x)
				createLabeled(t, c, "", fixtures.Open, lbl(t, "not"))
				t.Expect(framework.DTags(findL(t, c, []string{x}, nil, 50))).To(ConsistOf(a, b))
				only := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {x}}})
				t.Expect(framework.DTags(only)).To(ConsistOf(a, b), "#l alone matches too")
			}},
		{Case: framework.NewCase("labels/discovery/2", framework.MUST,
			"#t composes with #l: a stream and a forum with the same label are told apart by #t.",
			"labels/finding-channels.2"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "typed")
				s := createLabeled(t, c, fixtures.TypeStream, fixtures.Open, x)
				f := createLabeled(t, c, fixtures.TypeForum, fixtures.Open, x)
				t.Expect(framework.DTags(findL(t, c, []string{x}, nostr.TagMap{"t": {fixtures.TypeStream}}, 50))).To(ConsistOf(s))
				t.Expect(framework.DTags(findL(t, c, []string{x}, nostr.TagMap{"t": {fixtures.TypeForum}}, 50))).To(ConsistOf(f))
				t.Expect(framework.DTags(findL(t, c, []string{x}, nostr.TagMap{"t": {fixtures.TypeStream, fixtures.TypeForum}}, 50))).To(ConsistOf(s, f))
			}},
		{Case: framework.NewCase("labels/discovery/3", framework.MUST,
			"#d composes with #l: only the named channel, and only when it carries the label.",
			"labels/finding-channels.2"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x, y := lbl(t, "x"), lbl(t, "y")
				a := createLabeled(t, c, "", fixtures.Open, x)
				createLabeled(t, c, "", fixtures.Open, x, y)
				t.Expect(framework.DTags(findL(t, c, []string{x}, nostr.TagMap{"d": {a}}, 50))).To(ConsistOf(a))
				t.Expect(findL(t, c, []string{y}, nostr.TagMap{"d": {a}}, 50)).To(BeEmpty(), "a does not carry y")
			}},
		{Case: framework.NewCase("labels/discovery/4", framework.MUST,
			"Values within #l combine with OR (no intersection), and several filters combine with OR.",
			"labels/finding-channels.4"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x, y := lbl(t, "x"), lbl(t, "y")
				a := createLabeled(t, c, "", fixtures.Open, x)
				b := createLabeled(t, c, "", fixtures.Open, y)
				both := createLabeled(t, c, "", fixtures.Open, x, y)
				t.Expect(framework.DTags(findL(t, c, []string{x, y}, nil, 50))).To(ConsistOf(a, b, both), "#l [x, y]")
				got := t.Query(c,
					nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {x}, "d": {a}}},
					nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {y}, "d": {b}}})
				t.Expect(framework.DTags(got)).To(ConsistOf(a, b), "two filter objects")
			}},
		{Case: framework.NewCase("labels/discovery/5", framework.MUST,
			"Labels are matched before limit: an older labeled channel is found with limit 1 behind Scale newer channels that carry other labels.",
			"labels/finding-channels.8").
			WithHeavy(),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x, other := lbl(t, "needle"), lbl(t, "hay")
				target := createLabeled(t, c, "", fixtures.Open, x)
				ids := parallelCreate(t, t.Env.Scale, func(a *fixtures.Actor, i int) (*nostr.Event, string) {
					return createEv(a, "", fixtures.Open, other)
				})
				newest := createLabeled(t, c, "", fixtures.Open, other)
				// A rename gives it a snapshot strictly newer than the target's.
				t.Accept(c, fixtures.EditChannel(c.Actor(), newest, nostr.Tag{"name", "newest"}), "rename the newest distractor")
				t.Note("%d distractors labeled %s", len(ids)+1, other)
				t.Expect(framework.DTags(findL(t, c, []string{x}, nil, 1))).To(Equal([]string{target}), "#L+#l limit 1")
				t.Expect(framework.DTags(findL(t, c, []string{x}, nostr.TagMap{"t": {fixtures.TypeStream}}, 1))).To(Equal([]string{target}), "#t+#l limit 1")
				t.Expect(framework.DTags(findL(t, c, []string{x, lbl(t, "absent")}, nil, 1))).To(Equal([]string{target}), "#l OR limit 1")
			}},
		{Case: framework.NewCase("labels/discovery/6", framework.MUST,
			"A removed label no longer finds the channel, and the superseded snapshot that carried it does not consume the limit.",
			"labels/finding-channels.14", "labels/finding-channels.6"),
			Run: func(t *framework.T) {
				t.Checking("labels/finding-channels.6")
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "moving")
				older := createLabeled(t, c, "", fixtures.Open, x)
				gone := createLabeled(t, c, "", fixtures.Open, x)
				// Two more snapshots with x, each strictly newer than older's.
				acceptNew(t, c, mutationEv(c.Actor(), gone, []string{lbl(t, "tmp")}, nil), "add tmp")
				acceptNew(t, c, mutationEv(c.Actor(), gone, nil, []string{x}), "remove x")
				t.Expect(framework.DTags(findL(t, c, []string{x}, nil, 1))).To(Equal([]string{older}), "limit 1 finds the channel still labeled x")
				t.Expect(framework.DTags(findL(t, c, []string{x}, nil, 50))).To(Equal([]string{older}), "the channel that lost x is not found by it")
				t.Expect(findL(t, c, []string{x}, nostr.TagMap{"d": {gone}}, 50)).To(BeEmpty(), "#d+#l on the channel that lost x")
			}},
		{Case: framework.NewCase("labels/discovery/7", framework.MUST,
			"Exact channel reads (#d) and label discovery return the same current snapshot with the same labels.",
			"labels/finding-channels.3", "labels/add-remove.15"),
			Run: func(t *framework.T) {
				t.Checking("labels/finding-channels.3")
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "same")
				ch := createLabeled(t, c, "", fixtures.Open, x, lbl(t, "more"))
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"name", t.Unique("renamed")}), "ordinary rename")
				exact := snapshot(t, c, ch)
				found := findL(t, c, []string{x}, nil, 50)
				t.Expect(framework.IDs(found)).To(Equal([]string{exact.ID}), "discovery returns the current snapshot")
				t.Expect(fmt.Sprint(labelsOf(found[0]))).To(Equal(fmt.Sprint(labelsOf(exact))))
			}},
	}...)
	return out
}
