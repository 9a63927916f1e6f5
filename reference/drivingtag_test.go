package reference

import (
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// TestDrivingTagPicksFewestRows: of several tag filters the read walks the
// one with the fewest rows (lowercase on a tie), the same with the probe
// counts cached as without.
func TestDrivingTagPicksFewestRows(t *testing.T) {
	r, s := smallSeededRelay(t, "identity", 400)
	rd := &reader{community: seedCommunity}
	rowsOf := func(name, value string) int64 {
		var n int64
		if err := r.db.QueryRow(`SELECT COUNT(*) FROM event_tags WHERE community = ? AND name = ? AND value = ? AND kind = ?`,
			seedCommunity, name, value, kindGroupMetadata).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	rare, rareN := "", int64(-1) // the label on the fewest channels
	for _, l := range s.labels {
		if n := rowsOf("t", l); n > 0 && (rareN < 0 || n < rareN) {
			rare, rareN = l, n
		}
	}
	cases := []struct {
		name string
		tags nostr.TagMap
		want string
	}{
		{"rare label beats the top creator", nostr.TagMap{"t": {rare}, "P": {s.creators[0]}}, pick(rowsOf("t", rare), rowsOf("P", s.creators[0]), "t", "P")},
		{"top label against a creator", nostr.TagMap{"t": {s.labels[0]}, "P": {s.creators[1]}}, pick(rowsOf("t", s.labels[0]), rowsOf("P", s.creators[1]), "t", "P")},
		{"a tag alone drives", nostr.TagMap{"P": {s.creators[0]}}, "P"},
		{"#h never drives", nostr.TagMap{"h": {"x"}, "t": {rare}}, ""},
	}
	for _, warm := range []bool{false, true} {
		for _, tc := range cases {
			f := &nostr.Filter{Kinds: []int{kindGroupMetadata}, Tags: tc.tags, Limit: 50}
			if got := r.drivingTag(rd, f); got != tc.want {
				t.Errorf("%s (cache warm %v): drives %q, want %q", tc.name, warm, got, tc.want)
			}
		}
	}
}

// pick is the rule: fewer rows drives; on a tie the lowercase name.
func pick(nLower, nUpper int64, lower, upper string) string {
	if min(nUpper, probeCap) < min(nLower, probeCap) {
		return upper
	}
	return lower
}

func TestProbeCountsExpire(t *testing.T) {
	var p probeCounts
	t0 := time.Unix(1_700_000_000, 0)
	p.put("k", 7, t0)
	if n, ok := p.get("k", t0.Add(probeTTL)); !ok || n != 7 {
		t.Fatalf("fresh entry: %d %v", n, ok)
	}
	if _, ok := p.get("k", t0.Add(probeTTL+time.Second)); ok {
		t.Fatal("expired entry still served")
	}
	if _, ok := p.get("k", t0.Add(-time.Second)); ok {
		t.Fatal("entry served to a clock that went back")
	}
	for i := range probeEntries {
		p.put(string(rune(i+1000)), 1, t0)
	}
	if len(p.m) > probeEntries {
		t.Fatalf("%d entries, cap %d", len(p.m), probeEntries)
	}
}
