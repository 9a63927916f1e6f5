package reference

import (
	"net/http"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// Tenancy switches: what a real multi-tenant deployment asks of its
// clients beyond NIP-29 and NIP-CL (a proxy's header). They break no NIP
// sentence; they let the tests check that the harness can be configured
// to meet them (--header) and says so clearly when it is not.

// headerRefused answers 401 to a request (NIP-11 or WebSocket upgrade)
// without Config.RequireHeader, as a proxy in front of a deployment does,
// and reports whether it did.
func (r *Relay) headerRefused(w http.ResponseWriter, req *http.Request) bool {
	if r.cfg.RequireHeader == "" {
		return false
	}
	name, value, _ := fixtures.ParseHeaderLine(r.cfg.RequireHeader) // checked by New
	for _, v := range req.Header.Values(name) {
		if v == value {
			return false
		}
	}
	http.Error(w, "missing or wrong "+name+" header", http.StatusUnauthorized)
	return true
}

// tenancyRefusal is the refusal of an authenticated author's event by a
// tenancy switch (a command without the required tag), nil when none
// applies. community is the connection's Host.
func (r *Relay) tenancyRefusal(community string, ev *nostr.Event) error {
	return r.commandTagRefusal(ev)
}
