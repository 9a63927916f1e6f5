package reference

import (
	"math/rand"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func TestProfilesChannelTypes(t *testing.T) {
	for _, tc := range []struct {
		profile     string
		systemOK    bool
		wantPrivate bool
	}{{"none", false, false}, {"identity", true, true}, {"labels", false, false}} {
		t.Run(tc.profile, func(t *testing.T) {
			_, url := startRelay(t, Config{Profile: tc.profile})
			owner := newActor(t)
			c := dial(t, url)
			c.auth(owner)
			id := newChannelID()
			ok := c.publish(owner.create(t, id, nostr.Tag{"channel_type", "system"}))
			if ok.OK != tc.systemOK {
				t.Fatalf("system channel: %v %q", ok.OK, ok.Reason)
			}
			if ok.OK {
				meta := c.state(kindGroupMetadata, id)
				if has := meta.Tags.FindWithValue("t", "system") != nil; !has {
					t.Errorf("39000 lacks type: %v", meta.Tags)
				}
				isPrivate := false
				for _, tag := range meta.Tags {
					isPrivate = isPrivate || (len(tag) == 1 && tag[0] == "private")
				}
				if isPrivate != tc.wantPrivate {
					t.Errorf("private=%v, want %v", isPrivate, tc.wantPrivate)
				}
			}
			for _, typ := range []string{"stream", "forum", "dm", "workflow"} {
				c.mustPublish(owner.create(t, newChannelID(), nostr.Tag{"channel_type", typ}))
			}
		})
	}
}

func TestMembershipChangesLiveAccess(t *testing.T) {
	_, url := startRelay(t, Config{})
	owner, member := newActor(t), newActor(t)
	co, cm := dial(t, url), dial(t, url)
	co.auth(owner)
	cm.auth(member)
	id := newChannelID()
	co.mustPublish(owner.create(t, id, nostr.Tag{"visibility", "private"}))
	cm.req("s", nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {id}}})
	before := owner.msg(t, id, "before", 0)
	co.mustPublish(before)
	co.mustPublish(owner.put(t, id, member.pk, ""))
	after := owner.msg(t, id, "after", 0)
	co.mustPublish(after)
	got, err := cm.live("s", func(*nostr.Event) bool { return true })
	if err != nil || got.ID != after.ID {
		t.Fatalf("first live event = %v, %v; want the post-membership message", got, err)
	}
	// Now both are in history for the member.
	if evs := cm.query(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {id}}}); len(evs) != 2 {
		t.Fatalf("member history: %d", len(evs))
	}
}

func TestHandlerWithoutStart(t *testing.T) {
	r, err := New(Config{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r.Handler())
	defer srv.Close()
	defer r.Close()
	a := newActor(t)
	c := dial(t, "ws"+strings.TrimPrefix(srv.URL, "http"))
	c.auth(a)
	c.mustPublish(a.event(t, 1, nil, "x", 0))
	if r.URL() != "" {
		t.Errorf("URL before Start = %q", r.URL())
	}
}

func TestMalformedEventWithIDGetsOK(t *testing.T) {
	_, url := startRelay(t, Config{})
	c := dial(t, url)
	id := strings.Repeat("ab", 32)
	c.sendRaw(`["EVENT",{"id":"` + id + `","kind":"not a number"}]`)
	if ok := c.okFor(id); ok.OK || !strings.HasPrefix(ok.Reason, "invalid:") {
		t.Fatalf("OK = %+v", ok)
	}
}

func TestRandomFramesNeverPanic(t *testing.T) {
	var panics atomic.Int32
	_, url := startRelay(t, Config{Logf: func(format string, _ ...any) {
		if strings.HasPrefix(format, "panic") {
			panics.Add(1)
		}
	}})
	a := newActor(t)
	c := dial(t, url)
	c.auth(a)
	good := a.event(t, 9, nostr.Tags{{"h", newChannelID()}, {"p", a.pk}}, "x", 0)
	b, _ := (&nostr.EventEnvelope{Event: *good}).MarshalJSON()
	base := []string{string(b), `["REQ","s",{"kinds":[1,2],"#h":["x"],"since":1,"until":2,"limit":3}]`,
		`["COUNT","s",{"ids":["` + good.ID + `"]}]`, `["AUTH",` + good.String() + `]`}
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte(`[]{}",:0123456789abcdefEVNTREQ-\ ` + "\x00\xff")
	for i := 0; i < 300; i++ {
		frame := []byte(base[i%len(base)])
		for j := 0; j < 1+rng.Intn(4); j++ {
			frame[rng.Intn(len(frame))] = alphabet[rng.Intn(len(alphabet))]
		}
		c.sendRaw(string(frame))
	}
	c.mustPublish(a.event(t, 1, nil, "alive", 0))
	if n := panics.Load(); n > 0 {
		t.Fatalf("%d panics recovered", n)
	}
}
