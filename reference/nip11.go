package reference

import (
	"github.com/nipcl/nipcl-conform/clause"

	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/nbd-wtf/go-nostr/nip11"
)

// Software and Version appear in the NIP-11 document.
const (
	Software = "https://github.com/nipcl/nipcl-conform/reference"
	Version  = "0.1.0"
)

// Info is the NIP-11 document the relay serves: go-nostr's document plus
// the fields the target contract reads.
type Info struct {
	nip11.RelayInformationDocument
	Self                string      `json:"self"`
	SupportedExtensions []string    `json:"supported_extensions"`
	Limitation          *Limitation `json:"limitation,omitempty"`
	// NIP29 is NIP-29's "nip29" object (subgroup support).
	NIP29 *nip29Info `json:"nip29,omitempty"`
}

// Limitation is NIP-11 "limitation" plus max_filters.
type Limitation struct {
	nip11.RelayLimitationDocument
	MaxFilters int `json:"max_filters,omitempty"`
	// EventsPerSecond is the EVENT rate per author key (absent = unlimited).
	EventsPerSecond float64 `json:"events_per_second,omitempty"`
}

// Info returns the relay's NIP-11 document.
func (r *Relay) Info() Info {
	name := r.cfg.Name
	if name == "" {
		name = "nipcl-conform reference relay (" + clause.CanonicalProfile(r.profile.name()) + ")"
	}
	contact := r.pubKey
	if r.cfg.ContactPubKey != "" {
		contact = r.cfg.ContactPubKey
	}
	doc := Info{
		RelayInformationDocument: nip11.RelayInformationDocument{
			Name:          name,
			Description:   "Reference NIP-29 relay for the NIP-CL conformance harness, profile " + r.profile.name() + ".",
			PubKey:        contact,
			SupportedNIPs: r.profile.supportedNIPs([]any{1, 11, 29, 42, 45, 50}),
			Software:      Software,
			Version:       Version,
		},
		Self:                r.pubKey,
		SupportedExtensions: append([]string{}, r.profile.extensions()...),
		Limitation: &Limitation{
			RelayLimitationDocument: nip11.RelayLimitationDocument{
				MaxMessageLength:    int(r.maxMessageSize),
				MaxSubscriptions:    r.maxSubs,
				MaxLimit:            r.maxLimit,
				DefaultLimit:        r.defaultLimit,
				MaxSubidLength:      MaxSubIDLength,
				CreatedAtLowerLimit: r.createdAtPast,
				CreatedAtUpperLimit: r.createdAtFuture,
				AuthRequired:        true,
				RestrictedWrites:    true,
			},
			MaxFilters:      r.maxFilters,
			EventsPerSecond: r.rate.eventsPerSecond(),
		},
	}
	doc.NIP29 = r.nip29Info()
	for _, h := range r.hooks.editInfo {
		h(&doc)
	}
	return doc
}

// Handler serves the WebSocket and the NIP-11 document on "/".
func (r *Relay) Handler() http.Handler {
	return http.HandlerFunc(r.serveHTTP)
}

func (r *Relay) serveHTTP(w http.ResponseWriter, req *http.Request) {
	select {
	case <-r.closed:
		http.Error(w, "relay closed", http.StatusServiceUnavailable)
		return
	default:
	}
	// Variant host-routing: no community is served at an unknown Host.
	if r.hostUnknown(communityOf(req)) {
		http.Error(w, "no community is served at host "+communityOf(req), http.StatusNotFound)
		return
	}
	if strings.HasPrefix(req.URL.Path, livekitPath) && !r.policy(policyNoLiveKit) {
		r.serveLiveKit(w, req)
		return
	}
	if r.headerRefused(w, req) {
		return
	}
	if strings.EqualFold(req.Header.Get("Upgrade"), "websocket") {
		r.serveWS(w, req)
		return
	}
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Access-Control-Allow-Headers", "*")
	w.Header().Set("Access-Control-Allow-Methods", "GET, OPTIONS")
	if req.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if strings.Contains(req.Header.Get("Accept"), "application/nostr+json") {
		w.Header().Set("Content-Type", "application/nostr+json")
		doc := r.Info()
		r.servedInfo(req, &doc)
		_ = json.NewEncoder(w).Encode(doc)
		return
	}
	for _, h := range r.hooks.answerHTTP {
		if h(w, req) {
			return
		}
	}
	if strings.HasPrefix(req.URL.Path, livekitPath) { // no-livekit
		http.NotFound(w, req)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	info := r.Info()
	fmt.Fprintf(w, "%s\n\nThis is a Nostr relay; connect with a WebSocket client.\nprofile: %s\npubkey: %s\ncommunity: %s\n",
		info.Name, r.profile.name(), r.pubKey, communityOf(req))
}
