package framework

import (
	"errors"
	"fmt"
	"net"
	"net/url"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// authRefusalObserved words a refused AUTH for the auth precondition's
// incompatible line: the relay's answer, quoted, and the URL the harness
// signed into the relay tag; when that URL may not be the one the relay
// knows itself by (it differs in host or port from the URL the run
// dialled, or it is a loopback address, as behind a tunnel or port
// forward), it suggests --relay-url.
func authRefusalObserved(env *Env, what string, err error) string {
	var ar *fixtures.AuthRefusal
	if !errors.As(err, &ar) {
		return fmt.Sprintf("%s: %v", what, err)
	}
	s := fmt.Sprintf("%s: the relay answered the AUTH of %s with %q; the AUTH relay tag named %s", what, ar.Actor, ar.Reason, ar.RelayURL)
	if hint := relayURLHint(ar.RelayURL, env.URL); hint != "" {
		s += "; " + hint
	}
	return s
}

// relayURLHint suggests --relay-url when the signed URL differs from the
// dialled one in host or port, or names a loopback host.
func relayURLHint(signed, dialled string) string {
	su, err1 := url.Parse(signed)
	du, err2 := url.Parse(dialled)
	if err1 != nil || err2 != nil {
		return ""
	}
	switch {
	case su.Hostname() != du.Hostname() || su.Port() != du.Port():
		return fmt.Sprintf("it differs from the URL the harness connects to (%s): if the relay knows itself by another URL, pass it with --relay-url", dialled)
	case isLoopbackHost(su.Hostname()):
		return "a loopback address: if --target reaches the relay through a tunnel or port forward, pass the relay's own URL with --relay-url (e.g. --relay-url wss://relay.example.com)"
	}
	return ""
}

func isLoopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
