package reference

import (
	"errors"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// TestWritePanicRollsBack: a panic inside a write transaction is answered
// as an error and leaves the store usable (no transaction left open).
func TestWritePanicRollsBack(t *testing.T) {
	r, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	err = r.write("c", func(*txn) error { panic("boom") })
	var rej *rejection
	if !errors.As(err, &rej) || rej.prefix != "error" {
		t.Fatalf("panic answered %v, want an error: rejection", err)
	}
	done := make(chan error, 1)
	go func() { done <- r.write("c", func(*txn) error { return nil }) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("write after a panic: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("write after a panic blocked: the transaction was left open")
	}
}

// TestClientCannotForgeRelayKinds: state events and membership notices are
// relay-signed kinds; a client's own are refused in every profile.
func TestClientCannotForgeRelayKinds(t *testing.T) {
	for _, profile := range []string{"none", "identity", "labels"} {
		r, err := New(Config{Profile: profile})
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range []int{39000, 39002, 44100, 44101} {
			ev := nostr.Event{Kind: kind, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"h", "x"}, {"d", "x"}, {"p", "y"}}}
			var rej *rejection
			if err := r.dispatch(nil, &ev); !errors.As(err, &rej) || rej.prefix != "restricted" {
				t.Errorf("%s: client kind %d answered %v, want restricted:", profile, kind, err)
			}
		}
		r.Close()
	}
}
