package framework

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip11"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// TestPageBackStopsAtAPublishedMaxLimit: a relay that publishes max_limit
// 20 and no default_limit answers every read of one second with the same
// 20 of its 25 events there: paging back with until brings nothing new,
// so the case is unsupported, not judged on a cut page.
func TestPageBackStopsAtAPublishedMaxLimit(t *testing.T) {
	a := fixtures.NewActor("writer")
	var stored []*nostr.Event
	for i := range 20 {
		stored = append(stored, a.Sign(&nostr.Event{Kind: 9, CreatedAt: 1_800_000_000, Content: fmt.Sprint(i)}))
	}
	ct, c := barrierT(t, barrierRelay{stored: stored}.start(t))
	ct.Env.Info = &fixtures.RelayInfo{RelayInformationDocument: nip11.RelayInformationDocument{Limitation: &nip11.RelayLimitationDocument{MaxLimit: 20}}}
	since := nostr.Timestamp(1_800_000_000)
	f := nostr.Filter{Kinds: []int{9}, Since: &since, Until: &since}
	if ok, got := recordsOutcome(func() { ct.PageBack(c, f, stored) }); !ok {
		t.Fatalf("paging a page of max_limit events that paging cannot get past returned (panic %v); want the case's outcome recorded (unsupported)", got)
	}
}

// cutRelay serves stored newest first, at most max of those a REQ's
// until admits, and publishes no default_limit.
func cutRelay(t *testing.T, stored []*nostr.Event, max int) string {
	return loopbackRelay(t, func(send func(v ...any)) func(string, []json.RawMessage) {
		return func(verb string, frame []json.RawMessage) {
			if verb != "REQ" || len(frame) < 3 {
				return
			}
			var id string
			var f nostr.Filter
			_ = json.Unmarshal(frame[1], &id)
			_ = json.Unmarshal(frame[2], &f)
			n := 0
			for _, ev := range stored {
				if n < max && (f.Until == nil || ev.CreatedAt <= *f.Until) {
					send("EVENT", id, ev)
					n++
				}
			}
			send("EOSE", id)
		}
	})
}

// recordsOutcome runs call and reports whether it recorded the case's
// outcome: outside a running Ginkgo spec, recording one (Unsupported
// records one, then skips) panics at that record; what panicked is
// returned for the failure text.
func recordsOutcome(call func()) (recorded bool, panicked any) {
	defer func() {
		panicked = recover()
		recorded = panicked != nil && strings.Contains(fmt.Sprint(panicked), "AddReportEntry(EntryVerdict")
	}()
	call()
	return false, nil
}

// TestPageBackFindsACutInsideOneSecond: a relay that cuts at 2 without
// publishing default_limit sends the 2 newest of 3 events in one second;
// paging back to that second brings nothing new, yet an older event
// matches: the case is unsupported. With no older match the page stands.
func TestPageBackFindsACutInsideOneSecond(t *testing.T) {
	a := fixtures.NewActor("writer")
	at := func(ts nostr.Timestamp, i int) *nostr.Event {
		return a.Sign(&nostr.Event{Kind: 9, CreatedAt: ts, Content: fmt.Sprint(i)})
	}
	stored := []*nostr.Event{at(1_800_000_100, 0), at(1_800_000_100, 1), at(1_800_000_099, 2)}
	f := nostr.Filter{Kinds: []int{9}}

	ct, c := barrierT(t, cutRelay(t, stored, 2))
	if ok, got := recordsOutcome(func() { ct.PageBack(c, f, stored[:2]) }); !ok {
		t.Fatalf("a page cut inside one second with an older match returned (panic %v); want the case's outcome recorded (unsupported)", got)
	}

	ct, c = barrierT(t, cutRelay(t, stored[:2], 2))
	if page := ct.PageBack(c, f, stored[:2]); len(page) != 2 {
		t.Fatalf("a complete answer in one second: got %d events back, want the 2 as read", len(page))
	}
}
