package main

import (
	"strings"
	"testing"
)

func TestParseHostAdmit(t *testing.T) {
	k := strings.Repeat("ab", 32)
	got, err := parseHostAdmit([]string{"Tenant-B=" + k, "tenant-b=" + strings.Repeat("cd", 32)})
	if err != nil || len(got["tenant-b"]) != 2 {
		t.Fatalf("parsed %v, %v", got, err)
	}
	for _, bad := range []string{k, "=" + k, "host:7447=" + k, "host=" + k[:10], "host=" + strings.ToUpper(k)} {
		if _, err := parseHostAdmit([]string{bad}); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}
