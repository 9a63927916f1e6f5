package nip29

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// subgroupsSpecs are the cases of nip29/subgroups.
func subgroupsSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/subgroups/1", framework.SHOULD,
			`A relay that honours a 9002 parent tag advertises "nip29": {"subgroups": true} in its NIP-11 document.`,
			"nip29/subgroups.1"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				subgroupFamily(t, owner, 1)
				if !subgroupsAdvertised(t) {
					t.Violates("nip29/subgroups.1", `NIP-29 (nip29/subgroups.1): the relay supports subgroups (after a 9002 adopting a group it added the child tag to the parent's 39000) but its NIP-11 document has no "nip29": {"subgroups": true}`)
				}
			}},
		{Case: framework.NewCase("base/subgroups/2", framework.MUST,
			"After the owner's 9002 with one parent tag the child's 39000 carries exactly that parent; a 9002 with two parent tags is refused or leaves at most one.",
			"nip29/subgroups.2").
			WithReading("Level: \"the relay then updates the group's kind:39000 accordingly\" and \"The resulting kind:39000 therefore also carries at most one parent tag\" have no keyword; they define subgroups, an optional feature judged only on a relay that showed it (NIP-11 nip29.subgroups, or a child tag it added itself). Held at MUST: a relay that offers subgroups and leaves the child's 39000 without its parent, or with two, offers no tree a client can build (\"the rest are grouped under the d referenced by their parent tag\"). A 9002 with two parent tags (\"A kind:9002 MAY carry at most one parent tag\") may be refused, or accepted keeping one: both pass, and the note says which the relay showed."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				parent, children := subgroupFamily(t, owner, 1)
				other := t.CreateChannel(owner, fixtures.ChannelSpec{Name: t.Unique("other")})
				ok := t.Publish(owner, fixtures.EditChannel(owner.Actor(), children[0], nostr.Tag{"parent", parent}, nostr.Tag{"parent", other}))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("the 9002 with two parent tags was refused: %s", ok)
					awaitParents(t, owner, children[0], []string{parent}, "NIP-29 (nip29/subgroups.2): after the refused 9002 with two parent tags, the child's 39000")
					return
				}
				meta := t.GroupMetadata(owner, children[0])
				if got := parentsOf(meta); len(got) > 1 {
					t.Violates("nip29/subgroups.2", "NIP-29 (nip29/subgroups.2): a 9002 may carry at most one parent tag, so the 39000 carries at most one; after an accepted 9002 with two it carries %q", got)
				}
				t.Note("the 9002 with two parent tags was accepted; the child's 39000 now has parent tags %q", parentsOf(meta))
			}},
		{Case: framework.NewCase("base/subgroups/3", framework.MUST,
			"After two children are adopted, the parent's 39000 lists both as child tags, each once; appending in adoption order is noted.",
			"nip29/subgroups.3").
			WithReading("\"By default relays can just append new children\": the order of a new child is the relay's; the MUST is that every child is listed."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				parent, children := subgroupFamily(t, owner, 2)
				var got []string
				t.Eventually(func(g Gomega) {
					got = childrenOf(t.GroupMetadata(owner, parent))
					slices.Sort(got)
					want := slices.Sorted(slices.Values(children))
					t.Checking("nip29/subgroups.3")
					g.Expect(slices.Equal(got, want)).To(BeTrue(), "NIP-29 (nip29/subgroups.3): a parent's 39000 must include a child tag for each of its children: child tags %q, want %q", got, want)
				}, "NIP-29 (nip29/subgroups.3): the parent's child tags")
				if got := childrenOf(t.GroupMetadata(owner, parent)); slices.Equal(got, children) {
					t.Note("children listed in adoption order (appended)")
				} else {
					t.Note("children listed as %q, adopted as %q", got, children)
				}
			}},
		{Case: framework.NewCase("base/subgroups/4", framework.SHOULD,
			"The parent owner's 9002 carrying both children as child tags in the reverse order is accepted and the parent's 39000 then lists them in that order.",
			"nip29/subgroups.4"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				parent, children := subgroupFamily(t, owner, 2)
				rev := []string{children[1], children[0]}
				ok := t.Publish(owner, t.FullEdit(owner, parent, nostr.Tag{"child", rev[0]}, nostr.Tag{"child", rev[1]}))
				if !ok.Accepted {
					framework.CheckPrefix("OK", ok.Reason)
					t.Violates("nip29/subgroups.4", "NIP-29 (nip29/subgroups.4): the child list can be rearranged by the parent's admin with a 9002 carrying every child in order; it was refused: %s", ok)
				}
				awaitChildren(t, owner, parent, rev, "NIP-29 (nip29/subgroups.4): after the reordering 9002, the parent's 39000")
			}},
		{Case: framework.NewCase("base/subgroups/5", framework.MUST,
			"A 9002 making a group its own parent, or the child of its own child, is refused and the group stays a root.",
			"nip29/subgroups.5"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				parent, children := subgroupFamily(t, owner, 1)
				t.Reject(owner, t.FullEdit(owner, parent, nostr.Tag{"parent", parent}), "", "NIP-29 (nip29/subgroups.5): a 9002 whose parent is the group itself (self-reference)")
				t.Reject(owner, t.FullEdit(owner, parent, nostr.Tag{"parent", children[0]}), "", "NIP-29 (nip29/subgroups.5): a 9002 making a group the child of its own child (a cycle)")
				awaitParents(t, owner, parent, nil, "NIP-29 (nip29/subgroups.5): after the refused cycles, the parent's 39000")
				awaitParents(t, owner, children[0], []string{parent}, "NIP-29 (nip29/subgroups.5): after the refused cycles, the child's 39000")
			}},
		{Case: framework.NewCase("base/subgroups/6", framework.MUST,
			"On a relay that supports subgroups, a 9002 naming a parent group that does not exist is refused and the group stays a root.",
			"nip29/subgroups.6"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				subgroupFamily(t, owner, 1)
				lone := t.CreateChannel(owner, fixtures.ChannelSpec{Name: t.Unique("lone")})
				missing := t.Unique("no-such-group")
				t.Reject(owner, t.FullEdit(owner, lone, nostr.Tag{"parent", missing}), "", "NIP-29 (nip29/subgroups.6): a 9002 whose declared parent "+missing+" does not exist on the relay")
				awaitParents(t, owner, lone, nil, "NIP-29 (nip29/subgroups.6): after the refused 9002, the group's 39000")
			}},
		{Case: framework.NewCase("base/subgroups/7", framework.MUST,
			"A group owner's 9002 naming as parent a group it is not an admin of is refused; neither 39000 changes.",
			"nip29/subgroups.7"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				parent, _ := subgroupFamily(t, owner, 1)
				stranger := t.Connect(t.Actor("stranger"))
				own := t.CreateChannel(stranger, fixtures.ChannelSpec{Name: t.Unique("strangers")})
				t.Reject(stranger, fixtures.EditChannel(stranger.Actor(), own, nostr.Tag{"parent", parent}), "", "NIP-29 (nip29/subgroups.7): a 9002 with [\"parent\", X] from a key that is not an admin of X")
				awaitParents(t, stranger, own, nil, "NIP-29 (nip29/subgroups.7): after the refused 9002, the stranger's group's 39000")
				if slices.Contains(childrenOf(t.GroupMetadata(owner, parent)), own) {
					t.Violates("nip29/subgroups.7", "NIP-29 (nip29/subgroups.7): the refused 9002 still made %s a child of %s", own, parent)
				}
			}},
		{Case: framework.NewCase("base/subgroups/8", framework.MUST,
			"A parent's 9002 whose child tags leave out one of its two children is refused and both stay listed.",
			"nip29/subgroups.8"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				parent, children := subgroupFamily(t, owner, 2)
				awaitChildren(t, owner, parent, childrenOf(t.GroupMetadata(owner, parent)), "the parent's child list")
				before := childrenOf(t.GroupMetadata(owner, parent))
				t.Reject(owner, t.FullEdit(owner, parent, nostr.Tag{"child", children[0]}), "", "NIP-29 (nip29/subgroups.8): a 9002 whose child tags do not include all the children")
				awaitChildren(t, owner, parent, before, "NIP-29 (nip29/subgroups.8): after the refused 9002, the parent's 39000")
			}},
		{Case: framework.NewCase("base/subgroups/9", framework.MUST,
			"A child moved to another parent leaves the first parent's list; its 9002 without a parent tag then makes it a root that no parent lists.",
			"nip29/subgroups.9").
			WithReading("Level: the parents' lists rest on \"A parent group's kind:39000 MUST include [child] tags as an ordered list of its children\" (a child that moved away is not one of them) with \"the relay also updates the previous parent accordingly\"; the child's own parent tag on \"the relay then updates the group's kind:39000 accordingly\" and \"Absence of the parent tag makes the group a root\", keyword-less definitions of the feature the relay showed, held at MUST as in base/subgroups/2. Both 9002s are the ones the rule names (the group edited is the one whose 39000 changes)."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				first, children := subgroupFamily(t, owner, 1)
				child := children[0]
				second := t.CreateChannel(owner, fixtures.ChannelSpec{Name: t.Unique("second")})
				t.Accept(owner, t.FullEdit(owner, child, nostr.Tag{"parent", second}), "the 9002 moving the child to another parent")
				awaitParents(t, owner, child, []string{second}, "NIP-29 (nip29/subgroups.9): after the move, the child's 39000")
				awaitChildren(t, owner, second, []string{child}, "NIP-29 (nip29/subgroups.9): after the move, the new parent's 39000")
				awaitChildren(t, owner, first, nil, "NIP-29 (nip29/subgroups.9): the relay updates the previous parent; after the move, the first parent's 39000")
				t.Accept(owner, fixtures.EditChannel(owner.Actor(), child, nostr.Tag{"name", t.Unique("root")}), "the child's 9002 without a parent tag")
				awaitParents(t, owner, child, nil, "NIP-29 (nip29/subgroups.9): absence of the parent tag makes the group a root; after the 9002 without one, the child's 39000")
				awaitChildren(t, owner, second, nil, "NIP-29 (nip29/subgroups.9): after the child became a root, its former parent's 39000")
			}},
		{Case: framework.NewCase("base/subgroups/10", framework.SHOULD,
			"After the parent's 9008, its child's 39000 carries no parent tag.",
			"nip29/subgroups.10").
			WithReading("Level: \"When a parent is deleted (kind:9008), its remaining children automatically become roots\" has no keyword and, unlike the 9002 rules, no sentence has the relay regenerate the children's 39000s, which the 9008 does not name; what shows a child became a root is its 39000 (\"A group without a parent tag is a root group\"), and NIP-29 says state events \"should reflect the latest group state\". Held at SHOULD: a child whose 39000 still names the deleted parent does not reflect the state."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				parent, children := subgroupFamily(t, owner, 1)
				ok := t.Publish(owner, fixtures.DeleteChannel(owner.Actor(), parent))
				if !ok.Accepted {
					t.RefusedWrite(framework.PreDeleteGroup, ok, "the parent owner's 9008")
				}
				awaitParents(t, owner, children[0], nil, "NIP-29 (nip29/subgroups.10): when a parent is deleted its children become roots; the child's 39000")
			}},
		{Case: framework.NewCase("base/subgroups/11", framework.MUST,
			"An admin of the parent only may not put a user into the child, and the parent's member is not in the child's 39002 unless a 9000 of the child names it.",
			"nip29/subgroups.11").
			WithReading("Level: \"Each subgroup has its own independent membership\", \"Nothing is inherited across the parent-child link\" and \"being an admin of the parent grants no authority over any child unless the child's own kind:39001 lists the same pubkey\" have no keyword. They are held at MUST as the definition of a subgroup's membership in a feature the relay chose to offer (no subgroups: unsupported). The text's own MAY (a relay \"MAY emit the corresponding kind:9000/kind:9001 moderation events itself\") is respected: a member listed in the child after a 9000 of the child is not a failure, and the parent's admin is a key with no power of its own in the child."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				parent, children := subgroupFamily(t, owner, 1)
				child := children[0]
				// The parent's admin must have no power over the child by
				// the relay's policy either: what is judged is that the
				// parent's role does not give it any.
				admin := t.Connect(t.ActorAs(framework.KindUnprivileged, "admin"))
				member := t.Connect(t.Actor("member"))
				t.Accept(owner, fixtures.PutUser(owner.Actor(), parent, admin.Actor().PubKey, t.PutRoles(owner, parent, "admin")...), "put the parent's admin")
				t.Accept(owner, fixtures.PutUser(owner.Actor(), parent, member.Actor().PubKey, t.PutRoles(owner, parent, "member")...), "put the parent's member")
				if found, _ := framework.HasP(t.StateEvent(owner, fixtures.KindAdmins, child), admin.Actor().PubKey); found {
					t.Note("the child's 39001 lists the parent's admin (the relay put it there itself)")
					return
				}
				friend := t.Actor("friend")
				t.Reject(admin, fixtures.PutUser(admin.Actor(), child, friend.PubKey, ""), "", "NIP-29 (nip29/subgroups.11): admin roles do not inherit; a 9000 on the child from an admin of the parent only")
				if found, _ := framework.HasP(t.StateEvent(owner, fixtures.KindMembers, child), member.Actor().PubKey); found {
					puts := t.Query(owner, nostr.Filter{Kinds: []int{fixtures.KindPutUser}, Tags: nostr.TagMap{"h": {child}, "p": {member.Actor().PubKey}}})
					if len(puts) == 0 {
						t.Violates("nip29/subgroups.11", "NIP-29 (nip29/subgroups.11): membership does not cascade; the parent's member is listed in the child's 39002 with no 9000 of the child naming it")
					}
					t.Note("the relay propagated the parent's membership with a 9000 in the child (%s), as NIP-29 allows", fmt.Sprint(framework.IDs(puts)))
				}
			}},
		{Case: framework.NewCase("base/subgroups/12", framework.MUST,
			"A message stored in a group before the group gains a parent is still served, by #h and by id, after the group gains a parent, moves to another parent and becomes a root again.",
			"nip29/subgroups.13").
			WithReading("Level: \"Historical events under the group's h tag remain valid across these transitions\" has no keyword. It stands in the Rules list of subgroups beside MUST rules and is held at MUST there: a relay that offers subgroups and drops a group's history when it gains or loses a parent breaks the rule the list states, and NIP-01 reads serve what the relay stored. A relay without subgroups is unsupported."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("owner"))
				group := t.CreateChannel(owner, fixtures.ChannelSpec{Name: t.Unique("history")})
				msg := fixtures.Message(owner.Actor(), group, "before any parent "+t.Unique("m"))
				t.Accept(owner, msg, "the owner's message in the group")
				requireHistory(t, owner, group, msg.ID, "before any transition")
				first := t.CreateChannel(owner, fixtures.ChannelSpec{Name: t.Unique("parent")})
				adoptOrSkip(t, owner, group, first)
				t.Checking("nip29/subgroups.2")
				awaitParents(t, owner, group, []string{first}, "NIP-29 (nip29/subgroups.2): after the authorized 9002 with [\"parent\", "+first+"], the group's 39000")
				requireHistory(t, owner, group, msg.ID, "after the group gained a parent")
				second := t.CreateChannel(owner, fixtures.ChannelSpec{Name: t.Unique("parent")})
				t.Accept(owner, t.FullEdit(owner, group, nostr.Tag{"parent", second}), "the 9002 moving the group to another parent")
				t.Checking("nip29/subgroups.9")
				awaitParents(t, owner, group, []string{second}, "NIP-29 (nip29/subgroups.9): after the move, the group's 39000")
				requireHistory(t, owner, group, msg.ID, "after the group moved to another parent")
				t.Accept(owner, t.FullEdit(owner, group, nostr.Tag{"name", t.Unique("root")}), "the group's 9002 without a parent tag")
				awaitParents(t, owner, group, nil, "NIP-29 (nip29/subgroups.9): after the 9002 without a parent tag, the group's 39000")
				requireHistory(t, owner, group, msg.ID, "after the group became a root again")
			}},
		{Case: framework.NewCase("base/subgroups/13", framework.MUST,
			"A group deleted by an accepted 9008 no longer exists: a 9002 declaring it as parent is rejected. What else the deleted group still does (a member's message, an outsider's join request, its 39000 and 39002, its earlier message by #h) is noted.",
			"nip29/subgroups.6").
			WithReading("NIP-29 names 9008 delete-group and gives it one effect in words: when a parent is deleted its children become roots (base/subgroups/10). A deleted group is read as one that no longer exists on the relay, so a 9002 naming it as parent falls under \"if a group's declared parent does not exist on the relay the kind:9002 MUST be rejected\". No sentence says what writes, joins and reads of a deleted group get: they are noted, never judged."),
			Run: func(t *framework.T) {
				owner, member, gone := framework.ChannelWithMember(t, fixtures.Open, "member")
				subgroupFamily(t, owner, 1) // subgroups are optional: unsupported without them
				old := fixtures.Message(member.Actor(), gone, t.Unique("before the delete"))
				t.Accept(member, old, "a member's message before the delete")
				del := fixtures.DeleteChannel(owner.Actor(), gone)
				if ok := t.Publish(owner, del); !ok.Accepted {
					t.RefusedWrite(framework.PreDeleteGroup, ok, "the creator's 9008")
				}
				t.Track(del)
				orphan := t.CreateChannel(owner, fixtures.ChannelSpec{Name: t.Unique("orphan")})
				if ok := adopt(t, owner, orphan, gone); ok.Accepted {
					t.Violates("nip29/subgroups.6", "NIP-29 (nip29/subgroups.6): the 9002 declaring the deleted group %s as parent was accepted (%s); a deleted group does not exist on the relay, and a 9002 whose parent does not exist must be rejected", gone, ok)
				} else {
					framework.CheckPrefix("OK", ok.Reason)
				}
				okMsg := t.Publish(member, fixtures.Message(member.Actor(), gone, t.Unique("after the delete")))
				outsider := t.Connect(t.ActorAs(framework.KindAny, "outsider")) // its join is noted, not judged
				okJoin := t.Publish(outsider, fixtures.JoinRequest(outsider.Actor(), gone, ""))
				meta := t.QueryResult(owner, nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindMembers}, Tags: nostr.TagMap{"d": {gone}}})
				msgs := t.QueryResult(owner, nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {gone}}})
				t.Note("after the accepted 9008 of %s: a member's message got %s; an outsider's join request got %s; 39000/39002 by #d: %d event(s) (CLOSED %v); the earlier message by #h served: %v",
					gone, okMsg, okJoin, len(meta.Events), meta.Closed, slices.Contains(framework.IDs(msgs.Events), old.ID))
			}},
	}
}

