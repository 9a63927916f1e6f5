package runner

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
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
