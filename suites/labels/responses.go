package labels

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// responsesSpecs: "Acknowledgements, retries and recovery: Responses
// and client outcomes" — exact answers, exact retries, lost acknowledgements.
func responsesSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("labels/responses/1", framework.MUST,
			"A new h-tagged create, labeled or not, answers exactly OK true \"\".",
			"labels/responses.1", "labels/responses.8", "labels/scope.1"),
			Run: func(t *framework.T) {
				t.Checking("labels/responses.1")
				c := t.Connect(t.Actor("owner"))
				createLabeled(t, c, "", fixtures.Open, lbl(t, "new"))
				createLabeled(t, c, "", fixtures.Open)
			}},
		{Case: framework.NewCase("labels/responses/2", framework.MUST,
			"A new label mutation, state-changing or no-op, answers exactly OK true \"\".",
			"labels/responses.1", "labels/responses.8"),
			Run: func(t *framework.T) {
				t.Checking("labels/responses.1")
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open)
				base := time.Now()
				acceptNew(t, c, mutationAt(c.Actor(), ch, []string{x}, nil, base), "state-changing add")
				acceptNew(t, c, mutationAt(c.Actor(), ch, []string{x}, nil, base.Add(-time.Second)), "no-op add (a new event)")
			}},
		{Case: framework.NewCase("labels/responses/3", framework.MUST,
			"An exact retry of a committed mutation answers OK true \"duplicate: nip-cl-committed\", publishes nothing and changes nothing.",
			"labels/responses.9", "labels/retry-admission.8"),
			Run: func(t *framework.T) {
				t.Checking("labels/responses.9")
				c := t.Connect(t.Actor("owner"))
				a, x := lbl(t, "a"), lbl(t, "x")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				m := mutationEv(c.Actor(), ch, []string{x}, []string{a})
				acceptNew(t, c, m, "mutation")
				before := expectLabels(t, c, ch, x)
				acceptCommitted(t, c, m, "exact retry")
				acceptCommitted(t, t.Connect(c.Actor()), m, "exact retry on another connection")
				t.Checking("labels/retry-admission.8")
				expectUnchanged(t, c, ch, before, "retried mutation")
			}},
		{Case: framework.NewCase("labels/responses/5", framework.MUST,
			"An exact retry of a committed no-op answers duplicate: nip-cl-committed and publishes nothing.",
			"labels/responses.9", "labels/add-remove.9"),
			Run: func(t *framework.T) {
				t.Checking("labels/responses.9")
				c := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, c, "", fixtures.Open, a)
				before := snapshot(t, c, ch)
				noop := mutationEv(c.Actor(), ch, []string{a}, nil)
				acceptNew(t, c, noop, "no-op")
				acceptCommitted(t, c, noop, "retry the no-op")
				expectUnchanged(t, c, ch, before, "no-op and its retry")
			}},
		{Case: framework.NewCase("labels/responses/6", framework.MUST,
			"A rejected command retried exactly stays rejected with the same class and never applies.",
			"labels/responses.1", "labels/responses.2"),
			Run: func(t *framework.T) {
				t.Checking("labels/responses.1")
				owner := t.Connect(t.Actor("owner"))
				a, x := lbl(t, "a"), lbl(t, "x")
				ch := createLabeled(t, owner, "", fixtures.Open, a)
				member := withRoles(t, owner, ch, "member")[0]
				before := snapshot(t, owner, ch)
				bad := mutationEv(owner.Actor(), ch, []string{x}, []string{x})
				denied := mutationEv(member.Actor(), ch, []string{x}, nil)
				for i := 0; i < 2; i++ {
					rejectCL(t, owner, bad, "overlapping mutation", "invalid")
					rejectCL(t, member, denied, "member mutation", "restricted")
				}
				expectUnchanged(t, owner, ch, before, "rejected commands")
			}},
		{Case: framework.NewCase("labels/responses/7", framework.MUST,
			"On a relay that requires authentication for writes, a label mutation or labeled create from an unauthenticated connection is refused (auth-required: nip-cl-rejected, a plain NIP-01 auth-required: refusal, or a closed connection) and not applied.",
			"labels/responses.11").
			WithReading(readingAdmission + " Requiring AUTH for writes is the target contract's convention, not a draft rule (the draft keeps the relay's existing authentication requirements): an ordinary message sent first without authentication tells which the relay does; a relay that accepts it makes the case unsupported."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open, lbl(t, "a"))
				before := snapshot(t, owner, ch)
				unauth := func() *fixtures.Client {
					return t.ConnectWith(fixtures.DialOptions{Actor: owner.Actor(), NoAutoAuth: true})
				}
				if gated, seen := writesNeedAuth(t, unauth(), owner.Actor(), ch); !gated {
					t.Unsupported("the relay accepts writes without authentication (an ordinary message answered " + seen + "): label commands have no authentication failure to answer")
				}
				how := admissionRefusal(t, unauth(), mutationEv(owner.Actor(), ch, []string{lbl(t, "x")}, nil), "unauthenticated mutation",
					[]string{"auth-required"}, []string{"auth-required"})
				t.Note("unauthenticated mutation: %s", how)
				ev, id := createEv(owner.Actor(), "", fixtures.Open, lbl(t, "y"))
				how = admissionRefusal(t, unauth(), ev, "unauthenticated create", []string{"auth-required"}, []string{"auth-required"})
				t.Note("unauthenticated create: %s", how)
				goneChannel(t, owner, id, "unauthenticated create")
				expectUnchanged(t, owner, ch, before, "unauthenticated mutation")
			}},
		{Case: framework.NewCase("labels/responses/8", framework.MUST,
			"Lost acknowledgement of a create: the OK is cut by a proxy, the client resends the same signed event and gets duplicate: nip-cl-committed; one channel exists.",
			"labels/responses.9").
			WithReading("The harness follows the draft's client rules: a missing answer is Unknown, the same signed event is resent (never a new id)."),
			Run: func(t *framework.T) {
				p, c := lossyConnect(t, "owner")
				x := lbl(t, "lost")
				ev, ch := createEv(c.Actor(), "", fixtures.Open, x)
				firstAttemptLost(t, p, c, ev)
				again := t.ConnectURL(p.URL(), t.DialOptions(c.Actor(), p.Host()))
				acceptCommitted(t, again, ev, "resend after the lost OK")
				direct := t.Connect(c.Actor())
				expectLabels(t, direct, ch, x)
				t.Expect(framework.DTags(findL(t, direct, []string{x}, nil, 50))).To(Equal([]string{ch}), "exactly one channel carries the label")
				t.Expect(t.Query(direct, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})).To(HaveLen(1), "one current snapshot")
			}},
		{Case: framework.NewCase("labels/responses/9", framework.MUST,
			"Lost acknowledgement of a mutation: the resend answers duplicate: nip-cl-committed and the state shows exactly one application.",
			"labels/responses.9", "labels/retry-admission.8").
			WithReading("As responses/8; the resend goes over a direct connection."),
			Run: func(t *framework.T) {
				t.Checking("labels/responses.9")
				p, c := lossyConnect(t, "owner")
				a, x := lbl(t, "a"), lbl(t, "x")
				direct := t.Connect(c.Actor())
				ch := createLabeled(t, direct, "", fixtures.Open, a)
				before := snapshot(t, direct, ch)
				m := mutationEv(c.Actor(), ch, []string{x}, []string{a})
				firstAttemptLost(t, p, c, m)
				acceptCommitted(t, direct, m, "resend after the lost OK")
				after := expectLabels(t, direct, ch, x)
				t.Expect(after.CreatedAt).To(BeNumerically(">", before.CreatedAt), "the first attempt published one new snapshot")
				acceptCommitted(t, direct, m, "second resend")
				expectUnchanged(t, direct, ch, after, "resends publish nothing")
			}},
		{Case: framework.NewCase("labels/responses/10", framework.MUST,
			"An outsider's refusals reveal nothing of a private, hidden channel's labels: the same label mutations sent to two such channels, one holding 31 labels and one holding 1 — adding two new values (over the 32-label limit on the first only), adding a value only the first holds, removing a value only the first holds — are each refused with nip-cl-rejected and the same prefix on both channels, no refusal names a label the outsider did not send, and nothing is applied.",
			"labels/responses.17", "labels/authorization.4").
			WithReading("A relay may refuse an outsider's command on an inaccessible channel as a permission denial (restricted:) or as an unknown channel (invalid:); either is accepted. An answer that depends on the hidden label set — a different prefix for the same command on the two channels — tells the outsider something it may not read."),
			Run: func(t *framework.T) {
				t.Checking("labels/responses.17")
				owner := t.Connect(t.Actor("owner"))
				outsider := t.Connect(t.Actor("outsider"))
				base := lbl(t, "hidden")
				full := make([]string, maxLabels-1)
				for i := range full {
					full[i] = fmt.Sprintf("%s-%02d", base, i)
				}
				lone := lbl(t, "lone")
				chFull := createWithheld(t, owner, outsider, full...)
				chLone := createWithheld(t, owner, outsider, lone)
				hidden := append(slices.Clone(full), lone)
				for _, p := range []struct {
					what        string
					add, remove []string
				}{
					{"add two new values", []string{lbl(t, "new"), lbl(t, "new")}, nil},
					{"add a value only the first channel holds", []string{full[0]}, nil},
					{"remove a value only the first channel holds", nil, []string{full[1]}},
				} {
					sent := append(slices.Clone(p.add), p.remove...)
					var answers []fixtures.OK
					for _, ch := range []string{chFull, chLone} {
						ok := t.Publish(outsider, mutationEv(outsider.Actor(), ch, p.add, p.remove))
						if ok.Accepted {
							t.Violates("labels/authorization.4", "the outsider's mutation (%s) on a private channel was accepted: %s (labels/authorization.4)", p.what, ok)
						}
						requireRejected(t, ok, "the outsider's mutation ("+p.what+")", "restricted", "invalid")
						for _, v := range hidden {
							if !slices.Contains(sent, v) && strings.Contains(ok.Reason, v) {
								t.Violates("labels/responses.17", "the refusal of the outsider's mutation (%s) names the hidden label %q, which the outsider did not send: %s (labels/responses.17)", p.what, v, ok)
							}
						}
						answers = append(answers, ok)
					}
					if a, b := prefixOf(answers[0].Reason), prefixOf(answers[1].Reason); a != b {
						t.Violates("labels/responses.17", "the outsider's same mutation (%s) was refused with %s: on the private channel holding %d labels and with %s: on the one holding 1 (%s / %s): the answer reveals the hidden label set (labels/responses.17)",
							p.what, a, len(full), b, answers[0], answers[1])
					}
					t.Note("outsider, %s: %s", p.what, prefixOf(answers[0].Reason))
				}
				expectLabels(t, owner, chFull, full...)
				expectLabels(t, owner, chLone, lone)
			}},
		{Case: framework.NewCase("labels/responses/11", framework.MUST,
			"A refused mutation never turns into a committed one: a member's add-label refused with restricted: nip-cl-rejected and re-sent exactly once the member is an admin, and an owner's add-label refused on an archived channel and re-sent exactly after the unarchive, are each applied now as new (OK true \"\", the label readable at once) or refused again with nip-cl-rejected (nothing applied); never answered duplicate: nip-cl-committed, never OK true without the label.",
			"labels/responses.2", "labels/responses.8").
			WithReading("The first submission did not apply (nip-cl-rejected), so the exact re-send is a new command once the refusal's cause is gone; the exact-retry rules cover committed commands only. A relay may apply it as new or refuse it again (as a replay of a refused event, say); both are accepted and noted. A positive answer must mean application, and duplicate: nip-cl-committed claims an application that never happened."),
			Run: func(t *framework.T) {
				t.Checking("labels/responses.2")
				owner := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, owner, "", fixtures.Open, a)
				member := withRoles(t, owner, ch, "member")[0]
				x := lbl(t, "x")
				denied := mutationEv(member.Actor(), ch, []string{x}, nil)
				rejectCL(t, member, denied, "a member's add-label", "restricted")
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, member.Actor().PubKey, t.PutRoles(owner, ch, "admin")...), "make the member an admin")
				cur := resendRefused(t, member, owner, ch, denied, x, []string{a}, "the member's refused add-label, re-sent after the promotion")
				y := lbl(t, "y")
				t.Accept(owner, fixtures.EditChannel(owner.Actor(), ch, nostr.Tag{"archived", "true"}), "archive")
				archived := mutationEv(owner.Actor(), ch, []string{y}, nil)
				rejectCL(t, owner, archived, "add-label on the archived channel", "restricted")
				t.Accept(owner, fixtures.EditChannel(owner.Actor(), ch, nostr.Tag{"archived", "false"}), "unarchive")
				resendRefused(t, owner, owner, ch, archived, y, cur, "the owner's add-label refused while archived, re-sent after the unarchive")
			}},
	}
}

