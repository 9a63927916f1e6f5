package reference

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func TestConcurrentWritersAndReaders(t *testing.T) {
	for _, db := range []string{"memory", "file"} {
		t.Run(db, func(t *testing.T) {
			cfg := Config{}
			if db == "file" {
				cfg.DBPath = filepath.Join(t.TempDir(), "c.db")
			}
			_, url := startRelay(t, cfg)
			owner := newActor(t)
			setup := dial(t, url)
			setup.auth(owner)
			id := newChannelID()
			setup.mustPublish(owner.create(t, id))

			const writers, each = 4, 15
			var wg sync.WaitGroup
			errs := make(chan error, writers*2)
			for w := 0; w < writers; w++ {
				a := newActor(t)
				c, rc := dial(t, url), dial(t, url)
				c.auth(a)
				wg.Add(2)
				go func() {
					defer wg.Done()
					for i := 0; i < each; i++ {
						ev := a.msg(t, id, fmt.Sprint(i), 0)
						c.send(&nostr.EventEnvelope{Event: *ev})
						env, err := c.next(func(e nostr.Envelope) bool {
							ok, is := e.(*nostr.OKEnvelope)
							return is && ok.EventID == ev.ID
						})
						if err != nil || !env.(*nostr.OKEnvelope).OK {
							errs <- fmt.Errorf("write %d: %v %v", i, env, err)
							return
						}
					}
				}()
				go func() {
					defer wg.Done()
					for i := 0; i < each; i++ {
						sub := fmt.Sprint("r", i)
						rc.send(&nostr.ReqEnvelope{SubscriptionID: sub, Filters: nostr.Filters{{Kinds: []int{9}, Limit: 10}}})
						if _, err := rc.next(func(e nostr.Envelope) bool {
							eose, is := e.(*nostr.EOSEEnvelope)
							return is && string(*eose) == sub
						}); err != nil {
							errs <- fmt.Errorf("read %d: %v", i, err)
							return
						}
						rc.send(ptr(nostr.CloseEnvelope(sub)))
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			if n := setup.count(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {id}}}); n != writers*each {
				t.Fatalf("COUNT = %d, want %d", n, writers*each)
			}
		})
	}
}
