package labels

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// retryAdmissionSpecs are the cases of labels/retry-admission.
func retryAdmissionSpecs() []framework.Spec {
	out := []framework.Spec{
		{Case: framework.NewCase("labels/retry/12", framework.MUST,
			"Retries after the state was superseded: a committed create and a committed no-op, retried after later commands removed and added labels, answer duplicate: nip-cl-committed and reapply nothing (the later state and snapshot stay).",
			"labels/retry-admission.9", "labels/responses.9"),
			Run: func(t *framework.T) {
				t.Checking("labels/retry-admission.9")
				c := t.Connect(t.Actor("owner"))
				a, b := lbl(t, "a"), lbl(t, "b")
				create, ch := createEv(c.Actor(), "", fixtures.Open, a)
				acceptNew(t, c, create, "create with a")
				noop := mutationEv(c.Actor(), ch, []string{a}, nil)
				acceptNew(t, c, noop, "no-op add of a")
				acceptNew(t, c, mutationEv(c.Actor(), ch, []string{b}, []string{a}), "remove a, add b")
				before := expectLabels(t, c, ch, b)
				acceptCommitted(t, c, create, "retry the superseded create")
				acceptCommitted(t, c, noop, "retry the superseded no-op")
				expectUnchanged(t, c, ch, before, "superseded retries")
				expectLabels(t, c, ch, b)
			}},
		{Case: framework.NewCase("labels/retry/8", framework.MUST,
			"An exact retry passes authentication like a new event: where the relay refuses a new write without authentication (or from another authenticated key), it refuses the retry the same way and applies nothing.",
			"labels/retry-admission.1").
			WithReading(readingAdmission + " On the other key's connection an ordinary refusal may also be NIP-42's restricted: (authenticated, but not as the author). Requiring AUTH for writes is the target contract's convention, not a draft rule: an ordinary message sent the same way first tells what the relay requires of a new event; a part whose new event is accepted is skipped with a note (the whole case is unsupported when neither is refused)."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, "", fixtures.Open)
				m := mutationEv(c.Actor(), ch, []string{lbl(t, "x")}, nil)
				acceptNew(t, c, m, "mutation")
				before := snapshot(t, c, ch)
				unauth := func() *fixtures.Client {
					return t.ConnectWith(fixtures.DialOptions{Actor: c.Actor(), NoAutoAuth: true})
				}
				other := t.Actor("other")
				asOther := func() *fixtures.Client {
					o := t.Connect(other)
					t.Must(framework.AuthIfNeeded(t, o), "authenticate as another key")
					return o
				}
				checked := 0
				if gated, seen := writesNeedAuth(t, unauth(), c.Actor(), ch); gated {
					t.Note("unauthenticated retry: %s", admissionRefusal(t, unauth(), m, "unauthenticated retry", []string{"auth-required"}, []string{"auth-required"}))
					checked++
				} else {
					t.Note("the relay accepts a new write without authentication (%s); the unauthenticated retry is not judged", seen)
				}
				if gated, seen := writesNeedAuth(t, asOther(), c.Actor(), ch); gated {
					t.Note("retry on another key's connection: %s", admissionRefusal(t, asOther(), m, "retry from another key's connection",
						[]string{"auth-required"}, []string{"auth-required", "restricted"}))
					checked++
				} else {
					t.Note("the relay accepts a new write signed by a key other than the authenticated one (%s); that retry is not judged", seen)
				}
				if checked == 0 {
					t.Unsupported("the relay does not require writes to come from the authenticated author, so a retry has no authentication check to pass")
				}
				expectUnchanged(t, c, ch, before, "refused retries")
			}},
		{Case: framework.NewCase("labels/retry/9", framework.MUST,
			"A retry racing an archive is either a committed duplicate or restricted: nip-cl-rejected, and once the archive is acknowledged every later retry is rejected.",
			"labels/retry-admission.7").
			WithHeavy(),
			Run: func(t *framework.T) {
				owner := t.Actor("owner")
				conns := connectN(t, owner, 2)
				won := 0
				for r := 0; r < t.Env.Rounds; r++ {
					ch := createLabeled(t, conns[0], "", fixtures.Open)
					m := mutationEv(owner, ch, []string{lbl(t, "r")}, nil)
					acceptNew(t, conns[0], m, "mutation")
					oks := inFlight(t, conns, func(i int) *nostr.Event {
						if i == 0 {
							return m
						}
						return fixtures.EditChannel(owner, ch, nostr.Tag{"archived", "true"})
					})
					t.Expect(oks[1].Accepted).To(BeTrue(), "round %d: archive %s", r, oks[1])
					if oks[0].Accepted {
						t.Expect(hasFixedPrefix(oks[0].Reason, markCommitted)).To(BeTrue(), "round %d: %s", r, oks[0])
						won++
					} else {
						requireRejected(t, oks[0], fmt.Sprintf("round %d: retry racing archive", r), "restricted")
					}
					rejectCL(t, conns[0], m, fmt.Sprintf("round %d: retry after the archive", r), "restricted")
				}
				t.Note("%d rounds; the retry won %d", t.Env.Rounds, won)
			}},
		{Case: framework.NewCase("labels/retry/10", framework.MUST,
			"A command stamped outside the ±900 s window that never applied is refused (invalid: nip-cl-rejected, or an ordinary NIP-01 refusal from the shared timestamp check) and not applied.",
			"labels/retry-admission.13").
			WithReading(readingAdmission),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "old")
				ch := createLabeled(t, c, "", fixtures.Open)
				before := snapshot(t, c, ch)
				// A fresh connection per command: the relay may close the
				// connection on an admission failure.
				send := func(ev *nostr.Event, why string) {
					t.Note("%s: %s", why, admissionRefusal(t, t.Connect(c.Actor()), ev, why, []string{"invalid"}, nil))
				}
				for _, skew := range []time.Duration{-1000 * time.Second, 1000 * time.Second} {
					m := c.Actor().EventAt(time.Now().Add(skew), fixtures.KindEditMetadata, append(nostr.Tags{{"h", ch}}, labelOps([]string{x}, nil)...), "")
					send(m, fmt.Sprintf("mutation stamped %s away", skew))
				}
				ev := c.Actor().EventAt(time.Now().Add(-1000*time.Second), fixtures.KindCreateGroup, nostr.Tags{{"h", fixtures.NewChannelID()}, {"name", "old"}, {"channel_type", "stream"}, {"label", x}}, "")
				send(ev, "create stamped 1000 s ago")
				expectUnchanged(t, c, ch, before, "expired commands")
				t.Expect(findL(t, c, []string{x}, nil, 10)).To(BeEmpty(), "nothing carries the label")
			}},
		{Case: framework.NewCase("labels/retry/11", framework.MUST,
			"Revoking and restoring the author's role never makes a committed command apply again: the retry is rejected while revoked and a committed duplicate after, with the superseded effect still gone.",
			"labels/retry-admission.14"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open)
				admin := withRoles(t, owner, ch, "admin")[0]
				x := lbl(t, "x")
				add := mutationEv(admin.Actor(), ch, []string{x}, nil)
				acceptNew(t, admin, add, "admin adds")
				acceptNew(t, owner, mutationEv(owner.Actor(), ch, nil, []string{x}), "owner removes")
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, admin.Actor().PubKey, "member"), "revoke")
				rejectCL(t, admin, add, "retry while revoked", "restricted")
				// The restore repeats the first promotion's tags, so it must not
				// share its second or it is the same event (a duplicate that
				// applies nothing). The promotion was signed at or before now;
				// a second ahead is always a new event and well inside the window.
				restore := owner.Actor().EventAt(time.Now().Add(time.Second), fixtures.KindPutUser,
					nostr.Tags{{"h", ch}, append(nostr.Tag{"p", admin.Actor().PubKey}, t.PutRoles(owner, ch, "admin")...)}, "")
				if ok := t.Accept(owner, restore, "restore"); strings.HasPrefix(ok.Reason, "duplicate:") {
					framework.Failf("restore: the relay took a new 9000 for a duplicate: %s", ok)
				}
				before := expectLabels(t, owner, ch)
				acceptCommitted(t, admin, add, "retry after restore")
				expectUnchanged(t, owner, ch, before, "retry after restore")
			}},
		{Case: framework.NewCase("labels/concurrency/1", framework.MUST,
			"N parallel exact sends of one new create on N connections: exactly one OK true \"\", the rest duplicate: nip-cl-committed; one channel, one snapshot.",
			"labels/retry-admission.10").
			WithHeavy(),
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
		{Case: framework.NewCase("labels/concurrency/2", framework.MUST,
			"N parallel exact sends of one new mutation: exactly one OK true \"\", the rest duplicate: nip-cl-committed; the stored snapshot shows one application and no second snapshot is published for it.",
			"labels/retry-admission.10").
			WithReading(readingLiveSubset).
			WithHeavy(),
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
		{Case: framework.NewCase("labels/responses/4", framework.MUST,
			"An exact retry succeeds without reapplication after a later command superseded it: add X, remove X, retry the add; X stays removed.",
			"labels/retry-admission.12", "labels/retry-admission.9"),
			Run: func(t *framework.T) {
				t.Checking("labels/retry-admission.9")
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open)
				add := mutationEv(c.Actor(), ch, []string{x}, nil)
				acceptNew(t, c, add, "add x")
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{x}), "remove x")
				before := expectLabels(t, c, ch)
				acceptCommitted(t, c, add, "retry the add")
				expectUnchanged(t, c, ch, before, "superseded retry")
			}},
	}
	// "Acknowledgements, retries and recovery: Retry admission".
	out = append(out, []framework.Spec{
		{Case: framework.NewCase("labels/retry/1", framework.MUST,
			"A retry by an author demoted to member is rejected with restricted: nip-cl-rejected; the earlier committed effect stays in place.",
			"labels/retry-admission.11", "labels/retry-admission.6", "labels/compatibility.1", "labels/responses.12"),
			Run: func(t *framework.T) {
				t.Checking("labels/retry-admission.6")
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open)
				admin := withRoles(t, owner, ch, "admin")[0]
				x := lbl(t, "x")
				m := mutationEv(admin.Actor(), ch, []string{x}, nil)
				acceptNew(t, admin, m, "admin adds")
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, admin.Actor().PubKey, "member"), "demote")
				before := expectLabels(t, owner, ch, x)
				rejectCL(t, admin, m, "retry after demotion", "restricted")
				expectUnchanged(t, owner, ch, before, "rejected retry")
			}},
		{Case: framework.NewCase("labels/retry/2", framework.MUST,
			"A retry by an author removed from the channel is rejected with restricted: nip-cl-rejected; the effect stays.",
			"labels/retry-admission.11", "labels/retry-admission.6", "labels/compatibility.1"),
			Run: func(t *framework.T) {
				t.Checking("labels/retry-admission.6")
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open)
				admin := withRoles(t, owner, ch, "admin")[0]
				x := lbl(t, "x")
				m := mutationEv(admin.Actor(), ch, []string{x}, nil)
				acceptNew(t, admin, m, "admin adds")
				t.Accept(owner, fixtures.RemoveUser(owner.Actor(), ch, admin.Actor().PubKey), "remove the admin")
				before := expectLabels(t, owner, ch, x)
				rejectCL(t, admin, m, "retry after removal", "restricted")
				expectUnchanged(t, owner, ch, before, "rejected retry")
			}},
		{Case: framework.NewCase("labels/retry/3", framework.MUST,
			"A retry on an archived channel is rejected with restricted: nip-cl-rejected; after unarchiving, the same retry answers duplicate: nip-cl-committed without reapplying a superseded effect.",
			"labels/retry-admission.12", "labels/retry-admission.4", "labels/retry-admission.8", "labels/retry-admission.9"),
			Run: func(t *framework.T) {
				t.Checking("labels/retry-admission.4")
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open)
				add := mutationEv(c.Actor(), ch, []string{x}, nil)
				acceptNew(t, c, add, "add x")
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{x}), "remove x")
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"archived", "true"}), "archive")
				before := expectLabels(t, c, ch)
				rejectCL(t, c, add, "retry on the archived channel", "restricted")
				t.Checking("labels/retry-admission.8")
				expectUnchanged(t, c, ch, before, "rejected retry")
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"archived", "false"}), "unarchive")
				before = expectLabels(t, c, ch)
				acceptCommitted(t, c, add, "retry after unarchive")
				t.Checking("labels/retry-admission.8")
				expectUnchanged(t, c, ch, before, "committed retry")
			}},
		{Case: framework.NewCase("labels/retry/4", framework.MUST,
			"A retry on a deleted channel is rejected (nip-cl-rejected) and no snapshot reappears.",
			"labels/retry-admission.12", "labels/retry-admission.5").
			WithReading(readingDeletedPrefix),
			Run: func(t *framework.T) {
				t.Checking("labels/retry-admission.5")
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open)
				add := mutationEv(c.Actor(), ch, []string{x}, nil)
				acceptNew(t, c, add, "add x")
				t.Accept(c, fixtures.DeleteChannel(c.Actor(), ch), "delete")
				ok := rejectCL(t, c, add, "retry on the deleted channel", "restricted", "invalid")
				t.Note("retry on a deleted channel: %s", prefixOf(ok.Reason))
				t.Reading(clause.ReadingLabelsDeletedPrefix, prefixOf(ok.Reason))
				goneChannel(t, c, ch, "deleted channel")
			}},
		{Case: framework.NewCase("labels/retry/5", framework.MUST,
			"A retry of a committed create by a creator who is no longer owner or admin is rejected with restricted: nip-cl-rejected; the channel is unchanged.",
			"labels/retry-admission.6"),
			Run: func(t *framework.T) {
				first := t.Connect(t.Actor("creator"))
				ev, ch := createEv(first.Actor(), "", fixtures.Open, lbl(t, "a"))
				acceptNew(t, first, ev, "create")
				heir := withRoles(t, first, ch, "owner")[0]
				t.Accept(heir, fixtures.PutUser(heir.Actor(), ch, first.Actor().PubKey, "member"), "demote the creator")
				before := snapshot(t, heir, ch)
				rejectCL(t, first, ev, "creator retries the create", "restricted")
				expectUnchanged(t, heir, ch, before, "rejected retry")
			}},
		{Case: framework.NewCase("labels/retry/6", framework.MUST,
			"A retry of a committed create on an archived channel is rejected with restricted:, on a deleted one with restricted:, invalid: or duplicate: (nip-cl-rejected).",
			"labels/retry-admission.4", "labels/retry-admission.5").
			WithReading(readingDeletedPrefix + " A retried create of a deleted channel is also a create of a used UUID, which the draft refuses as a conflict: duplicate: nip-cl-rejected is accepted too (reading labels-deleted-create-retry)."),
			Run: func(t *framework.T) {
				t.Checking("labels/retry-admission.4")
				c := t.Connect(t.Actor("owner"))
				ev, ch := createEv(c.Actor(), "", fixtures.Open, lbl(t, "a"))
				acceptNew(t, c, ev, "create")
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"archived", "true"}), "archive")
				before := snapshot(t, c, ch)
				rejectCL(t, c, ev, "retry the create of an archived channel", "restricted")
				expectUnchanged(t, c, ch, before, "archived")
				t.Accept(c, fixtures.DeleteChannel(c.Actor(), ch), "delete")
				ok := rejectCL(t, c, ev, "retry the create of a deleted channel", "restricted", "invalid", "duplicate")
				t.Note("create retry on a deleted channel: %s", prefixOf(ok.Reason))
				if prefixOf(ok.Reason) == "duplicate" {
					t.Reading(clause.ReadingLabelsDeletedCreate, "conflict")
				} else {
					t.Reading(clause.ReadingLabelsDeletedCreate, "lifecycle")
					t.Reading(clause.ReadingLabelsDeletedPrefix, prefixOf(ok.Reason))
				}
				goneChannel(t, c, ch, "deleted channel")
			}},
		{Case: framework.NewCase("labels/retry/7", framework.MUST,
			"A command committed near the edge of the ±900 s window and retried once after the window closed is refused, never acknowledged (invalid: nip-cl-rejected, or an ordinary NIP-01 refusal from the shared timestamp check); its effect stays.",
			"labels/retry-admission.11", "labels/retry-admission.2", "labels/retention.5").
			WithReading("The relay clock is estimated from a fresh snapshot's created_at; the command is signed 893 s before it and retried once 2 s after the window closes (about 9 s of waiting). " +
				readingAdmission).
			WithSlow(),
			Run: func(t *framework.T) {
				t.Checking("labels/retry-admission.2")
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, "", fixtures.Open)
				relayNow := snapshot(t, c, ch).CreatedAt
				offset := int64(relayNow) - time.Now().Unix()
				x := lbl(t, "edge")
				signedAt := time.Unix(int64(relayNow)-893, 0)
				m := c.Actor().EventAt(signedAt, fixtures.KindEditMetadata, append(nostr.Tags{{"h", ch}}, labelOps([]string{x}, nil)...), "")
				acceptNew(t, c, m, "mutation signed 893 s ago")
				before := expectLabels(t, c, ch, x)
				closes := time.Unix(signedAt.Unix()+900+2-offset, 0)
				t.Note("waiting %s for the admission window of %.12s to close", time.Until(closes).Round(time.Second), m.ID)
				for time.Now().Before(closes) {
					select {
					case <-t.Ctx().Done():
						t.Must(t.Ctx().Err(), "waiting for the window to close")
					case <-time.After(time.Until(closes)):
					}
				}
				t.Note("retry outside the window: %s", admissionRefusal(t, c, m, "retry outside the window", []string{"invalid"}, nil))
				expectUnchanged(t, t.Connect(c.Actor()), ch, before, "expired retry")
			}},
	}...)
	return out
}

// pEntries returns an event's p tags (pubkey and roles), sorted.
func pEntries(ev *nostr.Event) []string {
	out := []string{}
	for _, tg := range ev.Tags {
		if len(tg) >= 2 && tg[0] == "p" {
			out = append(out, strings.Join(tg[1:], " "))
		}
	}
	sort.Strings(out)
	return out
}
