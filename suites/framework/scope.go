package framework

import (
	"bytes"
	"runtime"
	"strconv"

	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	"github.com/onsi/ginkgo/v2/types"
)

// The step scope (t.Checking, t.Invariant: verdict.go) is per goroutine
// of the case. The case's own goroutine (and any goroutine the framework
// did not start for it, such as Ginkgo's cleanup nodes) has the case's
// scope, t.root. Each goroutine t.Go starts for the case is a worker
// with a scope of its own, registered by goroutine id: it starts as the
// scope of the goroutine that started it, a Checking or Invariant inside
// it changes that worker's scope only, and it is forgotten when the
// worker ends. So a worker's step never decides what a sibling's failure
// breaks, and the case's scope after the workers join is the one it had
// before. (A raw go statement in a case makes no worker: its goroutine
// shares the case's scope. Use t.Go.)
//
// A failure inside a worker panics (Ginkgo's Fail) up to the worker's
// frame, where t.unwind records the failure's code location with the
// worker's scope at that moment (a deferred done keeps the failing step's
// scope: see scope) before GinkgoRecover hands it to Ginkgo. The spec's
// failure is the first one Ginkgo saw; after the case body, judgeFailure
// finds the recorded failure with that location (failureScope) and
// records its scope, whichever goroutine failed first and whatever the
// others did after.

// scopeSlot is the scope of one goroutine of the case.
type scopeSlot struct{ clause string }

// failedStep is a failure that unwound through a worker of the case: where
// Ginkgo's Fail was called and the worker's scope then.
type failedStep struct {
	at    types.CodeLocation
	scope string
}

// slot is the calling goroutine's scope: its worker's, else the case's
// own. Call with t.mu held.
func (t *T) slot() *scopeSlot {
	if len(t.workers) > 0 {
		if s, ok := t.workers[goroutineID()]; ok { // id 0 is never a worker's
			return s
		}
	}
	return &t.root
}

// currentScope is the calling goroutine's step scope.
func (t *T) currentScope() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.slot().clause
}

// spawn starts fn on a worker goroutine of the case, scoped as the
// calling goroutine is now, and calls exit when the worker has ended
// (after its failure, if any, was recorded and handed to Ginkgo).
func (t *T) spawn(fn, exit func()) {
	t.mu.Lock()
	inherited := t.slot().clause
	t.mu.Unlock()
	go func() {
		defer exit()
		defer GinkgoRecover()
		id := goroutineID()
		if id == 0 {
			// No id to key a scope by: the worker shares the case's.
			fn()
			return
		}
		t.mu.Lock()
		if t.workers == nil {
			t.workers = map[uint64]*scopeSlot{}
		}
		t.workers[id] = &scopeSlot{clause: inherited}
		t.mu.Unlock()
		defer t.unwind(id)
		fn()
	}()
}

// unwind ends a worker: a failure panicking through it is recorded with
// the worker's scope, and panics on to GinkgoRecover; the worker's scope
// is forgotten.
func (t *T) unwind(id uint64) {
	r := recover()
	t.mu.Lock()
	if s, ok := t.workers[id]; ok {
		if ge, isFail := r.(types.GinkgoError); isFail {
			t.failures = append(t.failures, failedStep{at: ge.CodeLocation, scope: s.clause})
		}
		delete(t.workers, id)
	}
	t.mu.Unlock()
	if r != nil {
		panic(r)
	}
}

// failureScope is the scope of the step whose failure is the spec's
// (Ginkgo's first, raised at location at): the scope of the worker that
// raised it (inWorker), else the case's own scope.
func (t *T) failureScope(at types.CodeLocation) (scope string, inWorker bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, f := range t.failures {
		if f.at.FileName == at.FileName && f.at.LineNumber == at.LineNumber && f.at.FullStackTrace == at.FullStackTrace {
			return f.scope, true
		}
	}
	return t.root.clause, false
}

// goroutineID is the calling goroutine's id, read from the first line of
// its stack ("goroutine 18 [running]:"), the one place the runtime shows
// it. 0 if the line cannot be read (every goroutine then shares one id,
// so a worker's scope falls back to the case's: never a wrong worker's).
func goroutineID() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b, ok := bytes.CutPrefix(b, []byte("goroutine "))
	if !ok {
		return 0
	}
	if i := bytes.IndexByte(b, ' '); i >= 0 {
		b = b[:i]
	}
	id, err := strconv.ParseUint(string(b), 10, 64)
	if err != nil {
		return 0
	}
	return id
}
