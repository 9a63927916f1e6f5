package labels

import (
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// scopeSpecs are the cases of labels/scope.
func scopeSpecs() []framework.Spec {
	out := []framework.Spec{
		{Case: framework.NewCase("labels/scope/8", framework.MUST,
			"Adding or removing labels leaves the channel's messages, its members and their roles (as 39001/39002 list them) untouched.",
			"labels/scope.11").
			WithReading("Membership is compared by content (the p entries and their roles), not by event id: republishing an unchanged list is not a change. 39001/39002 are optional in NIP-29 and the labels draft does not require them; a kind the relay does not publish is noted and not compared."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open, lbl(t, "a"))
				withRoles(t, owner, ch, "admin", "member")
				msg := fixtures.Message(owner.Actor(), ch, "hello")
				t.Accept(owner, msg, "message")
				kinds := []int{fixtures.KindAdmins, fixtures.KindMembers}
				before := map[int][]string{}
				for _, k := range kinds {
					if ev := t.StateEvent(owner, k, ch); ev != nil {
						before[k] = pEntries(ev)
					} else {
						t.Note("the relay publishes no kind %d for the channel; not compared", k)
					}
				}
				acceptNew(t, owner, mutationEv(owner.Actor(), ch, []string{lbl(t, "b")}, nil), "add")
				acceptNew(t, owner, mutationEv(owner.Actor(), ch, nil, []string{lbl(t, "absent")}), "no-op")
				for _, k := range kinds {
					if want, ok := before[k]; ok {
						ev := t.StateEvent(owner, k, ch)
						t.Expect(ev).NotTo(BeNil(), "kind %d disappeared after a label mutation", k)
						t.Expect(pEntries(ev)).To(Equal(want), "kind %d members and roles after label mutations", k)
					}
				}
				t.Expect(framework.IDs(t.Query(owner, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}}))).To(Equal([]string{msg.ID}), "messages unchanged")
			}},
		{Case: framework.NewCase("labels/scope/9", framework.MUST,
			"An archived channel is unarchived separately: a label mutation that also carries [\"archived\",\"false\"] (after or before its add-label, or with a remove-label) is refused with nip-cl-rejected and applies nothing — the snapshot stays the same event and the channel stays archived (a label-only mutation is still refused with restricted:); after a separate unarchive the label change is accepted.",
			"labels/scope.7", "labels/add-remove.2").
			WithReading("The command is both a mixed edit (invalid:) and a label mutation of an archived channel (restricted:); the draft does not order the two checks, so either prefix is accepted with the nip-cl-rejected marker and noted."),
			Run: func(t *framework.T) {
				t.Checking("labels/scope.7")
				c := t.Connect(t.Actor("owner"))
				a, x := lbl(t, "a"), lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"archived", "true"}), "archive")
				before := expectLabels(t, c, ch, a)
				unarchive := nostr.Tag{"archived", "false"}
				for _, tags := range [][]nostr.Tag{
					{{"add-label", x}, unarchive},
					{unarchive, {"add-label", x}},
					{unarchive, {"remove-label", a}},
				} {
					what := fmt.Sprintf("a label mutation with %q on the archived channel", tags)
					ok := t.Publish(c, fixtures.EditChannel(c.Actor(), ch, tags...))
					if ok.Accepted {
						t.Violates("labels/scope.7", "%s was accepted (%s): an archived channel refuses new label mutations and is unarchived separately, before one (labels/scope.7)", what, ok)
					}
					requireRejected(t, ok, what, "restricted", "invalid")
					t.Note("%s: %s", what, prefixOf(ok.Reason))
				}
				expectUnchanged(t, c, ch, before, "refused mutations that also unarchive")
				if ok := t.Publish(c, mutationEv(c.Actor(), ch, []string{x}, nil)); ok.Accepted {
					t.Violates("labels/scope.7", "after the refused commands, a label-only mutation was accepted (%s): one of them unarchived the channel (labels/scope.7)", ok)
				} else {
					requireRejected(t, ok, "a label-only mutation on the channel that must still be archived", "restricted")
				}
				expectUnchanged(t, c, ch, before, "the channel still archived")
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, unarchive), "unarchive, separately")
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{x}, []string{a}), "the label change after the unarchive")
				expectLabels(t, c, ch, x)
			}},
		{Case: framework.NewCase("labels/scope/10", framework.MUST,
			"No value or prefix is reserved: values spelled like the namespace or an authority (\"nip-cl\", \"nip-cl:verified\", \"system:pinned\", \"relay:official\", \"mod:approved\") are accepted on a 9007 and by an admin's add-label (OK true \"\"), published as ordinary [\"l\",v,\"nip-cl\"] tags, found by #l, and removed by an admin like any other value.",
			"labels/scope.3", "labels/finding-channels.1"),
			Run: func(t *framework.T) {
				t.Checking("labels/scope.3")
				owner := t.Connect(t.Actor("owner"))
				created := []string{"nip-cl", "system:pinned"}
				added := []string{"nip-cl:verified", "relay:official", "mod:approved"}
				ev, ch := createEv(owner.Actor(), "", fixtures.Open, created...)
				if ok := t.Publish(owner, ev); !ok.Accepted || ok.Reason != "" {
					t.Violates("labels/scope.3", "a 9007 labeled %q: expected [\"OK\",…,true,\"\"], got %s; no value or prefix is reserved (labels/scope.3)", created, ok)
				}
				admin := withRoles(t, owner, ch, "admin")[0]
				if ok := t.Publish(admin, mutationEv(admin.Actor(), ch, added, nil)); !ok.Accepted || ok.Reason != "" {
					t.Violates("labels/scope.3", "an admin's add-label of %q: expected [\"OK\",…,true,\"\"], got %s; no value or prefix is reserved (labels/scope.3)", added, ok)
				}
				all := append(slices.Clone(created), added...)
				expectLabels(t, owner, ch, all...)
				for _, v := range all {
					t.Checking("labels/finding-channels.1")
					t.Expect(framework.DTags(findL(t, owner, []string{v}, nostr.TagMap{"d": {ch}}, 10))).To(Equal([]string{ch}), "#L nip-cl, #l %q and #d find the channel (labels/finding-channels.1)", v)
				}
				acceptNew(t, admin, mutationEv(admin.Actor(), ch, nil, []string{"nip-cl", "nip-cl:verified"}), "the admin removes the namespace-like values")
				expectLabels(t, owner, ch, "system:pinned", "relay:official", "mod:approved")
			}},
		{Case: framework.NewCase("labels/snapshot/4", framework.MUST,
			"A label mutation changes only the labels: name, about, visibility and type are republished unchanged.",
			"labels/scope.2"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, fixtures.TypeForum, fixtures.Private, lbl(t, "a"))
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"about", "kept"}), "set about")
				before := snapshot(t, c, ch)
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{lbl(t, "b")}, nil), "add")
				after := snapshot(t, c, ch)
				for _, name := range []string{"name", "about", "t", "private", "public", "closed", "open"} {
					t.Expect(fixtures.HasTag(after, name)).To(Equal(fixtures.HasTag(before, name)), "tag %s present before and after", name)
					t.Expect(framework.TagOf(after, name)).To(Equal(framework.TagOf(before, name)), "tag %s unchanged", name)
				}
			}},
		{Case: framework.NewCase("labels/grammar/5", framework.MUST,
			`A valid label value (a channel type name: "stream") is accepted on 9007 and on add-label and published byte for byte.`,
			"labels/scope.3", "labels/snapshot.9"),
			Run: func(t *framework.T) { acceptValidLabel(t, "stream") }},
	}
	// "Scope" — channel types, archive, deletion.
	createClauses := []string{"labels/scope.4", "labels/initial-labels.6"}
	mutateClauses := []string{"labels/scope.5"}
	for _, row := range []struct{ typ, createID, mutateID string }{
		{fixtures.TypeDM, "labels/scope/1", "labels/scope/2"},
		{fixtures.TypeWorkflow, "labels/scope/3", "labels/scope/4"},
	} {
		typ := row.typ
		out = append(out,
			framework.Spec{Case: framework.NewCase(row.createID, framework.MUST,
				"A "+typ+" 9007 with labels is rejected (invalid: or restricted: nip-cl-rejected) and creates nothing.",
				createClauses...).
				WithReading(readingTypePrefix),
				Run: func(t *framework.T) {
					t.Checking("labels/scope.4")
					c := t.Connect(t.Actor("owner"))
					ev, id := createEv(c.Actor(), typ, fixtures.Private, lbl(t, typ))
					ok := rejectCL(t, c, ev, "labeled "+typ+" create", "invalid", "restricted")
					t.Note("labels on a %s create: %s", typ, prefixOf(ok.Reason))
					t.Reading(clause.ReadingLabelsCreatePrefix, prefixOf(ok.Reason))
					goneChannel(t, c, id, "rejected create")
				}},
			framework.Spec{Case: framework.NewCase(row.mutateID, framework.MUST,
				"A label mutation on a "+typ+" channel is rejected (invalid: or restricted: nip-cl-rejected); its unlabeled snapshot stays canonical and unchanged.",
				mutateClauses...).
				WithReading(readingTypePrefix),
				Run: func(t *framework.T) {
					c := t.Connect(t.Actor("owner"))
					ch := createLabeled(t, c, typ, fixtures.Private)
					before := expectLabels(t, c, ch)
					t.Expect(typeOf(before)).To(Equal(typ))
					ok := rejectCL(t, c, mutationEv(c.Actor(), ch, []string{lbl(t, typ)}, nil), "label mutation on "+typ, "invalid", "restricted")
					t.Note("label mutation on a %s channel: %s", typ, prefixOf(ok.Reason))
					t.Reading(clause.ReadingLabelsMutationPrefix, prefixOf(ok.Reason))
					expectUnchanged(t, c, ch, before, "rejected mutation")
				}})
	}
	out = append(out,
		framework.Spec{Case: framework.NewCase("labels/scope/5", framework.MUST,
			"An archived channel keeps readable, findable labels but rejects label mutations with restricted: nip-cl-rejected until it is unarchived.",
			"labels/scope.6", "labels/scope.7", "labels/responses.12"),
			Run: func(t *framework.T) {
				t.Checking("labels/scope.6")
				c := t.Connect(t.Actor("owner"))
				a, x := lbl(t, "a"), lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"archived", "true"}), "archive")
				before := expectLabels(t, c, ch, a)
				t.Expect(framework.DTags(findL(t, c, []string{a}, nil, 10))).To(Equal([]string{ch}), "archived channel found by label")
				t.Checking("labels/scope.7")
				rejectCL(t, c, mutationEv(c.Actor(), ch, []string{x}, nil), "add on archived", "restricted")
				rejectCL(t, c, mutationEv(c.Actor(), ch, nil, []string{a}), "remove on archived", "restricted")
				rejectCL(t, c, mutationEv(c.Actor(), ch, []string{a}, nil), "no-op on archived", "restricted")
				expectUnchanged(t, c, ch, before, "archived channel")
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"archived", "false"}), "unarchive")
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{x}, nil), "add after unarchive")
				expectLabels(t, c, ch, a, x)
			}},
		framework.Spec{Case: framework.NewCase("labels/scope/6", framework.MUST,
			"A deleted channel rejects label mutations (nip-cl-rejected) and gets no new snapshot: none is readable and none is delivered live.",
			"labels/scope.8", "labels/scope.9").
			WithReading(readingDeletedPrefix + " Live: a second channel's snapshot on the same subscription is the marker; a relay that delivers nothing live passes that part with a note."),
			Run: func(t *framework.T) {
				t.Checking("labels/scope.8")
				c := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				marker := createLabeled(t, c, "", fixtures.Open)
				watcher := t.Connect(c.Actor())
				sub := t.Subscribe(watcher,
					nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}},
					nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {marker}}})
				t.Accept(c, fixtures.DeleteChannel(c.Actor(), ch), "delete")
				ok := rejectCL(t, c, mutationEv(c.Actor(), ch, []string{lbl(t, "x")}, []string{a}), "mutation on a deleted channel", "restricted", "invalid")
				t.Note("mutation on a deleted channel: %s", prefixOf(ok.Reason))
				t.Reading(clause.ReadingLabelsDeletedPrefix, prefixOf(ok.Reason))
				goneChannel(t, c, ch, "deleted channel")
				t.Expect(findL(t, c, []string{a}, nil, 10)).To(BeEmpty(), "deleted channel not found by label")
				m := lbl(t, "marker")
				acceptNew(t, c, mutationEv(c.Actor(), marker, []string{m}, nil), "label the marker channel")
				// Absence by barrier (issue 36): a stored read finds the
				// marker's labeled snapshot, then a settle window.
				w := t.AwaitLive(watcher, sub, func(ev *nostr.Event) bool { return ev.Tags.GetD() == marker && hasLabel(ev, m) },
					nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {marker}}})
				seen := append(w.Seen, sub.Drain()...)
				for _, ev := range seen {
					t.Expect(ev.Tags.GetD()).NotTo(Equal(ch), "a 39000 of the deleted channel was delivered after the delete: %s %v", ev.ID, ev.Tags)
				}
				switch {
				case w.Live:
				case w.Stored != "":
					t.Note("no live snapshot arrived on the #d subscription (%s); only stored reads were checked", w.Why)
				default:
					t.Note("no live snapshot arrived on the #d subscription (%v); only stored reads were checked", w.Err)
				}
			}},
		framework.Spec{Case: framework.NewCase("labels/scope/7", framework.MUST,
			"A deleted UUID is never reused: a labeled create on it, even by the old owner with the old labels, is rejected with duplicate: nip-cl-rejected.",
			"labels/scope.10", "labels/initial-labels.9", "labels/responses.13"),
			Run: func(t *framework.T) {
				t.Checking("labels/scope.10")
				c := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				t.Accept(c, fixtures.DeleteChannel(c.Actor(), ch), "delete")
				rejectCL(t, c, fixtures.CreateChannel(c.Actor(), &fixtures.ChannelSpec{ID: ch, Type: fixtures.TypeStream, Extra: labelTags(a, lbl(t, "b"))}), "create on the deleted UUID", "duplicate")
				goneChannel(t, c, ch, "deleted UUID")
			}},
	)
	return out
}

const readingTypePrefix = "The draft does not fix whether labels on a channel type outside its scope are invalid: or restricted:; either is accepted with the nip-cl-rejected marker, and the report notes which one the relay used."

const readingDeletedPrefix = "A mutation on a deleted channel is a lifecycle denial (restricted:); a relay that treats the deleted channel as unknown may answer invalid:. Both are accepted with the nip-cl-rejected marker and noted."
