package suites

import (
	"testing"
)

// TestFreshKeysCases: the cases that read by an actor's own key say so
// where they are declared (Case.FreshKeys), and only NIP-CL identity cases
// do today.
func TestFreshKeysCases(t *testing.T) {
	n := 0
	for _, c := range Catalogue() {
		if c.FreshKeys {
			n++
		}
	}
	if n == 0 {
		t.Error("no case declares FreshKeys; the identity cases reading by #P, #p or COUNT by key need it")
	}
}
