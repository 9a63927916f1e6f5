package clientmode

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/nbd-wtf/go-nostr"
)

// Reply is how the scripted relay answers one EVENT submission.
type Reply struct {
	// Drop: send no OK and close the connection (the command is treated
	// as applied by the script: a lost acknowledgement).
	Drop bool
	// Silent: send nothing and keep the connection open (a missing OK).
	Silent bool
	OK     bool
	Msg    string
	// Then, when set, is a second OK for the same event sent right after
	// the first one, after which the relay closes the connection.
	Then *Reply
	// Delay holds the OK back this long (the connection stays open).
	Delay time.Duration
}

// Script is what the scripted relay does in one case.
type Script struct {
	// NoCapability leaves nip-cl out of the NIP-11 supported_extensions.
	NoCapability bool
	// Replies answer the EVENT submissions in order; the last one repeats.
	Replies []Reply
	// Events builds what every REQ is answered with (in this order, then
	// EOSE), given the relay's and the user's identities.
	Events func(k Keys) []nostr.Event
	// Rounds, when set, replace Events per read: before the harness hands
	// the client its n-th intent after init, the relay answers every REQ
	// with Rounds[n] (the last one repeats). A relay whose answers differ
	// between reads: newer state first, only the older next; a tie in one
	// order, then in the other.
	Rounds []func(k Keys) []nostr.Event
	// NIP11 says which keys the information document names (NIP11Both
	// when empty).
	NIP11 string
	// Match answers a REQ only with the events matching one of its
	// filters (NIP-01 matching, authors included); without Match every
	// REQ gets every event of the script.
	Match bool
	// Offline: the relay is down (its address refuses connections).
	Offline bool
	// IgnoreLimit: the relay answers a REQ with every matching event,
	// whatever its limit (NIP-01: relays SHOULD use limit, so ignoring it
	// is a lawful variant). By default a filter's limit n keeps the
	// newest n matching events (created_at, then lowest id), sent in the
	// script's order.
	IgnoreLimit bool
}

// NIP-11 modes of the scripted relay (Script.NIP11).
const (
	NIP11Both       = ""            // self and pubkey, the same key
	NIP11Split      = "split"       // self is the relay key, pubkey an operator contact key (Keys.OperatorSK)
	NIP11SelfOnly   = "self-only"   // self only, no pubkey
	NIP11PubkeyOnly = "pubkey-only" // pubkey (the relay key) only, no self
)

// Keys are the identities of one case: the relay's own (its NIP-11 self),
// the user the client acts as, and a stranger.
type Keys struct {
	RelaySK, RelayPK     string
	UserSK, UserPK       string
	StrangerSK, Stranger string
	// OperatorSK/OperatorPK: the operator's contact key (NIP-11 pubkey
	// when it differs from self); AdminSK/AdminPK: a group admin.
	OperatorSK, OperatorPK string
	AdminSK, AdminPK       string
}

// NewKeys makes fresh keys.
func NewKeys() Keys {
	var k Keys
	k.RelaySK = nostr.GeneratePrivateKey()
	k.RelayPK, _ = nostr.GetPublicKey(k.RelaySK)
	k.UserSK = nostr.GeneratePrivateKey()
	k.UserPK, _ = nostr.GetPublicKey(k.UserSK)
	k.StrangerSK = nostr.GeneratePrivateKey()
	k.Stranger, _ = nostr.GetPublicKey(k.StrangerSK)
	k.OperatorSK = nostr.GeneratePrivateKey()
	k.OperatorPK, _ = nostr.GetPublicKey(k.OperatorSK)
	k.AdminSK = nostr.GeneratePrivateKey()
	k.AdminPK, _ = nostr.GetPublicKey(k.AdminSK)
	return k
}

// Wire is what the client sent the scripted relay.
type Wire struct {
	mu      sync.Mutex
	Events  []json.RawMessage // EVENT payloads, exact bytes as received
	Filters []json.RawMessage // REQ filters
	NIP11   int               // NIP-11 fetches
	// Auths are the client's AUTH events, each with the relay's verdict
	// (NIP-42 § Signed Event Verification).
	Auths []AuthCheck
	log   []string
	last  time.Time // the last frame, either way
}

// AuthCheck is one AUTH event the client sent and what the scripted relay
// made of it.
type AuthCheck struct {
	Conn    int // the connection it came on (1 = the first)
	Event   json.RawMessage
	Refused string // "" accepted; else why (also the OK false message)
	// Stale: its challenge is one the relay sent on an earlier
	// connection, not on this one.
	Stale bool
}

func (w *Wire) note(format string, a ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.log = append(w.log, fmt.Sprintf(format, a...))
	w.last = time.Now()
}

// LastFrame is when the last frame crossed the wire, either way (zero
// before the first).
func (w *Wire) LastFrame() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// Transcript is the conversation, one frame a line.
func (w *Wire) Transcript() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.log, "\n")
}

