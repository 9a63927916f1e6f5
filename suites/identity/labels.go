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
		{Case: idCase("identity/label-sweep/2", []string{"identity/labels.2", "identity/labels.3"}, "identity/labels", framework.MUST,
			"A t tag with an extra element (a label value, then more) on 9007 or 9002 is either rejected whole or read by its value: the channel then carries exactly that label, never the extra element.",
			"The identity draft writes label tags as [\"t\", <label>] but does not forbid further elements, and NIP-01 tags may carry them; rejecting the event and taking the value are both accepted and noted."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				v, extra := idLabel(t), idLabel(t)
				ev, ch := idCreateEvent(t, c.Actor(), idChanOpts{Visibility: fixtures.Open, Extra: nostr.Tags{{"t", v, extra}}})
				if ok := t.Publish(c, ev); ok.Accepted {
					t.Note("9007 with a three-element t tag: accepted")
					t.Expect(idMetaLabels(t, c, ch)).To(Equal([]string{v}), "labels of the channel created with [\"t\", v, extra]")
				} else {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("9007 with a three-element t tag: rejected (%s)", ok.Reason)
					idRequireNoChannel(t, c, ch, "9007 with a three-element t tag")
					ch = idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: []string{v}})
				}
				w, extra2 := idLabel(t), idLabel(t)
				if ok := t.Publish(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"t", w, extra2})); ok.Accepted {
					t.Note("9002 with a three-element t tag: accepted")
					got := idMetaLabels(t, c, ch)
					t.Expect(got).To(Equal([]string{w}), "labels after the 9002 with [\"t\", w, extra]")
					t.Expect(slices.Contains(got, extra2)).To(BeFalse())
				} else {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("9002 with a three-element t tag: rejected (%s)", ok.Reason)
					t.Expect(idMetaLabels(t, c, ch)).To(Equal([]string{v}), "labels after the rejected 9002")
				}
			}},
		{Case: idCase("identity/labels/1", []string{"identity/labels.2"}, "identity/labels", framework.MUST,
			"A 9007 with 8 distinct labels is accepted and the channel carries all 8."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := idLabels(t, 8)
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: labels})
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
			}},
		{Case: idCase("identity/labels/8", []string{"identity/labels.3"}, "identity/labels", framework.MUST,
			"t tags on 9002 replace the whole label set: old labels are gone, exactly the new ones remain."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: idLabels(t, 3)})
				next := idLabels(t, 2)
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, idTTags(next...)...), "replace the labels")
				requireIdentityAll(t, c, ch, fixtures.TypeStream, next, c.Actor().PubKey)
			}},
		{Case: idCase("identity/labels/9", []string{"identity/labels.4"}, "identity/labels", framework.MUST,
			`A 9002 whose only t tag is ["t",""] clears the labels.`),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: idLabels(t, 3)})
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"t", ""}), `9002 with ["t",""]`)
				requireIdentityAll(t, c, ch, fixtures.TypeStream, nil, c.Actor().PubKey)
			}},
		{Case: idCase("identity/labels/10", []string{"identity/label-rules.7"}, "identity/labels", framework.MUST,
			`Repeated ["t",""] tags (and no other t tag) clear the labels like one.`,
			`Newest revision: "repeated ["t", ""] tags clear the set like one" (r1 allowed exactly one).`),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: idLabels(t, 2)})
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"t", ""}, nostr.Tag{"t", ""}, nostr.Tag{"t", ""}), `9002 with three ["t",""]`)
				requireIdentityAll(t, c, ch, fixtures.TypeStream, nil, c.Actor().PubKey)
			}},
		{Case: idCase("identity/labels/11", []string{"identity/labels.5"}, "identity/labels", framework.MUST,
			"A 9002 without t tags (a rename) leaves the labels as they are."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := idLabels(t, 3)
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: labels})
				name := t.Unique("renamed")
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"name", name}), "rename without t tags")
				t.Expect(framework.TagOf(t.MustStateEvent(c, fixtures.KindMetadata, ch), "name")).To(Equal(name))
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
			}},
		{Case: idCase("identity/labels/12", []string{"identity/labels.7"}, "identity/labels", framework.MUST,
			"A plain member or a non-member cannot change labels: label-only, clearing and name+label 9002s are rejected; labels are unchanged."),
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMemberKind(t, fixtures.Open, "member", framework.KindUnprivileged)
				labels := idLabels(t, 2)
				t.Accept(owner, fixtures.EditChannel(owner.Actor(), ch, idTTags(labels...)...), "owner sets labels")
				t.Reject(member, fixtures.EditChannel(member.Actor(), ch, idTTags(idLabel(t))...), "", "member's label-only 9002")
				t.Reject(member, fixtures.EditChannel(member.Actor(), ch, nostr.Tag{"t", ""}), "", "member's clearing 9002")
				t.Reject(member, fixtures.EditChannel(member.Actor(), ch, append(nostr.Tags{{"name", t.Unique("m")}}, idTTags(idLabel(t))...)...), "", "member's 9002 with name and label")
				outsider := t.Connect(t.Actor("outsider"))
				t.Reject(outsider, fixtures.EditChannel(outsider.Actor(), ch, idTTags(idLabel(t))...), "", "non-member's label-only 9002")
				requireIdentityAll(t, owner, ch, fixtures.TypeStream, labels, owner.Actor().PubKey)
			}},
		{Case: idCase("identity/labels/13", []string{"identity/labels.3", "identity/labels.4", "identity/labels.6"}, "identity/labels", framework.MUST,
			"An admin (not owner) may replace and clear the labels."),
			Run: func(t *framework.T) {
				owner, admin, ch := framework.ChannelWithMember(t, fixtures.Open, "admin")
				next := idLabels(t, 2)
				t.Accept(admin, fixtures.EditChannel(admin.Actor(), ch, idTTags(next...)...), "admin replaces the labels")
				requireIdentityAll(t, owner, ch, fixtures.TypeStream, next, owner.Actor().PubKey)
				t.Accept(admin, fixtures.EditChannel(admin.Actor(), ch, nostr.Tag{"t", ""}), "admin clears the labels")
				requireIdentityAll(t, owner, ch, fixtures.TypeStream, nil, owner.Actor().PubKey)
			}},
	}
}

// requireNoChannel fails when the rejected 9007 created a channel anyway.
// A read of a channel that does not exist may be refused (CLOSED): that
// withholds as surely as an empty answer and is noted.
func idRequireNoChannel(t *framework.T, c *fixtures.Client, ch, why string) {
	GinkgoHelper()
	how := t.QueryAbsent(c, why+": a rejected 9007 must create no channel", nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
	if how != "EOSE with no events" {
		t.Note("%s: the #d read of %s was %s", why, ch, how)
	}
}

// rejectCreate sends a 9007 with the given t tags, requires a rejection
// and that no channel exists.
func idRejectCreate(t *framework.T, c *fixtures.Client, tags nostr.Tags, why string) {
	ev, ch := idCreateEvent(t, c.Actor(), idChanOpts{Visibility: fixtures.Open, Extra: tags})
	t.Reject(c, ev, "", why)
	idRequireNoChannel(t, c, ch, why)
}

// invalidLabels are grammar violations, each with the reason it is invalid.
func idInvalidLabels(t *framework.T) [][2]string {
	base := idLabel(t)
	return [][2]string{
		{strings.ToUpper(base[:1]) + base[1:], "uppercase"},
		{base + "_x", "underscore"},
		{base + "/x", "slash"},
		{base + " x", "space"},
		{base + "-é", "non-ASCII"},
		{base + strings.Repeat("x", 65-len(base)), "65 characters"},
	}
}
