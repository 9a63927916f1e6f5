package framework

import (
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip11"
)

// TestPublishedLimitsAreNamed: each NIP-11 limit an event or a read leaves
// is named, with what the harness sent; data inside every limit names none.
func TestPublishedLimitsAreNamed(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	l := &nip11.RelayLimitationDocument{MaxEventTags: 3, MaxContentLength: 5, CreatedAtLowerLimit: 60,
		CreatedAtUpperLimit: 60, MaxMessageLength: 600, MaxLimit: 10, DefaultLimit: 20}
	ok := &nostr.Event{CreatedAt: nostr.Timestamp(now.Unix()), Tags: nostr.Tags{{"h", "x"}}, Content: "héllo"}
	if why := eventOutsideLimits(l, ok, now); why != "" {
		t.Errorf("event inside every limit: %s", why)
	}
	for _, tc := range []struct {
		name string
		ev   nostr.Event
		want string
	}{
		{"tags", nostr.Event{CreatedAt: ok.CreatedAt, Tags: nostr.Tags{{"a"}, {"b"}, {"c"}, {"d"}}}, "max_event_tags is 3"},
		{"content", nostr.Event{CreatedAt: ok.CreatedAt, Content: "héllo!"}, "max_content_length is 5"},
		{"past", nostr.Event{CreatedAt: ok.CreatedAt - 61}, "created_at_lower_limit is 60"},
		{"future", nostr.Event{CreatedAt: ok.CreatedAt + 61}, "created_at_upper_limit is 60"},
		{"message", nostr.Event{CreatedAt: ok.CreatedAt, Tags: nostr.Tags{{strings.Repeat("x", 600)}}}, "max_message_length is 600"},
	} {
		if why := eventOutsideLimits(l, &tc.ev, now); !strings.Contains(why, tc.want) {
			t.Errorf("%s: got %q, want it to name %q", tc.name, why, tc.want)
		}
	}
	if why := eventOutsideLimits(&nip11.RelayLimitationDocument{MinPowDifficulty: 8}, ok, now); !strings.Contains(why, "min_pow_difficulty") {
		t.Errorf("proof of work: got %q", why)
	}
	if why := filtersOutsideLimits(l, []nostr.Filter{{Limit: 10}}); why != "" {
		t.Errorf("limit at max_limit: %s", why)
	}
	if why := filtersOutsideLimits(l, []nostr.Filter{{Limit: 11}}); !strings.Contains(why, "max_limit is 10") {
		t.Errorf("limit over max_limit: got %q", why)
	}
	if why := ResultMayBeCut(l, []nostr.Filter{{Kinds: []int{9}}}, 9); why != "" {
		t.Errorf("9 events for a filter without limit under max_limit 10: %s", why)
	}
	if why := ResultMayBeCut(l, []nostr.Filter{{Kinds: []int{9}}}, 10); !strings.Contains(why, "max_limit is 10") {
		t.Errorf("10 events for a filter without limit: got %q", why)
	}
	if why := ResultMayBeCut(l, []nostr.Filter{{Kinds: []int{9}, Limit: 10}}, 10); why != "" {
		t.Errorf("a filter with its own limit is never cut by the default: %s", why)
	}
	if eventOutsideLimits(nil, ok, now) != "" || filtersOutsideLimits(nil, []nostr.Filter{{Limit: 1e6}}) != "" || ResultMayBeCut(nil, nil, 1e6) != "" {
		t.Error("a relay without limitation has no limits")
	}
}
