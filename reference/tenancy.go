package reference

import (
	"net/http"
	"slices"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// Tenancy switches: what a real multi-tenant deployment asks of its
// clients beyond NIP-29 and NIP-CL (a proxy's header, per-community keys).
// They break no NIP sentence; they let the tests check that the harness
// can be configured to meet them (--header, --host-key) and says so
// clearly when it is not.

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
// tenancy switch (a key the community does not admit, a command without
// the required tag), nil when none applies. community is the connection's
// Host without its port.
func (r *Relay) tenancyRefusal(community string, ev *nostr.Event) error {
	if keys, listed := r.cfg.HostAdmittedKeys[community]; listed && !slices.Contains(keys, ev.PubKey) {
		return reject("restricted", "community %s does not admit this key", community)
	}
	return r.commandTagRefusal(ev)
}
