package main

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/internal/delayproxy"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

func cmdServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", "serve [flags]", stderr)
	addr := fs.String("addr", envOr("NIPCL_ADDR", "127.0.0.1:7447"), "listen address (env NIPCL_ADDR)")
	db := fs.String("db", os.Getenv("NIPCL_DB"), "SQLite file; empty = in-memory (env NIPCL_DB)")
	profile := fs.String("profile", envOr("NIPCL_PROFILE", "labels"), "nip29 (old name: none), identity or labels (env NIPCL_PROFILE)")
	key := fs.String("key", os.Getenv("NIPCL_RELAY_KEY"), "relay secret key (hex); random when empty (env NIPCL_RELAY_KEY)")
	minPrevious := fs.Int("min-previous", 0, "refuse group events with fewer NIP-29 previous (timeline) references than this (NIP-29 recommends 3); 0 = any number. References present are always checked against stored events")
	contact := fs.String("nip11-pubkey", "", "publish this key (hex) as the NIP-11 pubkey, the operator contact, instead of the relay key; self stays the relay key (tests clients that confuse the two)")
	simRTT := fs.Duration("simulate-rtt", 0, "serve through a delay proxy that adds this round trip (e.g. 50ms); the relay itself listens on a free port")
	var faults, readingArgs, policies, admitKeys, creatorKeys, hostAdmit, routedHosts listFlag
	requireTag := fs.String("require-command-tag", "", "K=V: refuse (restricted:) every group command (9000-9022) without the tag [\"K\",\"V\"], as a deployment with its own admission tag does (test the harness's --command-tag)")
	fs.Var(&hostAdmit, "host-admit", "HOST=PUBKEY: in the community HOST names (a Host header without its port) admit writes only from the listed public keys (repeatable), as a deployment whose communities admit different keys does (test the harness's --host-key)")
	fs.Var(&routedHosts, "routed-host", "HOST: under --variant host-routing, serve communities at this Host name too (repeatable; besides localhost, the loopback addresses, the --addr host and every --host-admit HOST), e.g. the --host-header a run sends through a tunnel")
	fs.Var(&faults, "fault", "fault switch to turn on (repeatable; env NIPCL_FAULTS, comma-separated)")
	fs.Var(&readingArgs, "reading", "ID=VALUE: take this careful reading of a point the specs leave open (repeatable; env NIPCL_READINGS, comma-separated; see `nipcl-conform list --readings`)")
	fs.Var(&policies, "policy", "relay policy switch to turn on (repeatable; env NIPCL_POLICIES, comma-separated; see `nipcl-conform faults`)")
	var variants listFlag
	fs.Var(&variants, "variant", "lawful variant to turn on: a freedom the NIP texts give a relay (repeatable or comma-separated; env NIPCL_VARIANTS; see `nipcl-conform faults`)")
	lawful := fs.String("lawful", os.Getenv("NIPCL_LAWFUL"), "SEED: turn on a random lawful combination of variants drawn from SEED (printed at start; the same seed gives the same combination; env NIPCL_LAWFUL)")
	fs.Var(&creatorKeys, "creator-key", "public key (hex) that may create groups under --policy listed-creators (repeatable; env NIPCL_CREATOR_KEYS, comma-separated)")
	fs.Var(&admitKeys, "admit-key", "public key (hex) admitted under --policy listed-keys-only (repeatable; env NIPCL_ADMIT_KEYS, comma-separated)")
	if code, done := parse(fs, args); done {
		return code
	}
	if len(faults) == 0 && os.Getenv("NIPCL_FAULTS") != "" {
		faults = strings.Split(os.Getenv("NIPCL_FAULTS"), ",")
	}
	if err := validFaults(faults); err != nil {
		return usageError(stderr, "%v", err)
	}
	if len(policies) == 0 && os.Getenv("NIPCL_POLICIES") != "" {
		policies = strings.Split(os.Getenv("NIPCL_POLICIES"), ",")
	}
	if len(admitKeys) == 0 && os.Getenv("NIPCL_ADMIT_KEYS") != "" {
		admitKeys = strings.Split(os.Getenv("NIPCL_ADMIT_KEYS"), ",")
	}
	if err := validPolicies(policies); err != nil {
		return usageError(stderr, "%v", err)
	}
	admitted, err := admittedKeys(admitKeys, nil)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	if len(creatorKeys) == 0 && os.Getenv("NIPCL_CREATOR_KEYS") != "" {
		creatorKeys = strings.Split(os.Getenv("NIPCL_CREATOR_KEYS"), ",")
	}
	creators, err := admittedKeys(creatorKeys, nil)
	if err != nil {
		return usageError(stderr, "--creator-key: %v", err)
	}
	hostAdmitted, err := parseHostAdmit(hostAdmit)
	if err != nil {
		return usageError(stderr, "--host-admit: %v", err)
	}
	p, err := framework.ParseProfile(*profile)
	if err != nil {
		return usageError(stderr, "--profile: %v", err)
	}
	*profile = p
	if len(readingArgs) == 0 && os.Getenv("NIPCL_READINGS") != "" {
		readingArgs = strings.Split(os.Getenv("NIPCL_READINGS"), ",")
	}
	readings, err := parseReadings(readingArgs, []string{*profile})
	if err != nil {
		return usageError(stderr, "--reading: %v", err)
	}
	if len(variants) == 0 && os.Getenv("NIPCL_VARIANTS") != "" {
		variants = strings.Split(os.Getenv("NIPCL_VARIANTS"), ",")
	}
	variants, err = withLawful(variants, *lawful, *profile)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	if len(variants) > 0 {
		fmt.Fprintf(stderr, "variants: %s\n", strings.Join(variants, ","))
	}
	if *minPrevious < 0 {
		return usageError(stderr, "--min-previous must not be negative, got %d", *minPrevious)
	}
	if *contact != "" && !nostr.IsValid32ByteHex(*contact) {
		return usageError(stderr, "--nip11-pubkey must be a 64-character lowercase hex public key, got %q", *contact)
	}
	if *simRTT < 0 {
		return usageError(stderr, "--simulate-rtt must not be negative, got %s", *simRTT)
	}
	relayAddr := *addr
	if *simRTT > 0 {
		relayAddr = "127.0.0.1:0"
	}
	r, err := reference.New(reference.Config{Addr: relayAddr, DBPath: *db, Profile: *profile, Faults: faults, Readings: readings, SecretKey: *key, MinPrevious: *minPrevious, ContactPubKey: *contact,
		Policies: policies, AdmittedKeys: admitted, CreatorKeys: creators, RequireCommandTag: *requireTag,
		HostAdmittedKeys: hostAdmitted, Variants: variants, RoutedHosts: routedHosts,
		Logf: func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) }})
	if err != nil {
		fmt.Fprintf(stderr, "nipcl-conform serve: %v\n", err)
		return 2
	}
	u, err := r.Start()
	if err != nil {
		fmt.Fprintf(stderr, "nipcl-conform serve: %v\n", err)
		return 2
	}
	if *simRTT > 0 {
		pu, _ := url.Parse(u)
		p, err := delayproxy.Start(*addr, pu.Host, *simRTT/2)
		if err != nil {
			_ = r.Close()
			fmt.Fprintf(stderr, "nipcl-conform serve: %v\n", err)
			return 2
		}
		defer p.Close()
		pu.Host = p.Addr()
		u = pu.String()
		fmt.Fprintf(stdout, "simulated round trip %s (delay proxy in front of the relay)\n", *simRTT)
	}
	fmt.Fprintf(stdout, "listening on %s (profile %s, relay key %s)\n", u, *profile, r.PubKey())
	for _, a := range readingArgs {
		fmt.Fprintf(stdout, "reading %s\n", strings.TrimSpace(a))
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	if err := r.Close(); err != nil {
		fmt.Fprintf(stderr, "nipcl-conform serve: close: %v\n", err)
		return 1
	}
	return 0
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// parseHostAdmit reads --host-admit HOST=PUBKEY values into the reference
// relay's per-community admitted keys.
func parseHostAdmit(values []string) (map[string][]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	out := map[string][]string{}
	for _, v := range values {
		host, key, ok := strings.Cut(v, "=")
		host = strings.ToLower(strings.TrimSpace(host))
		if !ok || host == "" || strings.ContainsAny(host, ":/") {
			return nil, fmt.Errorf("%q: want HOST=PUBKEY, HOST a host name without a port", v)
		}
		if !nostr.IsValid32ByteHex(key) {
			return nil, fmt.Errorf("%q: %q is not a 64-character lowercase hex public key", v, key)
		}
		out[host] = append(out[host], key)
	}
	return out, nil
}
