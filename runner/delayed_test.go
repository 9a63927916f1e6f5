package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/reference"
)

// TestDelayedTargetNamesTheRelaysOwnURL: behind the delay proxy the
// harness dials the proxy but signs AUTH with the relay's own URL.
func TestDelayedTargetNamesTheRelaysOwnURL(t *testing.T) {
	inner := &ReferenceTarget{Config: reference.Config{Profile: "none"}}
	d := &DelayedTarget{Inner: inner, RTT: 2 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ep, err := d.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = d.Stop(context.Background()) }()
	if ep.RelayURL == "" || ep.RelayURL == ep.URL || !strings.HasPrefix(ep.RelayURL, "ws://127.0.0.1:") {
		t.Fatalf("behind the proxy: URL %s, RelayURL %q: want the relay's own URL", ep.URL, ep.RelayURL)
	}
}
