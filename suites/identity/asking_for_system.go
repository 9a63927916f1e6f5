package identity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/readmatrix"
)

// askingForSystemSpecs are the cases of identity/asking-for-system.
func askingForSystemSpecs() []framework.Spec {
	return append([]framework.Spec{
		{Case: framework.NewCase("identity/optin/7", framework.MUST,
			"#P:[creator] with #t:[label] on a 39000 filter opts in for every reader, but never past the channel ACL: each reader (a member of every channel, and a reader who is a member of the open ones only) gets exactly the creator's labeled channels it may read; the private system channel and the private stream reach the full member only.",
			"identity/asking-for-system.2", "identity/asking-for-system.7"),
			Run: func(t *framework.T) {
				t.Checking("identity/asking-for-system.2")
				w := newSysWorld(t)
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"P": {w.O.Actor().PubKey}, "t": {w.L}}}
				for _, r := range w.readers() {
					want := sortedCopy(append(w.legacyFor(r.c), w.systemFor(r.c)...)...)
					got := channelSet(t.Query(r.c, f))
					w.requireNoUnreadableSystem(t, got, w.systemFor(r.c), r.name+": #P:[creator] #t:[label]")
					t.Expect(got).To(Equal(want), "%s: #P:[creator] #t:[label]", r.name)
				}
			}},
		{Case: framework.NewCase("identity/optin/8", framework.MUST,
			"The #P opt-in with a limit still matches as usual, newest first: with a labeled stream and a newer labeled system channel of one creator, {\"kinds\":[39000],\"#P\":[creator],\"#t\":[label],\"limit\":1} returns the system channel, and limit 2 returns both.",
			"identity/asking-for-system.4"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := freshLabel(t)
				stream := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: []string{x}})
				older := t.GroupMetadata(c, stream)
				sys := mkChannel(t, c, chanOpts{Type: fixtures.TypeSystem, Visibility: fixtures.Open, Labels: []string{x}})
				// The system channel's snapshot is made strictly the newest match.
				t.NewerMetadata(c, sys, older.CreatedAt)
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"P": {c.Actor().PubKey}, "t": {x}}, Limit: 1}
				if got := channelSet(t.Query(c, f)); len(got) != 1 || got[0] != sys {
					framework.Failf("#P:[creator] #t:[%s] limit 1 must return the newest match, the system channel %s (the stream %s is older), got %v", x, sys, stream, got)
				}
				f.Limit = 2
				t.Expect(channelSet(t.Query(c, f))).To(Equal(sortedCopy(stream, sys)), "#P:[creator] #t:[label] limit 2: the system channel and the stream")
			}},
		{Case: framework.NewCase("identity/optin/1", framework.MUST,
			`kinds:[39000] #t:["system"] returns the system channels the reader may read (member: private and open; outsider and anonymous: the open one), never a stream channel; COUNT with #t:["system"] and no #P agrees.`,
			"identity/asking-for-system.1", "identity/asking-for-system.4", "identity/asking-for-system.7").
			WithFreshKeys(),
			Run: func(t *framework.T) {
				t.Checking("identity/asking-for-system.1")
				w := newSysWorld(t)
				anon := t.Connect(nil)
				o := w.O.Actor().PubKey
				probe := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"t": {fixtures.TypeSystem}, "P": {o}}}
				ids := stateIDs(t, w.O, w.all())
				for _, c := range readersOf(t, anon, probe, w.M, w.X) {
					want := w.systemFor(c)
					if c == anon {
						want = []string{w.SysOpen}
					}
					f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"t": {fixtures.TypeSystem}, "P": {o}}}
					found := findChannels(t, c, f.Tags)
					w.requireNoUnreadableSystem(t, found, want, "#t:[system] #P:[creator]")
					t.Expect(found).To(Equal(want), "#t:[system] #P:[creator]")
					all := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"t": {fixtures.TypeSystem}}})
					w.requireNoUnreadableSystem(t, w.ours(all), want, "#t:[system]")
					t.Expect(w.ours(all)).To(Equal(want), "#t:[system] (this run's channels)")
					// COUNT with #t:["system"] alone (any #P opts in by
					// itself): ids keep it to this world's 39000s without
					// naming a channel.
					byIDs := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, IDs: ids, Tags: nostr.TagMap{"t": {fixtures.TypeSystem}}}
					t.Expect(channelSet(t.Query(c, byIDs))).To(Equal(want), "#t:[system] with ids of this world's 39000s")
					t.ExpectCount(c, int64(len(want)), "COUNT #t:[system] with ids of this world's 39000s (no #P)", byIDs)
				}
			}},
		{Case: framework.NewCase("identity/optin/2", framework.MUST,
			"Any #P on a 39000-39003 filter also returns the readable system channels: kinds:[39000] #P:[creator] gives the creator's readable stream and system channels; COUNT agrees.",
			"identity/asking-for-system.2", "identity/asking-for-system.4", "identity/asking-for-system.7").
			WithFreshKeys(),
			Run: func(t *framework.T) {
				t.Checking("identity/asking-for-system.2")
				w := newSysWorld(t)
				// Another creator's open system channel with the same label stays out of #P:[creator].
				stranger := t.Connect(t.Actor("stranger"))
				foreign := mkChannel(t, stranger, chanOpts{Type: fixtures.TypeSystem, Visibility: fixtures.Open, Labels: []string{w.L}})
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"P": {w.O.Actor().PubKey}}}
				for _, r := range w.readers() {
					want := sortedCopy(append(w.legacyFor(r.c), w.systemFor(r.c)...)...)
					t.Expect(channelSet(t.Query(r.c, f))).To(Equal(want), "%s: #P:[creator]", r.name)
					t.ExpectCount(r.c, int64(len(want)), fmt.Sprintf("%s: COUNT #P:[creator]", r.name), f)
				}
				withLabel := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"P": {w.O.Actor().PubKey}, "t": {w.L}}}
				t.Expect(channelSet(t.Query(w.M, withLabel))).To(Equal(sortedCopy(w.all()...)), "member: #P:[creator] #t:[label] (one creator's channels with a label, system or not)")
				t.Expect(findChannels(t, w.M, nostr.TagMap{"P": {stranger.Actor().PubKey}})).To(Equal([]string{foreign}), "#P:[other creator] returns only that creator's system channel")
			}},
		{Case: framework.NewCase("identity/optin/3", framework.MUST,
			`#t:["system", label] means system OR the label: system channels without the label and stream channels with it both come back.`,
			"identity/asking-for-system.6").
			WithFreshKeys(),
			Run: func(t *framework.T) {
				o := t.Connect(t.Actor("creator"))
				label := freshLabel(t)
				sys := mkChannel(t, o, chanOpts{Type: fixtures.TypeSystem, Visibility: fixtures.Open})
				labeled := mkChannel(t, o, chanOpts{Visibility: fixtures.Open, Labels: []string{label}})
				mkChannel(t, o, chanOpts{Visibility: fixtures.Open, Labels: []string{freshLabel(t)}})
				mkChannel(t, o, chanOpts{Type: fixtures.TypeForum, Visibility: fixtures.Open})
				got := findChannels(t, o, nostr.TagMap{"t": {fixtures.TypeSystem, label}, "P": {o.Actor().PubKey}})
				t.Expect(got).To(Equal(sortedCopy(sys, labeled)))
			}},
		{Case: framework.NewCase("identity/optin/4", framework.MUST,
			"A label alone does not ask for system channels: #t:[label] on 39000-39002 returns the labeled stream channels but not the labeled system channels the reader could read; COUNT agrees.",
			"identity/asking-for-system.5"),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				for _, kinds := range [][]int{{fixtures.KindMetadata}, t.StateKinds(fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers)} {
					f := nostr.Filter{Kinds: kinds, Tags: nostr.TagMap{"t": {w.L}}}
					t.Expect(channelSet(t.Query(w.M, f))).To(Equal(w.legacyFor(w.M)), "member: kinds %v #t:[label]", kinds)
					var pairs []string
					for _, k := range kinds {
						pairs = append(pairs, pairsOf(k, w.legacyFor(w.M)...)...)
					}
					t.ExpectCount(w.M, int64(len(w.present(t, pairs))), fmt.Sprintf("member: COUNT kinds %v #t:[label]", kinds), f)
				}
			}},
		{Case: framework.NewCase("identity/optin/5", framework.MUST,
			"Opt-in needs kinds all within 39000-39003: #P or #t:[system] on a filter without kinds or that also has kind 9 returns no system channel.",
			"identity/asking-for-system.3").
			WithFreshKeys(),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindMessage}, Tags: nostr.TagMap{"P": {w.O.Actor().PubKey}}}
				t.Expect(w.ours(t.Query(w.M, f))).To(Equal(w.legacyFor(w.M)), "member: kinds:[39000,9] #P:[creator]")
				t.ExpectCount(w.M, int64(len(w.legacyFor(w.M))), "member: COUNT kinds:[39000,9] #P:[creator]", f)
				f = nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindMessage}, Tags: nostr.TagMap{"t": {fixtures.TypeSystem, w.L}}}
				t.Expect(w.ours(t.Query(w.M, f))).To(Equal(w.legacyFor(w.M)), "member: kinds:[39000,9] #t:[system, label]")
				f = nostr.Filter{Tags: nostr.TagMap{"P": {w.O.Actor().PubKey}}}
				got := t.Query(w.M, f)
				t.Expect(w.ours(got)).To(Equal(w.legacyFor(w.M)), "member: #P:[creator] without kinds")
				// The creator is fresh, so every event with its P is this
				// world's: COUNT must agree with the REQ (39000-39002 of each
				// stream channel, and 39003 where the relay puts P there).
				t.ExpectCount(w.M, int64(len(got)), "member: COUNT #P:[creator] without kinds agrees with the REQ", f)
			}},
		{Case: framework.NewCase("identity/optin/6", framework.MUST,
			`"My system channels": kinds:[39002] #p:[me] #t:["system"] lists the system channels the reader belongs to.`,
			"identity/asking-for-system.1").
			WithFreshKeys(),
			Run: func(t *framework.T) {
				t.RequireStateKinds(fixtures.KindMembers)
				w := newSysWorld(t)
				t.Expect(findOf(t, w.M, fixtures.KindMembers, nostr.TagMap{"p": {w.M.Actor().PubKey}, "t": {fixtures.TypeSystem}})).To(Equal(sortedCopy(w.Sys, w.SysOpen)), "member")
				t.Expect(findOf(t, w.X, fixtures.KindMembers, nostr.TagMap{"p": {w.X.Actor().PubKey}, "t": {fixtures.TypeSystem}})).To(Equal([]string{w.SysOpen}), "outsider (member of the open one)")
			}},
		{Case: framework.NewCase("identity/optin/9", framework.MUST,
			`The opt-in holds on live subscriptions: kinds:[39000] with #t:["system"], or with #P:[creator], receives the new 39000 of each system channel the reader may read (a member: both; a member of the open one only: that one), and never the private one's to an outsider.`,
			"identity/asking-for-system.1", "identity/asking-for-system.2", "identity/asking-for-system.7").
			WithReading("A message posted in the open stream, matched by a second filter of each subscription, is the marker that ends the observation. " + framework.LiveDeliveryReading),
			Run: func(t *framework.T) {
				t.Checking("identity/asking-for-system.1")
				w := newSysWorld(t)
				marker := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {w.Stream}}}
				optIns := []struct {
					clause string
					f      nostr.Filter
				}{
					{"identity/asking-for-system.1", nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"t": {fixtures.TypeSystem}}}},
					{"identity/asking-for-system.2", nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"P": {w.O.Actor().PubKey}}}},
				}
				type watch struct {
					name, clause string
					c            *fixtures.Client
					f            nostr.Filter
					sub          *fixtures.Subscription
				}
				var watches []watch
				for _, r := range w.readers() {
					for _, o := range optIns {
						watches = append(watches, watch{r.name, o.clause, r.c, o.f, t.Subscribe(r.c, o.f, marker)})
					}
				}
				// Control: the open stream's renamed 39000 on a subscription
				// naming it by #d. A relay that delivers the state it signs to
				// reads only makes the live rule unobservable (unsupported).
				streamMeta := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {w.Stream}}}
				control := t.Subscribe(w.M, streamMeta)
				for _, ch := range w.system() {
					w.rename(t, ch)
				}
				w.rename(t, w.Stream)
				t.WaitLiveSigned(w.M, control, func(ev *nostr.Event) bool {
					return ev.Kind == fixtures.KindMetadata && framework.DTag(ev) == w.Stream
				}, streamMeta, "the open stream's renamed 39000 on a live #d subscription (control)")
				last := w.post(t, w.Stream)
				metasOf := make([][]*nostr.Event, len(watches))
				for i, wa := range watches {
					what := fmt.Sprintf("%s, live %s", wa.name, framework.FilterString([]nostr.Filter{wa.f}))
					seen, err := wa.sub.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.ID == last.ID })
					t.Must(err, what+": the marker message (control)")
					seen = append(seen, wa.sub.Drain()...)
					for _, ev := range seen {
						if ev.Kind == fixtures.KindMetadata {
							metasOf[i] = append(metasOf[i], ev)
						}
					}
				}
				for i, wa := range watches {
					what := fmt.Sprintf("%s, live %s", wa.name, framework.FilterString([]nostr.Filter{wa.f}))
					t.Checking(wa.clause)
					t.Expect(onlyOf(channelSet(metasOf[i]), w.system())).To(Equal(w.systemFor(wa.c)), "%s: %s: the renamed system channels it may read", wa.clause, what)
				}
			}},
		{Case: framework.NewCase("identity/optin/10", framework.MUST,
			`An opt-in stays in its filter: in one REQ (and one COUNT) holding kinds:[39000] #t:["system"] #P:[creator] and a kind 9 filter by label, the first returns the readable system channels and the kind 9 filter still no system-channel message, whichever comes first.`,
			"identity/asking-for-system.1", "identity/reads-leave-out.2").
			WithFreshKeys(),
			Run: func(t *framework.T) {
				t.Checking("identity/asking-for-system.1")
				w := newSysWorld(t)
				optIn := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"t": {fixtures.TypeSystem}, "P": {w.O.Actor().PubKey}}}
				msgs := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"t": {w.L}}}
				for _, r := range w.readers() {
					want := sortedCopy(append(pairsOf(fixtures.KindMetadata, w.systemFor(r.c)...), pairsOf(fixtures.KindMessage, w.legacyFor(r.c)...)...)...)
					t.Checking("identity/asking-for-system.1")
					t.ExpectCount(r.c, int64(len(w.systemFor(r.c))), fmt.Sprintf("identity/asking-for-system.1: %s: COUNT of the opt-in filter alone", r.name), optIn)
					for _, fs := range [][]nostr.Filter{{optIn, msgs}, {msgs, optIn}} {
						what := fmt.Sprintf("%s: %s", r.name, framework.FilterString(fs))
						got := pairsFor(t.Query(r.c, fs...), w.all())
						var meta, chat []string
						for _, p := range got {
							if strings.HasSuffix(p, fmt.Sprintf("/%d", fixtures.KindMessage)) {
								chat = append(chat, p)
							} else {
								meta = append(meta, p)
							}
						}
						t.Checking("identity/asking-for-system.1")
						t.Expect(sortedCopy(meta...)).To(Equal(sortedCopy(pairsOf(fixtures.KindMetadata, w.systemFor(r.c)...)...)), "identity/asking-for-system.1: REQ %s: the opt-in filter's system channels", what)
						t.Checking("identity/reads-leave-out.2")
						t.Expect(sortedCopy(chat...)).To(Equal(sortedCopy(pairsOf(fixtures.KindMessage, w.legacyFor(r.c)...)...)), "identity/reads-leave-out.2: REQ %s: the kind 9 filter's messages (no system channel)", what)
						t.ExpectCount(r.c, int64(len(want)), fmt.Sprintf("identity/reads-leave-out.2: COUNT %s: the opt-in does not reach the kind 9 filter", what), fs...)
					}
				}
			}},
		{Case: framework.NewCase("identity/optin/11", framework.MUST,
			`The #P opt-in holds on every state kind, not only 39000: kinds:[39001] and kinds:[39002] with #P:[creator], and kinds:[39001,39002] with #t:["system"] and #P, return the state of the creator's system channels the reader may read (a member: both, beside both streams; a member of the open one only: the open one, beside the open stream), and never the private system channel's to an outsider; COUNT agrees for the member.`,
			"identity/asking-for-system.2", "identity/asking-for-system.7").
			WithFreshKeys(),
			Run: func(t *framework.T) {
				t.Checking("identity/asking-for-system.2")
				published := t.RequireStateKinds(fixtures.KindAdmins, fixtures.KindMembers)
				w := newSysWorld(t)
				o := w.O.Actor().PubKey
				var filters []nostr.Filter
				for _, k := range published {
					filters = append(filters, nostr.Filter{Kinds: []int{k}, Tags: nostr.TagMap{"P": {o}}})
				}
				filters = append(filters, nostr.Filter{Kinds: published, Tags: nostr.TagMap{"t": {fixtures.TypeSystem}, "P": {o}}})
				for _, f := range filters {
					what := framework.FilterString([]nostr.Filter{f})
					_, tSystem := f.Tags["t"]
					// The member reads every channel of the world.
					chans := w.systemFor(w.M)
					if !tSystem {
						chans = sortedCopy(append(w.legacyFor(w.M), chans...)...)
					}
					// Of those channels, the state events that exist now.
					var pairs []string
					for _, k := range f.Kinds {
						pairs = append(pairs, pairsOf(k, chans...)...)
					}
					pairs = w.present(t, pairs)
					want := []string{}
					for _, p := range pairs {
						if ch := p[:strings.LastIndex(p, "/")]; !slices.Contains(want, ch) {
							want = append(want, ch)
						}
					}
					want = sortedCopy(want...)
					got := t.Query(w.M, f)
					t.Checking("identity/asking-for-system.2")
					t.Expect(w.ours(got)).To(Equal(want), "identity/asking-for-system.2: member: %s", what)
					t.ExpectCount(w.M, int64(len(pairs)), fmt.Sprintf("identity/asking-for-system.2: member: COUNT %s", what), f)
					// The outsider: the open system channel comes back (and the
					// open stream, the control, unless #t asks for system
					// only); the private system channel never does. Whether a
					// private stream's 39001/39002 reach an outsider is NIP-29's
					// metadata visibility, not this case's sentence.
					seen := w.ours(t.Query(w.X, f))
					exists := func(ch string) bool {
						var ps []string
						for _, k := range f.Kinds {
							ps = append(ps, pairsOf(k, ch)...)
						}
						return len(w.present(t, ps)) > 0
					}
					if exists(w.SysOpen) {
						t.Checking("identity/asking-for-system.2")
						t.Expect(seen).To(ContainElement(w.SysOpen), "identity/asking-for-system.2: outsider: %s: the open system channel", what)
					}
					if !tSystem && exists(w.Stream) {
						t.Expect(seen).To(ContainElement(w.Stream), "outsider: %s: the open stream (control)", what)
					}
					t.Checking("identity/asking-for-system.7")
					t.Expect(seen).NotTo(ContainElement(w.Sys), "identity/asking-for-system.7: outsider: %s: the private system channel", what)
				}
			}},
	}, readmatrix.ReadsSpecs(
		identitySystemRule([]readmatrix.ReadRow{
			{Id: "identity/reads/11", Shape: "t-system", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen, Clause: "identity/asking-for-system.1"},
			{Id: "identity/reads/15", Shape: "t-system", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld, Clause: "identity/asking-for-system.7"},
			{Id: "identity/reads/18", Shape: "t-system", Viewer: readmatrix.ViewRemoved, Want: readmatrix.WantWithheld, Clause: "identity/asking-for-system.7"},
			{Id: "identity/reads/19", Shape: "P", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen, Clause: "identity/asking-for-system.2"},
			{Id: "identity/reads/20", Shape: "P", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld, Clause: "identity/asking-for-system.7"},
		}),
	)...)
}
