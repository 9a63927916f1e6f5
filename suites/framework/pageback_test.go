package framework

import (
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
