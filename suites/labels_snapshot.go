package suites

import (
	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL
	"time"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// labelsSnapshotSpecs: "Metadata snapshot: kind 39000".
func labelsSnapshotSpecs() []Spec {
	sec := "labels/snapshot"
	return []Spec{
		{lcase("snapshot/1", "snapshot", sec, MUST, "A labeled snapshot has one [\"L\",\"nip-cl\"] and one [\"l\",v,\"nip-cl\"] per value, sorted by ASCII value whatever the command's order."),
			func(t *T) {
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
		{lcase("snapshot/2", "snapshot", sec, MUST, "A label equal to a channel type (\"stream\") on a forum channel does not change the type: one t tag, t=forum."),
			func(t *T) {
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, fixtures.TypeForum, fixtures.Open, "stream")
				ev := expectLabels(t, c, ch, "stream")
				Expect(typeOf(ev)).To(Equal(fixtures.TypeForum), "channel type")
				got := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}, "t": {fixtures.TypeStream}}})
				Expect(got).To(BeEmpty(), "#t stream does not match a forum labeled stream")
				Expect(DTags(findL(t, c, []string{"stream"}, nostr.TagMap{"d": {ch}, "t": {fixtures.TypeForum}}, 10))).To(Equal([]string{ch}))
			}},
		{lcase("snapshot/3", "snapshot", sec, MUST, "Labels spelled like channel types (dm, forum, workflow, system) stay l tags; the snapshot keeps exactly one t tag with the real type."),
			func(t *T) {
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, fixtures.TypeStream, fixtures.Open, "dm", "forum", "workflow", "system")
				Expect(typeOf(expectLabels(t, c, ch, "dm", "forum", "workflow", "system"))).To(Equal(fixtures.TypeStream))
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{"dm"}), "remove dm")
				Expect(typeOf(expectLabels(t, c, ch, "forum", "workflow", "system"))).To(Equal(fixtures.TypeStream))
			}},
		{lcase("snapshot/4", "snapshot", sec, MUST, "A label mutation changes only the labels: name, about, visibility and type are republished unchanged."),
			func(t *T) {
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, fixtures.TypeForum, fixtures.Private, lbl(t, "a"))
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"about", "kept"}), "set about")
				before := snapshot(t, c, ch)
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{lbl(t, "b")}, nil), "add")
				after := snapshot(t, c, ch)
				for _, name := range []string{"name", "about", "t", "private", "public", "closed", "open"} {
					Expect(fixtures.HasTag(after, name)).To(Equal(fixtures.HasTag(before, name)), "tag %s present before and after", name)
					Expect(tagOf(after, name)).To(Equal(tagOf(before, name)), "tag %s unchanged", name)
				}
			}},
		{lcase("snapshot/5", "snapshot", sec, MUST, "Every snapshot delivered live while labels change is relay-signed and canonical, including the empty one."),
			func(t *T) {
				c := t.Connect(t.Actor("owner"))
				a, b := lbl(t, "a"), lbl(t, "b")
				ch := createLabeled(t, c, "", fixtures.Open)
				sub := t.Subscribe(t.Connect(nil), nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
				steps := [][2][]string{{{b, a}, nil}, {nil, {a}}, {{a}, {b}}, {nil, {a}}}
				base := time.Now() // one base: steps are always distinct events
				for i, s := range steps {
					acceptNew(t, c, mutationAt(c.Actor(), ch, s[0], s[1], base.Add(-time.Duration(i)*time.Second)), "mutation")
				}
				for range steps {
					ev, err := sub.Next(t.Ctx())
					t.Must(err, "live snapshot")
					checkCanonical(t, ev)
				}
			}},
	}
}
