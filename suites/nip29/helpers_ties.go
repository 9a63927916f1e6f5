package nip29

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// Same-second sequences. NIP-29 decides membership by "the latest of
// either kind:9000 or kind:9001" and has the 39000 "reflect the latest
// group state"; NIP-01 settles ties of replaceable events by the lowest id
// ("the event with the lowest id (first in lexical order) should be
// retained"). With equal created_at a careful relay may read "latest" as
// the order it accepted the commands in, or by NIP-01's tie rule (lowest id
// first). Each case builds two ties: one where both readings agree (the
// later command also has the lower id), which must end one way, and one
// where they disagree, where either outcome passes and the report notes
// which reading the relay showed.

// Readings of a same-second tie, as noted in the report.
const (
	tieReadingArrival = "arrival order (the later accepted command is the latest)"
	tieReadingLowID   = "NIP-01's tie rule (the lower id is the latest)"
)

// tieNote says how a tie was built.
func tieNote(what string, first, second *nostr.Event) string {
	order := "after"
	if second.ID < first.ID {
		order = "before"
	}
	return fmt.Sprintf("%s: both created_at %d; the second (%s) was sent after the first (%s) and its id sorts %s it", what, first.CreatedAt, second.ID[:12], first.ID[:12], order)
}

// kindAppData is NIP-78's addressable kind for application data, the
// harness's own addressable events.
const kindAppData = 30078

// awaitName waits within the step deadline until the group's 39000 (read
// as c) carries one of names, and returns it.
func awaitName(t *framework.T, c *fixtures.Client, ch string, names []string, what string) string {
	var got string
	t.Eventually(func(g Gomega) {
		r, err := c.Query(t.Ctx(), nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(r.Closed).To(BeFalse(), "the 39000 read was answered CLOSED %q", r.ClosedReason)
		meta := framework.NewestHead(r.Events)
		g.Expect(meta).NotTo(BeNil(), "no 39000 is served for the group")
		got = framework.TagOf(meta, "name")
		g.Expect(names).To(ContainElement(got), "the 39000's name is %q, want one of %q", got, names)
	}, what)
	return got
}

// signTie re-signs ev as a with created_at at and, varying its content (a
// NIP-29 command's optional reason), an id that sorts before other's
// (before) or after it (!before).
func signTie(a *fixtures.Actor, ev *nostr.Event, at nostr.Timestamp, other string, before bool) *nostr.Event {
	for n := 0; ; n++ {
		ev.CreatedAt = at
		ev.Content = fmt.Sprintf("same-second step %d", n)
		a.Sign(ev)
		if ev.ID != other && (ev.ID < other) == before {
			return ev
		}
	}
}
