package framework

import (
	"strings"
	"testing"
	"time"

	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL
)

func TestSettleWindow(t *testing.T) {
	e := &Env{StepTimeout: 10 * time.Second}
	e.defaults()
	if w, why := e.SettleWindow(); w != 2*time.Second || !strings.Contains(why, "no OK→state delay") {
		t.Fatalf("no samples: %s (%s), want a fifth of the step timeout", w, why)
	}
	e.Delays.Observe(2 * time.Millisecond)
	if w, why := e.SettleWindow(); w != SettleFloor || !strings.Contains(why, "floor") {
		t.Fatalf("a 2 ms delay: %s (%s), want the floor %s", w, why, SettleFloor)
	}
	e.Delays.Observe(200 * time.Millisecond)
	if w, _ := e.SettleWindow(); w != 800*time.Millisecond {
		t.Fatalf("a 200 ms delay: %s, want 4 × 200 ms", w)
	}
	e.Delays.Observe(5 * time.Second)
	if w, why := e.SettleWindow(); w != 10*time.Second || !strings.Contains(why, "--timeout") {
		t.Fatalf("a 5 s delay: %s (%s), want the step timeout", w, why)
	}
	// From 100 samples on, the p99: one outlier of 100 no longer decides.
	d := &Delays{}
	for i := 0; i < 199; i++ {
		d.Observe(10 * time.Millisecond)
	}
	d.Observe(3 * time.Second)
	if p, n := d.p99(); p != 10*time.Millisecond || n != 200 {
		t.Fatalf("p99 of 199 × 10 ms and one 3 s: %s of %d", p, n)
	}
}

func TestLookStopsAtTheFirstMiss(t *testing.T) {
	after := false
	if look(func(g Gomega) {
		g.Expect(1).To(Equal(2))
		after = true
	}) || after {
		t.Fatal("a missed expectation must end the look, unmet")
	}
	if !look(func(g Gomega) { g.Expect(1).To(Equal(1)) }) {
		t.Fatal("a met expectation must hold")
	}
	defer func() {
		if r := recover(); r != "case failure" {
			t.Fatalf("a failure of the case inside the condition must pass through, got %v", r)
		}
	}()
	look(func(Gomega) { panic("case failure") })
}
