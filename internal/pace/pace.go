// Package pace spaces writes evenly at a fixed rate, shared by every
// goroutine that asks for a slot (run --rate and bench --rate).
package pace

import (
	"context"
	"sync"
	"time"
)

// Pacer hands out write slots at most perSecond apart.
type Pacer struct {
	mu       sync.Mutex
	interval time.Duration
	next     time.Time
}

// New returns a pacer for perSecond writes per second; 0 or less means
// unlimited (Wait only checks ctx).
func New(perSecond float64) *Pacer {
	p := &Pacer{}
	if perSecond > 0 {
		p.interval = time.Duration(float64(time.Second) / perSecond)
	}
	return p
}

// Wait blocks until the next write slot or ctx ends.
func (p *Pacer) Wait(ctx context.Context) error {
	if p.interval == 0 {
		return ctx.Err()
	}
	p.mu.Lock()
	now := time.Now()
	if p.next.Before(now) {
		p.next = now
	}
	slot := p.next
	p.next = p.next.Add(p.interval)
	p.mu.Unlock()
	d := time.Until(slot)
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
