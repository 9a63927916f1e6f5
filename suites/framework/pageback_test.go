package framework

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/coder/websocket"

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
	var got any
	func() {
		defer func() { got = recover() }()
		ct.PageBack(c, f, stored)
	}()
	// Outside a running Ginkgo spec, recording the case's outcome
	// (Unsupported records one, then skips) panics at that record.
	if got == nil || !strings.Contains(fmt.Sprint(got), "AddReportEntry(EntryVerdict") {
		t.Fatalf("paging a page of max_limit events that paging cannot get past returned (panic %v); want the case's outcome recorded (unsupported)", got)
	}
}

// cutRelay serves stored newest first, at most max of those a REQ's
// until admits, and publishes no default_limit.
func cutRelay(t *testing.T, stored []*nostr.Event, max int) string {
	return loopbackRelay(t, func(ctx context.Context, ws *websocket.Conn, send func(v ...any)) {
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var frame []json.RawMessage
			var verb, id string
			if json.Unmarshal(data, &frame) != nil || len(frame) < 3 {
				continue
			}
			_ = json.Unmarshal(frame[0], &verb)
			_ = json.Unmarshal(frame[1], &id)
			if verb != "REQ" {
				continue
			}
			var f nostr.Filter
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
	var got any
	func() {
		defer func() { got = recover() }()
		ct.PageBack(c, f, stored[:2])
	}()
	if got == nil || !strings.Contains(fmt.Sprint(got), "AddReportEntry(EntryVerdict") {
		t.Fatalf("a page cut inside one second with an older match returned (panic %v); want the case's outcome recorded (unsupported)", got)
	}

	ct, c = barrierT(t, cutRelay(t, stored[:2], 2))
	if page := ct.PageBack(c, f, stored[:2]); len(page) != 2 {
		t.Fatalf("a complete answer in one second: got %d events back, want the 2 as read", len(page))
	}
}
