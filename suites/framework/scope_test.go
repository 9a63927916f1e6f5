package framework

import (
	"fmt"
	"sync"
	"testing"

	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	"github.com/onsi/ginkgo/v2/types"
)

// failAt calls Ginkgo's Fail, as every failure of a case does, and hands
// back (before the panic unwinds) where Ginkgo records the failure.
func failAt(at *types.CodeLocation, msg string) {
	defer func() {
		r := recover()
		if ge, ok := r.(types.GinkgoError); ok {
			*at = ge.CodeLocation
		}
		panic(r)
	}()
	Fail(msg)
}

// TestWorkerScopes: two t.Go workers with different scopes fail; each
// failure records its own worker's scope, however the two interleave (a
// sibling's later Invariant changes nothing of the other's), and the
// case's scope is the one it had before Go.
func TestWorkerScopes(t *testing.T) {
	c := Case{ID: "labels/concurrency/7", Clauses: []string{"labels/authorization.5", "labels/concurrency.1", "nip29/state-events.1"}}
	for round := 0; round < 50; round++ {
		ct := &T{Case: c}
		doneCase := ct.Checking("labels/concurrency.1")
		var at [2]types.CodeLocation
		aScoped, bScoped := make(chan struct{}), make(chan struct{})
		ct.Go(2, func(i int) {
			if i == 0 {
				defer ct.Checking("labels/authorization.5")()
				close(aScoped)
				<-bScoped // the sibling's step is open while this one fails
				failAt(&at[0], "worker 0 failed")
				return
			}
			<-aScoped
			defer ct.scope("nip29/state-events.1")() // an Invariant of a shared read helper
			close(bScoped)
			failAt(&at[1], "worker 1 failed")
		})
		for i, want := range []string{"labels/authorization.5", "nip29/state-events.1"} {
			if got, inWorker := ct.failureScope(at[i]); got != want || !inWorker {
				t.Fatalf("round %d: worker %d's failure records %q (in a worker: %v), want %q", round, i, got, inWorker, want)
			}
		}
		if got := ct.Breaking(); got != "labels/concurrency.1" {
			t.Fatalf("round %d: after the workers joined, the case's scope is %q, want labels/concurrency.1", round, got)
		}
		if n := len(ct.workers); n != 0 {
			t.Fatalf("round %d: %d worker scopes left after Go", round, n)
		}
		doneCase()
		if got := ct.Breaking(); got != "" {
			t.Fatalf("round %d: after done the case's scope is %q, want none", round, got)
		}
	}
}

// TestWorkerScopeInheritsAndStaysOwn: a worker starts with the scope of
// the goroutine that started it (a nested Go's workers with their
// worker's), its Checking changes its own scope only, and a failure the
// case raised itself records the case's scope.
func TestWorkerScopeInheritsAndStaysOwn(t *testing.T) {
	c := Case{ID: "x/y/1", Clauses: []string{"nip29/membership.1", "nip29/membership.2"}}
	ct := &T{Case: c}
	ct.scope("nip29/membership.1")
	var mu sync.Mutex
	seen := map[string]string{}
	ct.Go(3, func(i int) {
		inherited := ct.Breaking()
		if i == 0 {
			defer ct.Checking("nip29/membership.2")()
		}
		ct.Go(2, func(j int) {
			mu.Lock()
			seen[fmt.Sprintf("%d.%d", i, j)] = ct.Breaking()
			mu.Unlock()
		})
		mu.Lock()
		seen[fmt.Sprint(i)] = inherited
		mu.Unlock()
	})
	for k, want := range map[string]string{
		"0": "nip29/membership.1", "1": "nip29/membership.1", "2": "nip29/membership.1",
		"0.0": "nip29/membership.2", "0.1": "nip29/membership.2",
		"1.0": "nip29/membership.1", "2.1": "nip29/membership.1",
	} {
		if seen[k] != want {
			t.Errorf("worker %s started with scope %q, want %q", k, seen[k], want)
		}
	}
	var at types.CodeLocation
	func() {
		defer func() { _ = recover() }()
		defer ct.scope("nip29/membership.2")()
		failAt(&at, "the case failed")
	}()
	if got, inWorker := ct.failureScope(at); got != "nip29/membership.2" || inWorker {
		t.Errorf("the case's own failure records %q (in a worker: %v), want nip29/membership.2 from the case", got, inWorker)
	}
}

// TestGoroutineID: the id read from the stack is non-zero, stable within
// a goroutine and different between goroutines.
func TestGoroutineID(t *testing.T) {
	id := goroutineID()
	if id == 0 || goroutineID() != id {
		t.Fatalf("goroutineID() = %d, then %d", id, goroutineID())
	}
	other := make(chan uint64)
	go func() { other <- goroutineID() }()
	if o := <-other; o == 0 || o == id {
		t.Errorf("another goroutine's id = %d (this one's %d)", o, id)
	}
}
