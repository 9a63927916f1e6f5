package reference

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// failingProfile fails inside the command transaction, after the channel row,
// the command event and the member rows were written.
type failingProfile struct {
	noneProfile
	fail *atomic.Bool
}

func (p failingProfile) onMembership(*txn, *Channel, string, bool) error {
	if p.fail.Load() {
		return reject("error", "injected failure")
	}
	return nil
}

func TestCommandIsAtomic(t *testing.T) {
	var fail atomic.Bool
	fail.Store(true)
	r, err := New(Config{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	r.profile = failingProfile{fail: &fail}
	url, err := r.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })

	owner, member := newActor(t), newActor(t)
	c := dial(t, url)
	c.auth(owner)
	id := newChannelID()
	create := owner.create(t, id)
	if ok := c.publish(create); ok.OK || !strings.HasPrefix(ok.Reason, "error:") {
		t.Fatalf("create with failing hook: %+v", ok)
	}
	if evs := c.query(nostr.Filter{IDs: []string{create.ID}}); len(evs) != 0 {
		t.Fatal("command stored although application failed")
	}
	if st := c.state(kindGroupMetadata, id); st != nil {
		t.Fatal("39000 published although application failed")
	}
	fail.Store(false)
	c.mustPublish(owner.create(t, id)) // UUID was not consumed
	fail.Store(true)
	put := owner.put(t, id, member.pk, "")
	if ok := c.publish(put); ok.OK {
		t.Fatal("put with failing hook accepted")
	}
	if mem := c.state(kindGroupMembers, id); hasPTag(mem, member.pk, roleMember) {
		t.Fatal("39002 changed although application failed")
	}
	if evs := c.query(nostr.Filter{IDs: []string{put.ID}}); len(evs) != 0 {
		t.Fatal("9000 stored although application failed")
	}
}
