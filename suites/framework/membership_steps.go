package framework

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// Membership observed around a step. The members-list precondition (the
// relay publishes 39002) is judged by its own read before the step; what
// the 39002 shows after the step is a finding about that step, never a
// missing feature: a 39002 that listed the member before and is gone, or
// refused, after the step fails the case at the step's sentence.

// RequireListed is the probe before a membership step: the relay publishes
// a 39002 for ch (else the case is blocked on members-list) and, within
// the step deadline, lists pubkey there (else blocked on put-listed).
func RequireListed(t *T, reader *fixtures.Client, ch, pubkey string) {
	t.MustStateEvent(reader, fixtures.KindMembers, ch)
	var last string
	listed := false
	held := t.Within(func(g Gomega) {
		r, err := reader.Query(t.Ctx(), nostr.Filter{Kinds: []int{fixtures.KindMembers}, Tags: nostr.TagMap{"d": {ch}}})
		g.Expect(err).NotTo(HaveOccurred())
		cur := NewestHead(r.Events)
		last = TagsOf(cur)
		listed, _ = HasP(cur, pubkey)
		g.Expect(listed).To(BeTrue())
	})
	if !held && !listed {
		t.Blocked(PrePutListed, fmt.Sprintf("39002 of %s after the 9000 putting %s: %s", ch, pubkey, last))
	}
}

// AwaitListed waits within the step deadline until the group's 39002 (as
// read by reader) lists pubkey (want true) or no longer does (want false).
// It blocks nothing: call it after a step whose precondition was probed
// before it. A CLOSED answer or a missing 39002 is never "not listed".
func AwaitListed(t *T, reader *fixtures.Client, ch, pubkey string, want bool, what string) {
	t.Eventually(func(g Gomega) {
		r, err := reader.Query(t.Ctx(), nostr.Filter{Kinds: []int{fixtures.KindMembers}, Tags: nostr.TagMap{"d": {ch}}})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(r.Closed).To(BeFalse(), "the 39002 read was answered CLOSED %q", r.ClosedReason)
		cur := NewestHead(r.Events)
		g.Expect(cur).NotTo(BeNil(), "the relay served a 39002 before the step and serves none after it")
		found, _ := HasP(cur, pubkey)
		g.Expect(found).To(Equal(want), "%s: listed in 39002 = %v, want %v", what, found, want)
	}, what)
}

// ListedNow reads the group's 39002 once and reports whether it lists
// pubkey; a refused read or a missing 39002 fails the case (the 39002 was
// served before the step).
func ListedNow(t *T, reader *fixtures.Client, ch, pubkey string) bool {
	r := t.QueryResult(reader, nostr.Filter{Kinds: []int{fixtures.KindMembers}, Tags: nostr.TagMap{"d": {ch}}})
	if r.Closed {
		Failf("the 39002 of %s was served before the step and is refused after it: CLOSED %q", ch, r.ClosedReason)
	}
	cur := NewestHead(r.Events)
	if cur == nil {
		Failf("the 39002 of %s was served before the step and is gone after it", ch)
	}
	found, _ := HasP(cur, pubkey)
	return found
}

// ChannelWithMember creates a group owned by a fresh owner and adds a
// member with the given role word ("member": no role; "admin"/"owner": the
// relay's moderating role). It returns both connections and the group id.
func ChannelWithMember(t *T, visibility, role string) (owner, member *fixtures.Client, ch string) {
	return ChannelWithMemberKind(t, visibility, role, ActorKindOf(role))
}

// ChannelWithMemberKind is ChannelWithMember with the kind of key the
// member needs stated by the case (a member who only reads as a member
// needs no particular power: KindAny).
func ChannelWithMemberKind(t *T, visibility, role string, kind ActorKind) (owner, member *fixtures.Client, ch string) {
	owner = t.Connect(t.Actor("owner"))
	member = t.Connect(t.ActorAs(kind, role))
	ch = t.CreateChannel(owner, fixtures.ChannelSpec{Visibility: visibility})
	t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, member.Actor().PubKey, t.PutRoles(owner, ch, role)...), "put user as "+role)
	return owner, member, ch
}
