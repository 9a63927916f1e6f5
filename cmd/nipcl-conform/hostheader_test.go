package main

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// groupsIn counts the group metadata events (39000) the relay at url
// serves in the community Host host names.
func groupsIn(t *testing.T, url, host string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := fixtures.Dial(ctx, url, fixtures.DialOptions{Host: host, Actor: fixtures.NewActor("reader")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r, err := c.Query(ctx, nostr.Filter{Kinds: []int{fixtures.KindMetadata}})
	if err != nil {
		t.Fatal(err)
	}
	return len(r.Events)
}

// TestHostHeaderNamesTheCommunity: the reference relay resolves its
// community from the Host header. --host-header (a tunnel to a relay that
// routes by Host) puts every group the run creates into the community it
// names; --simulate-rtt sends the relay's own host, never the proxy's.
func TestHostHeaderNamesTheCommunity(t *testing.T) {
	relay := serve(t, "--profile", "nip29")
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(relay, "ws://"))
	r := cli(t, time.Minute, "run", "--target", relay, "--profile", "nip29", "--host-header", "tenant.example", "--parallel", "1",
		"--focus", "base/create/1", "--report-dir", t.TempDir())
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if n := groupsIn(t, relay, "tenant.example:"+port); n == 0 {
		t.Error("no group in the community --host-header named")
	}
	if n := groupsIn(t, relay, ""); n != 0 {
		t.Errorf("%d groups in the community of the relay's address, want 0", n)
	}
	relay2 := serve(t, "--profile", "nip29")
	host2 := strings.TrimPrefix(relay2, "ws://")
	r = cli(t, time.Minute, "run", "--target", strings.Replace(relay2, "127.0.0.1", "localhost", 1), "--profile", "nip29", "--simulate-rtt", "2ms", "--parallel", "1",
		"--focus", "base/create/1", "--report-dir", t.TempDir())
	if r.code != 0 {
		t.Fatalf("--simulate-rtt: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if n := groupsIn(t, relay2, "localhost:"+strings.Split(host2, ":")[1]); n == 0 {
		t.Error("behind --simulate-rtt the groups are not in the community of the target's own host (localhost)")
	}
}
