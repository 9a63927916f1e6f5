// Package chaos is a test helper: a misbehaving relay on 127.0.0.1:0, one
// broken behaviour per mode, to check that the harness ends, classifies the
// breakage (fail / timeout / harness error, never pass) and leaks nothing.
//
// Most modes are a proxy in front of an in-process reference relay that
// breaks exactly one thing on the way (drops EOSE, corrupts signatures of
// state events, refuses AUTH …), so every case that does not need the broken
// capability may still pass. silent, garbage and notice-flood are standalone.
package chaos

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/reference"
)

// Mode is one way of being broken.
type Mode string

// The modes.
const (
	// Silent accepts TCP connections and never writes a byte (not even HTTP).
	Silent Mode = "silent"
	// NoEOSE proxies a real relay but drops every EOSE.
	NoEOSE Mode = "no-eose"
	// Slow proxies a real relay and delivers every relay frame after Delay.
	Slow Mode = "slow"
	// Garbage answers every frame with random non-JSON bytes.
	Garbage Mode = "garbage"
	// CloseMidSub proxies a real relay and drops the connection on its first REQ.
	CloseMidSub Mode = "close-mid-sub"
	// WrongOKID proxies a real relay and rewrites every OK to another event id.
	WrongOKID Mode = "wrong-ok-id"
	// Oversize proxies a real relay and answers every REQ first with a frame
	// larger than the client's maximum message size.
	Oversize Mode = "oversize"
	// BadSignatures proxies a real relay and corrupts the sig of every
	// 39000-39003 event it delivers.
	BadSignatures Mode = "bad-signatures"
	// AuthRefused proxies a real relay (which challenges on connect) but
	// answers every AUTH itself with OK false.
	AuthRefused Mode = "auth-refused"
	// NoticeFlood answers nothing but bursts of NOTICE frames.
	NoticeFlood Mode = "notice-flood"
)

// Modes lists every mode.
var Modes = []Mode{Silent, NoEOSE, Slow, Garbage, CloseMidSub, WrongOKID, Oversize, BadSignatures, AuthRefused, NoticeFlood}

// Options configure a chaos relay. Only Mode is required.
type Options struct {
	Mode Mode
	// Delay is the slow mode's delay per relay frame (default 5s).
	Delay time.Duration
	// OversizeBytes is the size of the oversize mode's frame (default
	// fixtures.DefaultMaxMessageSize + 64 KiB).
	OversizeBytes int
	// FloodCount is how many NOTICEs notice-flood sends per burst (default 200).
	FloodCount int
	// Profile of the proxied reference relay (default "labels").
	Profile string
}

// Server is a running chaos relay.
type Server struct {
	// URL is the ws:// URL to test.
	URL  string
	opts Options

	ln       net.Listener
	srv      *http.Server
	upstream *reference.Relay
	pubKey   string

	ctx    context.Context // cancelled by Close; every connection ends with it
	cancel context.CancelFunc
	wg     sync.WaitGroup

	firstOnce sync.Once
	first     chan struct{} // closed on the first EVENT or REQ from any client
	frames    atomic.Int64  // client frames seen
	conns     atomic.Int64  // connections accepted

	mu      sync.Mutex
	netConn map[net.Conn]struct{} // silent mode's raw connections
}

// Start listens on 127.0.0.1:0 and serves the mode.
func Start(opts Options) (*Server, error) {
	if !validMode(opts.Mode) {
		return nil, fmt.Errorf("chaos: unknown mode %q", opts.Mode)
	}
	if opts.Delay <= 0 {
		opts.Delay = 5 * time.Second
	}
	if opts.OversizeBytes <= 0 {
		opts.OversizeBytes = fixtures.DefaultMaxMessageSize + 64<<10
	}
	if opts.FloodCount <= 0 {
		opts.FloodCount = 200
	}
	if opts.Profile == "" {
		opts.Profile = "labels"
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{opts: opts, ctx: ctx, cancel: cancel, first: make(chan struct{}), netConn: map[net.Conn]struct{}{}}
	if s.proxied() {
		up, err := reference.New(reference.Config{Profile: opts.Profile})
		if err != nil {
			cancel()
			return nil, err
		}
		if _, err := up.Start(); err != nil {
			cancel()
			_ = up.Close()
			return nil, err
		}
		s.upstream, s.pubKey = up, up.PubKey()
	} else {
		s.pubKey = mustPub(nostr.GeneratePrivateKey())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.Close()
		return nil, err
	}
	s.ln = ln
	s.URL = "ws://" + ln.Addr().String()
	if opts.Mode == Silent {
		s.wg.Add(1)
		go s.acceptSilent()
		return s, nil
	}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serveHTTP), ReadHeaderTimeout: 5 * time.Second}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

