package labels

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// createWithheld creates an unlabeled stream channel, makes it private and
// hidden with NIP-29's own flags through one 9002 that carries the whole
// metadata (a name and both flags, so a relay that reads 9002 as a patch
// and one that reads it as a replacement end in the same state), checks as
// a precondition that prober, a non-member, cannot read its 39000 any
// more, and only then adds the labels with a label-only 9002: the case
// judges labels against metadata it has seen withheld. prober must not be
// a member of the channel (an outsider or an anonymous connection).
func createWithheld(t *framework.T, owner, prober *fixtures.Client, labels ...string) string {
	GinkgoHelper()
	ch := createLabeled(t, owner, "", fixtures.Open)
	makeWithheld(t, owner, prober, ch)
	if len(labels) > 0 {
		acceptNew(t, owner, mutationEv(owner.Actor(), ch, labels, nil), "label the private, hidden channel")
	}
	return ch
}

// makeWithheld makes ch private and hidden (one 9002 with the whole
// metadata) and blocks the case unless prober then reads no 39000 of it.
func makeWithheld(t *framework.T, owner, prober *fixtures.Client, ch string) {
	GinkgoHelper()
	edit := fixtures.EditGroup(owner.Actor(), ch, fixtures.GroupMetadata{Name: "withheld " + ch[:8], Flags: []string{fixtures.FlagPrivate, fixtures.FlagHidden}})
	if ok := t.Publish(owner, edit); !ok.Accepted {
		t.Blocked(framework.PreWithheldMetadata, fmt.Sprintf("the owner's 9002 making the channel private and hidden was refused: %s", ok))
	}
	r := t.QueryResult(prober, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
	if len(r.Events) > 0 {
		t.Blocked(framework.PreWithheldMetadata, fmt.Sprintf("after the 9002 with [\"private\"] and [\"hidden\"], %s still reads the channel's 39000 %s", framework.ActorName(prober), r.Events[0].ID))
	}
	if r.Closed {
		t.Note("the private, hidden channel's 39000: a non-member's exact read is refused (CLOSED %q)", r.ClosedReason)
	}
}
