package runner

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/reference"
)

// TestDetectionWritesArePaced: the profile detection's writes (its probe
// channels and their deletion) wait on the run's pacer like the cases':
// every worker of a parallel run detects, and 24 unpaced detections were
// a burst of some 75 writes in one second of a --rate 5 run.
func TestDetectionWritesArePaced(t *testing.T) {
	ref := &ReferenceTarget{Config: reference.Config{Profile: "labels"}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ep, err := ref.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ref.Stop(context.Background()) }()
	var slots atomic.Int32
	pace := func(context.Context) error { slots.Add(1); return nil }
	d, err := DetectProfile(ctx, ep.URL, false, 5*time.Second, nil, "detectpace", "", nil, pace)
	if err != nil || d.Profile != "labels" {
		t.Fatalf("detection: %+v, %v", d, err)
	}
	// The identity form (refused), the labels form, its deletion.
	if n := slots.Load(); n != 3 {
		t.Errorf("%d pacer slots taken for the detection's writes, want 3", n)
	}
}