// refusalPrefixes are the NIP-01 prefixes the draft pairs with
// nip-cl-rejected, by cause.
var refusalPrefixes = []string{"invalid", "auth-required", "restricted", "duplicate", "rate-limited", "error"}

// resendRefused re-sends ev, a label mutation adding label whose first
// send was refused, over c and judges the answer: applied as new (OK true
// "", the label now in the snapshot reader reads) or refused again with
// nip-cl-rejected (the snapshot unchanged). cur is the label set before;
// it returns the set after.
func resendRefused(t *framework.T, c, reader *fixtures.Client, ch string, ev *nostr.Event, label string, cur []string, why string) []string {
	GinkgoHelper()
	before := expectLabels(t, reader, ch, cur...)
	ok := t.Publish(c, ev)
	switch {
	case ok.Accepted && hasFixedPrefix(ok.Reason, markCommitted):
		t.Violates("labels/responses.2", "%s: answered %s, but its only earlier send was refused with nip-cl-rejected, so nothing was ever committed (labels now %v) (labels/responses.2)", why, ok, labelsOf(snapshot(t, reader, ch)))
	case ok.Accepted:
		after := snapshot(t, reader, ch)
		if !slices.Contains(labelsOf(after), label) {
			t.Violates("labels/responses.2", "%s: answered %s, yet %s is not in the snapshot (labels %v): a positive answer means application (labels/responses.2)", why, ok, label, labelsOf(after))
		}
		if ok.Reason != "" {
			t.Violates("labels/responses.8", `%s: applied as a new command, it must be answered ["OK",…,true,""], got %s (labels/responses.8)`, why, ok)
		}
		t.Note("%s: applied as new", why)
		return labelsOf(expectLabels(t, reader, ch, append(slices.Clone(cur), label)...))
	default:
		requireRejected(t, ok, why, refusalPrefixes...)
		expectUnchanged(t, reader, ch, before, why+" (refused again)")
		t.Note("%s: refused again (%s)", why, prefixOf(ok.Reason))
	}
	return cur
}

