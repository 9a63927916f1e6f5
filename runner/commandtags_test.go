package runner

import (
	"net/http"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/suites"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

func TestCommandTagFlags(t *testing.T) {
	got := commandTagFlags(nostr.Tags{{"x-tenant", "acme"}, {"k", "it's"}})
	want := ` --command-tag 'x-tenant=acme' --command-tag 'k=it'\''s'`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if commandTagFlags(nil) != "" {
		t.Error("no tags: want no flags")
	}
}

// TestReproKeepsSafeModeAndHeaders: a repro command of a safe run repeats
// --safe and --rate, and names each --header with its value redacted.
func TestReproKeepsSafeModeAndHeaders(t *testing.T) {
	p := &preparedPlan{
		plan: Plan{Name: "labels"}, target: &URLTarget{URL: "wss://relay.example"}, rate: 0.5,
		env:    &suites.Env{Profile: "labels", Safe: true, Header: http.Header{"Authorization": {"Bearer secret"}}},
		result: reports.PlanResult{URL: "wss://relay.example"},
	}
	got := reproCommand(p, framework.Case{ID: "labels/grammar/1"})
	want := "nipcl-conform run --target wss://relay.example --profile labels --safe --rate 0.5 --header 'Authorization: <redacted>' --focus labels/grammar/1"
	if got != want {
		t.Errorf("repro\n got %s\nwant %s", got, want)
	}
}
