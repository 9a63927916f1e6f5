package reference

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/internal/text"
)

const (
	maxOutbox    = 100_000 // queued frames before a slow connection is dropped
	writeTimeout = 10 * time.Second
)

// conn is one WebSocket client.
type conn struct {
	r         *Relay
	ws        *websocket.Conn
	community string
	challenge string
	// challengeSent: the challenge went out (on connect, or with the
	// first auth-required answer under auth-on-demand); guarded by mu.
	challengeSent bool
	ctx           context.Context
	cancel        context.CancelFunc

	mu     sync.Mutex // authed, subs, subSeq
	authed []string
	subs   map[string]nostr.Filters
	subSeq map[string]uint64 // Relay.liveSeq when each subscription registered

	outMu   sync.Mutex
	out     [][]byte
	outWake chan struct{}

	// handled counts the messages handled (notices-midstream).
	handled atomic.Int64

	// liveTail is closed when the connection's last late delivery
	// (deliverLate) is done; guarded by liveMu.
	liveMu   sync.Mutex
	liveTail chan struct{}
}

func (r *Relay) serveWS(w http.ResponseWriter, req *http.Request) {
	ws, err := websocket.Accept(w, req, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		r.logf("accept: %v", err)
		return
	}
	ws.SetReadLimit(r.maxMessageSize)
	ctx, cancel := context.WithCancel(context.Background())
	c := &conn{
		r:         r,
		ws:        ws,
		community: communityOf(req),
		challenge: randomHex(16),
		ctx:       ctx,
		cancel:    cancel,
		subs:      map[string]nostr.Filters{},
		subSeq:    map[string]uint64{},
		outWake:   make(chan struct{}, 1),
	}

	r.connMu.Lock()
	select {
	case <-r.closed:
		r.connMu.Unlock()
		cancel()
		_ = ws.Close(websocket.StatusGoingAway, "relay closing")
		return
	default:
	}
	r.conns[c] = struct{}{}
	r.connWG.Add(1)
	r.connMu.Unlock()

	defer func() {
		r.connMu.Lock()
		delete(r.conns, c)
		r.connMu.Unlock()
		cancel()
		_ = ws.CloseNow()
		r.connWG.Done()
	}()

	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		c.writeLoop()
	}()

	if r.challengeOnConnect() {
		c.sendChallenge()
	}
	for _, h := range r.hooks.onConnect {
		h(c)
	}
	c.readLoop()
	cancel()
	<-writerDone
}

// shutdown is called by Relay.Close.
func (c *conn) shutdown() {
	_ = c.ws.Close(websocket.StatusGoingAway, "relay closing")
	c.cancel()
}

func (c *conn) readLoop() {
	// Under messages-handled-concurrently each message gets a goroutine;
	// the connection ends once they all have.
	var handlers sync.WaitGroup
	defer handlers.Wait()
	for {
		typ, data, err := c.ws.Read(c.ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			c.malformed("binary frames are not supported")
			continue
		}
		if delay, ok := c.r.messageDelay(data); ok {
			handlers.Go(func() {
				t := time.NewTimer(delay)
				defer t.Stop()
				select {
				case <-t.C:
					c.handle(data)
				case <-c.ctx.Done():
				}
			})
			continue
		}
		c.handle(data)
	}
}

func (c *conn) writeLoop() {
	for {
		c.outMu.Lock()
		batch := c.out
		c.out = nil
		c.outMu.Unlock()
		for _, msg := range batch {
			ctx, cancel := context.WithTimeout(c.ctx, writeTimeout)
			err := c.ws.Write(ctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				c.cancel()
				return
			}
		}
		if len(batch) > 0 {
			continue
		}
		select {
		case <-c.ctx.Done():
			return
		case <-c.outWake:
		}
	}
}

// send queues one envelope; frames leave in the order they were queued.
func (c *conn) send(env interface{ MarshalJSON() ([]byte, error) }) {
	b, err := env.MarshalJSON()
	if err != nil {
		c.r.logf("marshal: %v", err)
		return
	}
	c.outMu.Lock()
	if len(c.out) >= maxOutbox {
		c.outMu.Unlock()
		c.r.logf("dropping slow connection")
		c.cancel()
		return
	}
	c.out = append(c.out, b)
	c.outMu.Unlock()
	select {
	case c.outWake <- struct{}{}:
	default:
	}
}

func (c *conn) notice(msg string) { c.send(nostr.NoticeEnvelope(msg)) }

func (c *conn) closed(subID, reason string) {
	c.beforeRefusal(reason)
	c.send(nostr.ClosedEnvelope{SubscriptionID: subID, Reason: c.r.refusal(reason)})
}

