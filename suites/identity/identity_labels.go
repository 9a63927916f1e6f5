package identity

import (
	"strings"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

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

// identityLabelSpecs: "Channel labels" (set, replace, clear, keep,
// permissions) and its "Rules" (limit, grammar, reserved names, whole-event
// rejection).
func identityLabelSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: idCase("identity/labels/1", []string{"identity/labels.2"}, "identity/labels", framework.MUST,
			"A 9007 with 8 distinct labels is accepted and the channel carries all 8."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := idLabels(t, 8)
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: labels})
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
			}},
		{Case: idCase("identity/labels/2", []string{"identity/label-rules.1", "identity/label-rules.5"}, "identity/label-rules", framework.MUST,
			"A 9007 with 9 distinct labels is rejected and creates no channel."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				idRejectCreate(t, c, idTTags(idLabels(t, 9)...), "9007 with 9 distinct labels")
			}},
		{Case: idCase("identity/labels/3", []string{"identity/label-rules.6"}, "identity/label-rules", framework.MUST,
			"Repeated labels are stored once and do not count toward 8: 8 distinct labels plus repeats are accepted and listed once each."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := idLabels(t, 8)
				sent := append(append([]string{}, labels...), labels[0], labels[3], labels[7], labels[0])
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: sent})
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
				// The same on 9002.
				next := idLabels(t, 8)
				sent = append(append([]string{}, next...), next[1], next[1], next[6])
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, idTTags(sent...)...), "9002 with 8 distinct labels plus repeats")
				requireIdentityAll(t, c, ch, fixtures.TypeStream, next, c.Actor().PubKey)
			}},
		{Case: idCase("identity/labels/4", []string{"identity/label-rules.2", "identity/label-rules.5"}, "identity/label-rules", framework.MUST,
			"A 9007 whose labels break the grammar (uppercase, _, /, space, non-ASCII, 65 characters) is rejected whole and creates no channel."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				for _, bad := range idInvalidLabels(t) {
					idRejectCreate(t, c, idTTags(idLabel(t), bad[0]), "9007 with a label with "+bad[1])
				}
			}},
		{Case: idCase("identity/labels/5", []string{"identity/label-rules.2"}, "identity/label-rules", framework.MUST,
			"Labels of 1 and of 64 characters using every allowed character class (a-z 0-9 . : -) are accepted."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				base := idLabel(t) + ".v1:x-"
				long := base + strings.Repeat("z", 64-len(base))
				t.Expect(long).To(HaveLen(64))
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: []string{long, "q"}})
				requireIdentityAll(t, c, ch, fixtures.TypeStream, []string{long, "q"}, c.Actor().PubKey)
			}},
		{Case: idCase("identity/labels/6", []string{"identity/label-rules.3", "identity/label-rules.5"}, "identity/label-rules", framework.MUST,
			"A channel type name (stream, forum, dm, workflow, system) is refused as a label on 9007 and on 9002; a refused 9002 changes nothing: 39000-39002 keep every tag (type, labels, creator, name)."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := idLabels(t, 1)
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: labels})
				before := idStateTags(t, c, ch)
				for _, name := range []string{fixtures.TypeStream, fixtures.TypeForum, fixtures.TypeDM, fixtures.TypeWorkflow, fixtures.TypeSystem} {
					idRejectCreate(t, c, idTTags(idLabel(t), name), "9007 with the reserved label "+name)
					t.Reject(c, fixtures.EditChannel(c.Actor(), ch, idTTags(name)...), "", "9002 with the reserved label "+name)
					idRequireStateUnchanged(t, c, ch, before, "after the refused 9002 with "+name)
				}
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
			}},
		{Case: idCase("identity/labels/7", []string{"identity/label-rules.4", "identity/label-rules.5"}, "identity/label-rules", framework.MUST,
			`["t",""] together with labels is rejected on 9007 (no channel) and on 9002 (39000-39002 unchanged: type, labels, creator and every other tag).`),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				idRejectCreate(t, c, nostr.Tags{{"t", idLabel(t)}, {"t", ""}}, `9007 with a label and ["t",""]`)
				labels := idLabels(t, 2)
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: labels})
				before := idStateTags(t, c, ch)
				t.Reject(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"t", ""}, nostr.Tag{"t", idLabel(t)}), "", `9002 with ["t",""] and a label`)
				idRequireStateUnchanged(t, c, ch, before, `after the refused 9002 with ["t",""] and a label`)
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
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
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
		{Case: idCase("identity/labels/14", []string{"identity/label-rules.5"}, "identity/label-rules", framework.MUST,
			"A 9002 rejected for its labels (invalid, reserved, 9 distinct, mixed empty) applies nothing else: the rename and about in it do not happen."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := idLabels(t, 2)
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: labels})
				before := t.MustStateEvent(c, fixtures.KindMetadata, ch)
				bads := []nostr.Tags{
					idTTags("Upper-" + idLabel(t)),
					idTTags(idLabel(t), fixtures.TypeForum),
					idTTags(idLabels(t, 9)...),
					{{"t", ""}, {"t", idLabel(t)}},
				}
				for _, bad := range bads {
					tags := append(nostr.Tags{{"name", t.Unique("renamed")}, {"about", t.Unique("about")}}, bad...)
					t.Reject(c, fixtures.EditChannel(c.Actor(), ch, tags...), "", "9002 with a rename and bad labels")
				}
				after := t.MustStateEvent(c, fixtures.KindMetadata, ch)
				t.Expect(framework.TagOf(after, "name")).To(Equal(framework.TagOf(before, "name")), "name after refused 9002s")
				t.Expect(framework.TagOf(after, "about")).To(Equal(framework.TagOf(before, "about")), "about after refused 9002s")
				t.Expect(idLabelsOf(after)).To(Equal(labels), "labels after refused 9002s")
			}},
		{Case: idCase("identity/labels/15", []string{"identity/label-rules.1", "identity/label-rules.5"}, "identity/label-rules", framework.MUST,
			"On 9002 too, 9 distinct labels are rejected (39000-39002 unchanged: type, labels, creator and every other tag) while 8 distinct are accepted."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := idLabels(t, 1)
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: labels})
				before := idStateTags(t, c, ch)
				t.Reject(c, fixtures.EditChannel(c.Actor(), ch, idTTags(idLabels(t, 9)...)...), "", "9002 with 9 distinct labels")
				idRequireStateUnchanged(t, c, ch, before, "after the refused 9002 with 9 distinct labels")
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
				eight := idLabels(t, 8)
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, idTTags(eight...)...), "9002 with 8 distinct labels")
				requireIdentityAll(t, c, ch, fixtures.TypeStream, eight, c.Actor().PubKey)
			}},
		{Case: idCase("identity/labels/16", []string{"identity/label-rules.2", "identity/label-rules.5"}, "identity/label-rules", framework.MUST,
			"A 9002 whose labels break the grammar (uppercase, _, /, space, non-ASCII, 65 characters) is rejected and changes nothing: 39000-39002 keep every tag (type, labels, creator, name)."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := idLabels(t, 1)
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: labels})
				before := idStateTags(t, c, ch)
				for _, bad := range idInvalidLabels(t) {
					t.Reject(c, fixtures.EditChannel(c.Actor(), ch, idTTags(idLabel(t), bad[0])...), "", "9002 with a label with "+bad[1])
					idRequireStateUnchanged(t, c, ch, before, "after the refused 9002 with a label with "+bad[1])
				}
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
			}},
	}
}
