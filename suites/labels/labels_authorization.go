package labels

import (
	"time"

	"github.com/nipcl/nipcl-conform/suites/framework"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// labelsAuthorizationSpecs: "Authorization and visibility".
func labelsAuthorizationSpecs() []framework.Spec {
	sec := "labels/authorization"
	return []framework.Spec{
		{Case: lcase("labels/authorization/1", []string{"labels/authorization.4", "labels/compatibility.3", "labels/responses.12"}, "authorization", sec, framework.MUST, "A plain member's add-label and remove-label are rejected with restricted: nip-cl-rejected; membership alone is not enough."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				a := lbl(t, "a")
				ch := createLabeled(t, owner, "", fixtures.Open, a)
				member := withRoles(t, owner, ch, "member")[0]
				before := snapshot(t, owner, ch)
				rejectCL(t, member, mutationEv(member.Actor(), ch, []string{lbl(t, "x")}, nil), "member adds", "restricted")
				rejectCL(t, member, mutationEv(member.Actor(), ch, nil, []string{a}), "member removes", "restricted")
				expectUnchanged(t, owner, ch, before, "rejected member mutations")
			}},
		{Case: lcase("labels/authorization/2", []string{"labels/authorization.4"}, "authorization", sec, framework.MUST, "A non-member's label mutation is rejected with restricted: nip-cl-rejected."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open, lbl(t, "a"))
				before := snapshot(t, owner, ch)
				outsider := t.Connect(t.Actor("outsider"))
				rejectCL(t, outsider, mutationEv(outsider.Actor(), ch, []string{lbl(t, "x")}, nil), "outsider adds", "restricted")
				expectUnchanged(t, owner, ch, before, "rejected outsider mutation")
			}},
		{Case: lcase("labels/authorization/3", []string{"labels/authorization.2"}, "authorization", sec, framework.MUST, "An admin may add and remove labels (OK true \"\")."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				a, x := lbl(t, "a"), lbl(t, "x")
				ch := createLabeled(t, owner, "", fixtures.Open, a)
				admin := withRoles(t, owner, ch, "admin")[0]
				acceptNew(t, admin, mutationEv(admin.Actor(), ch, []string{x}, []string{a}), "admin adds and removes")
				expectLabels(t, owner, ch, x)
			}},
		{Case: lcase("labels/authorization/4", []string{"labels/authorization.2"}, "authorization", sec, framework.MUST, "An owner other than the creator may add and remove labels."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				a, x := lbl(t, "a"), lbl(t, "x")
				ch := createLabeled(t, owner, "", fixtures.Open, a)
				acceptNew(t, owner, mutationEv(owner.Actor(), ch, []string{x}, nil), "creator adds")
				second := withRoles(t, owner, ch, "owner")[0]
				acceptNew(t, second, mutationEv(second.Actor(), ch, nil, []string{a, x}), "second owner removes")
				expectLabels(t, owner, ch)
			}},
		{Case: lcase("labels/authorization/5", []string{"labels/authorization.6", "labels/scope.3"}, "authorization", sec, framework.MUST, "A label belongs to no one: an admin removes the owner's label and the owner removes the admin's, whatever the prefix."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				mine := "owner:" + lbl(t, "mine")
				ch := createLabeled(t, owner, "", fixtures.Open, mine)
				admin := withRoles(t, owner, ch, "admin")[0]
				theirs := "admin:" + lbl(t, "theirs")
				acceptNew(t, admin, mutationEv(admin.Actor(), ch, []string{theirs}, []string{mine}), "admin removes the owner's label")
				acceptNew(t, owner, mutationEv(owner.Actor(), ch, nil, []string{theirs}), "owner removes the admin's label")
				expectLabels(t, owner, ch)
			}},
		{Case: lcase("labels/authorization/6", []string{"labels/authorization.5"}, "authorization", sec, framework.MUST, "Authority is checked against current state: an admin demoted to member can no longer change labels."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				ch := createLabeled(t, owner, "", fixtures.Open)
				admin := withRoles(t, owner, ch, "admin")[0]
				x := lbl(t, "x")
				acceptNew(t, admin, mutationEv(admin.Actor(), ch, []string{x}, nil), "admin adds")
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, admin.Actor().PubKey, "member"), "demote to member")
				before := snapshot(t, owner, ch)
				rejectCL(t, admin, mutationEv(admin.Actor(), ch, nil, []string{x}), "demoted admin removes", "restricted")
				expectUnchanged(t, owner, ch, before, "rejected mutation")
			}},
		{Case: lcase("labels/authorization/7", []string{"labels/authorization.8", "labels/authorization.9"}, "visibility", sec, framework.MUST, "A private channel's labels (its metadata made private and hidden with NIP-29's flags, and seen withheld) are readable by members (by #d with the whole label set, and by each label) and invisible to outsiders and anonymous readers by any label in #l, by #L alone, by #L and #l, or by #d; an open channel labeled alongside stays visible to them."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				x, more := lbl(t, "private"), lbl(t, "more")
				since := nostr.Timestamp(time.Now().Add(-2 * time.Second).Unix())
				outsider := t.Connect(t.Actor("outsider"))
				ch := createWithheld(t, owner, outsider, x)
				member := withRoles(t, owner, ch, "member")[0]
				acceptNew(t, owner, mutationEv(owner.Actor(), ch, []string{more}, nil), "add while private")
				// An open channel with the same labels is the control: the
				// reads that must withhold the private one do find it.
				open := createLabeled(t, owner, "", fixtures.Open, x, more)
				expectLabels(t, member, ch, x, more)
				for _, v := range []string{x, more} {
					t.Expect(framework.DTags(findL(t, member, []string{v}, nil, 50))).To(ConsistOf(ch, open), "a member finds both channels by the label %s", v)
				}
				// The outsider may discover open channels, so its label reads are
				// served (Query); what it reads must not include the private one.
				// Anonymous reads and the exact read of the private channel may
				// also be refused (QueryAbsent).
				nsOnly := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"L": {labelNS}}, Since: &since, Limit: 500}
				for _, v := range []string{x, more} {
					t.Expect(framework.DTags(findL(t, outsider, []string{v}, nil, 50))).To(Equal([]string{open}), "outsider: #L+#l %s finds the open channel only", v)
					t.Expect(framework.DTags(t.Query(outsider, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {v}}}))).To(Equal([]string{open}), "outsider: #l %s finds the open channel only", v)
				}
				ns := framework.DTags(t.Query(outsider, nsOnly))
				t.Expect(ns).To(ContainElement(open), "outsider: #L alone (since the case began) finds the open channel")
				t.Expect(ns).NotTo(ContainElement(ch), "outsider: #L alone must not return the private channel")
				t.Note("outsider, #d of the private channel: %s", t.QueryAbsent(outsider, "outsider: #d", nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}}))
				anon := t.Connect(nil)
				for _, f := range []nostr.Filter{
					{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"L": {labelNS}, "l": {x, more}}},
					{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"l": {x, more}}},
					nsOnly,
				} {
					r := t.QueryResult(anon, f)
					t.Expect(framework.DTags(r.Events)).NotTo(ContainElement(ch), "anonymous: %s must not return the private channel", framework.FilterString([]nostr.Filter{f}))
					if r.Closed {
						framework.CheckPrefix("CLOSED", r.ClosedReason)
						t.Note("anonymous, %s: refused with CLOSED %q", framework.FilterString([]nostr.Filter{f}), r.ClosedReason)
					}
				}
				t.Note("anonymous, #d: %s", t.QueryAbsent(anon, "anonymous: #d", nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}}))
			}},
		{Case: lcase("labels/authorization/8", []string{"labels/authorization.7", "labels/finding-channels.14", "labels/finding-channels.7"}, "visibility", sec, framework.MUST, "Private snapshots do not consume an outsider's limit: with newer private, hidden channels (metadata seen withheld) carrying the label, limit 1 returns the older open one."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				x := lbl(t, "mixed")
				open := createLabeled(t, owner, "", fixtures.Open, x)
				outsider := t.Connect(t.Actor("outsider"))
				var priv []string
				for i := 0; i < 5; i++ {
					priv = append(priv, createWithheld(t, owner, outsider, x))
				}
				// A rename makes the newest private snapshot strictly newer than
				// the open one; it carries the whole metadata (name and both
				// flags), so it means the same as a patch and as a replacement.
				t.Accept(owner, fixtures.EditGroup(owner.Actor(), priv[4], fixtures.GroupMetadata{Name: "newest", Flags: []string{fixtures.FlagPrivate, fixtures.FlagHidden}}), "rename")
				t.Expect(framework.DTags(findL(t, outsider, []string{x}, nil, 1))).To(Equal([]string{open}), "outsider, limit 1")
				t.Expect(framework.DTags(findL(t, outsider, []string{x}, nil, 50))).To(Equal([]string{open}), "outsider sees only the open channel")
				t.Expect(framework.DTags(findL(t, owner, []string{x}, nil, 1))).To(Equal([]string{priv[4]}), "the owner's limit 1 is the newest private one")
			}},
	}
}
