package labels

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// labelsExtraSpecs: further clauses of several sections (authorization
// bypass, h-less mutation, authors, live discovery, retention, retry
// authentication and expiry, side effects).
func labelsExtraSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: lcase("labels/add-remove/12", []string{"labels/add-remove.4"}, "authorization", "labels/add-remove", framework.MUST, "Malformed or unknown tags never let a label operation skip the owner/admin check: a member's malformed or odd mutation is rejected and applies nothing."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, owner, "", fixtures.Open, a)
				member := withRoles(t, owner, ch, "member")[0]
				before := snapshot(t, owner, ch)
				for _, tags := range [][]nostr.Tag{
					{{"add-label", lbl(t, "x")}, {"x-unknown", "1"}},
					{{"add-label", lbl(t, "x"), "extra"}},
					{{"add-label", lbl(t, "x")}, {"label", lbl(t, "y")}},
					{{"remove-label", a}, {"h", ch}},
				} {
					rejectCL(t, member, fixtures.EditChannel(member.Actor(), ch, tags...), fmt.Sprintf("member mutation %v", tags), "restricted", "invalid")
				}
				expectUnchanged(t, owner, ch, before, "member mutations")
			}},
		{Case: lcase("labels/commands/16", []string{"labels/events.9"}, "command-shape", "labels/events", framework.MUST, "A label mutation without an h tag is rejected with invalid: nip-cl-rejected."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ev := c.Actor().Event(fixtures.KindEditMetadata, nostr.Tags{{"add-label", lbl(t, "no-h")}}, "")
				rejectCL(t, c, ev, "mutation without h", "invalid")
			}},
		{Case: lcase("labels/discovery/8", []string{"labels/finding-channels.5"}, "discovery", "labels/finding-channels", framework.MUST, "authors on a 39000 label filter selects the relay signer: the relay key finds the snapshot, the creator's key finds none."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "authors")
				ch := createLabeled(t, c, "", fixtures.Open, x)
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"L": {labelNS}, "l": {x}}}
				f.Authors = []string{t.Env.RelayPubKey}
				t.Expect(framework.DTags(t.Query(c, f))).To(Equal([]string{ch}), "authors = relay key")
				f.Authors = []string{c.Actor().PubKey}
				t.Expect(t.Query(c, f)).To(BeEmpty(), "authors = creator")
			}},
		{Case: framework.WithReading(lcase("labels/discovery/9", []string{"labels/finding-channels.10"}, "live", "labels/finding-channels", framework.MUST, "Label reads respect the channel ACL on every path: an outsider's stored #L/#l read finds the open channel that gained the label and not the private one, and no live snapshot of the private channel ever reaches a subscription of the outsider (by #L and #l, #l alone or #L alone) or of a member removed before the label change."),
			"The draft promises no global live metadata feed, so live delivery on an unscoped #l subscription is optional: the stored reads decide, and the report notes whether the open channel's snapshot arrived live. What does arrive live must obey the current ACL; the open channel's snapshot (labeled after the private one) is the marker that proves the private one was not sent before it."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				x := lbl(t, "live")
				open := createLabeled(t, owner, "", fixtures.Open)
				outsider := t.Connect(t.Actor("outsider"))
				priv := createWithheld(t, owner, outsider)
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"L": {labelNS}, "l": {x}}}
				since := nostr.Now()
				former := withRoles(t, owner, priv, "member")[0]
				paths := []struct {
					who string
					sub *fixtures.Subscription
				}{
					{"outsider, #L and #l", t.Subscribe(outsider, f)},
					{"outsider, #l alone", t.Subscribe(outsider, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {x}}})},
					{"outsider, #L alone", t.Subscribe(outsider, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"L": {labelNS}}, Since: &since})},
					{"removed member, #L and #l", t.Subscribe(former, f)},
				}
				subM := t.Subscribe(owner, f)
				// The member subscribed while it could read the channel; it is
				// removed before the label change, so the current ACL excludes it.
				t.Accept(owner, fixtures.RemoveUser(owner.Actor(), priv, former.Actor().PubKey), "remove the member before the label change")
				acceptNew(t, owner, mutationEv(owner.Actor(), priv, []string{x}, nil), "label the private channel")
				acceptNew(t, owner, mutationEv(owner.Actor(), open, []string{x}, nil), "label the open channel")
				// Stored reads: what the draft requires.
				t.Expect(framework.DTags(findL(t, outsider, []string{x}, nil, 50))).To(Equal([]string{open}), "the outsider's stored read finds only the open channel")
				t.Expect(framework.DTags(findL(t, former, []string{x}, nil, 50))).To(Equal([]string{open}), "the removed member's stored read finds only the open channel")
				t.Expect(framework.DTags(findL(t, owner, []string{x}, nil, 50))).To(ConsistOf(open, priv), "the owner's stored read finds both")
				// Live: optional, but never past the current ACL.
				live := 0
				for _, p := range paths {
					var got []*nostr.Event
					var err error
					if live > 0 || p.who == paths[0].who {
						got, err = p.sub.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.Tags.GetD() == open })
					}
					got = append(got, p.sub.Drain()...)
					for _, ev := range got {
						t.Expect(ev.Tags.GetD()).NotTo(Equal(priv), "%s: the live subscription received the private channel's snapshot %s", p.who, ev.ID)
						checkCanonical(t, ev)
					}
					if err == nil && len(got) > 0 {
						live++
						t.Note("%s: the open channel's snapshot arrived live", p.who)
					} else {
						t.Note("%s: no live snapshot of the open channel (%v); nothing private arrived either", p.who, err)
					}
				}
				if live == 0 {
					t.Note("the relay offers no live label feed on these subscriptions")
					return
				}
				if _, err := subM.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.Tags.GetD() == priv }); err != nil {
					t.Note("the owner's #l subscription received no live snapshot of the private channel (%v)", err)
				} else {
					t.Note("the owner's #l subscription received the private channel's snapshot live")
				}
			}},
		{Case: framework.WithReading(lcase("labels/discovery/10", []string{"labels/finding-channels.11"}, "live", "labels/finding-channels", framework.MUST, "A subscription on #l is not a removal feed: the replacement snapshot of a channel that lost the label does not match it and is never delivered to it."),
			"Live delivery on #l is optional (no global live feed is promised). A second channel gaining the label afterwards is the marker: once its snapshot arrives, the replacement would have arrived before it. A relay that delivers no live snapshot on the subscription passes with a note."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "leaving")
				ch := createLabeled(t, c, "", fixtures.Open, x)
				marker := createLabeled(t, c, "", fixtures.Open)
				watcher := t.Connect(c.Actor())
				sub := t.Subscribe(watcher, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {x}}})
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{x}), "remove the label")
				acceptNew(t, c, mutationEv(c.Actor(), marker, []string{x}, nil), "label the marker channel")
				seen, err := sub.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.Tags.GetD() == marker })
				seen = append(seen, sub.Drain()...)
				for _, ev := range seen {
					t.Expect(ev.Tags.GetD()).NotTo(Equal(ch), "the snapshot without the label was delivered to the #l subscription: %s %v", ev.ID, ev.Tags)
				}
				if err != nil {
					t.Note("no live snapshot arrived on the #l subscription (%v); the relay offers no live label feed there", err)
				}
				t.Expect(framework.DTags(findL(t, c, []string{x}, nil, 50))).To(Equal([]string{marker}), "stored #l read after the removal")
			}},
		{Case: framework.WithReading(lcase("labels/retention/1", []string{"labels/retention.1", "labels/retry-admission.14"}, "retention", "labels/retention", framework.MUST, "Application evidence survives a NIP-09 deletion of the command event: once the relay has deleted the command (its id no longer reads), the exact retry is still duplicate: nip-cl-committed and nothing is reapplied."),
			"The clause is about a deletion that happened: the case first observes that the relay serves the stored command by id and that after the kind 5 it no longer does. NIP-09 lets a relay keep deleted events; a relay that refuses the kind 5, keeps serving the command, or never serves stored commands by id makes the case unsupported, with what was seen."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				x := lbl(t, "kept")
				ch := createLabeled(t, c, "", fixtures.Open)
				add := mutationEv(c.Actor(), ch, []string{x}, nil)
				acceptNew(t, c, add, "add")
				acceptNew(t, c, mutationEv(c.Actor(), ch, nil, []string{x}), "remove")
				byID := nostr.Filter{IDs: []string{add.ID}}
				if r := t.QueryResult(c, byID); r.Closed || len(r.Events) == 0 {
					t.Unsupported(fmt.Sprintf("the relay does not serve the stored command by id to its author (%d event(s), CLOSED %q): a NIP-09 deletion of it cannot be observed", len(r.Events), r.ClosedReason))
				}
				del := c.Actor().Event(5, nostr.Tags{{"e", add.ID}, {"k", "9002"}}, "")
				ok := t.Publish(c, del)
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Unsupported("the relay refused the NIP-09 deletion request for the command: " + ok.String())
				}
				// A relay may apply the deletion asynchronously: wait for it.
				if !t.Within(func(g Gomega) { g.Expect(t.QueryResult(c, byID).Events).To(BeEmpty()) }) {
					t.Unsupported("the relay accepted the kind 5 but still serves the command by id (NIP-09 lets it keep deleted events): evidence surviving a deletion cannot be observed")
				}
				t.Note("kind 5 %s; the command no longer reads by id", ok)
				before := expectLabels(t, c, ch)
				acceptCommitted(t, c, add, "retry after the deletion request")
				expectUnchanged(t, c, ch, before, "retry after deletion request")
			}},
		{Case: lcase("labels/retention/2", []string{"labels/retention.2"}, "retention", "labels/retention", framework.MUST, "Evidence is kept while the command can pass admission: retries spread over the case, after later commands, stay duplicate: nip-cl-committed."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, c, "", fixtures.Open)
				first := mutationEv(c.Actor(), ch, []string{lbl(t, "first")}, nil)
				acceptNew(t, c, first, "first")
				for i := 0; i < 5; i++ {
					acceptNew(t, c, mutationEv(c.Actor(), ch, []string{lbl(t, "later")}, nil), "later command")
					acceptCommitted(t, t.Connect(c.Actor()), first, "retry on a fresh connection")
				}
			}},
		{Case: framework.WithReading(lcase("labels/retry/8", []string{"labels/retry-admission.1"}, "retry-admission", "labels/retry-admission", framework.MUST, "An exact retry passes authentication like a new event: where the relay refuses a new write without authentication (or from another authenticated key), it refuses the retry the same way and applies nothing."),
			readingAdmission+" On the other key's connection an ordinary refusal may also be NIP-42's restricted: (authenticated, but not as the author). Requiring AUTH for writes is the target contract's convention, not a draft rule: an ordinary message sent the same way first tells what the relay requires of a new event; a part whose new event is accepted is skipped with a note (the whole case is unsupported when neither is refused)."),
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
		{Case: framework.Heavy(lcase("labels/retry/9", []string{"labels/retry-admission.7"}, "retry-admission", "labels/retry-admission", framework.MUST, "A retry racing an archive is either a committed duplicate or restricted: nip-cl-rejected, and once the archive is acknowledged every later retry is rejected.")),
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
						requireRejected(oks[0], fmt.Sprintf("round %d: retry racing archive", r), "restricted")
					}
					rejectCL(t, conns[0], m, fmt.Sprintf("round %d: retry after the archive", r), "restricted")
				}
				t.Note("%d rounds; the retry won %d", t.Env.Rounds, won)
			}},
		{Case: framework.WithReading(lcase("labels/retry/10", []string{"labels/retry-admission.13"}, "retry-admission", "labels/retry-admission", framework.MUST, "A command stamped outside the ±900 s window that never applied is refused (invalid: nip-cl-rejected, or an ordinary NIP-01 refusal from the shared timestamp check) and not applied."),
			readingAdmission),
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
		{Case: lcase("labels/retry/11", []string{"labels/retry-admission.14"}, "retry-admission", "labels/retry-admission", framework.MUST, "Revoking and restoring the author's role never makes a committed command apply again: the retry is rejected while revoked and a committed duplicate after, with the superseded effect still gone."),
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
					nostr.Tags{{"h", ch}, {"p", admin.Actor().PubKey, "admin"}}, "")
				if ok := t.Accept(owner, restore, "restore"); strings.HasPrefix(ok.Reason, "duplicate:") {
					framework.Failf("restore: the relay took a new 9000 for a duplicate: %s", ok)
				}
				before := expectLabels(t, owner, ch)
				acceptCommitted(t, admin, add, "retry after restore")
				expectUnchanged(t, owner, ch, before, "retry after restore")
			}},
		{Case: framework.WithReading(lcase("labels/scope/8", []string{"labels/scope.11"}, "scope", "labels/scope", framework.MUST, "Adding or removing labels leaves the channel's messages, its members and their roles (as 39001/39002 list them) untouched."),
			"Membership is compared by content (the p entries and their roles), not by event id: republishing an unchanged list is not a change. 39001/39002 are optional in NIP-29 and the labels draft does not require them; a kind the relay does not publish is noted and not compared."),
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
	}
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