func validMode(m Mode) bool {
	for _, x := range Modes {
		if x == m {
			return true
		}
	}
	return false
}

func mustPub(sk string) string {
	pk, err := nostr.GetPublicKey(sk)
	if err != nil {
		panic(err)
	}
	return pk
}

func (s *Server) proxied() bool {
	switch s.opts.Mode {
	case Silent, Garbage, NoticeFlood:
		return false
	}
	return true
}

// Mode returns the server's mode.
func (s *Server) Mode() Mode { return s.opts.Mode }

// PubKey is the key NIP-11 "self" names.
func (s *Server) PubKey() string { return s.pubKey }

// FirstCommand is closed when any client has sent its first EVENT or REQ
// (silent mode: when the first TCP connection was accepted).
func (s *Server) FirstCommand() <-chan struct{} { return s.first }

// Frames returns how many client frames the server has read.
func (s *Server) Frames() int64 { return s.frames.Load() }

// Conns returns how many connections the server accepted.
func (s *Server) Conns() int64 { return s.conns.Load() }

func (s *Server) markFirst() { s.firstOnce.Do(func() { close(s.first) }) }

// Close stops the listener, ends every connection and the upstream relay,
// and waits for every goroutine the server started.
func (s *Server) Close() {
	s.mu.Lock()
	s.cancel()
	s.mu.Unlock()
	if s.srv != nil {
		_ = s.srv.Close() // hijacked WebSockets end through s.ctx
	} else if s.ln != nil {
		_ = s.ln.Close()
	}
	s.mu.Lock()
	for c := range s.netConn {
		_ = c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	if s.upstream != nil {
		_ = s.upstream.Close()
	}
}

// --- silent -------------------------------------------------------------------

func (s *Server) acceptSilent() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.conns.Add(1)
		s.markFirst()
		s.mu.Lock()
		if s.ctx.Err() != nil {
			s.mu.Unlock()
			_ = c.Close()
			return
		}
		s.netConn[c] = struct{}{}
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			_, _ = io.Copy(io.Discard, c) // read and say nothing
			s.mu.Lock()
			delete(s.netConn, c)
			s.mu.Unlock()
			_ = c.Close()
		}()
	}
}

// --- HTTP: NIP-11 and WebSocket ---------------------------------------------

// info is a plausible NIP-11 document.
func (s *Server) info() map[string]any {
	return map[string]any{
		"name":                 "chaos relay (" + string(s.opts.Mode) + ")",
		"description":          "a deliberately broken relay for harness robustness tests",
		"pubkey":               s.pubKey,
		"self":                 s.pubKey,
		"supported_nips":       []int{1, 11, 29, 42, 45},
		"supported_extensions": []string{"nip-cl"},
		"software":             "nipcl-conform/internal/chaos",
		"version":              "0",
	}
}

func (s *Server) serveHTTP(w http.ResponseWriter, req *http.Request) {
	if strings.EqualFold(req.Header.Get("Upgrade"), "websocket") {
		s.serveWS(w, req)
		return
	}
	if strings.Contains(req.Header.Get("Accept"), "application/nostr+json") {
		w.Header().Set("Content-Type", "application/nostr+json")
		_ = json.NewEncoder(w).Encode(s.info())
		return
	}
	fmt.Fprintf(w, "chaos relay, mode %s\n", s.opts.Mode)
}

