package runner

import (
	"context"
	"sync"
	"time"
)

// pacer spaces writes evenly at a fixed rate across every case of a plan.
type pacer struct {
	mu       sync.Mutex
	interval time.Duration
	next     time.Time
}

func newPacer(perSecond float64) *pacer {
	return &pacer{interval: time.Duration(float64(time.Second) / perSecond)}
}

// Wait blocks until the next write slot or ctx ends.
func (p *pacer) Wait(ctx context.Context) error {
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
