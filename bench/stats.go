package bench

import (
	"math"
	"slices"
	"time"
)

// Stats summarises a set of latencies.
type Stats struct {
	N   int           `json:"n"`      // samples
	P50 time.Duration `json:"p50_ns"` // median (nearest rank)
	P99 time.Duration `json:"p99_ns"` // 99th percentile (nearest rank)
	Max time.Duration `json:"max_ns"` // largest sample
}

// Summarize sorts a copy of samples and returns their count, p50, p99 and
// maximum. An empty set gives the zero Stats.
func Summarize(samples []time.Duration) Stats {
	if len(samples) == 0 {
		return Stats{}
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	return Stats{N: len(s), P50: Percentile(s, 50), P99: Percentile(s, 99), Max: s[len(s)-1]}
}

// Percentile returns the p-th percentile (0 < p <= 100) of sorted samples by
// the nearest-rank method: the smallest sample such that at least p % of
// the samples are less than or equal to it. It returns 0 for no samples; p
// outside (0, 100] is clamped.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(n)))
	rank = min(max(rank, 1), n)
	return sorted[rank-1]
}
