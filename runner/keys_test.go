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