// Snapshot copies the recorded events and filters.
func (w *Wire) Snapshot() (events, filters []json.RawMessage, nip11 int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]json.RawMessage(nil), w.Events...), append([]json.RawMessage(nil), w.Filters...), w.NIP11
}

// AuthChecks copies the recorded AUTH events and verdicts.
func (w *Wire) AuthChecks() []AuthCheck {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]AuthCheck(nil), w.Auths...)
}

// Relay is a running scripted relay.
type Relay struct {
	URL    string
	Keys   Keys
	Wire   *Wire
	script Script
	srv    *http.Server
	ln     net.Listener
	mu     sync.Mutex
	n      int // EVENT submissions so far
	round  int // Script.Rounds index for the next REQs
	conns  int // WebSocket connections so far
	// challenges are the AUTH challenges sent, one per connection.
	challenges []string
}

// SetRound selects which of Script.Rounds the next REQs are answered with.
func (r *Relay) SetRound(n int) {
	r.mu.Lock()
	r.round = n
	r.mu.Unlock()
}

// stored is what a REQ is answered from in the current round.
func (r *Relay) stored() []nostr.Event {
	r.mu.Lock()
	n := r.round
	r.mu.Unlock()
	if rs := r.script.Rounds; len(rs) > 0 {
		return rs[min(n, len(rs)-1)](r.Keys)
	}
	if r.script.Events != nil {
		return r.script.Events(r.Keys)
	}
	return nil
}

// StartRelay listens on 127.0.0.1 and serves the script.
func StartRelay(s Script, k Keys) (*Relay, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &Relay{URL: "ws://" + ln.Addr().String(), Keys: k, Wire: &Wire{}, script: s, ln: ln}
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 5 * time.Second}
	if s.Offline {
		ln.Close() // the address now refuses connections
		return r, nil
	}
	go r.srv.Serve(ln)
	return r, nil
}

// Close stops the relay and drops its connections.
func (r *Relay) Close() { r.srv.Close() }

func (r *Relay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if strings.Contains(req.Header.Get("Accept"), "application/nostr+json") {
		r.Wire.mu.Lock()
		r.Wire.NIP11++
		r.Wire.mu.Unlock()
		ext := []string{"nip-cl"}
		if r.script.NoCapability {
			ext = []string{}
		}
		w.Header().Set("Content-Type", "application/nostr+json")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		doc := map[string]any{
			"name": "nipcl-conform scripted relay", "self": r.Keys.RelayPK, "pubkey": r.Keys.RelayPK,
			"supported_nips": []int{1, 11, 29, 42}, "supported_extensions": ext,
		}
		switch r.script.NIP11 {
		case NIP11Split:
			doc["pubkey"] = r.Keys.OperatorPK
		case NIP11SelfOnly:
			delete(doc, "pubkey")
		case NIP11PubkeyOnly:
			delete(doc, "self")
		}
		json.NewEncoder(w).Encode(doc)
		return
	}
	c, err := websocket.Accept(w, req, nil)
	if err != nil {
		return
	}
	c.SetReadLimit(1 << 20)
	ctx, cancel := context.WithTimeout(req.Context(), 2*time.Minute)
	defer cancel()
	defer c.CloseNow()
	send := func(v ...any) error {
		b, _ := json.Marshal(v)
		r.Wire.note("relay> %s", b)
		return c.Write(ctx, websocket.MessageText, b)
	}
	r.mu.Lock()
	r.conns++
	conn := r.conns
	challenge := fmt.Sprintf("challenge-%d-%d", conn, time.Now().UnixNano())
	r.challenges = append(r.challenges, challenge)
	r.mu.Unlock()
	if send("AUTH", challenge) != nil {
		return
	}
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		r.Wire.note("client> %s", data)
		var frame []json.RawMessage
		if json.Unmarshal(data, &frame) != nil || len(frame) < 2 {
			send("NOTICE", "error: could not parse frame")
			continue
		}
		var typ string
		json.Unmarshal(frame[0], &typ)
		switch typ {
		case "AUTH":
			var ev nostr.Event
			json.Unmarshal(frame[1], &ev)
			check := r.checkAuth(ev, conn, challenge)
			check.Event = append(json.RawMessage(nil), frame[1]...)
			r.Wire.mu.Lock()
			r.Wire.Auths = append(r.Wire.Auths, check)
			r.Wire.mu.Unlock()
			if check.Refused != "" {
				send("OK", ev.ID, false, "invalid: "+check.Refused)
				continue
			}
			send("OK", ev.ID, true, "")
		case "EVENT":
			var ev nostr.Event
			json.Unmarshal(frame[1], &ev)
			r.Wire.mu.Lock()
			r.Wire.Events = append(r.Wire.Events, append(json.RawMessage(nil), frame[1]...))
			r.Wire.mu.Unlock()
			reply := r.nextReply()
			if reply.Drop {
				r.Wire.note("relay: (no OK; connection closed)")
				c.Close(websocket.StatusGoingAway, "")
				return
			}
			if reply.Silent {
				r.Wire.note("relay: (no OK; connection kept open)")
				continue
			}
			if reply.Delay > 0 {
				r.Wire.note("relay: (OK held back %s)", reply.Delay)
				select {
				case <-time.After(reply.Delay):
				case <-ctx.Done():
					return
				}
			}
			send("OK", ev.ID, reply.OK, reply.Msg)
			if t := reply.Then; t != nil {
				send("OK", ev.ID, t.OK, t.Msg)
				r.Wire.note("relay: (connection closed)")
				c.Close(websocket.StatusNormalClosure, "")
				return
			}
		case "REQ":
			var sub string
			json.Unmarshal(frame[1], &sub)
			var filters []nostr.Filter
			r.Wire.mu.Lock()
			for _, f := range frame[2:] {
				r.Wire.Filters = append(r.Wire.Filters, append(json.RawMessage(nil), f...))
				var nf nostr.Filter
				if json.Unmarshal(f, &nf) == nil {
					filters = append(filters, nf)
				}
			}
			r.Wire.mu.Unlock()
			for _, ev := range r.answer(filters) {
				send("EVENT", sub, ev)
			}
			send("EOSE", sub)
		case "CLOSE":
		default:
			send("NOTICE", "unknown frame "+typ)
		}
	}
}

