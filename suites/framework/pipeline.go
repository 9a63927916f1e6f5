package framework

import (
	"fmt"
	"sync"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// publishWindow is how many events PublishAll keeps in flight on one
// connection: a sweep of hundreds of independent events then costs a few
// round trips, not one per event.
const publishWindow = 32

// PublishAll sends independent events on c with up to publishWindow of
// them awaiting their OK at once, and returns every OK in the order of
// evs. Use it only for events whose outcomes do not depend on each other
// (a sweep of values the relay must each refuse): the relay may handle
// them in any order.
func (t *T) PublishAll(c *fixtures.Client, evs []*nostr.Event) []fixtures.OK {
	GinkgoHelper()
	oks := make([]fixtures.OK, len(evs))
	errs := make([]error, len(evs))
	slots := make(chan struct{}, publishWindow)
	var wg sync.WaitGroup
	for i, ev := range evs {
		slots <- struct{}{}
		wg.Add(1)
		go func(i int, ev *nostr.Event) {
			defer wg.Done()
			defer func() { <-slots }()
			oks[i], errs[i] = t.Send(c, ev)
		}(i, ev)
	}
	wg.Wait()
	for i, err := range errs {
		t.Must(err, fmt.Sprintf("publish kind %d (%d of %d sent together)", evs[i].Kind, i+1, len(evs)))
	}
	return oks
}
