package labels

import (
	"fmt"
	"slices"
	"sort"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// serializationSpecs are the cases of labels/serialization.
func serializationSpecs() []framework.Spec {
	out := []framework.Spec{
		{Case: framework.NewCase("labels/concurrency/8", framework.MUST,
			"Ordinary edits (two renames, each carrying the whole name-and-about metadata) racing the removal of the channel's last label are serialized with it: all are acknowledged, the stored snapshot ends with one edit's name and about, whole, and no label, stays so after every live snapshot arrived, and every live snapshot is a prefix of one order of the commands (the label never comes back, no name or about outside the edits appears).",
			"labels/serialization.1", "labels/serialization.3", "labels/serialization.4", "labels/serialization.5").
			WithReading(readingLinearizable + " Each edit carries every field it sets (name and about), so a relay that reads a 9002 as a patch and one that reads it as the whole new metadata (reading nip29-edit-metadata) end in the same states.").
			WithHeavy(),
			Run: func(t *framework.T) {
				t.Checking("labels/serialization.1")
				owner := t.Actor("owner")
				conns := connectN(t, owner, 3)
				ch := createLabeled(t, conns[0], "", fixtures.Open)
				var watch liveWatch
				for r := 0; r < t.Env.Rounds; r++ {
					what := fmt.Sprintf("round %d", r)
					y := lbl(t, "last")
					t.Checking("labels/serialization.1")
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
					t.Checking("labels/serialization.3") // the edits publish the current labels
					final := expectLabels(t, conns[0], ch)
					got := meta{framework.TagOf(final, "name"), framework.TagOf(final, "about")}
					if got != e1 && got != e2 {
						framework.Failf("%s: the stored snapshot's name and about are %q and %q, neither edit's whole metadata (%q/%q or %q/%q)", what, got.name, got.about, e1.name, e1.about, e2.name, e2.about)
					}
					t.Checking("labels/serialization.5")
					t.Expect(final.CreatedAt).To(BeNumerically(">", base.CreatedAt), "%s: the replacement snapshot is newer than the one it replaced", what)
					live, _ := watch.until(t, sub, final.ID)
					live = newerThan(live, base)
					checkDelivered(t, live, final, r)
					// A removed label back in a live snapshot: an edit's
					// publication that did not keep the current labels.
					t.Checking("labels/serialization.3")
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
		{Case: framework.NewCase("labels/add-remove/15", framework.MUST,
			"Ordinary 9002 edits that make the channel private and hidden (NIP-29's flags, with the whole metadata) or set a topic or a purpose keep the label set byte for byte; a topic or purpose edit the relay refuses leaves it too.",
			"labels/serialization.3", "labels/compatibility.1"),
			Run: func(t *framework.T) {
				t.Checking("labels/serialization.3")
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
	}
	// "Application and publication guarantees" —
	// serialized mutations and publication. Every race runs Env.Rounds times.
	out = append(out, []framework.Spec{
		{Case: framework.NewCase("labels/concurrency/3", framework.MUST,
			"K admins adding K distinct labels at once: every label is in the stored snapshot afterwards; the snapshots delivered live, ordered by created_at, only ever gain labels.",
			"labels/serialization.1", "labels/serialization.5").
			WithReading(readingLiveSubset).
			WithHeavy(),
			Run: func(t *framework.T) {
				t.Checking("labels/serialization.1")
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
		{Case: framework.NewCase("labels/concurrency/4", framework.MUST,
			"Parallel disjoint adds and removes are all preserved in the stored snapshot, which is newer than the one before them and still current once the live snapshots arrived; among the snapshots delivered live, by created_at, an added label never disappears and a removed one never comes back.",
			"labels/serialization.1", "labels/serialization.4", "labels/serialization.5").
			WithReading(readingLiveSubset).
			WithHeavy(),
			Run: func(t *framework.T) {
				t.Checking("labels/serialization.1")
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
					t.Checking("labels/serialization.5")
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
		{Case: framework.NewCase("labels/concurrency/5", framework.MUST,
			"A label mutation racing an archive is serialized with it: if accepted, its label is in the final snapshot and was applied before the archive; if refused (restricted: nip-cl-rejected), it left nothing; either way the channel ends archived and refuses a further mutation.",
			"labels/serialization.2").
			WithReading("Archive state is observed as the draft defines it, by behaviour: an archived channel refuses new label mutations (restricted: nip-cl-rejected). The snapshot's archived tag is read by its value (the target contract's [\"archived\",\"true\"]; \"false\" or no tag is not archived) only to order the snapshots delivered live; the draft defines no snapshot form for archive state. " + readingLiveSubset).
			WithHeavy(),
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
						requireRejected(t, oks[0], fmt.Sprintf("round %d: mutation racing archive", r), "restricted")
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
		{Case: framework.NewCase("labels/concurrency/6", framework.MUST,
			"A label mutation racing a delete never leaves a snapshot after the delete: the deleted channel has no readable 39000 and is not found by the label.",
			"labels/serialization.2", "labels/serialization.6").
			WithHeavy(),
			Run: func(t *framework.T) {
				t.Checking("labels/serialization.2")
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
						requireRejected(t, oks[0], fmt.Sprintf("round %d: mutation racing delete", r), "restricted", "invalid")
					}
					goneChannel(t, conns[0], ch, fmt.Sprintf("round %d", r))
					t.Expect(findL(t, conns[0], []string{x}, nil, 10)).To(BeEmpty(), "round %d: deleted channel found by label", r)
				}
				t.Note("%d rounds; the mutation won %d of them", t.Env.Rounds, applied)
			}},
	}...)
	return out
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
		t.TimelineRefused(p.Client(), p.Event(), ok)
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
// marker arrives, then closes sub. ok reports whether the marker arrived.
// Its absence is decided by a barrier, not the step timeout (issue 36): a
// stored read of the marker on sub's own connection, then a settle window
// (framework.T.AwaitLive); an absence is noted with how long it waited.
func liveUntil(t *framework.T, sub *fixtures.Subscription, marker string) (evs []*nostr.Event, ok bool) {
	GinkgoHelper()
	w := t.AwaitLive(sub.Client(), sub, func(ev *nostr.Event) bool { return ev.ID == marker }, nostr.Filter{IDs: []string{marker}})
	switch {
	case w.Live:
	case w.Stored != "":
		t.Note("live snapshots: the marker %s was not delivered live: %s", marker, w.Why)
	default:
		t.Note("live snapshots: the marker %s was not delivered live: %v", marker, w.Err)
	}
	seen := append(w.Seen, sub.Drain()...)
	sub.Close(t.Ctx())
	return seen, w.Live
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
		done := t.Invariant("labels/serialization.5")
		if other, dup := byTime[ev.CreatedAt]; dup && other != ev.ID {
			framework.Failf("round %d: snapshots %s and %s share created_at %d; each replacement must be newer than the one it replaces", round, other, ev.ID, ev.CreatedAt)
		}
		byTime[ev.CreatedAt] = ev.ID
		t.Expect(ev.CreatedAt).To(BeNumerically("<=", current.CreatedAt), "round %d: live snapshot %s (created_at %d) is newer than the stored current one %s (%d)", round, ev.ID, ev.CreatedAt, current.ID, current.CreatedAt)
		done()
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

// readingLinearizable: how the race cases judge a history.
const readingLinearizable = "Judged as a linearizable history, not by the final state alone: a command acknowledged OK true took effect at one point between its send and its answer; a refused one left no trace; every read (one REQ) shows a prefix of one order of the commands. The read between the role change's answer and the mutation's answer decides only when it shows the role change (by 39001, or 39002 for a removal; NIP-29 makes both optional, and a relay without them is judged on the answers and the stored snapshot only, with a note). " + readingLiveSubset

// raceLanes is how many rounds of a race run at once, each lane on its
// own channel.
const raceLanes = 4

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
	t.TimelineRefused(p.Client(), p.Event(), ok)
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
func raceAdmin(t *framework.T, owner *fixtures.Client, ch string) (*fixtures.Client, []string) {
	GinkgoHelper()
	c := t.Connect(t.Actor("admin"))
	roles := t.PutRoles(owner, ch, "admin")
	ok := t.Publish(owner, fixtures.PutUser(owner.Actor(), ch, c.Actor().PubKey, roles...))
	if !ok.Accepted {
		framework.CheckPrefix("OK", ok.Reason)
		t.Blocked(preGrantAdmin, fmt.Sprintf("9000 giving roles %s in %s as its owner: %s", framework.RoleSet(roles), ch, ok))
	}
	return c, roles
}

// roleChangeSeen reports whether a read shows pk no longer holding every
// role of roles (or, for a removal, no longer a member), and whether the
// read could tell at all (the state kinds it needs were in it).
func roleChangeSeen(view []*nostr.Event, pk string, roles []string, removal bool) (seen, known bool) {
	if admins := currentOf(view, fixtures.KindAdmins); admins != nil {
		known = true
		found, listed := framework.HasP(admins, pk)
		if !found || !framework.HasRoles(listed, roles) {
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
