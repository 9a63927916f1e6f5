package identity

import (
	"fmt"
	"slices"
	"sort"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/readmatrix"
)

// namingSpecs are the cases of identity/naming.
func namingSpecs() []framework.Spec {
	return append([]framework.Spec{
		{Case: framework.NewCase("identity/naming/1", framework.MUST,
			"#h names a system channel: a member reads its messages, anyone reads an open system channel's, an outsider never a private one's (REQ and COUNT).",
			"identity/naming.1", "identity/naming.4"),
			Run: func(t *framework.T) {
				t.Checking("identity/naming.1")
				w := newSysWorld(t)
				anon := t.Connect(nil)
				byH := func(ch string) nostr.Filter {
					return nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}}
				}
				t.Expect(framework.IDs(t.Query(w.M, byH(w.Sys)))).To(Equal([]string{w.Msg[w.Sys].ID}), "member, private system channel")
				t.ExpectCount(w.M, 1, "member, COUNT", byH(w.Sys))
				for _, c := range readersOf(t, anon, byH(w.SysOpen), w.M, w.X) {
					t.Expect(framework.IDs(t.Query(c, byH(w.SysOpen)))).To(Equal([]string{w.Msg[w.SysOpen].ID}), "open system channel by #h")
					t.ExpectCount(c, 1, "open system channel, COUNT", byH(w.SysOpen))
				}
				for _, c := range []*fixtures.Client{w.X, anon} {
					t.Note("%s, private system channel by #h: %s", framework.ActorName(c), t.QueryAbsent(c, "outsider, private system channel by #h", byH(w.Sys)))
					t.Note("%s, COUNT: %s", framework.ActorName(c), countNone(t, c, "outsider, COUNT", byH(w.Sys)))
				}
			}},
		{Case: framework.NewCase("identity/naming/2", framework.MUST,
			"#d on a filter whose kinds are all 39000-39003 names a system channel: a member reads its 39000-39002, anyone an open one's, an outsider never a private one's.",
			"identity/naming.2", "identity/naming.4", "identity/system-channels.2").
			WithReading(readingNoKinds),
			Run: func(t *framework.T) {
				t.Checking("identity/naming.2")
				w := newSysWorld(t)
				anon := t.Connect(nil)
				kinds := []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers}
				byD := func(ch string) nostr.Filter { return nostr.Filter{Kinds: kinds, Tags: nostr.TagMap{"d": {ch}}} }
				published := t.StateKinds(kinds...) // the kinds this relay publishes
				want := func(ch string) []string {
					var out []string
					for _, k := range published {
						out = append(out, pairsOf(k, ch)...)
					}
					return sortedCopy(w.present(t, out)...)
				}
				t.Expect(pairsFor(t.Query(w.M, byD(w.Sys)), w.all())).To(Equal(want(w.Sys)), "member, private system channel")
				t.ExpectCount(w.M, int64(len(want(w.Sys))), "member, COUNT", byD(w.Sys))
				for _, c := range readersOf(t, anon, byD(w.SysOpen), w.M, w.X) {
					t.Expect(pairsFor(t.Query(c, byD(w.SysOpen)), w.all())).To(Equal(want(w.SysOpen)), "open system channel by #d")
					t.Expect(pairsFor(t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {w.SysOpen}}}), w.all())).
						To(Equal(pairsOf(fixtures.KindMetadata, w.SysOpen)), "open system channel by #d, kinds:[39000]")
				}
				for _, c := range []*fixtures.Client{w.X, anon} {
					t.Note("%s, private system channel by #d: %s", framework.ActorName(c), t.QueryAbsent(c, "outsider, private system channel by #d", byD(w.Sys)))
					t.Note("%s, COUNT: %s", framework.ActorName(c), countNone(t, c, "outsider, COUNT", byD(w.Sys)))
				}
			}},
		{Case: framework.NewCase("identity/naming/3", framework.MUST,
			"#d on a filter without kinds or with a kind outside 39000-39003 does not name a channel: system channels stay out (REQ and COUNT), stream channels come back (control).",
			"identity/naming.3"),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				for _, extra := range []int{fixtures.KindMessage, 44100} {
					f := nostr.Filter{Kinds: []int{fixtures.KindMetadata, extra}, Tags: nostr.TagMap{"d": w.all()}}
					t.Expect(pairsFor(t.Query(w.M, f), w.all())).To(Equal(sortedCopy(pairsOf(fixtures.KindMetadata, w.Stream, w.StreamPriv)...)), "member, kinds:[39000,%d] #d", extra)
					t.ExpectCount(w.M, 2, fmt.Sprintf("member, COUNT kinds:[39000,%d] #d", extra), f)
				}
				noKinds := nostr.Filter{Tags: nostr.TagMap{"d": w.all()}}
				// A 39003 of the stream channels may come back too (NIP-29
				// lets a relay publish it); it is noted, not required.
				got := pairsFor(t.Query(w.M, noKinds), w.all())
				roles := pairsOf(fixtures.KindRoles, w.Stream, w.StreamPriv)
				var rest []string
				for _, p := range got {
					if slices.Contains(roles, p) {
						t.Note("#d without kinds also returned %s", p)
						continue
					}
					rest = append(rest, p)
				}
				var want []string
				for _, k := range t.StateKinds(fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers) {
					want = append(want, pairsOf(k, w.Stream, w.StreamPriv)...)
				}
				t.Expect(sortedCopy(rest...)).To(Equal(sortedCopy(w.present(t, want)...)), "member, #d without kinds")
			}},
		{Case: framework.NewCase("identity/naming/4", framework.MUST,
			"Naming is per filter: in one REQ (and one COUNT) with a filter naming a system channel and a generic filter, the generic filter gains nothing of it, whichever comes first.",
			"identity/naming.5"),
			Run: func(t *framework.T) {
				w := newSysWorld(t)
				genericKinds := t.RequireStateKinds(fixtures.KindAdmins, fixtures.KindMembers)
				for _, r := range w.readers() {
					named := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {w.SysOpen}}}
					generic := nostr.Filter{Kinds: genericKinds, Tags: nostr.TagMap{"t": {w.L}}}
					want := pairsOf(fixtures.KindMetadata, w.SysOpen)
					for _, ch := range w.legacyFor(r.c) {
						for _, k := range genericKinds {
							want = append(want, pairsOf(k, ch)...)
						}
					}
					want = sortedCopy(w.present(t, want)...)
					t.Expect(pairsFor(t.Query(r.c, named, generic), w.all())).To(Equal(want), "%s: REQ [named #d, generic #t]", r.name)
					t.Expect(pairsFor(t.Query(r.c, generic, named), w.all())).To(Equal(want), "%s: REQ [generic #t, named #d]", r.name)
					t.ExpectCount(r.c, 1, fmt.Sprintf("%s: COUNT named", r.name), named)
					var genericPairs []string
					for _, k := range genericKinds {
						genericPairs = append(genericPairs, pairsOf(k, w.legacyFor(r.c)...)...)
					}
					t.ExpectCount(r.c, int64(len(w.present(t, genericPairs))), fmt.Sprintf("%s: COUNT generic", r.name), generic)
					t.ExpectCount(r.c, int64(len(want)), fmt.Sprintf("%s: COUNT [named, generic]", r.name), named, generic)
				}
				// #h naming a private system channel for its member, next to a generic 39000 filter.
				named := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {w.Sys}}}
				generic := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"t": {w.L}}}
				want := sortedCopy(append(pairsOf(fixtures.KindMessage, w.Sys), pairsOf(fixtures.KindMetadata, w.Stream, w.StreamPriv)...)...)
				t.Expect(pairsFor(t.Query(w.M, named, generic), w.all())).To(Equal(want), "member: REQ [named #h, generic 39000 #t]")
				t.ExpectCount(w.M, int64(len(want)), "member: COUNT [named #h, generic 39000 #t]", named, generic)
			}},
		{Case: framework.NewCase("identity/naming/5", framework.MUST,
			"Naming holds on live subscriptions: a member's subscription naming a private system channel by #h receives its new message, one with #d on kinds [39000] its new 39000; one with the same #d on kinds [39000, 9] receives the named stream's new 39000 but nothing of the system channel.",
			"identity/naming.1", "identity/naming.2", "identity/naming.3").
			WithReading(framework.LiveDeliveryReading),
			Run: func(t *framework.T) {
				t.Checking("identity/naming.1")
				w := newSysWorld(t)
				d := nostr.TagMap{"d": {w.Sys, w.StreamPriv}}
				byH := t.Subscribe(w.M, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {w.Sys}}})
				byD := t.Subscribe(w.M, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: d})
				mixed := t.Subscribe(w.M, nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindMessage}, Tags: d})
				t.Accept(w.O, fixtures.EditChannel(w.O.Actor(), w.Sys, nostr.Tag{"name", t.Unique("renamed")}), "rename the system channel")
				msg := w.post(t, w.Sys)
				// The control comes last: once its 39000 arrives, every earlier
				// event of the subscription has arrived too.
				t.Accept(w.O, fixtures.EditChannel(w.O.Actor(), w.StreamPriv, nostr.Tag{"name", t.Unique("renamed")}), "rename the private stream (control)")
				metaOf := func(ch string) func(*nostr.Event) bool {
					return func(ev *nostr.Event) bool { return ev.Kind == fixtures.KindMetadata && framework.DTag(ev) == ch }
				}
				_, err := byH.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.ID == msg.ID })
				t.Checking("identity/naming.1")
				t.Must(err, "identity/naming.1: live {\"kinds\":[9],\"#h\":[system channel]}: the member receives the new message (the filter names the channel)")
				metaFilter := func(ch string) nostr.Filter {
					return nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}}
				}
				t.Checking("identity/naming.2")
				t.WaitLiveSigned(w.M, byD, metaOf(w.Sys), metaFilter(w.Sys), "identity/naming.2: live {\"kinds\":[39000],\"#d\":[system channel, private stream]}: the member receives the system channel's new 39000 (the filter names it)")
				seen := t.WaitLiveSigned(w.M, mixed, metaOf(w.StreamPriv), metaFilter(w.StreamPriv), "live {\"kinds\":[39000,9],\"#d\":[...]}: the private stream's new 39000 (control)")
				seen = append(seen, mixed.Drain()...)
				for _, ev := range seen {
					t.Checking("identity/naming.3")
					t.Expect(channelOfEvent(ev)).NotTo(Equal(w.Sys), "identity/naming.3: live {\"kinds\":[39000,9],\"#d\":[system channel, ...]} does not name the system channel, yet its kind %d %s was delivered", ev.Kind, ev.ID)
				}
			}},
	}, readmatrix.ReadsSpecs(
		identitySystemRule([]readmatrix.ReadRow{
			{Id: "identity/reads/8", Shape: "multi", Viewer: readmatrix.ViewMember, Want: readmatrix.WantWithheld, Clause: "identity/naming.5"},
			{Id: "identity/reads/9", Shape: "d-named", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen, Clause: "identity/naming.2"},
			{Id: "identity/reads/10", Shape: "d-no-kinds", Viewer: readmatrix.ViewMember, Want: readmatrix.WantWithheld, Clause: "identity/naming.3"},
			{Id: "identity/reads/14", Shape: "d-named", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld, Clause: "identity/naming.4"},
			{Id: "identity/reads/17", Shape: "d-named", Viewer: readmatrix.ViewRemoved, Want: readmatrix.WantWithheld, Clause: "identity/naming.4"},
		}),
	)...)
}

