package reference

// Fuzz targets (go test -fuzz). Seed corpora live in testdata/fuzz/<Name>/;
// plain `go test` runs the seeds. The relay must never panic, must answer in
// well-formed JSON, and validation must only ever accept what the grammar
// allows.

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/nipcl/nipcl-conform/internal/text"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// fuzzKey signs the events the targets build; the fake connection is
// authenticated as its public key.
const fuzzKey = "5ee1c8000ab28edd64d74a7d951ac2dd559814887b1b9e1ac7c5f89e96125c12"

// fuzzRelay is one relay per fuzz worker process, shared by iterations.
type fuzzRelay struct {
	r      *Relay
	pk     string
	panics atomic.Value // string: the last "panic handling" log line
}

var (
	fuzzRelays   = map[string]*fuzzRelay{}
	fuzzRelaysMu sync.Mutex
)

func getFuzzRelay(t testing.TB, profile string) *fuzzRelay {
	t.Helper()
	fuzzRelaysMu.Lock()
	defer fuzzRelaysMu.Unlock()
	if fr := fuzzRelays[profile]; fr != nil {
		return fr
	}
	fr := &fuzzRelay{}
	fr.panics.Store("")
	r, err := New(Config{Profile: profile, Logf: func(format string, args ...any) {
		if strings.HasPrefix(format, "panic") {
			fr.panics.Store(fmt.Sprintf(format, args...))
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	fr.r = r
	fr.pk, _ = nostr.GetPublicKey(fuzzKey)
	fuzzRelays[profile] = fr
	return fr
}

// conn returns a connection without a socket: frames it sends pile up in
// c.out, which handle never needs a WebSocket for.
func (fr *fuzzRelay) conn() *conn {
	ctx, cancel := context.WithCancel(context.Background())
	return &conn{
		r: fr.r, community: "127.0.0.1", challenge: "fuzz-challenge", ctx: ctx, cancel: cancel,
		authed: []string{fr.pk}, subs: map[string]nostr.Filters{}, outWake: make(chan struct{}, 1),
	}
}

// feed runs one frame through the relay's frame handler and checks the
// answers: no recovered panic, every answer a JSON array with a string verb.
func (fr *fuzzRelay) feed(t *testing.T, frame []byte) [][]byte {
	t.Helper()
	c := fr.conn()
	defer c.cancel()
	c.handle(frame)
	if p := fr.panics.Swap(""); p != "" {
		t.Fatalf("frame %q: relay recovered a panic: %s", text.Clip(string(frame), 300), p)
	}
	c.outMu.Lock()
	out := c.out
	c.out = nil
	c.outMu.Unlock()
	for _, msg := range out {
		var arr []json.RawMessage
		var verb string
		if json.Unmarshal(msg, &arr) != nil || len(arr) == 0 || json.Unmarshal(arr[0], &verb) != nil {
			t.Fatalf("frame %q: answer is not a JSON array with a verb: %q", text.Clip(string(frame), 300), msg)
		}
	}
	return out
}

// FuzzClientFrame feeds arbitrary client frames to the relay's frame
// handler (conn.handle), as if read from a WebSocket.
func FuzzClientFrame(f *testing.F) {
	for _, s := range []string{`["REQ","s",{}]`, `["EVENT",{}]`, `["CLOSE","s"]`, `not json`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		if len(frame) > 1<<16 {
			return
		}
		fr := getFuzzRelay(t, "labels")
		out := fr.feed(t, frame)
		// An EVENT whose id can be read is always answered with OK.
		var arr []json.RawMessage
		if json.Unmarshal(frame, &arr) == nil && len(arr) == 2 && string(arr[0]) == `"EVENT"` {
			var idOnly struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(arr[1], &idOnly) == nil && isHex64(idOnly.ID) && isObject(arr[1]) && !answeredOK(out, idOnly.ID) {
				t.Fatalf("EVENT %s got no OK: %q", idOnly.ID, out)
			}
		}
	})
}

func answeredOK(out [][]byte, id string) bool {
	for _, msg := range out {
		if env, _ := nostr.NewMessageParser().ParseMessage(string(msg)); okEnvelopeFor(env, id) {
			return true
		}
	}
	return false
}

// FuzzSignedCommand builds a correctly signed event from fuzzed kind, tags
// and content and sends it as EVENT from an authenticated connection, so the
// fuzzer reaches admission, NIP-29 commands and the profile hooks beyond
// signature checks. Both NIP-CL profiles.
func FuzzSignedCommand(f *testing.F) {
	for _, s := range []struct {
		kind    uint16
		tags    string
		content string
	}{
		{9007, `[["h","0b6a1b6c-1c55-4c55-9a3e-7a4f0b8d2c11"],["name","x"],["label","alpha"]]`, ""},
		{9002, `[["h","0b6a1b6c-1c55-4c55-9a3e-7a4f0b8d2c11"],["add-label","beta"]]`, ""},
		{9007, `[["h","0b6a1b6c-1c55-4c55-9a3e-7a4f0b8d2c12"],["name","y"],["t","stream"],["t","a:b"]]`, ""},
		{9, `[["h","0b6a1b6c-1c55-4c55-9a3e-7a4f0b8d2c11"]]`, "hello"},
	} {
		f.Add(s.kind, s.tags, s.content, false)
	}
	f.Fuzz(func(t *testing.T, kind uint16, tagsJSON, content string, identity bool) {
		if len(tagsJSON)+len(content) > 1<<15 {
			return
		}
		var tags nostr.Tags
		if json.Unmarshal([]byte(tagsJSON), &tags) != nil {
			return
		}
		profile := "labels"
		if identity {
			profile = "identity"
		}
		fr := getFuzzRelay(t, profile)
		ev := &nostr.Event{Kind: int(kind), Tags: tags, Content: content, CreatedAt: nostr.Timestamp(fr.r.now().Unix())}
		if ev.Tags == nil {
			ev.Tags = nostr.Tags{}
		}
		if err := ev.Sign(fuzzKey); err != nil {
			return
		}
		frame, err := json.Marshal([]any{"EVENT", ev})
		if err != nil {
			return
		}
		out := fr.feed(t, frame)
		if !answeredOK(out, ev.ID) {
			t.Fatalf("signed EVENT got no OK: %q", out)
		}
	})
}

// FuzzFilter parses a filter as a REQ would and runs it through the SQL
// builder (REQ and COUNT). A filter the relay accepts must never make SQL
// fail, and every event it returns must match the filter.
func FuzzFilter(f *testing.F) {
	for _, s := range []string{`{}`, `{"kinds":[1],"limit":2}`, `{"#t":["a","b"],"since":1}`, `{"ids":[]}`, `{"#h":[""],"until":0}`} {
		f.Add([]byte(s))
	}
	var seedOnce sync.Once
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 1<<14 {
			return
		}
		fr := getFuzzRelay(t, "labels")
		seedOnce.Do(func() { seedFuzzEvents(t, fr) })
		arr := []json.RawMessage{json.RawMessage(`"REQ"`), json.RawMessage(`"fz"`), json.RawMessage(raw)}
		_, filters, err := decodeSubscription(arr, fr.r.maxFilters)
		if err != nil {
			return
		}
		rd := &reader{community: "127.0.0.1", pubkeys: []string{fr.pk}}
		evs, err := fr.r.query(rd, filters)
		if err != nil {
			t.Fatalf("filter %s: query: %v", raw, err)
		}
		for _, ev := range evs {
			if !filters[0].Matches(ev) {
				t.Fatalf("filter %s returned a non-matching event %v", raw, ev)
			}
		}
		crd := &reader{community: "127.0.0.1", pubkeys: []string{fr.pk}, count: true}
		if _, err := fr.r.count(crd, filters); err != nil {
			t.Fatalf("filter %s: count: %v", raw, err)
		}
	})
}

// seedFuzzEvents stores a few events the filters can find.
func seedFuzzEvents(t *testing.T, fr *fuzzRelay) {
	for i, tags := range []nostr.Tags{{{"t", "a"}}, {{"t", "b"}, {"e", strings.Repeat("ab", 32)}}, {}} {
		ev := &nostr.Event{Kind: 1 + i, Tags: tags, Content: "seed", CreatedAt: nostr.Timestamp(fr.r.now().Unix() - int64(i))}
		_ = ev.Sign(fuzzKey)
		frame, _ := json.Marshal([]any{"EVENT", ev})
		fr.feed(t, frame)
	}
}

var (
	identityLabelRe = regexp.MustCompile(`^[a-z0-9.:-]*$`)
)

// FuzzIdentityLabels checks the identity profile's label validation: a
// single value (checkLabel) and the t tags of a 9007/9002 (parseLabels).
func FuzzIdentityLabels(f *testing.F) {
	for _, s := range []string{`[["t","stream"],["t","ops"]]`, `[["t",""]]`, `[["t",""],["t",""]]`, `[["t","A"]]`, `[["t"]]`} {
		f.Add("a.b:c-1", s)
	}
	p := newIdentityProfile(faultSet{}, nil).(identityProfile)
	f.Fuzz(func(t *testing.T, label, tagsJSON string) {
		if err := p.checkLabel(label); err == nil {
			if len(label) > maxLabelLen || !identityLabelRe.MatchString(label) || slices.Contains(reservedLabels, label) {
				t.Fatalf("checkLabel accepted %q", label)
			}
		}
		ev, ok := fuzzEvent(kindCreateGroup, tagsJSON)
		if !ok {
			return
		}
		labels, present, err := p.parseLabels(ev)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "invalid: ") {
				t.Fatalf("parseLabels error without a machine-readable prefix: %v", err)
			}
			return
		}
		if !present && labels != nil {
			t.Fatalf("labels %q without t tags", labels)
		}
		if len(labels) > maxLabels {
			t.Fatalf("%d labels accepted", len(labels))
		}
		seen := map[string]bool{}
		for _, l := range labels {
			if seen[l] || p.checkLabel(l) != nil {
				t.Fatalf("parseLabels returned a repeated or invalid label %q in %q", l, labels)
			}
			seen[l] = true
		}
	})
}

