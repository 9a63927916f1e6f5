package reference

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// TestTieOrderPolicies: events with equal created_at come lowest id first
// by default, and in storage order under the tie-order policies.
func TestTieOrderPolicies(t *testing.T) {
	for _, tc := range []struct {
		policy string
		order  func(stored []*nostr.Event) []string
	}{
		{"", func(s []*nostr.Event) []string { return sortedIDs(s) }},
		{policyTiesFirstStoredFirst, func(s []*nostr.Event) []string { return ids(s) }},
		{policyTiesNewestStoredFirst, func(s []*nostr.Event) []string { return reversed(ids(s)) }},
	} {
		t.Run("policy="+tc.policy, func(t *testing.T) {
			cfg := Config{Profile: "none"}
			if tc.policy != "" {
				cfg.Policies = []string{tc.policy}
			}
			_, url := startRelay(t, cfg)
			a := newActor(t)
			c := dial(t, url)
			c.auth(a)
			at := nostr.Now()
			var stored []*nostr.Event
			for i := 0; i < 4; i++ {
				ev := a.event(t, 1, nil, "", 0)
				ev.CreatedAt = at
				if err := ev.Sign(a.sk); err != nil {
					t.Fatal(err)
				}
				c.mustPublish(ev)
				stored = append(stored, ev)
			}
			got := c.query(nostr.Filter{Kinds: []int{1}, Authors: []string{a.pk}})
			var gotIDs []string
			for _, ev := range got {
				gotIDs = append(gotIDs, ev.ID)
			}
			want := tc.order(stored)
			if len(gotIDs) != len(want) {
				t.Fatalf("got %d events, want %d", len(gotIDs), len(want))
			}
			for i := range want {
				if gotIDs[i] != want[i] {
					t.Fatalf("order %v, want %v", gotIDs, want)
				}
			}
		})
	}
}

func ids(evs []*nostr.Event) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, ev.ID)
	}
	return out
}

func sortedIDs(evs []*nostr.Event) []string {
	out := ids(evs)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}
