package framework

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/fixtures"
)

func TestAuthRefusalNamesSignedURLAndSuggestsRelayURL(t *testing.T) {
	refusal := func(signed string) error {
		return fmt.Errorf("auth: %w", &fixtures.AuthRefusal{Actor: "owner(12345678)", Reason: "error: failed to authenticate", RelayURL: signed, Dialled: "ws://127.0.0.1:4000"})
	}
	for _, tc := range []struct {
		env, signed string
		hint        bool
	}{
		{"ws://127.0.0.1:4000", "ws://127.0.0.1:5000", true},          // behind a delay proxy: the relay's own URL
		{"ws://127.0.0.1:4000", "ws://127.0.0.1:4000", true},          // a loopback URL: maybe a tunnel
		{"wss://relay.example.com", "wss://relay.example.com", false}, // the relay's public URL
	} {
		got := authRefusalObserved(&Env{URL: tc.env}, "connect", refusal(tc.signed))
		for _, want := range []string{`"error: failed to authenticate"`, "relay tag named " + tc.signed} {
			if !strings.Contains(got, want) {
				t.Errorf("%s signed %s: %q lacks %q", tc.env, tc.signed, got, want)
			}
		}
		if strings.Contains(got, "--relay-url") != tc.hint {
			t.Errorf("%s signed %s: suggests --relay-url = %v, want %v: %q", tc.env, tc.signed, !tc.hint, tc.hint, got)
		}
	}
}
