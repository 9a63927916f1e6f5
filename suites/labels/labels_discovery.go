package labels

import (
	"fmt"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// labelsDiscoverySpecs: "Finding channels".
func labelsDiscoverySpecs() []framework.Spec {
	sec := "labels/finding-channels"
	return []framework.Spec{
		{Case: lcase("labels/discovery/1", []string{"labels/finding-channels.1"}, "discovery", sec, framework.MUST, "#L nip-cl with #l finds exactly the channels carrying the label, with their canonical snapshot."),
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
		{Case: lcase("labels/discovery/2", []string{"labels/finding-channels.2"}, "discovery", sec, framework.MUST, "#t composes with #l: a stream and a forum with the same label are told apart by #t."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "typed")
				s := createLabeled(t, c, fixtures.TypeStream, fixtures.Open, x)
				f := createLabeled(t, c, fixtures.TypeForum, fixtures.Open, x)
				t.Expect(framework.DTags(findL(t, c, []string{x}, nostr.TagMap{"t": {fixtures.TypeStream}}, 50))).To(ConsistOf(s))
				t.Expect(framework.DTags(findL(t, c, []string{x}, nostr.TagMap{"t": {fixtures.TypeForum}}, 50))).To(ConsistOf(f))
				t.Expect(framework.DTags(findL(t, c, []string{x}, nostr.TagMap{"t": {fixtures.TypeStream, fixtures.TypeForum}}, 50))).To(ConsistOf(s, f))
			}},
		{Case: lcase("labels/discovery/3", []string{"labels/finding-channels.2"}, "discovery", sec, framework.MUST, "#d composes with #l: only the named channel, and only when it carries the label."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x, y := lbl(t, "x"), lbl(t, "y")
				a := createLabeled(t, c, "", fixtures.Open, x)
				createLabeled(t, c, "", fixtures.Open, x, y)
				t.Expect(framework.DTags(findL(t, c, []string{x}, nostr.TagMap{"d": {a}}, 50))).To(ConsistOf(a))
				t.Expect(findL(t, c, []string{y}, nostr.TagMap{"d": {a}}, 50)).To(BeEmpty(), "a does not carry y")
			}},
		{Case: lcase("labels/discovery/4", []string{"labels/finding-channels.4"}, "discovery", sec, framework.MUST, "Values within #l combine with OR (no intersection), and several filters combine with OR."),
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
		{Case: framework.Heavy(lcase("labels/discovery/5", []string{"labels/finding-channels.8"}, "discovery", sec, framework.MUST, "Labels are matched before limit: an older labeled channel is found with limit 1 behind Scale newer channels that carry other labels.")),
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
		{Case: lcase("labels/discovery/6", []string{"labels/finding-channels.14", "labels/finding-channels.6"}, "discovery", sec, framework.MUST, "A removed label no longer finds the channel, and the superseded snapshot that carried it does not consume the limit."),
			Run: func(t *framework.T) {
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
		{Case: lcase("labels/discovery/7", []string{"labels/add-remove.15", "labels/finding-channels.3"}, "discovery", sec, framework.MUST, "Exact channel reads (#d) and label discovery return the same current snapshot with the same labels."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "same")
				ch := createLabeled(t, c, "", fixtures.Open, x, lbl(t, "more"))
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"name", t.Unique("renamed")}), "ordinary rename")
				exact := snapshot(t, c, ch)
				found := findL(t, c, []string{x}, nil, 50)
				t.Expect(framework.IDs(found)).To(Equal([]string{exact.ID}), "discovery returns the current snapshot")
				t.Expect(fmt.Sprint(labelsOf(found[0]))).To(Equal(fmt.Sprint(labelsOf(exact))))
			}},
	}
}