// subgroupsAdvertised reports whether the NIP-11 document has "nip29":
// {"subgroups": true}.
func subgroupsAdvertised(t *framework.T) bool {
	if t.Env.Info == nil || t.Env.Info.Raw == "" {
		return false
	}
	var doc struct {
		NIP29 struct {
			Subgroups bool `json:"subgroups"`
		} `json:"nip29"`
	}
	return json.Unmarshal([]byte(t.Env.Info.Raw), &doc) == nil && doc.NIP29.Subgroups
}

// parentsOf and childrenOf read a 39000's subgroup tags.
func parentsOf(meta *nostr.Event) []string  { return fixtures.TagValues(meta, "parent") }
func childrenOf(meta *nostr.Event) []string { return fixtures.TagValues(meta, "child") }

// adopt sends c's 9002 making child a child of parent, with the child's
// full metadata (a 9002 may be read as a put), and returns the OK.
func adopt(t *framework.T, c *fixtures.Client, child, parent string) fixtures.OK {
	return t.Publish(c, t.FullEdit(c, child, nostr.Tag{"parent", parent}))
}

// subgroupEvidence makes the case unsupported unless the relay shows
// subgroups by positive evidence: NIP-11 "nip29": {"subgroups": true}, or
// a child tag the relay itself added to parent's 39000 after child's
// accepted adoption. A parent tag on the child's 39000 is no evidence: a
// relay that copies a 9002's tags into its 39000 shows one without
// implementing subgroups.
func subgroupEvidence(t *framework.T, c *fixtures.Client, child, parent string) {
	GinkgoHelper()
	if subgroupsAdvertised(t) {
		return
	}
	// The child tag may come after the OK: absence is judged after a
	// barrier and the relay's settle window, not at the first read.
	var meta *nostr.Event
	if t.Within(func(g Gomega) {
		meta = t.GroupMetadata(c, parent)
		g.Expect(childrenOf(meta)).To(ContainElement(child))
	}) {
		return
	}
	mirrored := ""
	if slices.Contains(parentsOf(t.GroupMetadata(c, child)), parent) {
		mirrored = " (the child's 39000 carries the parent tag, which a relay may copy from the 9002 without implementing subgroups)"
	}
	t.Unsupported(fmt.Sprintf("no positive evidence of subgroups: NIP-11 has no \"nip29\": {\"subgroups\": true} and, after the accepted 9002 adopting %s, the parent's 39000 lists no child tag for it (tags: %s; %s)%s; subgroups are optional (\"Groups MAY be organized hierarchically\")",
		child, framework.TagsOf(meta), t.LastSettle(), mirrored))
}

