package runner

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"sort"
	"time"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/internal/delayproxy"
	"github.com/nipcl/nipcl-conform/reference"
)

// Endpoint is where a started target can be reached.
type Endpoint struct {
	// URL is the WebSocket URL (ws:// or wss://) the suites connect to.
	URL string
	// RelayPubKey is the relay key when the target knows it without NIP-11
	// (the in-process reference relay does); empty otherwise.
	RelayPubKey string
	// Hosts are extra Host header values that reach another community of
	// the same relay (the reference relay: "localhost:PORT" beside
	// "127.0.0.1:PORT"); empty when unknown.
	Hosts []string
	// RelayURL is the URL the relay knows itself by when it differs from
	// URL (behind a delay proxy: the relay's own URL); empty otherwise.
	// The harness signs it into AUTH relay tags.
	RelayURL string
}

// Target is a relay the harness can run against: an existing URL, the
// in-process reference relay, or a container.
type Target interface {
	// Start makes the relay reachable; it must honour ctx's deadline.
	Start(ctx context.Context) (Endpoint, error)
	// Stop releases everything Start acquired. It is safe to call after a
	// failed Start and more than once.
	Stop(ctx context.Context) error
	// Logs returns the relay's own log output, or "" when the target has none.
	Logs(ctx context.Context) string
	// String describes the target for reports ("ws://…", "reference(labels)", "image foo:1").
	String() string
}

// URLTarget is a relay that is already running somewhere.
type URLTarget struct{ URL string }

// Start implements Target.
func (t *URLTarget) Start(context.Context) (Endpoint, error) { return Endpoint{URL: t.URL}, nil }

// Stop implements Target.
func (t *URLTarget) Stop(context.Context) error { return nil }

// Logs implements Target.
func (t *URLTarget) Logs(context.Context) string { return "" }

func (t *URLTarget) String() string { return t.URL }

// ReferenceTarget runs the built-in reference relay in this process.
type ReferenceTarget struct {
	Config reference.Config
	relay  *reference.Relay
}

// Start implements Target.
func (t *ReferenceTarget) Start(context.Context) (Endpoint, error) {
	cfg := t.Config
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	r, err := reference.New(cfg)
	if err != nil {
		return Endpoint{}, fmt.Errorf("start reference relay: %w", err)
	}
	u, err := r.Start()
	if err != nil {
		_ = r.Close()
		return Endpoint{}, fmt.Errorf("start reference relay: %w", err)
	}
	t.relay = r
	ep := Endpoint{URL: u, RelayPubKey: r.PubKey()}
	if pu, err := url.Parse(u); err == nil && pu.Hostname() == "127.0.0.1" {
		// The reference relay resolves its community from the Host name.
		ep.Hosts = []string{"localhost:" + pu.Port()}
	}
	return ep, nil
}

// Stop implements Target. It gives up when ctx ends, so a relay that
// deadlocked (a fault, a bug) cannot hang the run.
func (t *ReferenceTarget) Stop(ctx context.Context) error {
	if t.relay == nil {
		return nil
	}
	r := t.relay
	t.relay = nil
	// NIPCL_CRYPTO_COUNTS=1: the relay's BIP-340 work, for the floor of
	// the in-process run (BENCHMARKS.md).
	if os.Getenv("NIPCL_CRYPTO_COUNTS") != "" {
		c := r.CryptoCounts()
		fmt.Fprintf(os.Stderr, "nipcl-conform: %s: %d signatures verified, %d checks answered by an identical event verified before, %d signatures made\n", t, c.Verified, c.Cached, c.Signed)
	}
	done := make(chan error, 1)
	go func() { done <- r.Close() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("stop reference relay: %w", ctx.Err())
	}
}

// Logs implements Target.
func (t *ReferenceTarget) Logs(context.Context) string { return "" }

func (t *ReferenceTarget) String() string {
	s := "reference(" + t.Config.Profile + ")"
	for _, f := range t.Config.Faults {
		s += " fault=" + f
	}
	for _, p := range t.Config.Policies {
		s += " policy=" + p
	}
	for _, v := range t.Config.Variants {
		s += " variant=" + v
	}
	ids := make([]string, 0, len(t.Config.Readings))
	for id := range t.Config.Readings {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		s += " reading=" + id + "=" + t.Config.Readings[id]
	}
	return s
}

