package runner

import (
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/capability"
	"github.com/nipcl/nipcl-conform/fixtures"
)

func TestParseActorKeys(t *testing.T) {
	a, b := fixtures.NewActor("a"), fixtures.NewActor("b")
	keys, err := parseActorKeys([]string{a.SecretKey, "creator=" + b.SecretKey})
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0].Declared != capability.RoleAny || keys[1].Declared != capability.RoleCreator ||
		keys[0].Actor.PubKey != a.PubKey || keys[1].Actor.PubKey != b.PubKey || keys[1].Label != "key2" {
		t.Fatalf("parsed %+v", keys)
	}
	if _, err := parseActorKeys([]string{"boss=" + a.SecretKey}); err == nil || !strings.Contains(err.Error(), "key1") {
		t.Errorf("an unknown role word: err %v, want one naming key1", err)
	}
	if _, err := parseActorKeys([]string{"unprivileged=zz"}); err == nil {
		t.Error("a bad key was accepted")
	}
}

func TestHostKeys(t *testing.T) {
	a, b := fixtures.NewActor("a"), fixtures.NewActor("b")
	hosts := []string{"localhost:7447", "tenant-b.example:443"}
	got, err := hostKeys([]string{"localhost=" + a.SecretKey, "tenant-b.example:443=" + b.SecretKey}, hosts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got["localhost:7447"].PubKey != a.PubKey || got["tenant-b.example:443"].PubKey != b.PubKey {
		t.Fatalf("matched %+v", got)
	}
	for _, tc := range []struct {
		values []string
		want   string
	}{
		{[]string{a.SecretKey}, "want HOST=HEX"},
		{[]string{"=" + a.SecretKey}, "want HOST=HEX"},
		{[]string{"localhost=zz"}, "invalid secret key"},
		{[]string{"elsewhere=" + a.SecretKey}, "no second community is named elsewhere"},
		{[]string{"localhost=" + a.SecretKey, "localhost:7447=" + b.SecretKey}, "already has a key"},
	} {
		_, err := hostKeys(tc.values, hosts, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want one saying %q", tc.values[0][:min(len(tc.values[0]), 12)], err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), a.SecretKey) {
			t.Errorf("the error carries the secret key: %v", err)
		}
	}
	if err := CheckHostKeys([]string{"anything=" + a.SecretKey}); err != nil {
		t.Errorf("the form check matched hosts: %v", err)
	}
}