// subgroupFamily creates, as owner, a parent group and n children adopted
// in order by 9002 ["parent", <parent>], and waits until every child's
// 39000 carries the parent tag. A relay that refuses or ignores the first
// adoption without advertising subgroups makes the case unsupported
// (subgroups are optional); one that advertises them fails it.
func subgroupFamily(t *framework.T, owner *fixtures.Client, n int) (parent string, children []string) {
	GinkgoHelper()
	// Adopting is nip29/subgroups.2's step (base/subgroups/2 checks it),
	// which every subgroup case needs.
	defer t.Checking("nip29/subgroups.2")()
	advertised := subgroupsAdvertised(t)
	parent = t.CreateChannel(owner, fixtures.ChannelSpec{Name: t.Unique("parent")})
	for i := 0; i < n; i++ {
		child := t.CreateChannel(owner, fixtures.ChannelSpec{Name: t.Unique("child")})
		ok := adopt(t, owner, child, parent)
		if !ok.Accepted {
			framework.CheckPrefix("OK", ok.Reason)
			if !advertised && i == 0 {
				t.Unsupported("the relay refused a 9002 with a parent tag from the owner of both groups (" + ok.String() + ") and does not advertise \"nip29\": {\"subgroups\": true}; subgroups are optional")
			}
			t.Violates("nip29/subgroups.2", "NIP-29 (nip29/subgroups.2): parenting is triggered by an authorized admin's 9002 with the desired parent; the owner of both groups was refused: %s", ok)
		}
		if i == 0 {
			subgroupEvidence(t, owner, child, parent)
		}
		awaitParents(t, owner, child, []string{parent}, "NIP-29 (nip29/subgroups.2): after the authorized 9002 with [\"parent\", "+parent+"], the group's 39000")
		children = append(children, child)
	}
	return parent, children
}

