package identity

import (
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// labelsSpecs are the cases of identity/labels.
func labelsSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/label-sweep/2", framework.MUST,
			"A t tag with an extra element (a label value, then more) on 9007 or 9002 is either rejected whole or read by its value: the channel then carries exactly that label, never the extra element.",
			"identity/labels.2", "identity/labels.3").
			WithReading("The identity draft writes label tags as [\"t\", <label>] but does not forbid further elements, and NIP-01 tags may carry them; rejecting the event and taking the value are both accepted and noted."),
			Run: func(t *framework.T) {
				t.Checking("identity/labels.2")
				c := t.Connect(t.Actor("creator"))
				v, extra := freshLabel(t), freshLabel(t)
				ev, ch := createEvent(t, c.Actor(), chanOpts{Visibility: fixtures.Open, Extra: nostr.Tags{{"t", v, extra}}})
				if ok := t.Publish(c, ev); ok.Accepted {
					t.Note("9007 with a three-element t tag: accepted")
					t.Expect(metaLabels(t, c, ch)).To(Equal([]string{v}), "labels of the channel created with [\"t\", v, extra]")
				} else {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("9007 with a three-element t tag: rejected (%s)", ok.Reason)
					requireNoChannel(t, c, ch, "9007 with a three-element t tag")
					ch = mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: []string{v}})
				}
				w, extra2 := freshLabel(t), freshLabel(t)
				if ok := t.Publish(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"t", w, extra2})); ok.Accepted {
					t.Note("9002 with a three-element t tag: accepted")
					got := metaLabels(t, c, ch)
					t.Expect(got).To(Equal([]string{w}), "labels after the 9002 with [\"t\", w, extra]")
					t.Expect(slices.Contains(got, extra2)).To(BeFalse())
				} else {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("9002 with a three-element t tag: rejected (%s)", ok.Reason)
					t.Expect(metaLabels(t, c, ch)).To(Equal([]string{v}), "labels after the rejected 9002")
				}
			}},
		{Case: framework.NewCase("identity/labels/1", framework.MUST,
			"A 9007 with 8 distinct labels is accepted and the channel carries all 8.",
			"identity/labels.2"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := freshLabels(t, 8)
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: labels})
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/labels/8", framework.MUST,
			"t tags on 9002 replace the whole label set: old labels are gone, exactly the new ones remain.",
			"identity/labels.3"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: freshLabels(t, 3)})
				next := freshLabels(t, 2)
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, tTags(next...)...), "replace the labels")
				requireIdentityAll(t, c, ch, fixtures.TypeStream, next, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/labels/9", framework.MUST,
			`A 9002 whose only t tag is ["t",""] clears the labels.`,
			"identity/labels.4"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: freshLabels(t, 3)})
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"t", ""}), `9002 with ["t",""]`)
				requireIdentityAll(t, c, ch, fixtures.TypeStream, nil, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/labels/11", framework.MUST,
			"A 9002 without t tags (a rename) leaves the labels as they are.",
			"identity/labels.5"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := freshLabels(t, 3)
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: labels})
				name := t.Unique("renamed")
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"name", name}), "rename without t tags")
				t.Expect(framework.TagOf(t.MustStateEvent(c, fixtures.KindMetadata, ch), "name")).To(Equal(name))
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/labels/12", framework.MUST,
			"A plain member or a non-member cannot change labels: label-only, clearing and name+label 9002s are rejected; labels are unchanged.",
			"identity/labels.7"),
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMemberKind(t, fixtures.Open, "member", framework.KindUnprivileged)
				labels := freshLabels(t, 2)
				t.Accept(owner, fixtures.EditChannel(owner.Actor(), ch, tTags(labels...)...), "owner sets labels")
				t.Reject(member, fixtures.EditChannel(member.Actor(), ch, tTags(freshLabel(t))...), "", "member's label-only 9002")
				t.Reject(member, fixtures.EditChannel(member.Actor(), ch, nostr.Tag{"t", ""}), "", "member's clearing 9002")
				t.Reject(member, fixtures.EditChannel(member.Actor(), ch, append(nostr.Tags{{"name", t.Unique("m")}}, tTags(freshLabel(t))...)...), "", "member's 9002 with name and label")
				outsider := t.Connect(t.Actor("outsider"))
				t.Reject(outsider, fixtures.EditChannel(outsider.Actor(), ch, tTags(freshLabel(t))...), "", "non-member's label-only 9002")
				requireIdentityAll(t, owner, ch, fixtures.TypeStream, labels, owner.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/labels/13", framework.MUST,
			"An admin (not owner) may replace and clear the labels.",
			"identity/labels.3", "identity/labels.4", "identity/labels.6"),
			Run: func(t *framework.T) {
				t.Checking("identity/labels.3")
				owner, admin, ch := framework.ChannelWithMember(t, fixtures.Open, "admin")
				next := freshLabels(t, 2)
				t.Checking("identity/labels.6")
				t.Accept(admin, fixtures.EditChannel(admin.Actor(), ch, tTags(next...)...), "admin replaces the labels")
				requireIdentityAll(t, owner, ch, fixtures.TypeStream, next, owner.Actor().PubKey)
				t.Accept(admin, fixtures.EditChannel(admin.Actor(), ch, nostr.Tag{"t", ""}), "admin clears the labels")
				requireIdentityAll(t, owner, ch, fixtures.TypeStream, nil, owner.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/choose/5", framework.MUST,
			"Concurrent replace-all label edits by an owner and an admin end in exactly one of the submitted label sets (never a mix), the same on 39000, 39001 and 39002.",
			"identity/labels.3", "identity/labels.6").
			WithReading("Repeated Env.Rounds times (max 10); both edits must be accepted.").
			WithHeavy(),
			Run: func(t *framework.T) {
				t.Checking("identity/labels.3")
				owner, admin, ch := framework.ChannelWithMember(t, fixtures.Open, "admin")
				rounds := min(t.Env.Rounds, 10)
				for r := 0; r < rounds; r++ {
					sets := [][]string{freshLabels(t, 3), freshLabels(t, 3)}
					conns := []*fixtures.Client{owner, admin}
					t.Go(2, func(i int) {
						t.Checking("identity/labels.6")
						t.Accept(conns[i], fixtures.EditChannel(conns[i].Actor(), ch, tTags(sets[i]...)...), "concurrent label replace")
					})
					st := stateOf(t, owner, ch)
					got := labelsOf(st[fixtures.KindMetadata])
					t.Expect(slices.ContainsFunc(sets, func(s []string) bool { return slices.Equal(sortedCopy(s...), sortedCopy(got...)) })).
						To(BeTrue(), "round %d: labels %v must be exactly one of %v", r, got, sets)
					for _, k := range []int{fixtures.KindAdmins, fixtures.KindMembers} {
						if st[k] == nil {
							continue // not published (optional in NIP-29)
						}
						t.Expect(labelsOf(st[k])).To(Equal(got), "round %d: kind %d labels", r, k)
					}
				}
			}},
	}
}

