// Package benchtest provides a minimal fake relay for testing how bench
// handles relays that refuse writes.
package benchtest

import (
	"encoding/json"
	"net"
	"net/http"
	"sync"

	"github.com/coder/websocket"
)

// Relay is a WebSocket server that answers every EVENT with OK false and
// the given reason, every REQ with EOSE, and serves a bare NIP-11 document.
type Relay struct {
	srv *http.Server
	ln  net.Listener
	wg  sync.WaitGroup
}

// NewRefusing starts a fake relay on a loopback port that refuses every
// EVENT with reason (e.g. "blocked: read-only relay").
func NewRefusing(reason string) (*Relay, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &Relay{ln: ln}
	r.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Header.Get("Upgrade") == "" {
			w.Header().Set("Content-Type", "application/nostr+json")
			_, _ = w.Write([]byte(`{"name":"refusing fake relay","supported_nips":[1,11,29]}`))
			return
		}
		c, err := websocket.Accept(w, req, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := req.Context()
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			var msg []json.RawMessage
			if json.Unmarshal(data, &msg) != nil || len(msg) < 2 {
				continue
			}
			var typ string
			_ = json.Unmarshal(msg[0], &typ)
			var reply []any
			switch typ {
			case "EVENT":
				var ev struct {
					ID string `json:"id"`
				}
				_ = json.Unmarshal(msg[1], &ev)
				reply = []any{"OK", ev.ID, false, reason}
			case "REQ":
				var id string
				_ = json.Unmarshal(msg[1], &id)
				reply = []any{"EOSE", id}
			default:
				continue
			}
			out, _ := json.Marshal(reply)
			if c.Write(ctx, websocket.MessageText, out) != nil {
				return
			}
		}
	})}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		_ = r.srv.Serve(ln)
	}()
	return r, nil
}

// URL is the relay's ws:// address.
func (r *Relay) URL() string { return "ws://" + r.ln.Addr().String() }

// Close stops the server and drops its connections.
func (r *Relay) Close() {
	_ = r.srv.Close()
	r.wg.Wait()
}
