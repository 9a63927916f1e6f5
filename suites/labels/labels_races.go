package labels

import (
	"fmt"
	"slices"
	"sync"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// readingLinearizable: how the race cases judge a history.
const readingLinearizable = "Judged as a linearizable history, not by the final state alone: a command acknowledged OK true took effect at one point between its send and its answer; a refused one left no trace; every read (one REQ) shows a prefix of one order of the commands. The read between the role change's answer and the mutation's answer decides only when it shows the role change (by 39001, or 39002 for a removal; NIP-29 makes both optional, and a relay without them is judged on the answers and the stored snapshot only, with a note). " + readingLiveSubset

// raceLanes is how many rounds of a race run at once, each lane on its
// own channel.
const raceLanes = 4

// labelsRaceSpecs: label commands racing role changes and ordinary edits
// (issue 15). Every race runs Env.Rounds times.
func labelsRaceSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.Heavy(framework.WithReading(lcase("labels/concurrency/7", []string{"labels/authorization.5"}, "concurrency", "labels/authorization", framework.MUST, "An admin's label mutation and its in-flight exact retry racing the admin's demotion (9000) or removal (9001) form a linearizable history: the label is in the stored snapshot exactly when one send was acknowledged as new; the other is a committed duplicate or refused (restricted: nip-cl-rejected); once a read shows the role change without the label, no send applies it; a retry after the role change is refused and applies nothing."),
			readingLinearizable)),
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
						again := t.Connect(admin.Actor())
						pk := admin.Actor().PubKey
						x := lbl(t, "race")
						base := snapshot(t, reader, ch)
						sub := t.Subscribe(reader, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
						removal := r%2 == 1
						change := fixtures.PutUser(owner.Actor(), ch, pk, t.PutRole(owner, ch, "member"))
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
								requireRejected(ok, fmt.Sprintf("%s: send %d of the mutation racing the %s", what, i, changeName(removal)), "restricted")
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
								framework.Failf("%s: a read after the %s was acknowledged showed it applied and the label absent, yet the label was applied afterwards (answers %v): the mutation was authorized against the state before the role change", what, changeName(removal), oks)
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
		{Case: framework.Heavy(framework.WithReading(lcase("labels/concurrency/8", []string{"labels/serialization.1", "labels/serialization.3", "labels/serialization.4", "labels/serialization.5"}, "concurrency", "labels/serialization", framework.MUST, "Ordinary edits (two renames, each carrying the whole name-and-about metadata) racing the removal of the channel's last label are serialized with it: all are acknowledged, the stored snapshot ends with one edit's name and about, whole, and no label, stays so after every live snapshot arrived, and every live snapshot is a prefix of one order of the commands (the label never comes back, no name or about outside the edits appears)."),
			readingLinearizable+" Each edit carries every field it sets (name and about), so a relay that reads a 9002 as a patch and one that reads it as the whole new metadata (reading nip29-edit-metadata) end in the same states.")),
			Run: func(t *framework.T) {
				owner := t.Actor("owner")
				conns := connectN(t, owner, 3)
				ch := createLabeled(t, conns[0], "", fixtures.Open)
				var watch liveWatch
				for r := 0; r < t.Env.Rounds; r++ {
					what := fmt.Sprintf("round %d", r)
					y := lbl(t, "last")
					acceptNew(t, conns[0], mutationEv(owner, ch, []string{y}, nil), what+": the round's only label")
					base := snapshot(t, conns[0], ch)
					type meta struct{ name, about string }
					old := meta{framework.TagOf(base, "name"), framework.TagOf(base, "about")}
					// Two whole-metadata edits: one renames, one changes the about.
					e1, e2 := meta{t.Unique("name"), old.about}, meta{old.name, t.Unique("about")}
					edit := func(m meta) *nostr.Event {
						return fixtures.EditChannel(owner, ch, nostr.Tag{"name", m.name}, nostr.Tag{"about", m.about})
					}
					sub := t.Subscribe(conns[0], nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
					cmds := []*nostr.Event{edit(e1), edit(e2), mutationEv(owner, ch, nil, []string{y})}
					// Alternate which command is sent first.
					if r%2 == 1 {
						cmds[0], cmds[2] = cmds[2], cmds[0]
					}
					oks := inFlight(t, conns, func(i int) *nostr.Event { return cmds[i] })
					for i, ok := range oks {
						if !ok.Accepted {
							framework.Failf("%s: command %d (kind %d) was refused: %s", what, i, cmds[i].Kind, ok)
						}
					}
					final := expectLabels(t, conns[0], ch)
					got := meta{framework.TagOf(final, "name"), framework.TagOf(final, "about")}
					if got != e1 && got != e2 {
						framework.Failf("%s: the stored snapshot's name and about are %q and %q, neither edit's whole metadata (%q/%q or %q/%q)", what, got.name, got.about, e1.name, e1.about, e2.name, e2.about)
					}
					t.Expect(final.CreatedAt).To(BeNumerically(">", base.CreatedAt), "%s: the replacement snapshot is newer than the one it replaced", what)
					live, _ := watch.until(t, sub, final.ID)
					live = newerThan(live, base)
					checkDelivered(t, live, final, r)
					keptOnce(live, y, false, r)
					for _, ev := range live {
						if m := (meta{framework.TagOf(ev, "name"), framework.TagOf(ev, "about")}); m != old && m != e1 && m != e2 {
							framework.Failf("%s: live snapshot %s has name %q and about %q, which no prefix of the commands gives", what, ev.ID, m.name, m.about)
						}
						t.Expect(labelsOf(ev)).To(BeElementOf([]string(nil), []string{y}), "%s: live snapshot %s has labels no prefix gives: %v", what, ev.ID, labelsOf(ev))
					}
					// The last edit settles: its name or about never goes back.
					if got == e1 {
						keptValue(live, "name", e1.name, r)
					} else {
						keptValue(live, "about", e2.about, r)
					}
					// No late publisher brings an older state back.
					expectUnchanged(t, conns[0], ch, final, what+": after the live snapshots")
				}
				t.Note("%d rounds of two whole-metadata edits racing the last label's removal", t.Env.Rounds)
			}},
	}
}

// begin sends ev on c without waiting for the answer (paced like every write).
func begin(t *framework.T, c *fixtures.Client, ev *nostr.Event) *fixtures.Pending {
	if t.Env.Pace != nil {
		t.Must(t.Env.Pace(t.Ctx()), "pacing writes")
	}
	p, err := c.Begin(t.Ctx(), ev)
	t.Must(err, "send")
	return p
}

// wait returns the answer of a begun send.
func wait(t *framework.T, p *fixtures.Pending) fixtures.OK {
	ok, err := p.Wait(t.Ctx())
	t.Must(err, "answer")
	return ok
}

func changeName(removal bool) string {
	if removal {
		return "removal (9001)"
	}
	return "demotion (9000 to member)"
}

// currentOf returns the newest event of kind among evs (nil if none).
func currentOf(evs []*nostr.Event, kind int) *nostr.Event {
	var cur *nostr.Event
	for _, ev := range evs {
		if ev.Kind == kind && (cur == nil || ev.CreatedAt > cur.CreatedAt || (ev.CreatedAt == cur.CreatedAt && ev.ID < cur.ID)) {
			cur = ev
		}
	}
	return cur
}

// preGrantAdmin: the race cases need an admin besides the owner.
var preGrantAdmin = framework.Precondition{ID: "grant-admin",
	Need:  "the channel's owner can give another user the admin role (a 9000 with the role)",
	Adapt: "accept the admin role on 9000 from an owner, or name the relay's role with --role-map admin=ROLE"}

// raceAdmin connects a fresh actor and makes it an admin of ch as the
// owner; a refused grant blocks the case (no draft obliges a relay to take
// the harness's role name).
func raceAdmin(t *framework.T, owner *fixtures.Client, ch string) (*fixtures.Client, string) {
	GinkgoHelper()
	c := t.Connect(t.Actor("admin"))
	role := t.PutRole(owner, ch, "admin")
	ok := t.Publish(owner, fixtures.PutUser(owner.Actor(), ch, c.Actor().PubKey, role))
	if !ok.Accepted {
		framework.CheckPrefix("OK", ok.Reason)
		t.Blocked(preGrantAdmin, fmt.Sprintf("9000 giving role %q in %s as its owner: %s", role, ch, ok))
	}
	return c, role
}

// roleChangeSeen reports whether a read shows pk no longer holding role
// (or, for a removal, no longer a member), and whether the read could tell
// at all (the state kinds it needs were in it).
func roleChangeSeen(view []*nostr.Event, pk, role string, removal bool) (seen, known bool) {
	if admins := currentOf(view, fixtures.KindAdmins); admins != nil {
		known = true
		found, roles := framework.HasP(admins, pk)
		if !found || !slices.Contains(roles, role) {
			seen = true
		}
	}
	if removal {
		if members := currentOf(view, fixtures.KindMembers); members != nil {
			known = true
			if found, _ := framework.HasP(members, pk); !found {
				seen = true
			}
		}
	}
	return seen, known
}

// keptValue checks, over snapshots ordered by created_at, that once the
// tag name carries v it keeps it (a later snapshot never goes back).
func keptValue(evs []*nostr.Event, name, v string, round int) {
	ordered := byCreatedAt(evs)
	settled := -1
	for i, ev := range ordered {
		has := framework.TagOf(ev, name) == v
		if settled < 0 && has {
			settled = i
			continue
		}
		if settled >= 0 && !has {
			framework.Failf("round %d: %s went back from %q to %q in snapshot %s (created_at %d) after %s (created_at %d)", round, name, v, framework.TagOf(ev, name), ev.ID, ev.CreatedAt, ordered[settled].ID, ordered[settled].CreatedAt)
		}
	}
}
