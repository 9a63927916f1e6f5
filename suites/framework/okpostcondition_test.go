package framework

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// TestOKPostconditionSparesLawfulAnswers: only a plain refusal of the
// case's own event, never accepted or left unanswered, sent only through
// Send, is read back.
func TestOKPostconditionSparesLawfulAnswers(t *testing.T) {
	ev := func(id, pk string, kind int) *nostr.Event { return &nostr.Event{ID: id, PubKey: pk, Kind: kind} }
	no := func(reason string) fixtures.OK { return fixtures.OK{Accepted: false, Reason: reason} }
	c := &fixtures.Client{}
	var l okLog
	add := func(e *nostr.Event, ok fixtures.OK, answered bool) {
		l.sent = append(l.sent, sentEvent{c: c, ev: e, ok: ok, answered: answered})
	}
	add(ev("judged", "me", 9000), no("restricted: not an admin"), true)
	add(ev("judged", "me", 9000), no("restricted: not an admin"), true) // one read for two sends
	add(ev("retried", "me", 9000), no("rate-limited: slow down"), true)
	add(ev("retried", "me", 9000), fixtures.OK{Accepted: true}, true)
	add(ev("unanswered", "me", 9000), fixtures.OK{}, false)
	add(ev("unanswered", "me", 9000), no("blocked: no"), true)
	add(ev("dup", "me", 9000), no("duplicate: already have it"), true)
	add(ev("unknown", "me", 9002), no("error: nip-cl-unknown application evidence unavailable"), true)
	add(ev("relay-signed", "relay", 39000), no("restricted: relay only"), true)
	add(ev("join", "me", fixtures.KindJoinRequest), no("blocked: pending review"), true)
	add(ev("begun", "me", 9000), no("restricted: not an admin"), true)
	sent := map[string]int{"judged": 2, "begun": 2} // begun went out once more by Begin
	got, n := l.refusals(func(pk string) bool { return pk == "me" }, func(id string) int { return sent[id] })
	if n != 1 || len(got[c]) != 1 || got[c][0].ID != "judged" {
		var ids []string
		for _, e := range got[c] {
			ids = append(ids, e.ID)
		}
		t.Fatalf("judged %d refusal(s) %v, want only \"judged\"", n, ids)
	}
}