// FuzzLabelsLabels checks the labels profile's label validation: a single
// value (checkLabel never rewrites) and a label-only 9002 (parseMutation).
func FuzzLabelsLabels(f *testing.F) {
	h := `["h","0b6a1b6c-1c55-4c55-9a3e-7a4f0b8d2c11"]`
	for _, s := range []string{`[` + h + `,["add-label","a"],["remove-label","b"]]`, `[` + h + `,["add-label","a"],["remove-label","a"]]`,
		`[` + h + `,["add-label"]]`, `[` + h + `,["add-label","x"],["name","n"]]`, `[["add-label","a"]]`} {
		f.Add("ops/team-1", s)
	}
	p := newLabelsProfile(faultSet{}, nil).(*labelsProfile)
	f.Fuzz(func(t *testing.T, label, tagsJSON string) {
		if v, err := p.checkLabel(label); err == nil {
			if v != label || len(v) > maxLabelBytes || !labelPattern.MatchString(v) {
				t.Fatalf("checkLabel accepted %q as %q", label, v)
			}
		}
		ev, ok := fuzzEvent(kindEditMetadata, tagsJSON)
		if !ok {
			return
		}
		m, err := p.parseMutation(ev)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "invalid: ") {
				t.Fatalf("parseMutation error without a machine-readable prefix: %v", err)
			}
			return
		}
		for _, set := range [][]string{m.add, m.remove} {
			if !slices.IsSorted(set) || len(slices.Compact(slices.Clone(set))) != len(set) {
				t.Fatalf("mutation set not sorted and distinct: %q", set)
			}
			for _, v := range set {
				if _, err := p.checkLabel(v); err != nil {
					t.Fatalf("mutation carries an invalid label %q", v)
				}
			}
		}
		for _, v := range m.add {
			if slices.Contains(m.remove, v) {
				t.Fatalf("label %q both added and removed", v)
			}
		}
	})
}

// fuzzEvent decodes fuzzed tags into an event the way the relay would admit
// it (decodeEvent: no empty tags, strings only).
func fuzzEvent(kind int, tagsJSON string) (*nostr.Event, bool) {
	raw, err := json.Marshal(map[string]any{
		"id": strings.Repeat("0", 64), "pubkey": strings.Repeat("0", 64), "created_at": 1, "kind": kind,
		"tags": json.RawMessage(tagsJSON), "content": "", "sig": strings.Repeat("0", 128),
	})
	if err != nil {
		return nil, false
	}
	ev, err := decodeEvent(raw)
	return ev, err == nil
}

// okEnvelopeFor reports whether env is an OK for event id.
func okEnvelopeFor(env nostr.Envelope, id string) bool {
	ok, is := env.(*nostr.OKEnvelope)
	return is && ok.EventID == id
}