func (s *Server) serveWS(w http.ResponseWriter, req *http.Request) {
	s.mu.Lock() // Close cancels under mu: no Add after its Wait began
	if s.ctx.Err() != nil {
		s.mu.Unlock()
		http.Error(w, "closing", http.StatusServiceUnavailable)
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	ws, err := websocket.Accept(w, req, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return
	}
	s.conns.Add(1)
	ws.SetReadLimit(16 << 20)
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	defer ws.CloseNow()
	if s.proxied() {
		s.proxy(ctx, cancel, ws)
		return
	}
	s.standalone(ctx, ws)
}

// readClient reads one client frame and records it.
func (s *Server) readClient(ctx context.Context, ws *websocket.Conn) ([]byte, error) {
	_, data, err := ws.Read(ctx)
	if err != nil {
		return nil, err
	}
	s.frames.Add(1)
	if v := verb(data); v == "EVENT" || v == "REQ" {
		s.markFirst()
	}
	return data, nil
}

func write(ctx context.Context, ws *websocket.Conn, data []byte) error {
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return ws.Write(wctx, websocket.MessageText, data)
}

// --- standalone modes: garbage, notice-flood ---------------------------------

func (s *Server) standalone(ctx context.Context, ws *websocket.Conn) {
	if s.opts.Mode == NoticeFlood {
		if s.flood(ctx, ws) != nil {
			return
		}
	}
	for {
		if _, err := s.readClient(ctx, ws); err != nil {
			return
		}
		var err error
		switch s.opts.Mode {
		case Garbage:
			err = write(ctx, ws, garbage())
		case NoticeFlood:
			err = s.flood(ctx, ws)
		}
		if err != nil {
			return
		}
	}
}

func (s *Server) flood(ctx context.Context, ws *websocket.Conn) error {
	for i := 0; i < s.opts.FloodCount; i++ {
		msg, _ := json.Marshal([]any{"NOTICE", fmt.Sprintf("chaos: flood notice %d", i)})
		if err := write(ctx, ws, msg); err != nil {
			return err
		}
	}
	return nil
}

// garbage returns 16-272 random bytes that are not JSON (a NUL first).
func garbage() []byte {
	var n [1]byte
	_, _ = rand.Read(n[:])
	b := make([]byte, 16+int(n[0]))
	_, _ = rand.Read(b)
	b[0] = 0
	return b
}

// --- proxy modes -------------------------------------------------------------

func (s *Server) proxy(ctx context.Context, cancel context.CancelFunc, client *websocket.Conn) {
	dctx, dcancel := context.WithTimeout(ctx, 5*time.Second)
	up, resp, err := websocket.Dial(dctx, s.upstream.URL(), nil)
	dcancel()
	if resp != nil && resp.Body != nil {
		_ = resp.Body.Close()
	}
	if err != nil {
		return
	}
	defer up.CloseNow()
	up.SetReadLimit(16 << 20)

	toClient := s.clientWriter(ctx, cancel, client)
	done := make(chan struct{})
	go func() { // relay -> client
		defer close(done)
		defer cancel()
		for {
			_, data, err := up.Read(ctx)
			if err != nil {
				return
			}
			for _, out := range s.fromRelay(data) {
				if !toClient(out) {
					return
				}
			}
		}
	}()
	for { // client -> relay
		data, err := s.readClient(ctx, client)
		if err != nil {
			break
		}
		fwd, reply, stop := s.fromClient(data)
		for _, r := range reply {
			if !toClient(r) {
				stop = true
			}
		}
		if stop {
			break
		}
		if fwd && write(ctx, up, data) != nil {
			break
		}
	}
	cancel()
	<-done
}

// clientWriter returns the function that delivers frames to the client. In
// slow mode frames leave in order, each Delay after it arrived, through a
// timer (no sleeping goroutine outlives the connection).
func (s *Server) clientWriter(ctx context.Context, cancel context.CancelFunc, client *websocket.Conn) func([]byte) bool {
	if s.opts.Mode != Slow {
		var mu sync.Mutex
		return func(b []byte) bool {
			mu.Lock()
			defer mu.Unlock()
			if err := write(ctx, client, b); err != nil {
				cancel()
				return false
			}
			return true
		}
	}
	type due struct {
		at   time.Time
		data []byte
	}
	queue := make(chan due, 4096)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		timer := time.NewTimer(time.Hour)
		defer timer.Stop()
		for {
			var d due
			select {
			case <-ctx.Done():
				return
			case d = <-queue:
			}
			timer.Reset(time.Until(d.at))
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
			}
			if write(ctx, client, d.data) != nil {
				cancel()
				return
			}
		}
	}()
	return func(b []byte) bool {
		select {
		case queue <- due{at: time.Now().Add(s.opts.Delay), data: b}:
			return true
		case <-ctx.Done():
			return false
		}
	}
}

