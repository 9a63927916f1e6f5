package reference

import (
	"fmt"
	"math"
	"sync"
	"time"
)

// Limits beyond message size and REQ limit: open subscriptions per
// connection, filters per REQ/COUNT and an optional EVENT rate per author
// key. All are advertised in NIP-11 "limitation".

// initLimits applies the defaults of the configurable limits.
func (r *Relay) initLimits() {
	r.maxSubs = r.cfg.MaxSubscriptions
	if r.maxSubs <= 0 {
		r.maxSubs = MaxSubscriptions
	}
	r.maxFilters = r.cfg.MaxFilters
	if r.maxFilters <= 0 {
		r.maxFilters = MaxFilters
	}
	r.rate = newRateLimiter(r.cfg.EventsPerSecond, r.cfg.EventBurst, r.now)
}

// rateLimiter is a token bucket per author key. A nil limiter (no rate
// configured) admits everything.
type rateLimiter struct {
	perSecond float64
	burst     float64
	now       func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// maxBuckets bounds the limiter's memory; when reached, buckets that have
// refilled completely (indistinguishable from new ones) are dropped.
const maxBuckets = 10_000

func newRateLimiter(perSecond float64, burst int, now func() time.Time) *rateLimiter {
	if perSecond <= 0 || math.IsNaN(perSecond) || math.IsInf(perSecond, 0) {
		return nil
	}
	b := float64(burst)
	if burst <= 0 {
		b = math.Max(1, math.Ceil(2*perSecond))
	}
	return &rateLimiter{perSecond: perSecond, burst: b, now: now, buckets: map[string]*bucket{}}
}

// allow takes one token from key's bucket; false means the key is over its rate.
func (l *rateLimiter) allow(key string) bool {
	if l == nil {
		return true
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= maxBuckets {
			l.prune(now)
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	if el := now.Sub(b.last).Seconds(); el > 0 {
		b.tokens = math.Min(l.burst, b.tokens+el*l.perSecond)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

func (l *rateLimiter) prune(now time.Time) {
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.last).Seconds()*l.perSecond >= l.burst {
			delete(l.buckets, k)
		}
	}
}

// rateLimited is the OK reason for an EVENT over the rate.
func (l *rateLimiter) rateLimited() string {
	return fmt.Sprintf("rate-limited: at most %g events per second per key (burst %g)", l.perSecond, l.burst)
}

// eventsPerSecond is the configured rate (0 when unlimited), for NIP-11.
func (l *rateLimiter) eventsPerSecond() float64 {
	if l == nil {
		return 0
	}
	return l.perSecond
}