// lossyConnect starts an acknowledgement-dropping proxy for the case and
// connects an actor through it.
func lossyConnect(t *framework.T, name string) (*fixtures.Proxy, *fixtures.Client) {
	GinkgoHelper()
	p, err := fixtures.NewProxy(t.Env.URL)
	t.Must(err, "start the lost-acknowledgement proxy")
	DeferCleanup(p.Close)
	a := t.Actor(name)
	o := t.DialOptions(a, p.Host())
	o.AuthRelayURL = t.Env.SelfURL() // the relay checks AUTH against its own URL, not the proxy's
	return p, t.ConnectURL(p.URL(), o)
}

// firstAttemptLost sends ev through the proxy armed to cut the relay's OK:
// the client must see no answer (Unknown outcome).
func firstAttemptLost(t *framework.T, p *fixtures.Proxy, c *fixtures.Client, ev *nostr.Event) {
	GinkgoHelper()
	p.CutAfterOK(ev.ID)
	ok, err := c.Send(t.Ctx(), ev)
	if err == nil {
		framework.Failf("the proxy was to withhold the OK of %s, but the client received %s", ev.ID, ok)
	}
	t.Expect(p.Cuts()).To(ContainElement(ev.ID), "the proxy saw the relay's OK and cut the connection")
	t.Note("first attempt of %.12s: no answer (%v) — outcome Unknown; resending the same signed event", ev.ID, err)
}