// adoptOrSkip sends the owner's 9002 making child a child of parent: a
// refusal by a relay that does not advertise subgroups makes the case
// unsupported (subgroups are optional); one that advertises them fails it.
func adoptOrSkip(t *framework.T, owner *fixtures.Client, child, parent string) {
	GinkgoHelper()
	defer t.Checking("nip29/subgroups.2")()
	ok := adopt(t, owner, child, parent)
	if ok.Accepted {
		subgroupEvidence(t, owner, child, parent)
		return
	}
	framework.CheckPrefix("OK", ok.Reason)
	if !subgroupsAdvertised(t) {
		t.Unsupported("the relay refused a 9002 with a parent tag from the owner of both groups (" + ok.String() + ") and does not advertise \"nip29\": {\"subgroups\": true}; subgroups are optional")
	}
	t.Violates("nip29/subgroups.2", "NIP-29 (nip29/subgroups.2): parenting is triggered by an authorized admin's 9002 with the desired parent; the owner of both groups was refused: %s", ok)
}

// requireHistory requires that the group's message id is still served to
// its owner, by the group's #h and by id (nip29/subgroups.13: historical
// events under the group's h tag remain valid across parent transitions).
func requireHistory(t *framework.T, c *fixtures.Client, group, id, when string) {
	GinkgoHelper()
	for _, f := range []nostr.Filter{
		{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {group}}},
		{IDs: []string{id}},
	} {
		if !slices.Contains(framework.IDs(t.Query(c, f)), id) {
			t.Violates("nip29/subgroups.13", "NIP-29 (nip29/subgroups.13): historical events under the group's h tag remain valid across parent transitions; %s, the message %s is not served for %s", when, id, f)
		}
	}
}

// awaitParents waits until the group's 39000 carries exactly the parent
// tags want (none: a root).
func awaitParents(t *framework.T, c *fixtures.Client, group string, want []string, what string) {
	GinkgoHelper()
	awaitTagValues(t, c, group, "parent", want, what)
}

// awaitChildren waits until the group's 39000 lists exactly the children
// want, in order.
func awaitChildren(t *framework.T, c *fixtures.Client, group string, want []string, what string) {
	GinkgoHelper()
	awaitTagValues(t, c, group, "child", want, what)
}

// awaitTagValues waits until the values of the group's 39000 tags called
// name are exactly want, in order.
func awaitTagValues(t *framework.T, c *fixtures.Client, group, name string, want []string, what string) {
	GinkgoHelper()
	t.Eventually(func(g Gomega) {
		meta := t.GroupMetadata(c, group)
		got := fixtures.TagValues(meta, name)
		g.Expect(slices.Equal(got, want)).To(BeTrue(), "%s: %s tags %q, want %q (39000 tags: %s)", what, name, got, want, framework.TagsOf(meta))
	}, what)
}