// fromClient decides what happens to one client frame: forward it, answer
// it directly, or drop the connection.
func (s *Server) fromClient(data []byte) (forward bool, reply [][]byte, stop bool) {
	switch s.opts.Mode {
	case CloseMidSub:
		if verb(data) == "REQ" {
			return false, nil, true
		}
	case AuthRefused:
		if verb(data) == "AUTH" {
			id := eventIDOf(data, 1)
			msg, _ := json.Marshal([]any{"OK", id, false, "restricted: this relay refuses every AUTH"})
			return false, [][]byte{msg}, false
		}
	case Oversize:
		if verb(data) == "REQ" {
			var arr []json.RawMessage
			subID := "x"
			if json.Unmarshal(data, &arr) == nil && len(arr) > 1 {
				_ = json.Unmarshal(arr[1], &subID)
			}
			return true, [][]byte{s.oversizeFrame(subID)}, false
		}
	}
	return true, nil, false
}

// fromRelay rewrites one relay frame into the frames the client gets.
func (s *Server) fromRelay(data []byte) [][]byte {
	switch s.opts.Mode {
	case NoEOSE:
		if verb(data) == "EOSE" {
			return nil
		}
	case WrongOKID:
		if verb(data) == "OK" {
			var arr []any
			if json.Unmarshal(data, &arr) == nil && len(arr) == 4 {
				if id, ok := arr[1].(string); ok {
					sum := sha256.Sum256([]byte("chaos:" + id))
					arr[1] = hex.EncodeToString(sum[:])
					if b, err := json.Marshal(arr); err == nil {
						return [][]byte{b}
					}
				}
			}
		}
	case BadSignatures:
		if verb(data) == "EVENT" {
			if env, ok := parseMessage(string(data)).(*nostr.EventEnvelope); ok &&
				env.Event.Kind >= 39000 && env.Event.Kind <= 39003 && len(env.Event.Sig) == 128 {
				sig := []byte(env.Event.Sig)
				if sig[0] == '0' {
					sig[0] = '1'
				} else {
					sig[0] = '0'
				}
				env.Event.Sig = string(sig)
				if b, err := env.MarshalJSON(); err == nil {
					return [][]byte{b}
				}
			}
		}
	}
	return [][]byte{data}
}

// oversizeFrame is a syntactically valid EVENT frame of OversizeBytes.
func (s *Server) oversizeFrame(subID string) []byte {
	prefix := fmt.Sprintf(`["EVENT",%q,{"id":"%s","pubkey":"%s","created_at":%d,"kind":1,"tags":[],"sig":"%s","content":"`,
		subID, strings.Repeat("0", 64), s.pubKey, time.Now().Unix(), strings.Repeat("0", 128))
	const suffix = `"}]`
	n := s.opts.OversizeBytes - len(prefix) - len(suffix)
	if n < 0 {
		n = 0
	}
	b := make([]byte, 0, s.opts.OversizeBytes)
	b = append(b, prefix...)
	b = append(b, strings.Repeat("x", n)...)
	return append(b, suffix...)
}

// verb returns the first element of a JSON array frame ("" when there is none).
func verb(data []byte) string {
	var arr []json.RawMessage
	if json.Unmarshal(data, &arr) != nil || len(arr) == 0 {
		return ""
	}
	var v string
	_ = json.Unmarshal(arr[0], &v)
	return v
}

// eventIDOf returns the id of the event object at index i of a frame.
func eventIDOf(data []byte, i int) string {
	var arr []json.RawMessage
	if json.Unmarshal(data, &arr) != nil || len(arr) <= i {
		return ""
	}
	var ev struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(arr[i], &ev)
	return ev.ID
}

// ErrUnknownMode is returned by ParseMode.
var ErrUnknownMode = errors.New("chaos: unknown mode")

// ParseMode validates a mode name.
func ParseMode(name string) (Mode, error) {
	if validMode(Mode(name)) {
		return Mode(name), nil
	}
	return "", fmt.Errorf("%w %q", ErrUnknownMode, name)
}

// parseMessage reads a relay message, nil when it cannot.
func parseMessage(msg string) nostr.Envelope {
	env, _ := nostr.NewMessageParser().ParseMessage(msg)
	return env
}
