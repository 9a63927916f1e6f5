package reference

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/coder/websocket"
)

// TestBinaryFrameKeepsConnection: a binary frame is answered with a NOTICE
// "invalid: …" and the connection stays usable, like every other frame the
// relay cannot parse (malformed never ends a connection).
func TestBinaryFrameKeepsConnection(t *testing.T) {
	_, url := startRelay(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer ws.CloseNow()
	read := func() []json.RawMessage {
		t.Helper()
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("read: expected a frame, observed %v", err)
			}
			var arr []json.RawMessage
			if json.Unmarshal(data, &arr) != nil || len(arr) == 0 {
				t.Fatalf("read: expected a JSON array, observed %q", data)
			}
			var verb string
			_ = json.Unmarshal(arr[0], &verb)
			if verb != "AUTH" { // the challenge may come first
				return arr
			}
		}
	}
	if err := ws.Write(ctx, websocket.MessageBinary, []byte(`["REQ","s",{}]`)); err != nil {
		t.Fatalf("write binary: %v", err)
	}
	arr := read()
	var verb, msg string
	_ = json.Unmarshal(arr[0], &verb)
	if len(arr) > 1 {
		_ = json.Unmarshal(arr[1], &msg)
	}
	if verb != "NOTICE" || msg != "invalid: binary frames are not supported" {
		t.Fatalf("binary frame: expected NOTICE \"invalid: binary frames are not supported\", observed %s", arr)
	}
	if err := ws.Write(ctx, websocket.MessageText, []byte(`["REQ","after",{"kinds":[1],"limit":1}]`)); err != nil {
		t.Fatalf("write REQ after the binary frame: %v", err)
	}
	for {
		arr := read()
		_ = json.Unmarshal(arr[0], &verb)
		if verb == "EOSE" {
			return
		}
		if verb != "EVENT" {
			t.Fatalf("REQ after the binary frame: expected EVENTs then EOSE, observed %s", arr)
		}
	}
}
