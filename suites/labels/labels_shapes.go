package labels

import (
	"fmt"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
)

// labelsShapesSpecs: shapes the labels draft implies that no older case
// sent: repeats and distinct counts against the two limits,
// label preservation across flag, topic and purpose edits, a read naming
// 39000 beside another kind, and a client's whole discovery filter.
func labelsShapesSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: lcase("labels/limits/11", []string{"labels/values-and-limits.5", "labels/values-and-limits.7"}, "limits", "labels/values-and-limits", framework.MUST,
			"64 add-label tags repeating one value are within the raw tag limit and one stored label: the mutation answers OK true \"\" and the snapshot carries the value once."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, "", fixtures.Open)
				v := lbl(t, "same")
				copies := make([]string, maxRawTags)
				for i := range copies {
					copies[i] = v
				}
				acceptNew(t, c, mutationEv(c.Actor(), ch, copies, nil), fmt.Sprintf("%d copies of one value", len(copies)))
				expectLabels(t, c, ch, v)
			}},
		{Case: lcase("labels/limits/12", []string{"labels/values-and-limits.5"}, "limits", "labels/values-and-limits", framework.MUST,
			"A mutation whose 40 distinct values stay within the 64 raw tags but exceed the 32 stored labels is refused (nip-cl-rejected) and applies nothing, even on a channel without labels."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, "", fixtures.Open)
				before := snapshot(t, c, ch)
				base := lbl(t, "many")
				vs := make([]string, 40)
				for i := range vs {
					vs[i] = fmt.Sprintf("%s-%02d", base, i)
				}
				ok := rejectCL(t, c, mutationEv(c.Actor(), ch, vs, nil), "40 distinct values in one mutation", "invalid", "restricted")
				t.Reading(clause.ReadingLabelsLimitPrefix, prefixOf(ok.Reason))
				expectUnchanged(t, c, ch, before, "refused 40-value mutation")
			}},
		{Case: lcase("labels/add-remove/15", []string{"labels/compatibility.1", "labels/serialization.3"}, "ordinary-edit", "labels/serialization", framework.MUST,
			"Ordinary 9002 edits that make the channel private and hidden (NIP-29's flags, with the whole metadata) or set a topic or a purpose keep the label set byte for byte; a topic or purpose edit the relay refuses leaves it too."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a, b := lbl(t, "a"), lbl(t, "b")
				ch := createLabeled(t, c, "", fixtures.Open, a, b)
				edit := fixtures.EditGroup(c.Actor(), ch, fixtures.GroupMetadata{Name: t.Unique("flags"), Flags: []string{fixtures.FlagPrivate, fixtures.FlagHidden}})
				if ok := t.Publish(c, edit); !ok.Accepted {
					t.Blocked(framework.PreEditMetadata, "the owner's 9002 making the channel private and hidden: "+ok.String())
				}
				expectLabels(t, c, ch, a, b)
				for _, tag := range []nostr.Tag{{"topic", t.Unique("topic")}, {"purpose", t.Unique("purpose")}} {
					ok := t.Publish(c, fixtures.EditChannel(c.Actor(), ch, tag))
					t.Note("ordinary edit with [%q]: %s", tag[0], ok)
					if !ok.Accepted {
						framework.CheckPrefix("OK", ok.Reason)
					}
					expectLabels(t, c, ch, a, b)
				}
			}},
		{Case: lcase("labels/discovery/11", []string{"labels/finding-channels.1"}, "discovery", "labels/finding-channels", framework.MUST,
			"A read naming 39000 beside another kind ({\"kinds\":[39000,1],\"#L\":[\"nip-cl\"],\"#l\":[x],\"limit\":1}) matches snapshots by their labels like a 39000-only read: it returns the newer of two labeled channels."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "mixedkind")
				older := createLabeled(t, c, "", fixtures.Open, x)
				newer := createLabeled(t, c, "", fixtures.Open, x)
				// A replacement is newer than what it replaces: the newer
				// channel's snapshot is strictly the newest match.
				acceptNew(t, c, mutationEv(c.Actor(), newer, []string{lbl(t, "tmp")}, nil), "a second label on the newer channel")
				want := snapshot(t, c, newer)
				reader := t.Connect(t.Actor("reader"))
				got := t.Query(reader, nostr.Filter{Kinds: []int{fixtures.KindMetadata, 1}, Tags: nostr.TagMap{"L": {labelNS}, "l": {x}}, Limit: 1})
				if len(got) != 1 || got[0].ID != want.ID {
					framework.Failf("{\"kinds\":[39000,1],\"#L\",\"#l\":[%s],\"limit\":1} must return the newest labeled snapshot %s (channel %s; the older one is %s), got %d event(s): %v", x, want.ID, newer, older, len(got), framework.IDs(got))
				}
			}},
		{Case: lcase("labels/community/5", []string{"labels/community.1"}, "community", "labels/community", framework.MUST,
			"NIP-45 COUNT from a second community does not count the first community's labeled snapshots: COUNT {\"kinds\":[39000],\"#L\":[\"nip-cl\"],\"#l\":[x]} is 1 in the community that holds the channel and 0 in the other."),
			Run: func(t *framework.T) {
				if len(t.Env.Hosts) == 0 {
					t.Unsupported(needHost)
				}
				owner := t.Actor("owner")
				a, b := t.Connect(owner), t.ConnectHost(owner, t.Env.Hosts[0])
				x := lbl(t, "counted")
				createLabeled(t, a, "", fixtures.Open, x)
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"L": {labelNS}, "l": {x}}}
				t.Expect(t.Count(a, f)).To(Equal(int64(1)), "COUNT in the community that holds the labeled channel")
				t.Expect(t.Count(b, f)).To(Equal(int64(0)), "COUNT from the second community (%s) must not count the first community's snapshot", t.Env.Hosts[0])
			}},
		{Case: lcase("labels/discovery/12", []string{"labels/finding-channels.1", "labels/finding-channels.2", "labels/finding-channels.5"}, "discovery", "labels/finding-channels", framework.MUST,
			"A client's whole discovery filter ({\"authors\":[relay],\"kinds\":[39000],\"#L\":[\"nip-cl\"],\"#l\":[x],\"#t\":[\"stream\"],\"limit\":10}) returns exactly the stream channels carrying the label, not a forum carrying it; with the creator as author it returns none."),
			Run: func(t *framework.T) {
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
		{Case: lcase("labels/add-remove/16", []string{"labels/add-remove.2"}, "mixed", "labels/add-remove", framework.MUST,
			"A label mutation carrying channel_type (a creation tag) beside add-label is label-only or nothing: it is refused with invalid: nip-cl-rejected and applies nothing, or the tag is ignored and only the label is added; the channel's type never changes."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				a, x := lbl(t, "a"), lbl(t, "x")
				ch := createLabeled(t, c, fixtures.TypeStream, fixtures.Open, a)
				before := snapshot(t, c, ch)
				ok := t.Publish(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"add-label", x}, nostr.Tag{"channel_type", fixtures.TypeForum}))
				if !ok.Accepted {
					requireRejected(ok, "add-label with [\"channel_type\",\"forum\"]", "invalid")
					expectUnchanged(t, c, ch, before, "refused add-label with channel_type")
					t.Note("add-label beside channel_type: refused (%s)", ok.Reason)
					return
				}
				if ok.Reason != "" {
					framework.Failf(`add-label with ["channel_type","forum"]: an accepted label mutation answers ["OK",…,true,""], got %s`, ok)
				}
				after := expectLabels(t, c, ch, a, x)
				if typ := typeOf(after); typ != fixtures.TypeStream {
					framework.Failf("add-label with [\"channel_type\",\"forum\"] was accepted and also changed the channel type: the snapshot's t tag is %q, expected %q", typ, fixtures.TypeStream)
				}
				t.Note("add-label beside channel_type: tag ignored, label applied")
			}},
		{Case: lcase("labels/discovery/13", []string{"labels/finding-channels.7"}, "discovery", "labels/finding-channels", framework.MUST,
			"ids with a limit: a withheld snapshot does not use up the limit. An outsider's {\"kinds\":[39000],\"ids\":[private, open],\"limit\":1}, naming a newer private, hidden channel's snapshot and an older open one's, returns the open one; the owner's returns the private one."),
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
	}
}
