package labels

import (
	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// applicationSpecs: "Application and publication guarantees" —
// atomic application, positive OK = committed.
func applicationSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("labels/application/1", framework.MUST,
			"A rejected labeled create (one invalid label among valid ones) leaves no 39000-39003, no membership and no channel by any filter; the UUID stays free.",
			"labels/application.2", "labels/initial-labels.6"),
			Run: func(t *framework.T) {
				t.Checking("labels/application.2")
				c := t.Connect(t.Actor("owner"))
				x, y := lbl(t, "x"), lbl(t, "y")
				ev, ch := createEv(c.Actor(), "", fixtures.Open, x, "Not-Valid", y)
				rejectCL(t, c, ev, "create with one invalid label", "invalid")
				goneChannel(t, c, ch, "rejected create")
				t.Expect(findL(t, c, []string{x, y}, nil, 50)).To(BeEmpty(), "no channel by label")
				t.QueryAbsent(c, "no membership from the rejected create", nostr.Filter{Kinds: []int{fixtures.KindMembers, fixtures.KindAdmins}, Tags: nostr.TagMap{"p": {c.Actor().PubKey}, "d": {ch}}})
				good := fixtures.CreateChannel(c.Actor(), &fixtures.ChannelSpec{ID: ch, Type: fixtures.TypeStream, Name: "second try", Extra: labelTags(x)})
				acceptNew(t, c, good, "a valid create on the UUID the rejected one named")
				expectLabels(t, c, ch, x)
			}},
		{Case: framework.NewCase("labels/application/2", framework.MUST,
			"A mutation with one invalid value among valid adds and removes applies none of them.",
			"labels/application.2"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a, x := lbl(t, "a"), lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				before := snapshot(t, c, ch)
				rejectCL(t, c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"add-label", x}, nostr.Tag{"add-label", "BAD"}, nostr.Tag{"remove-label", a}), "mutation with one invalid value", "invalid")
				// What the case observes: none of the mutation applied (its
				// own sentence, also when the refused event was stored).
				t.Checking("labels/application.2")
				expectUnchanged(t, c, ch, before, "rejected mutation")
			}},
		{Case: framework.NewCase("labels/application/3", framework.MUST,
			"A rejected labeled dm create leaves no channel, membership or snapshot.",
			"labels/application.2", "labels/initial-labels.6"),
			Run: func(t *framework.T) {
				t.Checking("labels/application.2")
				c := t.Connect(t.Actor("owner"))
				ev, ch := createEv(c.Actor(), fixtures.TypeDM, fixtures.Private, lbl(t, "dm"))
				rejectCL(t, c, ev, "labeled dm create", "invalid", "restricted")
				goneChannel(t, c, ch, "rejected create")
			}},
		{Case: framework.NewCase("labels/application/4", framework.MUST,
			"A positive OK means committed: each acknowledged state-changing mutation is readable at once in a new snapshot with a greater created_at.",
			"labels/application.1", "labels/serialization.5"),
			Run: func(t *framework.T) {
				t.Checking("labels/application.1")
				c := t.Connect(t.Actor("owner"))
				reader := t.Connect(t.Actor("reader"))
				ch := createLabeled(t, c, "", fixtures.Open)
				prev := snapshot(t, reader, ch)
				var want []string
				for i := 0; i < 4; i++ {
					x := lbl(t, "step")
					want = append(want, x)
					acceptNew(t, c, mutationEv(c.Actor(), ch, []string{x}, nil), "add")
					cur := expectLabels(t, reader, ch, want...)
					t.Checking("labels/serialization.5")
					t.Expect(cur.CreatedAt).To(BeNumerically(">", prev.CreatedAt), "replacement created_at")
					prev = cur
				}
			}},
	}
}
