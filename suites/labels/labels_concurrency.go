package labels

import (
	"fmt"
	"slices"
	"sort"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// labelsConcurrencySpecs: "Application and publication guarantees" —
// serialized mutations and publication. Every race runs Env.Rounds times.
func labelsConcurrencySpecs() []framework.Spec {
	return append(labelsSerializationSpecs(), labelsRaceSpecs()...)
}

// labelsSerializationSpecs are concurrency/1 to /6.
func labelsSerializationSpecs() []framework.Spec {
	sec := "labels/serialization"
	return []framework.Spec{
		{Case: framework.Heavy(lcase("labels/concurrency/1", []string{"labels/retry-admission.10"}, "concurrency", sec, framework.MUST, "N parallel exact sends of one new create on N connections: exactly one OK true \"\", the rest duplicate: nip-cl-committed; one channel, one snapshot.")),
			Run: func(t *framework.T) {
				const n = 6
				owner := t.Actor("owner")
				conns := connectN(t, owner, n)
				for r := 0; r < t.Env.Rounds; r++ {
					x := lbl(t, "race")
					ev, ch := createEv(owner, "", fixtures.Open, x)
					oks := inFlight(t, conns, func(int) *nostr.Event { return ev })
					expectOneNew(t, oks, fmt.Sprintf("round %d", r))
					expectLabels(t, conns[0], ch, x)
					t.Expect(framework.DTags(findL(t, conns[0], []string{x}, nil, 50))).To(Equal([]string{ch}), "one channel")
				}
				t.Note("%d rounds of %d parallel sends", t.Env.Rounds, n)
			}},
		{Case: framework.Heavy(framework.WithReading(lcase("labels/concurrency/2", []string{"labels/retry-admission.10"}, "concurrency", sec, framework.MUST, "N parallel exact sends of one new mutation: exactly one OK true \"\", the rest duplicate: nip-cl-committed; the stored snapshot shows one application and no second snapshot is published for it."),
			readingLiveSubset)),
			Run: func(t *framework.T) {
				const n = 6
				owner := t.Actor("owner")
				conns := connectN(t, owner, n)
				ch := createLabeled(t, conns[0], "", fixtures.Open)
				delivered := 0
				var watch liveWatch
				for r := 0; r < t.Env.Rounds; r++ {
					before := snapshot(t, conns[0], ch)
					x, y := lbl(t, "race"), lbl(t, "mark")
					m := mutationEv(owner, ch, []string{x}, labelsOf(before))
					sub := t.Subscribe(conns[0], nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
					oks := inFlight(t, conns, func(int) *nostr.Event { return m })
					expectOneNew(t, oks, fmt.Sprintf("round %d", r))
					after := expectLabels(t, conns[0], ch, x)
					t.Expect(after.CreatedAt).To(BeNumerically(">", before.CreatedAt), "round %d: the mutation published a newer snapshot", r)
					// A later mutation is the marker: any second snapshot of
					// the raced one would be delivered before the marker's.
					acceptNew(t, conns[0], mutationEv(owner, ch, []string{y}, nil), "marker mutation")
					mark := expectLabels(t, conns[0], ch, x, y)
					live, ok := watch.until(t, sub, mark.ID)
					live = newerThan(live, before)
					checkDelivered(t, live, mark, r)
					for _, ev := range live {
						t.Expect([]string{after.ID, mark.ID}).To(ContainElement(ev.ID),
							"round %d: a snapshot other than the mutation's and the marker's was published: %s with labels %v", r, ev.ID, labelsOf(ev))
					}
					if ok {
						delivered++
					}
				}
				t.Note("%d rounds of %d parallel sends; live snapshots delivered in %d rounds", t.Env.Rounds, n, delivered)
			}},
		{Case: framework.Heavy(framework.WithReading(lcase("labels/concurrency/3", []string{"labels/serialization.1", "labels/serialization.5"}, "concurrency", sec, framework.MUST, "K admins adding K distinct labels at once: every label is in the stored snapshot afterwards; the snapshots delivered live, ordered by created_at, only ever gain labels."),
			readingLiveSubset)),
			Run: func(t *framework.T) {
				const k = 6
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open)
				admins := withRoles(t, owner, ch, repeat("admin", k)...)
				delivered := 0
				var watch liveWatch
				for r := 0; r < t.Env.Rounds; r++ {
					base := snapshot(t, owner, ch)
					sub := t.Subscribe(owner, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
					vals := make([]string, k)
					for i := range vals {
						vals[i] = lbl(t, "k")
					}
					oks := inFlight(t, admins, func(i int) *nostr.Event { return mutationEv(admins[i].Actor(), ch, []string{vals[i]}, nil) })
					for i, ok := range oks {
						t.Expect(ok.Accepted && ok.Reason == "").To(BeTrue(), "round %d admin %d: %s", r, i, ok)
					}
					final := expectLabels(t, owner, ch, vals...)
					live, ok := watch.until(t, sub, final.ID)
					live = newerThan(live, base)
					checkDelivered(t, live, final, r)
					for _, v := range vals {
						keptOnce(live, v, true, r)
					}
					if ok {
						delivered++
					}
					acceptNew(t, owner, mutationEv(owner.Actor(), ch, nil, vals), "clear the round's labels")
				}
				t.Note("%d rounds of %d concurrent adds; the final snapshot arrived live in %d rounds", t.Env.Rounds, k, delivered)
			}},
		{Case: framework.Heavy(framework.WithReading(lcase("labels/concurrency/4", []string{"labels/serialization.1", "labels/serialization.4", "labels/serialization.5"}, "concurrency", sec, framework.MUST, "Parallel disjoint adds and removes are all preserved in the stored snapshot, which is newer than the one before them and still current once the live snapshots arrived; among the snapshots delivered live, by created_at, an added label never disappears and a removed one never comes back."),
			readingLiveSubset)),
			Run: func(t *framework.T) {
				const k = 4
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open)
				admins := withRoles(t, owner, ch, repeat("admin", 2*k)...)
				cur := make([]string, k)
				for i := range cur {
					cur[i] = lbl(t, "old")
				}
				acceptNew(t, owner, mutationEv(owner.Actor(), ch, cur, nil), "seed labels")
				delivered := 0
				var watch liveWatch
				for r := 0; r < t.Env.Rounds; r++ {
					base := snapshot(t, owner, ch)
					sub := t.Subscribe(owner, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
					add := make([]string, k)
					for i := range add {
						add[i] = lbl(t, "new")
					}
					oks := inFlight(t, admins, func(i int) *nostr.Event {
						if i < k {
							return mutationEv(admins[i].Actor(), ch, []string{add[i]}, nil)
						}
						return mutationEv(admins[i].Actor(), ch, nil, []string{cur[i-k]})
					})
					for i, ok := range oks {
						t.Expect(ok.Accepted && ok.Reason == "").To(BeTrue(), "round %d command %d: %s", r, i, ok)
					}
					final := expectLabels(t, owner, ch, add...)
					t.Expect(final.CreatedAt).To(BeNumerically(">", base.CreatedAt), "round %d: the stored snapshot after the commands (%s) must be newer than the one before them (%s)", r, final.ID, base.ID)
					live, ok := watch.until(t, sub, final.ID)
					live = newerThan(live, base)
					checkDelivered(t, live, final, r)
					for _, v := range add {
						keptOnce(live, v, true, r)
					}
					for _, v := range cur {
						keptOnce(live, v, false, r)
					}
					// No late publisher replaces it with stale labels.
					expectUnchanged(t, owner, ch, final, fmt.Sprintf("round %d: the stored snapshot once the live ones arrived", r))
					if ok {
						delivered++
					}
					cur = add
				}
				t.Note("%d rounds of %d adds racing %d removes; the final snapshot arrived live in %d rounds", t.Env.Rounds, k, k, delivered)
			}},
		{Case: framework.Heavy(framework.WithReading(lcase("labels/concurrency/5", []string{"labels/serialization.2"}, "concurrency", sec, framework.MUST, "A label mutation racing an archive is serialized with it: if accepted, its label is in the final snapshot and was applied before the archive; if refused (restricted: nip-cl-rejected), it left nothing; either way the channel ends archived and refuses a further mutation."),
			"Archive state is observed as the draft defines it, by behaviour: an archived channel refuses new label mutations (restricted: nip-cl-rejected). The snapshot's archived tag is read by its value (the target contract's [\"archived\",\"true\"]; \"false\" or no tag is not archived) only to order the snapshots delivered live; the draft defines no snapshot form for archive state. "+readingLiveSubset)),
			Run: func(t *framework.T) {
				owner := t.Actor("owner")
				conns := connectN(t, owner, 2)
				applied := 0
				forms := map[string]bool{}
				var watch liveWatch
				for r := 0; r < t.Env.Rounds; r++ {
					x := lbl(t, "arch")
					ch := createLabeled(t, conns[0], "", fixtures.Open)
					base := snapshot(t, conns[0], ch)
					sub := t.Subscribe(conns[0], nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
					oks := inFlight(t, conns, func(i int) *nostr.Event {
						if i == 0 {
							return mutationEv(owner, ch, []string{x}, nil)
						}
						return fixtures.EditChannel(owner, ch, nostr.Tag{"archived", "true"})
					})
					t.Expect(oks[1].Accepted).To(BeTrue(), "round %d: archive: %s", r, oks[1])
					won := oks[0].Accepted
					if won {
						t.Expect(oks[0].Reason).To(Equal(""), "round %d: %s", r, oks[0])
						applied++
					} else {
						requireRejected(oks[0], fmt.Sprintf("round %d: mutation racing archive", r), "restricted")
					}
					final := snapshot(t, conns[0], ch)
					t.Expect(slices.Contains(labelsOf(final), x)).To(Equal(won), "round %d: the raced label is in the final snapshot exactly when the mutation was accepted (labels %v)", r, labelsOf(final))
					// The archive took effect and stayed: a new mutation is refused.
					rejectCL(t, conns[0], mutationEv(owner, ch, []string{lbl(t, "after")}, nil), fmt.Sprintf("round %d: a new mutation after the archive", r), "restricted")
					expectUnchanged(t, conns[0], ch, final, fmt.Sprintf("round %d: refused mutation after the archive", r))
					arch, known := archivedState(final)
					forms[fmt.Sprintf("archived tag %q (read as archived=%v, known=%v)", fixtures.TagValues(final, "archived"), arch, known)] = true
					live, _ := watch.until(t, sub, final.ID)
					live = newerThan(live, base)
					checkDelivered(t, live, final, r)
					ordered := byCreatedAt(live)
					archivedAt := -1
					for i, ev := range ordered {
						a, ok := archivedState(ev)
						if ok && a && archivedAt < 0 {
							archivedAt = i
						}
						if !won {
							t.Expect(labelsOf(ev)).NotTo(ContainElement(x), "round %d: a refused mutation's label was published (%s)", r, ev.ID)
						}
					}
					if won && archivedAt >= 0 && !slices.Contains(labelsOf(ordered[archivedAt]), x) {
						for _, ev := range ordered[archivedAt+1:] {
							t.Expect(labelsOf(ev)).NotTo(ContainElement(x), "round %d: the label first appears in %s, after the archived snapshot %s without it: applied after the archive", r, ev.ID, ordered[archivedAt].ID)
						}
					}
				}
				t.Note("%d rounds; the mutation won %d of them; final snapshots: %v", t.Env.Rounds, applied, keys(forms))
			}},
		{Case: framework.Heavy(lcase("labels/concurrency/6", []string{"labels/serialization.2", "labels/serialization.6"}, "concurrency", sec, framework.MUST, "A label mutation racing a delete never leaves a snapshot after the delete: the deleted channel has no readable 39000 and is not found by the label.")),
			Run: func(t *framework.T) {
				owner := t.Actor("owner")
				conns := connectN(t, owner, 2)
				applied := 0
				for r := 0; r < t.Env.Rounds; r++ {
					x := lbl(t, "del")
					ch := createLabeled(t, conns[0], "", fixtures.Open)
					oks := inFlight(t, conns, func(i int) *nostr.Event {
						if i == 0 {
							return mutationEv(owner, ch, []string{x}, nil)
						}
						return fixtures.DeleteChannel(owner, ch)
					})
					t.Expect(oks[1].Accepted).To(BeTrue(), "round %d: delete: %s", r, oks[1])
					if oks[0].Accepted {
						t.Expect(oks[0].Reason).To(Equal(""), "round %d: %s", r, oks[0])
						applied++
					} else {
						requireRejected(oks[0], fmt.Sprintf("round %d: mutation racing delete", r), "restricted", "invalid")
					}
					goneChannel(t, conns[0], ch, fmt.Sprintf("round %d", r))
					t.Expect(findL(t, conns[0], []string{x}, nil, 10)).To(BeEmpty(), "round %d: deleted channel found by label", r)
				}
				t.Note("%d rounds; the mutation won %d of them", t.Env.Rounds, applied)
			}},
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// connectN opens n connections as one actor.
func connectN(t *framework.T, a *fixtures.Actor, n int) []*fixtures.Client {
	GinkgoHelper()
	out := make([]*fixtures.Client, n)
	for i := range out {
		out[i] = t.Connect(a)
	}
	return out
}

// inFlight writes ev(i) on conns[i] for every i, in order, before waiting
// for any answer, and returns the answers.
func inFlight(t *framework.T, conns []*fixtures.Client, ev func(i int) *nostr.Event) []fixtures.OK {
	GinkgoHelper()
	pend := make([]*fixtures.Pending, len(conns))
	for i, c := range conns {
		if t.Env.Pace != nil {
			t.Must(t.Env.Pace(t.Ctx()), "pacing writes")
		}
		p, err := c.Begin(t.Ctx(), ev(i))
		t.Must(err, "send")
		pend[i] = p
	}
	oks := make([]fixtures.OK, len(conns))
	for i, p := range pend {
		ok, err := p.Wait(t.Ctx())
		t.Must(err, "answer")
		oks[i] = ok
	}
	return oks
}

// expectOneNew: exactly one OK true "", every other OK true duplicate: nip-cl-committed.
func expectOneNew(t *framework.T, oks []fixtures.OK, what string) {
	GinkgoHelper()
	fresh := 0
	for _, ok := range oks {
		switch {
		case ok.Accepted && ok.Reason == "":
			fresh++
		case ok.Accepted && hasFixedPrefix(ok.Reason, markCommitted):
		default:
			framework.Failf("%s: expected OK true \"\" or \"duplicate: nip-cl-committed\", got %s", what, ok)
		}
	}
	t.Expect(fresh).To(Equal(1), "%s: exactly one new application among %v", what, oks)
}

// readingLiveSubset: what the live part of a case may assume.
const readingLiveSubset = "The draft does not promise delivery of every live notification: assertions rest on the stored snapshot after the commands; live snapshots are checked only as delivered (each canonical, no two with one created_at, none newer than the stored current one, label changes consistent in created_at order). A relay that delivers none passes that part with a note."

// liveUntil collects the live snapshots on sub until the one with id
// marker arrives or the step timeout passes, then closes sub. ok reports
// whether the marker arrived.
func liveUntil(t *framework.T, sub *fixtures.Subscription, marker string) (evs []*nostr.Event, ok bool) {
	GinkgoHelper()
	seen, err := sub.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.ID == marker })
	seen = append(seen, sub.Drain()...)
	sub.Close(t.Ctx())
	return seen, err == nil
}

// liveWatch runs liveUntil round after round, but once a marker has not
// arrived (the relay does not deliver these snapshots live) later rounds
// only take what is already there instead of waiting a step timeout each.
type liveWatch struct{ off bool }

func (w *liveWatch) until(t *framework.T, sub *fixtures.Subscription, marker string) ([]*nostr.Event, bool) {
	GinkgoHelper()
	if w.off {
		evs := sub.Drain()
		sub.Close(t.Ctx())
		return evs, false
	}
	evs, ok := liveUntil(t, sub, marker)
	w.off = !ok
	return evs, ok
}

// newerThan drops delivered events not newer than base (a late delivery of
// a snapshot published before the subscription opened).
func newerThan(evs []*nostr.Event, base *nostr.Event) []*nostr.Event {
	var out []*nostr.Event
	for _, ev := range evs {
		if ev.CreatedAt > base.CreatedAt {
			out = append(out, ev)
		}
	}
	return out
}

// checkDelivered checks the snapshots delivered live against what the
// draft promises of every published one: canonical and relay-signed; each
// replacement newer than the one it replaced (so no two distinct
// snapshots share a created_at); none newer than the stored current one.
func checkDelivered(t *framework.T, evs []*nostr.Event, current *nostr.Event, round int) {
	GinkgoHelper()
	byTime := map[nostr.Timestamp]string{}
	for i, ev := range evs {
		checkCanonical(t, ev)
		if other, dup := byTime[ev.CreatedAt]; dup && other != ev.ID {
			framework.Failf("round %d: snapshots %s and %s share created_at %d; each replacement must be newer than the one it replaces", round, other, ev.ID, ev.CreatedAt)
		}
		byTime[ev.CreatedAt] = ev.ID
		t.Expect(ev.CreatedAt).To(BeNumerically("<=", current.CreatedAt), "round %d: live snapshot %s (created_at %d) is newer than the stored current one %s (%d)", round, ev.ID, ev.CreatedAt, current.ID, current.CreatedAt)
		if i > 0 && ev.CreatedAt < evs[i-1].CreatedAt {
			t.Note("round %d: live snapshots arrived out of created_at order (%d after %d); delivery order is not promised", round, ev.CreatedAt, evs[i-1].CreatedAt)
		}
	}
}

// byCreatedAt returns the distinct snapshots ordered by created_at.
func byCreatedAt(evs []*nostr.Event) []*nostr.Event {
	seen := map[string]bool{}
	var out []*nostr.Event
	for _, ev := range evs {
		if !seen[ev.ID] {
			seen[ev.ID] = true
			out = append(out, ev)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt < out[j].CreatedAt })
	return out
}

// keptOnce checks, over snapshots ordered by created_at, that once v is
// present (added) it stays present, or (added false: removed) once absent
// it stays absent.
func keptOnce(evs []*nostr.Event, v string, added bool, round int) {
	GinkgoHelper()
	ordered := byCreatedAt(evs)
	settled := -1
	for i, ev := range ordered {
		has := slices.Contains(labelsOf(ev), v)
		if settled < 0 && has == added {
			settled = i
			continue
		}
		if settled >= 0 && has != added {
			verb := "disappeared"
			if !added {
				verb = "came back"
			}
			framework.Failf("round %d: label %s %s in snapshot %s (created_at %d) after snapshot %s (created_at %d)", round, v, verb, ev.ID, ev.CreatedAt, ordered[settled].ID, ordered[settled].CreatedAt)
		}
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
