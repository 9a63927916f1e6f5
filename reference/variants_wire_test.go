package reference

import (
	"fmt"
	"slices"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// eoseOrder sends n REQs back to back on one connection and returns the
// subscription ids in the order their EOSEs came.
func eoseOrder(t *testing.T, url string, n int) (sent, got []string) {
	t.Helper()
	c := dial(t, url)
	defer c.close()
	for i := range n {
		id := fmt.Sprintf("s%02d", i)
		sent = append(sent, id)
		c.send(&nostr.ReqEnvelope{SubscriptionID: id, Filters: nostr.Filters{{Kinds: []int{1}, Limit: 1}}})
	}
	for range n {
		env := c.expect(func(e nostr.Envelope) bool { _, ok := e.(*nostr.EOSEEnvelope); return ok })
		got = append(got, string(*env.(*nostr.EOSEEnvelope)))
	}
	return sent, got
}

// TestVariantMessagesHandledConcurrently: under the variant, REQs sent
// back to back are all answered, and not always in the order sent; the
// conforming relay answers them in order.
func TestVariantMessagesHandledConcurrently(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29"})
	if sent, got := eoseOrder(t, url, 30); !slices.Equal(sent, got) {
		t.Fatalf("without the variant the EOSEs came in the order %v, not as sent", got)
	}
	_, url = startRelay(t, Config{Profile: "nip29", Variants: []string{variantConcurrentMessages}})
	for range 5 {
		sent, got := eoseOrder(t, url, 30)
		if !slices.Equal(slices.Sorted(slices.Values(got)), sent) {
			t.Fatalf("EOSEs %v: not one for each REQ sent", got)
		}
		if !slices.Equal(sent, got) {
			return
		}
	}
	t.Fatal("under messages-handled-concurrently 5 rounds of 30 REQs were all answered in the order sent")
}

// TestVariantNoticeOnConnect: a NOTICE comes before the client sent
// anything.
func TestVariantNoticeOnConnect(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29", Variants: []string{variantNoticeOnConnect}})
	c := dial(t, url)
	defer c.close()
	c.expect(func(e nostr.Envelope) bool { _, ok := e.(*nostr.NoticeEnvelope); return ok })
}

// TestVariantClosedAnswersClose: a CLOSE is answered CLOSED with its id,
// after the subscription ended (nothing more comes under it).
func TestVariantClosedAnswersClose(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29", Variants: []string{variantClosedAfterClose}})
	c := dial(t, url)
	defer c.close()
	c.req("x", nostr.Filter{Kinds: []int{1}, Limit: 1})
	closeX := nostr.CloseEnvelope("x")
	c.send(&closeX)
	env := c.expect(func(e nostr.Envelope) bool { _, ok := e.(*nostr.ClosedEnvelope); return ok })
	if got := env.(*nostr.ClosedEnvelope).SubscriptionID; got != "x" {
		t.Fatalf("CLOSED for %q, want x", got)
	}
}