// pairs returns "channel/kind" for each event, sorted, to compare exact
// event sets across channels and kinds.
func pairsFor(evs []*nostr.Event, keep []string) []string {
	out := []string{}
	for _, ev := range evs {
		ch := channelOfEvent(ev)
		for _, k := range keep {
			if k == ch {
				out = append(out, fmt.Sprintf("%s/%d", ch, ev.Kind))
			}
		}
	}
	sort.Strings(out)
	return out
}

func pairsOf(kind int, chans ...string) []string {
	out := []string{}
	for _, ch := range chans {
		out = append(out, fmt.Sprintf("%s/%d", ch, kind))
	}
	return out
}

// readersOf returns the authenticated readers and, when the relay serves it
// the probe read f, the anonymous one. NIP-42 lets a relay require
// authentication for reads, so an anonymous refusal (CLOSED) only drops
// that reader from the checks that need a read served; it is noted.
func readersOf(t *framework.T, anon *fixtures.Client, f nostr.Filter, authed ...*fixtures.Client) []*fixtures.Client {
	GinkgoHelper()
	r := t.QueryResult(anon, f)
	if r.Closed {
		framework.CheckPrefix("CLOSED", r.ClosedReason)
		t.Note("anonymous read %s refused with CLOSED %q: the anonymous reader is left out of the reads that must be served", framework.FilterString([]nostr.Filter{f}), r.ClosedReason)
		return authed
	}
	return append(authed, anon)
}
