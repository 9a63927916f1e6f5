package labels

import (
	"fmt"
	"slices"
	"sync"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/readmatrix"
)

// authorizationSpecs are the cases of labels/authorization.
func authorizationSpecs() []framework.Spec {
	out := append([]framework.Spec{
		{Case: framework.NewCase("labels/concurrency/7", framework.MUST,
			"An admin's label mutation and its in-flight exact retry racing the admin's demotion (9000) or removal (9001) form a linearizable history: the label is in the stored snapshot exactly when one send was acknowledged as new; the other is a committed duplicate or refused (restricted: nip-cl-rejected); once a read shows the role change without the label, no send applies it; a retry after the role change is refused and applies nothing.",
			"labels/authorization.5").
			WithReading(readingLinearizable).
			WithHeavy(),
			Run: func(t *framework.T) {
				ownerActor := t.Actor("owner")
				// The rounds run in raceLanes lanes at once, each on its own
				// channel: the same number of races in a fraction of the
				// round trips (and more concurrent load on the relay).
				var mu sync.Mutex
				applied, judged := 0, 0
				t.Go(raceLanes, func(lane int) {
					owner, reader := t.Connect(ownerActor), t.Connect(ownerActor)
					ch := createLabeled(t, owner, "", fixtures.Open)
					prevMark := ""
					var watch liveWatch
					for r := lane; r < t.Env.Rounds; r += raceLanes {
						what := fmt.Sprintf("round %d", r)
						admin, adminRole := raceAdmin(t, owner, ch)
						t.TimelineContext(admin, ch)
						again := t.Connect(admin.Actor())
						pk := admin.Actor().PubKey
						x := lbl(t, "race")
						base := snapshot(t, reader, ch)
						sub := t.Subscribe(reader, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
						removal := r%2 == 1
						change := fixtures.PutUser(owner.Actor(), ch, pk, t.PutRoles(owner, ch, "member")...)
						if removal {
							change = fixtures.RemoveUser(owner.Actor(), ch, pk)
						}
						m := mutationEv(admin.Actor(), ch, []string{x}, nil)
						// The mutation first, the role change next, the exact retry
						// last; one read between the role change's answer and the
						// mutation's.
						pm := begin(t, admin, m)
						pc := begin(t, owner, change)
						pr := begin(t, again, m)
						okC := wait(t, pc)
						if !okC.Accepted {
							framework.Failf("%s: the owner's %s of the admin was refused: %s", what, changeName(removal), okC)
						}
						view := t.Query(reader, nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers}, Tags: nostr.TagMap{"d": {ch}}})
						oks := []fixtures.OK{wait(t, pm), wait(t, pr)}
						fresh := 0
						for i, ok := range oks {
							switch {
							case ok.Accepted && ok.Reason == "":
								fresh++
							case ok.Accepted && hasFixedPrefix(ok.Reason, markCommitted):
							case ok.Accepted:
								framework.Failf("%s: send %d of the mutation: expected OK true \"\" or %q, got %s", what, i, markCommitted, ok)
							default:
								requireRejected(t, ok, fmt.Sprintf("%s: send %d of the mutation racing the %s", what, i, changeName(removal)), "restricted")
							}
						}
						acked := slices.ContainsFunc(oks, func(ok fixtures.OK) bool { return ok.Accepted })
						t.Expect(fresh).To(BeNumerically("<=", 1), "%s: one signed command applies at most once: %v", what, oks)
						if acked && fresh == 0 {
							framework.Failf("%s: a send was acknowledged as a committed duplicate but none as the new application: %v", what, oks)
						}
						final := snapshot(t, reader, ch)
						has := slices.Contains(labelsOf(final), x)
						t.Expect(has).To(Equal(fresh == 1), "%s: the label is in the stored snapshot exactly when a send was acknowledged as new (answers %v, labels %v)", what, oks, labelsOf(final))
						if has {
							mu.Lock()
							applied++
							mu.Unlock()
						}
						// The read: did it see the role change, and the label?
						if seen, known := roleChangeSeen(view, pk, adminRole, removal); known {
							mu.Lock()
							judged++
							mu.Unlock()
							if seen && !slices.Contains(labelsOf(currentOf(view, fixtures.KindMetadata)), x) && has {
								t.Violates("labels/authorization.5", "%s: a read after the %s was acknowledged showed it applied and the label absent, yet the label was applied afterwards (answers %v): the mutation was authorized against the state before the role change", what, changeName(removal), oks)
							}
						}
						// A retry now, after the role change, is refused and applies nothing.
						rejectCL(t, again, m, what+": exact retry after the "+changeName(removal), "restricted")
						expectUnchanged(t, reader, ch, final, what+": refused retry after the "+changeName(removal))
						// The owner's marker mutation ends the round (it also takes the
						// round's label away): once its snapshot arrives live, every
						// snapshot of the race would have arrived before it.
						mk := lbl(t, "mark")
						remove := []string{x}
						if prevMark != "" {
							remove = append(remove, prevMark)
						}
						acceptNew(t, owner, mutationEv(owner.Actor(), ch, []string{mk}, remove), what+": owner's marker mutation")
						prevMark = mk
						mark := snapshot(t, reader, ch)
						live, _ := watch.until(t, sub, mark.ID)
						live = slices.DeleteFunc(newerThan(live, base), func(ev *nostr.Event) bool { return ev.ID == mark.ID })
						checkDelivered(t, live, final, r)
						// Live: only the base and the base plus the label may appear.
						for _, ev := range live {
							want := labelsOf(base)
							if slices.Contains(labelsOf(ev), x) {
								want = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(want), x))))
							}
							t.Expect(labelsOf(ev)).To(Equal(want), "%s: live snapshot %s is no prefix of the history", what, ev.ID)
							if !has {
								t.Expect(labelsOf(ev)).NotTo(ContainElement(x), "%s: a refused mutation's label was published (%s)", what, ev.ID)
							}
						}
						keptOnce(live, x, true, r)
					}
				})
				t.Note("%d rounds in %d lanes (demotions and removals alternating); the mutation won %d; the read between the answers showed the role state in %d", t.Env.Rounds, raceLanes, applied, judged)
				if judged == 0 {
					t.Note("the relay publishes no 39001/39002 the owner can read: only answers and stored snapshots were judged")
				}
			}},
	}, readmatrix.ReadsSpecs(
		labelsInaccessibleRule([]readmatrix.ReadRow{
			{Id: "labels/reads/18", Shape: "d", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld, Clause: "labels/authorization.8"},
			{Id: "labels/reads/23", Shape: "d", Viewer: readmatrix.ViewAnon, Want: readmatrix.WantWithheld, Clause: "labels/authorization.8"},
			{Id: "labels/reads/32", Shape: "d", Viewer: readmatrix.ViewRemoved, Want: readmatrix.WantWithheld, Clause: "labels/authorization.8"},
			{Id: "labels/reads/40", Shape: "count-d", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld, Clause: "labels/authorization.8"},
			{Id: "labels/reads/41", Shape: "count-d", Viewer: readmatrix.ViewAnon, Want: readmatrix.WantWithheld, Clause: "labels/authorization.8"},
		}),
	)...)
	// "Authorization and visibility".
	out = append(out, []framework.Spec{
		{Case: framework.NewCase("labels/authorization/1", framework.MUST,
			"A plain member's add-label and remove-label are rejected with restricted: nip-cl-rejected; membership alone is not enough.",
			"labels/authorization.4", "labels/compatibility.3", "labels/responses.12"),
			Run: func(t *framework.T) {
				t.Checking("labels/authorization.4")
				owner := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, owner, "", fixtures.Open, a)
				member := withRoles(t, owner, ch, "member")[0]
				before := snapshot(t, owner, ch)
				rejectCL(t, member, mutationEv(member.Actor(), ch, []string{lbl(t, "x")}, nil), "member adds", "restricted")
				rejectCL(t, member, mutationEv(member.Actor(), ch, nil, []string{a}), "member removes", "restricted")
				expectUnchanged(t, owner, ch, before, "rejected member mutations")
			}},
		{Case: framework.NewCase("labels/authorization/2", framework.MUST,
			"A non-member's label mutation is rejected with restricted: nip-cl-rejected.",
			"labels/authorization.4"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open, lbl(t, "a"))
				before := snapshot(t, owner, ch)
				outsider := t.Connect(t.Actor("outsider"))
				rejectCL(t, outsider, mutationEv(outsider.Actor(), ch, []string{lbl(t, "x")}, nil), "outsider adds", "restricted")
				expectUnchanged(t, owner, ch, before, "rejected outsider mutation")
			}},
		{Case: framework.NewCase("labels/authorization/3", framework.MUST,
			"An admin may add and remove labels (OK true \"\").",
			"labels/authorization.2"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				a, x := lbl(t, "a"), lbl(t, "x")
				ch := createLabeled(t, owner, "", fixtures.Open, a)
				admin := withRoles(t, owner, ch, "admin")[0]
				acceptNew(t, admin, mutationEv(admin.Actor(), ch, []string{x}, []string{a}), "admin adds and removes")
				expectLabels(t, owner, ch, x)
			}},
		{Case: framework.NewCase("labels/authorization/4", framework.MUST,
			"An owner other than the creator may add and remove labels.",
			"labels/authorization.2"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				a, x := lbl(t, "a"), lbl(t, "x")
				ch := createLabeled(t, owner, "", fixtures.Open, a)
				acceptNew(t, owner, mutationEv(owner.Actor(), ch, []string{x}, nil), "creator adds")
				second := withRoles(t, owner, ch, "owner")[0]
				acceptNew(t, second, mutationEv(second.Actor(), ch, nil, []string{a, x}), "second owner removes")
				expectLabels(t, owner, ch)
			}},
		{Case: framework.NewCase("labels/authorization/5", framework.MUST,
			"A label belongs to no one: an admin removes the owner's label and the owner removes the admin's, whatever the prefix.",
			"labels/authorization.6", "labels/scope.3"),
			Run: func(t *framework.T) {
				t.Checking("labels/authorization.6")
				owner := t.Connect(t.Actor("owner"))
				mine := "owner:" + lbl(t, "mine")
				ch := createLabeled(t, owner, "", fixtures.Open, mine)
				admin := withRoles(t, owner, ch, "admin")[0]
				theirs := "admin:" + lbl(t, "theirs")
				acceptNew(t, admin, mutationEv(admin.Actor(), ch, []string{theirs}, []string{mine}), "admin removes the owner's label")
				acceptNew(t, owner, mutationEv(owner.Actor(), ch, nil, []string{theirs}), "owner removes the admin's label")
				expectLabels(t, owner, ch)
			}},
		{Case: framework.NewCase("labels/authorization/6", framework.MUST,
			"Authority is checked against current state: an admin demoted to member can no longer change labels.",
			"labels/authorization.5"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open)
				admin := withRoles(t, owner, ch, "admin")[0]
				x := lbl(t, "x")
				acceptNew(t, admin, mutationEv(admin.Actor(), ch, []string{x}, nil), "admin adds")
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, admin.Actor().PubKey, "member"), "demote to member")
				before := snapshot(t, owner, ch)
				rejectCL(t, admin, mutationEv(admin.Actor(), ch, nil, []string{x}), "demoted admin removes", "restricted")
				expectUnchanged(t, owner, ch, before, "rejected mutation")
			}},
		{Case: framework.NewCase("labels/authorization/7", framework.MUST,
			"A private channel's labels (its metadata made private and hidden with NIP-29's flags, and seen withheld) are readable by members (by #d with the whole label set, and by each label) and invisible to outsiders and anonymous readers by any label in #l, by #L alone, by #L and #l, or by #d; an open channel labeled alongside stays visible to them.",
			"labels/authorization.8", "labels/authorization.9"),
			Run: func(t *framework.T) {
				t.Checking("labels/authorization.8")
				owner := t.Connect(t.Actor("owner"))
				x, more := lbl(t, "private"), lbl(t, "more")
				outsider := t.Connect(t.Actor("outsider"))
				ch := createWithheld(t, owner, outsider, x)
				member := withRoles(t, owner, ch, "member")[0]
				acceptNew(t, owner, mutationEv(owner.Actor(), ch, []string{more}, nil), "add while private")
				// An open channel with the same labels is the control: the
				// reads that must withhold the private one do find it.
				open := createLabeled(t, owner, "", fixtures.Open, x, more)
				expectLabels(t, member, ch, x, more)
				for _, v := range []string{x, more} {
					t.Expect(framework.DTags(findL(t, member, []string{v}, nil, 50))).To(ConsistOf(ch, open), "a member finds both channels by the label %s", v)
				}
				// The outsider may discover open channels, so its label reads are
				// served (Query); what it reads must not include the private one.
				// Anonymous reads and the exact read of the private channel may
				// also be refused (QueryAbsent).
				// since is read off the relay's clock (the older of the two
				// channels' current snapshots, both relay-signed), never the
				// harness's: a relay whose clock runs behind stamps them
				// earlier than the harness's "now".
				since := min(snapshot(t, owner, ch).CreatedAt, snapshot(t, owner, open).CreatedAt)
				nsOnly := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"L": {labelNS}}, Since: &since, Limit: 500}
				for _, v := range []string{x, more} {
					t.Expect(framework.DTags(findL(t, outsider, []string{v}, nil, 50))).To(Equal([]string{open}), "outsider: #L+#l %s finds the open channel only", v)
					t.Expect(framework.DTags(t.Query(outsider, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {v}}}))).To(Equal([]string{open}), "outsider: #l %s finds the open channel only", v)
				}
				ns := framework.DTags(t.Query(outsider, nsOnly))
				t.Expect(ns).To(ContainElement(open), "outsider: #L alone (since the case began) finds the open channel")
				t.Expect(ns).NotTo(ContainElement(ch), "outsider: #L alone must not return the private channel")
				t.Note("outsider, #d of the private channel: %s", t.QueryAbsent(outsider, "outsider: #d", nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}}))
				anon := t.Connect(nil)
				for _, f := range []nostr.Filter{
					{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"L": {labelNS}, "l": {x, more}}},
					{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {x, more}}},
					nsOnly,
				} {
					r := t.QueryResult(anon, f)
					t.Expect(framework.DTags(r.Events)).NotTo(ContainElement(ch), "anonymous: %s must not return the private channel", framework.FilterString([]nostr.Filter{f}))
					if r.Closed {
						framework.CheckPrefix("CLOSED", r.ClosedReason)
						t.Note("anonymous, %s: refused with CLOSED %q", framework.FilterString([]nostr.Filter{f}), r.ClosedReason)
					}
				}
				t.Note("anonymous, #d: %s", t.QueryAbsent(anon, "anonymous: #d", nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}}))
			}},
		{Case: framework.NewCase("labels/authorization/8", framework.MUST,
			"Private snapshots do not consume an outsider's limit: with newer private, hidden channels (metadata seen withheld) carrying the label, limit 1 returns the older open one.",
			"labels/authorization.7", "labels/finding-channels.14", "labels/finding-channels.7"),
			Run: func(t *framework.T) {
				t.Checking("labels/authorization.7")
				owner := t.Connect(t.Actor("owner"))
				x := lbl(t, "mixed")
				open := createLabeled(t, owner, "", fixtures.Open, x)
				outsider := t.Connect(t.Actor("outsider"))
				var priv []string
				for i := 0; i < 5; i++ {
					priv = append(priv, createWithheld(t, owner, outsider, x))
				}
				// A rename makes the newest private snapshot strictly newer than
				// the open one; it carries the whole metadata (name and both
				// flags), so it means the same as a patch and as a replacement.
				t.Accept(owner, fixtures.EditGroup(owner.Actor(), priv[4], fixtures.GroupMetadata{Name: "newest", Flags: []string{fixtures.FlagPrivate, fixtures.FlagHidden}}), "rename")
				t.Expect(framework.DTags(findL(t, outsider, []string{x}, nil, 1))).To(Equal([]string{open}), "outsider, limit 1")
				t.Expect(framework.DTags(findL(t, outsider, []string{x}, nil, 50))).To(Equal([]string{open}), "outsider sees only the open channel")
				t.Expect(framework.DTags(findL(t, owner, []string{x}, nil, 1))).To(Equal([]string{priv[4]}), "the owner's limit 1 is the newest private one")
			}},
	}...)
	return out
}