// FreeLoopbackPort returns a TCP port that was free on 127.0.0.1 a moment ago.
func FreeLoopbackPort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find free loopback port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// DelayedTarget puts a delay proxy in front of another target, so a relay
// on this machine answers as if it were RTT away (--simulate-rtt). The
// proxy adds latency, and requests that would name the proxy by Host name
// the relay instead: its own host (the inner URL's), or Host when set
// (--host-header, for a tunnel to a relay that routes by Host). Paths and
// other Host headers (other communities) pass unchanged.
type DelayedTarget struct {
	Inner Target
	RTT   time.Duration
	// Host, when set, is the Host header of the relay's main community
	// (--host-header); default the inner URL's host.
	Host  string
	proxy *delayproxy.Proxy
}

// Start implements Target.
func (t *DelayedTarget) Start(ctx context.Context) (Endpoint, error) {
	ep, err := t.Inner.Start(ctx)
	if err != nil {
		return ep, err
	}
	u, err := url.Parse(ep.URL)
	if err != nil || u.Scheme != "ws" {
		return Endpoint{}, fmt.Errorf("simulated RTT: the target URL %q is not a plain ws:// URL", ep.URL)
	}
	host := t.Host
	if host == "" {
		host = u.Host
	}
	p, err := delayproxy.StartHost("127.0.0.1:0", u.Host, t.RTT/2, host)
	if err != nil {
		return Endpoint{}, fmt.Errorf("simulated RTT: %w", err)
	}
	t.proxy = p
	// The relay knows itself by its own URL, not the proxy's: AUTH relay
	// tags name it. A relay that learns its URL from the first request it
	// serves (khatru without a configured ServiceURL) hears from the
	// harness at that URL first, as a relay configured with its public
	// URL knows it; a relay that cannot be read here is reported by the
	// run itself.
	if ep.RelayURL == "" {
		ep.RelayURL = ep.URL
		_, _ = fixtures.FetchInfo(ctx, ep.URL, t.Host)
	}
	_, port, _ := net.SplitHostPort(p.Addr())
	u.Host = p.Addr()
	ep.URL = u.String()
	// Hosts name other communities by Host header; the relay resolves the
	// host name, so keep the names and point them at the proxy's port.
	for i, h := range ep.Hosts {
		if name, _, err := net.SplitHostPort(h); err == nil {
			ep.Hosts[i] = net.JoinHostPort(name, port)
		}
	}
	return ep, nil
}

// Stop implements Target.
func (t *DelayedTarget) Stop(ctx context.Context) error {
	if t.proxy != nil {
		_ = t.proxy.Close()
		t.proxy = nil
	}
	return t.Inner.Stop(ctx)
}

// Logs implements Target.
func (t *DelayedTarget) Logs(ctx context.Context) string { return t.Inner.Logs(ctx) }

func (t *DelayedTarget) String() string {
	s := t.Inner.String()
	if t.RTT > 0 {
		s += " rtt+" + t.RTT.String()
	}
	if t.Host != "" {
		s += " host " + t.Host
	}
	return s
}

// StartedTarget is a relay another process started and shares with this
// one (the workers of run --parallel): Start only hands out its endpoint.
type StartedTarget struct {
	Endpoint Endpoint
	Desc     string // what String reports, e.g. "reference(labels)"
	Repro    string // ReproPrefix of the original target
	// Origin, when set, is the target that was started (in this process):
	// its logs are the relay's logs.
	Origin Target
}

// Start implements Target.
func (t *StartedTarget) Start(context.Context) (Endpoint, error) { return t.Endpoint, nil }

// Stop implements Target: the process that started the relay stops it.
func (t *StartedTarget) Stop(context.Context) error { return nil }

// Logs implements Target.
func (t *StartedTarget) Logs(ctx context.Context) string {
	if t.Origin != nil {
		return t.Origin.Logs(ctx)
	}
	return ""
}

func (t *StartedTarget) String() string { return t.Desc }

// FailedTarget is a target whose start already failed (run --parallel
// starts the relays before the run): Start returns that error, so a run
// reports it as the plan's setup error, in every report.
type FailedTarget struct {
	Origin Target // the target that failed to start
	Err    error
}

// Start implements Target: it fails as the origin did.
func (t *FailedTarget) Start(context.Context) (Endpoint, error) { return Endpoint{}, t.Err }

// Stop implements Target: whoever started the origin stops it.
func (t *FailedTarget) Stop(context.Context) error { return nil }

// Logs implements Target: the origin's logs (a container's last words).
func (t *FailedTarget) Logs(ctx context.Context) string { return t.Origin.Logs(ctx) }

func (t *FailedTarget) String() string { return t.Origin.String() }
