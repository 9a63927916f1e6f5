package pace

import (
	"context"
	"testing"
	"time"
)

// TestSlotsAreSpaced: n slots at r per second take at least (n-1)/r; an
// unlimited pacer never waits; a cancelled wait returns the context error.
func TestSlotsAreSpaced(t *testing.T) {
	p := New(100)
	start := time.Now()
	for i := 0; i < 5; i++ {
		if err := p.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if el := time.Since(start); el < 40*time.Millisecond {
		t.Errorf("5 slots at 100/s took %s, want at least 40ms", el)
	}
	if err := New(0).Wait(context.Background()); err != nil {
		t.Errorf("unlimited pacer: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	slow := New(0.001)
	_ = slow.Wait(context.Background()) // takes the first slot
	if err := slow.Wait(ctx); err == nil {
		t.Error("a cancelled wait for a far slot returned no error")
	}
}