// requireNoChannel fails when the rejected 9007 created a channel anyway.
// A read of a channel that does not exist may be refused (CLOSED): that
// withholds as surely as an empty answer and is noted.
func requireNoChannel(t *framework.T, c *fixtures.Client, ch, why string) {
	GinkgoHelper()
	how := t.QueryAbsent(c, why+": a rejected 9007 must create no channel", nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
	if how != "EOSE with no events" {
		t.Note("%s: the #d read of %s was %s", why, ch, how)
	}
}

// rejectCreate sends a 9007 with the given t tags, requires a rejection
// and that no channel exists.
func rejectCreate(t *framework.T, c *fixtures.Client, tags nostr.Tags, why string) {
	ev, ch := createEvent(t, c.Actor(), chanOpts{Visibility: fixtures.Open, Extra: tags})
	t.Reject(c, ev, "", why)
	requireNoChannel(t, c, ch, why)
}

// invalidLabels are grammar violations, each with the reason it is invalid.
func invalidLabels(t *framework.T) [][2]string {
	base := freshLabel(t)
	return [][2]string{
		{strings.ToUpper(base[:1]) + base[1:], "uppercase"},
		{base + "_x", "underscore"},
		{base + "/x", "slash"},
		{base + " x", "space"},
		{base + "-é", "non-ASCII"},
		{base + strings.Repeat("x", 65-len(base)), "65 characters"},
	}
}
