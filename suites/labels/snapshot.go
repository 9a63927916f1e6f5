package labels

import (
	"slices"
	"sort"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// snapshotSpecs: "Metadata snapshot: kind 39000".
func snapshotSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("labels/snapshot/1", framework.MUST,
			"A labeled snapshot has one [\"L\",\"nip-cl\"] and one [\"l\",v,\"nip-cl\"] per value, sorted by ASCII value whatever the command's order.",
			"labels/snapshot.1", "labels/snapshot.10", "labels/snapshot.2", "labels/snapshot.3", "labels/snapshot.4", "labels/snapshot.6"),
			Run: func(t *framework.T) {
				t.Checking("labels/snapshot.1")
				c := t.Connect(t.Actor("owner"))
				p := lbl(t, "s")
				// '-' < '.' < '/' < '0' < ':' < 'a' < 'z' in ASCII.
				vals := []string{p + "z", p + ":", p + "-", p + "a", p + "/", p + "0", p + "."}
				ch := createLabeled(t, c, "", fixtures.Open, vals...)
				expectLabels(t, c, ch, vals...)
				x := p + ".."
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{x}, nil), "add")
				expectLabels(t, c, ch, append(vals, x)...)
			}},
		{Case: framework.NewCase("labels/snapshot/2", framework.MUST,
			"A label equal to a channel type (\"stream\") on a forum channel does not change the type: one t tag, t=forum.",
			"labels/snapshot.8", "labels/snapshot.9", "labels/finding-channels.2"),
			Run: func(t *framework.T) {
				t.Checking("labels/snapshot.8")
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, fixtures.TypeForum, fixtures.Open, "stream")
				ev := expectLabels(t, c, ch, "stream")
				t.Expect(typeOf(ev)).To(Equal(fixtures.TypeForum), "channel type")
				// #L/#l compose with #t and #d, so the relay must serve this read;
				// it must not match: the channel is a forum, "stream" is only a label.
				t.Expect(findL(t, c, []string{"stream"}, nostr.TagMap{"d": {ch}, "t": {fixtures.TypeStream}}, 10)).To(BeEmpty(), "#t stream does not match a forum labeled stream")
				t.Expect(framework.DTags(findL(t, c, []string{"stream"}, nostr.TagMap{"d": {ch}, "t": {fixtures.TypeForum}}, 10))).To(Equal([]string{ch}))
			}},
		{Case: framework.NewCase("labels/snapshot/3", framework.MUST,
			"Labels spelled like channel types (dm, forum, workflow, system) stay l tags; the snapshot keeps exactly one t tag with the real type.",
			"labels/snapshot.8", "labels/snapshot.9", "labels/scope.3"),
			Run: func(t *framework.T) {
				t.Checking("labels/snapshot.8")
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, fixtures.TypeStream, fixtures.Open, "dm", "forum", "workflow", "system")
				t.Expect(typeOf(expectLabels(t, c, ch, "dm", "forum", "workflow", "system"))).To(Equal(fixtures.TypeStream))
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{"dm"}), "remove dm")
				t.Expect(typeOf(expectLabels(t, c, ch, "forum", "workflow", "system"))).To(Equal(fixtures.TypeStream))
			}},
		{Case: framework.NewCase("labels/snapshot/5", framework.MUST,
			"While labels change, the stored snapshot after each step is relay-signed and canonical with the expected set, the empty one included; every snapshot delivered live is canonical too, carries the label set of the step it was published for, and none older than the subscription's start is delivered.",
			"labels/snapshot.1", "labels/snapshot.10", "labels/snapshot.5", "labels/snapshot.6", "labels/events.1").
			WithReading(readingLiveSubset),
			Run: func(t *framework.T) {
				t.Checking("labels/snapshot.1")
				c := t.Connect(t.Actor("owner"))
				a, b := lbl(t, "a"), lbl(t, "b")
				ch := createLabeled(t, c, "", fixtures.Open)
				base := snapshot(t, c, ch)
				sub := t.Subscribe(t.Connect(c.Actor()), nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
				steps := []struct{ add, remove, want []string }{
					{[]string{b, a}, nil, []string{a, b}},
					{nil, []string{a}, []string{b}},
					{[]string{a}, []string{b}, []string{a}},
					{nil, []string{a}, nil},
				}
				at := time.Now() // one base: steps are always distinct events
				var last *nostr.Event
				stored := map[string]int{}            // stored snapshot id -> step
				storedAt := map[nostr.Timestamp]int{} // its created_at -> step
				for i, s := range steps {
					acceptNew(t, c, mutationAt(c.Actor(), ch, s.add, s.remove, at.Add(-time.Duration(i)*time.Second)), "mutation")
					last = expectLabels(t, c, ch, s.want...)
					stored[last.ID], storedAt[last.CreatedAt] = i, i
				}
				all, ok := liveUntil(t, sub, last.ID)
				// Every live snapshot is judged: the one current when the
				// subscription opened (base) may come as history; one older
				// than that is stale and reported, never dropped.
				var live []*nostr.Event
				for _, ev := range all {
					switch {
					case ev.ID == base.ID:
					case ev.CreatedAt <= base.CreatedAt:
						framework.Failf("a stale snapshot was delivered live: %s (created_at %d, labels %v) is not newer than %s, the snapshot current when the subscription opened (created_at %d)", ev.ID, ev.CreatedAt, labelsOf(ev), base.ID, base.CreatedAt)
					default:
						live = append(live, ev)
					}
				}
				checkDelivered(t, live, last, 0)
				// Each live snapshot carries the label set of the step whose
				// stored snapshot it is (by id, or by created_at).
				for _, ev := range live {
					i, known := stored[ev.ID]
					if !known {
						i, known = storedAt[ev.CreatedAt]
					}
					if !known {
						t.Note("live snapshot %s (created_at %d) is none of the stored snapshots read after each step; its labels %v were checked for canonical form only", ev.ID, ev.CreatedAt, labelsOf(ev))
						continue
					}
					want := slices.Clone(steps[i].want)
					sort.Strings(want)
					if got := labelsOf(ev); !slices.Equal(got, want) {
						framework.Failf("live snapshot %s (created_at %d, step %d) carries the labels %v, but the step's stored snapshot has %v", ev.ID, ev.CreatedAt, i+1, got, want)
					}
				}
				if ok {
					n := len(byCreatedAt(live))
					t.Note("%d of %d snapshots were delivered live, the final (empty) one included", n, len(steps))
					if n == len(steps) {
						t.Reading(clause.ReadingLabelsLive, "every")
					} else {
						t.Reading(clause.ReadingLabelsLive, "latest")
					}
				} else {
					t.Note("the final snapshot was not delivered live (%d others were); only stored snapshots were checked for it", len(byCreatedAt(live)))
				}
			}},
	}
}
