package reference

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// TestDeletionIsSoft: a kind 5 hides its author's events from reads (REQ
// and COUNT), leaves other keys' events alone, and keeps the deleted event
// as evidence: resending it is still a duplicate, not a new event.
func TestDeletionIsSoft(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "none"})
	a, b := newActor(t), newActor(t)
	ca, cb := dial(t, url), dial(t, url)
	ca.auth(a)
	cb.auth(b)
	mine := a.event(t, 1, nil, "mine", 0)
	theirs := b.event(t, 1, nil, "theirs", 0)
	ca.mustPublish(mine)
	cb.mustPublish(theirs)
	ca.mustPublish(a.event(t, kindDeletion, nostr.Tags{{"e", mine.ID}, {"e", theirs.ID}}, "", 0))
	f := nostr.Filter{IDs: []string{mine.ID, theirs.ID}}
	got := ca.query(f)
	if len(got) != 1 || got[0].ID != theirs.ID {
		t.Fatalf("after the deletion: got %d events, want only the other key's", len(got))
	}
	if n := ca.count(f); n != 1 {
		t.Fatalf("COUNT after the deletion = %d, want 1", n)
	}
	if ok := ca.publish(mine); !strings.HasPrefix(ok.Reason, "duplicate:") {
		t.Fatalf("resending the deleted event: %v %q, want a duplicate: answer", ok.OK, ok.Reason)
	}
}
