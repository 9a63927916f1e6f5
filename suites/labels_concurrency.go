package suites

import (
	"fmt"
	"slices"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// labelsConcurrencySpecs: "Application and publication guarantees" —
// serialized mutations and publication. Every race runs Env.Rounds times.
func labelsConcurrencySpecs() []Spec {
	sec := "labels/serialization"
	return []Spec{
		{heavy(lcase("concurrency/1", "concurrency", sec, MUST, "N parallel exact sends of one new create on N connections: exactly one OK true \"\", the rest duplicate: nip-cl-committed; one channel, one snapshot.")),
			func(t *T) {
				const n = 6
				owner := t.Actor("owner")
				conns := connectN(t, owner, n)
				for r := 0; r < t.Env.Rounds; r++ {
					x := lbl(t, "race")
					ev, ch := createEv(owner, "", fixtures.Open, x)
					oks := inFlight(t, conns, func(int) *nostr.Event { return ev })
					expectOneNew(oks, fmt.Sprintf("round %d", r))
					expectLabels(t, conns[0], ch, x)
					Expect(DTags(findL(t, conns[0], []string{x}, nil, 50))).To(Equal([]string{ch}), "one channel")
				}
				t.Note("%d rounds of %d parallel sends", t.Env.Rounds, n)
			}},
		{heavy(lcase("concurrency/2", "concurrency", sec, MUST, "N parallel exact sends of one new mutation: exactly one OK true \"\", the rest duplicate: nip-cl-committed, and exactly one new snapshot.")),
			func(t *T) {
				const n = 6
				owner := t.Actor("owner")
				conns := connectN(t, owner, n)
				ch := createLabeled(t, conns[0], "", fixtures.Open)
				for r := 0; r < t.Env.Rounds; r++ {
					before := snapshot(t, conns[0], ch)
					x := lbl(t, "race")
					m := mutationEv(owner, ch, []string{x}, labelsOf(before))
					sub := t.Subscribe(conns[0], nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
					oks := inFlight(t, conns, func(int) *nostr.Event { return m })
					expectOneNew(oks, fmt.Sprintf("round %d", r))
					after := expectLabels(t, conns[0], ch, x)
					live := liveSnapshots(t, conns[0], sub, 1)
					Expect(IDs(live)).To(Equal([]string{after.ID}), "round %d: exactly one snapshot published", r)
				}
				t.Note("%d rounds of %d parallel sends", t.Env.Rounds, n)
			}},
		{heavy(lcase("concurrency/3", "concurrency", sec, MUST, "K admins adding K distinct labels at once: every label is present afterwards, and live snapshots have strictly increasing created_at.")),
			func(t *T) {
				const k = 6
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open)
				admins := withRoles(t, owner, ch, repeat("admin", k)...)
				for r := 0; r < t.Env.Rounds; r++ {
					sub := t.Subscribe(owner, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
					vals := make([]string, k)
					for i := range vals {
						vals[i] = lbl(t, "k")
					}
					oks := inFlight(t, admins, func(i int) *nostr.Event { return mutationEv(admins[i].Actor(), ch, []string{vals[i]}, nil) })
					for i, ok := range oks {
						Expect(ok.Accepted && ok.Reason == "").To(BeTrue(), "round %d admin %d: %s", r, i, ok)
					}
					expectLabels(t, owner, ch, vals...)
					live := liveSnapshots(t, owner, sub, k)
					increasing(live, r)
					Expect(labelsOf(live[len(live)-1])).To(ConsistOf(vals), "round %d: the last live snapshot has every label", r)
					acceptNew(t, owner, mutationEv(owner.Actor(), ch, nil, vals), "clear the round's labels")
				}
				t.Note("%d rounds of %d concurrent adds", t.Env.Rounds, k)
			}},
		{heavy(lcase("concurrency/4", "concurrency", sec, MUST, "Parallel disjoint adds and removes are all preserved; after the removes are acknowledged no later snapshot carries a removed label.")),
			func(t *T) {
				const k = 4
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open)
				admins := withRoles(t, owner, ch, repeat("admin", 2*k)...)
				cur := make([]string, k)
				for i := range cur {
					cur[i] = lbl(t, "old")
				}
				acceptNew(t, owner, mutationEv(owner.Actor(), ch, cur, nil), "seed labels")
				for r := 0; r < t.Env.Rounds; r++ {
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
						Expect(ok.Accepted && ok.Reason == "").To(BeTrue(), "round %d command %d: %s", r, i, ok)
					}
					final := expectLabels(t, owner, ch, add...)
					live := liveSnapshots(t, owner, sub, 2*k)
					increasing(live, r)
					Expect(live[len(live)-1].ID).To(Equal(final.ID), "round %d: the last live snapshot is the current one", r)
					for _, gone := range cur {
						Expect(labelsOf(final)).NotTo(ContainElement(gone), "round %d: removed label %s came back", r, gone)
					}
					cur = add
				}
				t.Note("%d rounds of %d adds racing %d removes", t.Env.Rounds, k, k)
			}},
		{heavy(lcase("concurrency/5", "concurrency", sec, MUST, "A label mutation racing an archive is applied before the archive (its label shows in a snapshot without archived) or rejected with restricted: nip-cl-rejected, never after.")),
			func(t *T) {
				owner := t.Actor("owner")
				conns := connectN(t, owner, 2)
				applied := 0
				for r := 0; r < t.Env.Rounds; r++ {
					x := lbl(t, "arch")
					ch := createLabeled(t, conns[0], "", fixtures.Open)
					sub := t.Subscribe(conns[0], nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
					oks := inFlight(t, conns, func(i int) *nostr.Event {
						if i == 0 {
							return mutationEv(owner, ch, []string{x}, nil)
						}
						return fixtures.EditChannel(owner, ch, nostr.Tag{"archived", "true"})
					})
					Expect(oks[1].Accepted).To(BeTrue(), "round %d: archive: %s", r, oks[1])
					want := 1
					if oks[0].Accepted {
						Expect(oks[0].Reason).To(Equal(""), "round %d: %s", r, oks[0])
						applied, want = applied+1, 2
					} else {
						requireRejected(oks[0], fmt.Sprintf("round %d: mutation racing archive", r), "restricted")
					}
					live := liveSnapshots(t, conns[0], sub, want)
					increasing(live, r)
					archivedAt, labeledAt := -1, -1
					for i, ev := range live {
						if archivedAt < 0 && fixtures.HasTag(ev, "archived") {
							archivedAt = i
						}
						if labeledAt < 0 && slices.Contains(labelsOf(ev), x) {
							labeledAt = i
						}
					}
					Expect(fixtures.HasTag(live[len(live)-1], "archived")).To(BeTrue(), "round %d: the channel ends archived", r)
					if oks[0].Accepted {
						Expect(labeledAt).To(BeNumerically(">=", 0), "round %d: the accepted label was published", r)
						Expect(labeledAt).To(BeNumerically("<", archivedAt), "round %d: the label appeared only after the archive", r)
					} else {
						Expect(labeledAt).To(Equal(-1), "round %d: a rejected mutation's label was published", r)
					}
				}
				t.Note("%d rounds; the mutation won %d of them", t.Env.Rounds, applied)
			}},
		{heavy(lcase("concurrency/6", "concurrency", sec, MUST, "A label mutation racing a delete never leaves a snapshot after the delete: the deleted channel has no readable 39000 and is not found by the label.")),
			func(t *T) {
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
					Expect(oks[1].Accepted).To(BeTrue(), "round %d: delete: %s", r, oks[1])
					if oks[0].Accepted {
						Expect(oks[0].Reason).To(Equal(""), "round %d: %s", r, oks[0])
						applied++
					} else {
						requireRejected(oks[0], fmt.Sprintf("round %d: mutation racing delete", r), "restricted", "invalid")
					}
					noChannel(t, conns[0], ch, fmt.Sprintf("round %d", r))
					Expect(findL(t, conns[0], []string{x}, nil, 10)).To(BeEmpty(), "round %d: deleted channel found by label", r)
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
func connectN(t *T, a *fixtures.Actor, n int) []*fixtures.Client {
	GinkgoHelper()
	out := make([]*fixtures.Client, n)
	for i := range out {
		out[i] = t.Connect(a)
	}
	return out
}

// inFlight writes ev(i) on conns[i] for every i, in order, before waiting
// for any answer, and returns the answers.
func inFlight(t *T, conns []*fixtures.Client, ev func(i int) *nostr.Event) []fixtures.OK {
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
func expectOneNew(oks []fixtures.OK, what string) {
	GinkgoHelper()
	fresh := 0
	for _, ok := range oks {
		switch {
		case ok.Accepted && ok.Reason == "":
			fresh++
		case ok.Accepted && hasFixedPrefix(ok.Reason, markCommitted):
		default:
			failf("%s: expected OK true \"\" or \"duplicate: nip-cl-committed\", got %s", what, ok)
		}
	}
	Expect(fresh).To(Equal(1), "%s: exactly one new application among %v", what, oks)
}

// liveSnapshots waits for n live snapshots on sub, then makes sure no other
// one is in flight (a REQ round trip on c), closes sub and returns them all.
func liveSnapshots(t *T, c *fixtures.Client, sub *fixtures.Subscription, n int) []*nostr.Event {
	GinkgoHelper()
	var got []*nostr.Event
	deadline := time.Now().Add(t.Env.StepTimeout)
	for len(got) < n && time.Now().Before(deadline) {
		ev, err := sub.Next(t.Ctx())
		if err != nil {
			break
		}
		got = append(got, ev)
	}
	t.Must(c.Ping(t.Ctx()), "ping")
	got = append(got, sub.Drain()...)
	sub.Close(t.Ctx())
	Expect(len(got)).To(BeNumerically(">=", n), "live snapshots received")
	for _, ev := range got {
		checkCanonical(t, ev)
	}
	return got
}

// increasing requires strictly increasing created_at.
func increasing(evs []*nostr.Event, round int) {
	GinkgoHelper()
	for i := 1; i < len(evs); i++ {
		Expect(evs[i].CreatedAt).To(BeNumerically(">", evs[i-1].CreatedAt),
			"round %d: live snapshot %d (%s) created_at %d is not greater than the previous %d", round, i, evs[i].ID, evs[i].CreatedAt, evs[i-1].CreatedAt)
	}
}