// sendChallenge sends the connection's NIP-42 challenge once.
func (c *conn) sendChallenge() {
	c.mu.Lock()
	sent := c.challengeSent
	c.challengeSent = true
	challenge := c.challenge
	c.mu.Unlock()
	if !sent {
		c.send(nostr.AuthEnvelope{Challenge: &challenge})
	}
}

// renewChallenge replaces the connection's challenge with a fresh one and
// sends it (NIP-42: a challenge is valid "until another challenge is sent
// by the relay").
func (c *conn) renewChallenge() {
	challenge := randomHex(16)
	c.mu.Lock()
	c.challenge, c.challengeSent = challenge, true
	c.mu.Unlock()
	c.send(nostr.AuthEnvelope{Challenge: &challenge})
}

// beforeRefusal sends the challenge ahead of the connection's first
// "auth-required:" answer when the challenge was not sent on connect.
func (c *conn) beforeRefusal(reason string) {
	if strings.HasPrefix(reason, "auth-required") {
		c.sendChallenge()
	}
}

// anyAuthed reports whether the connection authenticated any key.
func (c *conn) anyAuthed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.authed) > 0
}

// readRefusal is the CLOSED reason a variant gives a REQ or COUNT before
// it is read ("" = read it). A relay without search reads a filter as if
// it had no search field.
func (c *conn) readRefusal(verb string, filters nostr.Filters) string {
	for _, h := range c.r.hooks.refuseRead {
		if reason := h(c, verb, filters); reason != "" {
			return reason
		}
	}
	if c.r.lacks(featureSearch) {
		for i := range filters {
			filters[i].Search = ""
		}
	}
	return ""
}

func (c *conn) ok(ev *nostr.Event, accepted bool, reason string) {
	reason = c.r.okReason(ev, accepted, c.r.profile.okReason(ev, accepted, reason))
	if !accepted {
		c.beforeRefusal(reason)
		reason = c.r.refusal(reason)
	}
	c.send(nostr.OKEnvelope{EventID: ev.ID, OK: accepted, Reason: reason})
}

// malformed answers a frame the relay cannot parse with a NOTICE
// "invalid: why". The connection stays open: no bad frame ends it (a client
// may go on using it; TestMalformedFrames and TestBinaryFrameKeepsConnection
// hold the relay to that).
func (c *conn) malformed(why string) {
	c.notice("invalid: " + why)
}

func (c *conn) reader() *reader {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &reader{community: c.community, pubkeys: append([]string(nil), c.authed...)}
}

func (c *conn) isAuthed(pk string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range c.authed {
		if k == pk {
			return true
		}
	}
	return false
}