// answer is what a REQ with filters gets: the stored events matching one
// of the filters (all of them without Script.Match), in the script's
// order; a filter's limit keeps its newest matches only, unless the
// script ignores limit.
func (r *Relay) answer(filters []nostr.Filter) []nostr.Event {
	stored := r.stored()
	keep := make([]bool, len(stored))
	for _, f := range filters {
		var idx []int
		for i, ev := range stored {
			if !r.script.Match || f.Matches(&ev) {
				idx = append(idx, i)
			}
		}
		if f.LimitZero {
			continue
		}
		if f.Limit > 0 && !r.script.IgnoreLimit && len(idx) > f.Limit {
			slices.SortStableFunc(idx, func(a, b int) int {
				if newer(stored[a], stored[b]) {
					return -1
				}
				if newer(stored[b], stored[a]) {
					return 1
				}
				return 0
			})
			idx = idx[:f.Limit]
		}
		for _, i := range idx {
			keep[i] = true
		}
	}
	if len(filters) == 0 {
		return nil
	}
	var out []nostr.Event
	for i, ev := range stored {
		if keep[i] {
			out = append(out, ev)
		}
	}
	return out
}

// checkAuth verifies an AUTH event as NIP-42 § Signed Event Verification
// tells a relay to: kind 22242, a valid signature, created_at within ten
// minutes of now, the challenge sent on this connection, and a relay tag
// naming this relay (host and port; scheme and trailing slash aside).
func (r *Relay) checkAuth(ev nostr.Event, conn int, challenge string) AuthCheck {
	c := AuthCheck{Conn: conn}
	refuse := func(f string, a ...any) AuthCheck { c.Refused = fmt.Sprintf(f, a...); return c }
	if ev.Kind != 22242 {
		return refuse("AUTH event of kind %d, not 22242", ev.Kind)
	}
	if ok, _ := ev.CheckSignature(); !ok || !ev.CheckID() {
		return refuse("AUTH event whose id or signature does not verify")
	}
	if d := time.Since(ev.CreatedAt.Time()); d > 10*time.Minute || d < -10*time.Minute {
		return refuse("AUTH created_at %d is not within ten minutes of now", ev.CreatedAt)
	}
	got := ""
	if t := ev.Tags.Find("challenge"); len(t) > 1 {
		got = t[1]
	}
	if got != challenge {
		r.mu.Lock()
		c.Stale = got != "" && slices.Contains(r.challenges, got)
		r.mu.Unlock()
		if c.Stale {
			return refuse("AUTH challenge %q was sent on an earlier connection; this connection's challenge is %q", got, challenge)
		}
		return refuse("AUTH challenge %q is not this connection's challenge %q", got, challenge)
	}
	host := func(u string) string {
		for _, p := range []string{"wss://", "ws://", "https://", "http://"} {
			u = strings.TrimPrefix(u, p)
		}
		h, _, _ := strings.Cut(strings.TrimSuffix(u, "/"), "/")
		return strings.ToLower(h)
	}
	rt := ev.Tags.Find("relay")
	if len(rt) < 2 || host(rt[1]) != host(r.URL) {
		return refuse("AUTH relay tag %v does not name this relay (%s)", rt, r.URL)
	}
	return c
}

func (r *Relay) nextReply() Reply {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := r.n
	r.n++
	if len(r.script.Replies) == 0 {
		return Reply{OK: true}
	}
	if i >= len(r.script.Replies) {
		i = len(r.script.Replies) - 1
	}
	return r.script.Replies[i]
}
