package main

import (
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/runner"
)

// TestOnlyTheInProcessRelayIsLocalUnmeasured: the worker count of every
// other target follows the measured round trip, a loopback URL included
// (it may be a tunnel to a relay far away).
func TestOnlyTheInProcessRelayIsLocalUnmeasured(t *testing.T) {
	ref := &runner.ReferenceTarget{Config: reference.Config{Profile: "labels"}}
	for _, tc := range []struct {
		name  string
		plans []runner.Plan
		local bool
	}{
		{"built-in relay", []runner.Plan{{Target: ref}}, true},
		{"loopback URL", []runner.Plan{{Target: &runner.URLTarget{URL: "ws://127.0.0.1:7447"}}}, false},
		{"localhost URL", []runner.Plan{{Target: &runner.URLTarget{URL: "ws://localhost:7447"}}}, false},
		{"delay proxy", []runner.Plan{{Target: &runner.DelayedTarget{Inner: ref, RTT: 50 * time.Millisecond}}}, false},
		{"built-in and a URL", []runner.Plan{{Target: ref}, {Target: &runner.URLTarget{URL: "ws://127.0.0.1:7447"}}}, false},
	} {
		if got := onThisMachine(tc.plans); got != tc.local {
			t.Errorf("%s: onThisMachine = %v, want %v", tc.name, got, tc.local)
		}
	}
}