// handle processes one text frame; it never panics, and no frame ends the
// connection.
func (c *conn) handle(data []byte) {
	defer func() {
		for _, h := range c.r.hooks.afterMessage {
			h(c)
		}
	}()
	defer func() {
		if p := recover(); p != nil {
			c.r.logf("panic handling %q: %v\n%s", text.Clip(string(data), 200), p, debug.Stack())
			c.notice("error: internal error")
		}
	}()

	var arr []json.RawMessage
	if err := json.Unmarshal(data, &arr); err != nil {
		c.malformed("frame is not a JSON array")
		return
	}
	if len(arr) == 0 {
		c.malformed("empty frame")
		return
	}
	var verb string
	if err := json.Unmarshal(arr[0], &verb); err != nil {
		c.malformed("first element must be a string")
		return
	}
	switch verb {
	case "EVENT":
		if len(arr) != 2 || !isObject(arr[1]) {
			c.malformed(`expected ["EVENT", <event>]`)
			return
		}
		ev, err := decodeEvent(arr[1])
		if err != nil {
			c.malformed("bad event: " + err.Error())
			// EVENT is always answered with OK when its id can be read.
			var idOnly struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(arr[1], &idOnly) == nil && isHex64(idOnly.ID) {
				c.send(nostr.OKEnvelope{EventID: idOnly.ID, OK: false, Reason: "invalid: bad event: " + err.Error()})
			}
			return
		}
		c.handleEvent(ev)
	case "REQ", "COUNT":
		subID, filters, err := decodeSubscription(arr, c.r.maxFilters)
		if err != nil {
			c.malformed(verb + ": " + err.Error())
			if subID != "" {
				c.closed(subID, "invalid: "+err.Error())
			}
			return
		}
		if verb == "REQ" {
			c.handleReq(subID, filters)
		} else {
			c.handleCount(subID, filters)
		}
	case "CLOSE":
		var subID string
		if len(arr) != 2 || json.Unmarshal(arr[1], &subID) != nil {
			c.malformed(`expected ["CLOSE", <subscription id>]`)
			return
		}
		c.mu.Lock()
		if kept := c.r.subscribed(subID, c.subs[subID], nil); kept != nil {
			c.mu.Unlock()
			return
		}
		delete(c.subs, subID)
		delete(c.subSeq, subID)
		c.mu.Unlock()
		for _, h := range c.r.hooks.onCloseMessage {
			h(c, subID)
		}
	case "AUTH":
		if len(arr) != 2 || !isObject(arr[1]) {
			c.malformed(`expected ["AUTH", <signed kind 22242 event>]`)
			return
		}
		ev, err := decodeEvent(arr[1])
		if err != nil {
			c.malformed("bad AUTH event: " + err.Error())
			return
		}
		c.handleAuth(ev)
	default:
		c.malformed(fmt.Sprintf("unknown message type %q", text.Clip(verb, 32)))
	}
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// decodeEvent parses and shape-checks an event object (not id/signature).
func decodeEvent(raw json.RawMessage) (*nostr.Event, error) {
	// Reject wrong field types the lenient decoder would coerce.
	var shape struct {
		ID        *string      `json:"id"`
		PubKey    *string      `json:"pubkey"`
		CreatedAt *json.Number `json:"created_at"`
		Kind      *json.Number `json:"kind"`
		Tags      *[][]string  `json:"tags"`
		Content   *string      `json:"content"`
		Sig       *string      `json:"sig"`
	}
	if err := json.Unmarshal(raw, &shape); err != nil {
		return nil, errors.New("wrong field types")
	}
	switch {
	case shape.ID == nil, shape.PubKey == nil, shape.CreatedAt == nil, shape.Kind == nil,
		shape.Tags == nil, shape.Content == nil, shape.Sig == nil:
		return nil, errors.New("missing fields (id, pubkey, created_at, kind, tags, content, sig)")
	}
	if _, err := shape.CreatedAt.Int64(); err != nil {
		return nil, errors.New("created_at must be an integer")
	}
	if k, err := shape.Kind.Int64(); err != nil || k < 0 || k > 65535 {
		return nil, errors.New("kind must be an integer 0-65535")
	}
	ev := &nostr.Event{}
	if err := json.Unmarshal(raw, ev); err != nil {
		return nil, errors.New("undecodable event")
	}
	for _, t := range ev.Tags {
		if len(t) == 0 {
			return nil, errors.New("empty tag")
		}
	}
	return ev, nil
}

// decodeSubscription parses ["REQ"|"COUNT", subid, filter...].
func decodeSubscription(arr []json.RawMessage, maxFilters int) (string, nostr.Filters, error) {
	if len(arr) < 2 {
		return "", nil, errors.New("missing subscription id")
	}
	var subID string
	if err := json.Unmarshal(arr[1], &subID); err != nil {
		return "", nil, errors.New("subscription id must be a string")
	}
	if subID == "" || len(subID) > MaxSubIDLength {
		return "", nil, fmt.Errorf("subscription id must be 1-%d characters", MaxSubIDLength)
	}
	if len(arr) < 3 {
		return subID, nil, errors.New("missing filters")
	}
	if len(arr)-2 > maxFilters {
		return subID, nil, fmt.Errorf("too many filters (max %d)", maxFilters)
	}
	filters := make(nostr.Filters, 0, len(arr)-2)
	for i, raw := range arr[2:] {
		if !isObject(raw) {
			return subID, nil, fmt.Errorf("filter %d is not an object", i)
		}
		var f nostr.Filter
		if err := json.Unmarshal(raw, &f); err != nil {
			return subID, nil, fmt.Errorf("filter %d: %v", i, err)
		}
		if err := checkFilter(&f); err != nil {
			return subID, nil, fmt.Errorf("filter %d: %v", i, err)
		}
		filters = append(filters, f)
	}
	return subID, filters, nil
}

func checkFilter(f *nostr.Filter) error {
	for _, id := range f.IDs {
		if !isHex64(id) {
			return fmt.Errorf("ids: %q is not 64 lowercase hex", text.Clip(id, 80))
		}
	}
	for _, a := range f.Authors {
		if !isHex64(a) {
			return fmt.Errorf("authors: %q is not 64 lowercase hex", text.Clip(a, 80))
		}
	}
	for _, k := range f.Kinds {
		if k < 0 || k > 65535 {
			return fmt.Errorf("kinds: %d out of range", k)
		}
	}
	for name := range f.Tags {
		if len(name) != 1 || !isLetter(name[0]) {
			return fmt.Errorf("tag filter #%s: only single-letter tags are indexed", text.Clip(name, 32))
		}
	}
	if f.Limit < 0 {
		return errors.New("limit must not be negative")
	}
	if (f.Since != nil && *f.Since < 0) || (f.Until != nil && *f.Until < 0) {
		return errors.New("since/until must not be negative")
	}
	return nil
}

func isLetter(b byte) bool { return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }

// isHex64 is text.IsHex64, under the name the relay's files use.
func isHex64(s string) bool { return text.IsHex64(s) }

// --- REQ / COUNT / CLOSE ----------------------------------------------------

func (c *conn) handleReq(subID string, filters nostr.Filters) {
	if reason := c.readRefusal("REQ", filters); reason != "" {
		c.closed(subID, reason)
		return
	}
	// Fault sub-ids-shared: the id is taken from every other connection.
	if c.r.fault(faultSubIDsShared) {
		c.r.dropSubOthers(c, subID)
	}
	c.mu.Lock()
	old, exists := c.subs[subID]
	full := !exists && len(c.subs) >= c.r.maxSubs
	c.mu.Unlock()
	if full {
		c.closed(subID, fmt.Sprintf("restricted: too many subscriptions (max %d)", c.r.maxSubs))
		return
	}
	// History and registration under the shared lock: no write commits in
	// between, so live delivery starts exactly after the history.
	c.r.wmu.RLock()
	defer c.r.wmu.RUnlock()
	// Faults labels-limit-read-refused, identity-limit-read-refused.
	if c.r.limitReadRefused(c.reader(), filters) {
		c.closed(subID, "restricted: this read would match events you may not read")
		return
	}
	evs, err := c.r.query(c.reader(), filters)
	if err != nil {
		c.r.logf("query: %v", err)
		c.closed(subID, "error: query failed")
		return
	}
	// Registered before its EOSE goes out, so a client that has read the
	// EOSE finds the subscription in place (wmu, held shared, keeps every
	// live delivery until after the EOSE).
	if !exists {
		old = nil
	}
	filters = c.r.subscribed(subID, old, filters)
	c.mu.Lock()
	c.subs[subID] = filters
	if c.subSeq == nil {
		c.subSeq = map[string]uint64{}
	}
	c.subSeq[subID] = c.r.liveSeq // stable: wmu is held shared
	c.mu.Unlock()
	if c.r.fault(faultLiveForeignSubID) {
		c.r.faulty.noteSub(c, subID)
	}
	// Fault eose-before-stored: EOSE goes out before the stored events.
	eoseFirst := c.r.fault(faultEOSEBeforeStored)
	if eoseFirst {
		c.send(nostr.EOSEEnvelope(subID))
	}
	for _, ev := range evs {
		id := subID
		c.send(nostr.EventEnvelope{SubscriptionID: &id, Event: *ev})
	}
	if !eoseFirst {
		c.send(nostr.EOSEEnvelope(subID))
	}
}

func (c *conn) handleCount(subID string, filters nostr.Filters) {
	if reason := c.readRefusal("COUNT", filters); reason != "" {
		c.closed(subID, reason)
		return
	}
	c.r.wmu.RLock()
	n, err := c.r.count(c.reader(), filters)
	hll := ""
	if err == nil {
		hll, err = c.r.hll(c.reader(), filters)
	}
	c.r.wmu.RUnlock()
	if err != nil {
		c.r.logf("count: %v", err)
		c.closed(subID, "error: count failed")
		return
	}
	approximate := false
	for _, h := range c.r.hooks.estimateCount {
		var flagged bool
		n, flagged = h(n)
		approximate = approximate || flagged
	}
	c.send(countAnswer{id: subID, n: n, hll: hll, approximate: approximate})
}

// deliverLate is deliver after delay (live-delivery-late), in the order
// the connection's deliveries were asked for.
func (c *conn) deliverLate(ev *nostr.Event, ch *Channel, committed uint64, delay time.Duration) {
	done := make(chan struct{})
	c.liveMu.Lock()
	prev := c.liveTail
	c.liveTail = done
	c.liveMu.Unlock()
	go func() {
		defer close(done)
		t := time.NewTimer(delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-c.ctx.Done():
			return
		}
		if prev != nil {
			select {
			case <-prev:
			case <-c.ctx.Done():
				return
			}
		}
		c.deliver(ev, ch, committed)
	}()
}

// deliver pushes a committed event to this connection's matching
// subscriptions. ch is the event's channel (nil if none). Subscriptions
// registered at or after the commit numbered committed (see
// Relay.broadcast) already read the event as history and are skipped.
func (c *conn) deliver(ev *nostr.Event, ch *Channel, committed uint64) {
	rd := c.reader()
	c.mu.Lock()
	defer c.mu.Unlock()
	for subID, filters := range c.subs {
		if c.subSeq[subID] >= committed {
			continue
		}
		for i := range filters {
			if c.r.liveMatch(&filters[i], rd, ev, ch) {
				id := subID
				// Fault live-foreign-subid: another connection's id.
				if c.r.fault(faultLiveForeignSubID) {
					if other := c.r.faulty.foreignSub(c); other != "" {
						id = other
					}
				}
				c.send(nostr.EventEnvelope{SubscriptionID: &id, Event: *ev})
				break
			}
		}
	}
}

// --- AUTH -------------------------------------------------------------------

func (c *conn) handleAuth(ev *nostr.Event) {
	fail := func(msg string) { c.send(nostr.OKEnvelope{EventID: ev.ID, OK: false, Reason: msg}) }
	// Fault auth-any-kind: any kind passes.
	if ev.Kind != nostr.KindClientAuthentication && !c.r.fault(faultAuthAnyKind) {
		fail("invalid: AUTH needs a kind 22242 event")
		return
	}
	idOK, sigOK := c.r.verifier.check(ev)
	if !idOK {
		fail("invalid: bad id")
		return
	}
	if !sigOK {
		fail("invalid: bad signature")
		return
	}
	// Fault auth-ignores-created-at: any created_at passes.
	if d := c.r.now().Unix() - int64(ev.CreatedAt); (d > AuthWindow || d < -AuthWindow) && !c.r.fault(faultAuthIgnoresCreatedAt) {
		fail(fmt.Sprintf("invalid: created_at must be within %d seconds of the relay clock", AuthWindow))
		return
	}
	c.mu.Lock()
	current := c.challenge
	c.mu.Unlock()
	// Fault auth-ignores-challenge: any challenge tag passes.
	if ch := ev.Tags.Find("challenge"); (ch == nil || ch[1] != current) && !c.r.fault(faultAuthIgnoresChallenge) {
		fail("invalid: challenge tag does not match")
		return
	}
	rl := ev.Tags.Find("relay")
	if rl == nil || strings.TrimSpace(rl[1]) == "" {
		fail("invalid: missing relay tag")
		return
	}
	// Fault auth-ignores-relay: a relay tag naming any other relay passes.
	if !c.r.namesThisRelay(c.community, rl[1]) && !c.r.fault(faultAuthIgnoresRelay) {
		fail("invalid: relay tag names another relay")
		return
	}
	c.mu.Lock()
	// Fault auth-last-key-only: a new AUTH replaces the keys before it.
	if c.r.fault(faultAuthLastKeyOnly) {
		c.authed = nil
	}
	if !slices.Contains(c.authed, ev.PubKey) {
		c.authed = append(c.authed, ev.PubKey)
	}
	c.mu.Unlock()
	c.send(nostr.OKEnvelope{EventID: ev.ID, OK: true, Reason: ""})
	for _, h := range c.r.hooks.afterAuth {
		h(c)
	}
	// A 22242 is never stored and never delivered (NIP-42: "Relays MUST
	// exclude kind: 22242 events from being broadcasted to any client").
	// Fault auth-event-broadcast: deliver it to the community's matching
	// subscriptions, as a write would.
	if c.r.fault(faultAuthEventBroadcast) {
		c.r.wmu.Lock()
		c.r.broadcast(c.community, ev, nil, liveUnstored)
		c.r.wmu.Unlock()
	}
}

// namesThisRelay reports whether an AUTH relay tag names this relay, by
// host only (NIP-42: "URL normalization techniques can be applied. For
// most cases just checking if the domain name is correct should be
// enough"): the connection's community (its Host header), the host the
// relay listens on, or a loopback name (the harness, tunnels and proxies
// reach the reference relay on the local machine).
func (r *Relay) namesThisRelay(community, tag string) bool {
	u, err := url.Parse(strings.TrimSpace(tag))
	if err != nil {
		return false
	}
	host := strings.Trim(strings.ToLower(u.Hostname()), "[]")
	if host == "" {
		return false
	}
	if host == community || host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	if self, err := url.Parse(r.URL()); err == nil && self.Hostname() != "" && strings.EqualFold(self.Hostname(), host) {
		return true
	}
	return false
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
