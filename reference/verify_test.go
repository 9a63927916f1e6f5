package reference

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// TestVerifierAgreesWithGoNostr: the relay's verifier answers exactly as
// go-nostr's CheckID and CheckSignature on valid and broken events, with
// the key cache cold and warm.
func TestVerifierAgreesWithGoNostr(t *testing.T) {
	sk := nostr.GeneratePrivateKey()
	signed := func(content string) nostr.Event {
		ev := nostr.Event{Kind: 9002, CreatedAt: 1700000000, Tags: nostr.Tags{{"h", "x"}}, Content: content}
		if err := ev.Sign(sk); err != nil {
			t.Fatal(err)
		}
		return ev
	}
	other := signed("other")
	cases := []struct {
		name   string
		mutate func(ev *nostr.Event)
	}{
		{"valid", func(*nostr.Event) {}},
		{"tampered content", func(ev *nostr.Event) { ev.Content += "!" }},
		{"tampered content, id recomputed", func(ev *nostr.Event) { ev.Content += "!"; ev.ID = ev.GetID() }},
		{"uppercase id", func(ev *nostr.Event) { ev.ID = strings.ToUpper(ev.ID) }},
		{"short id", func(ev *nostr.Event) { ev.ID = ev.ID[:62] }},
		{"signature of another event", func(ev *nostr.Event) { ev.Sig = other.Sig }},
		{"flipped signature byte", func(ev *nostr.Event) { ev.Sig = flipHex(ev.Sig, 100) }},
		{"flipped R byte", func(ev *nostr.Event) { ev.Sig = flipHex(ev.Sig, 3) }},
		{"short signature", func(ev *nostr.Event) { ev.Sig = ev.Sig[:126] }},
		{"non-hex signature", func(ev *nostr.Event) { ev.Sig = "zz" + ev.Sig[2:] }},
		{"other key, id recomputed", func(ev *nostr.Event) {
			ev.PubKey, _ = nostr.GetPublicKey(nostr.GeneratePrivateKey())
			ev.ID = ev.GetID()
		}},
		{"pubkey off the curve, id recomputed", func(ev *nostr.Event) {
			ev.PubKey = strings.Repeat("f", 64) // x >= p
			ev.ID = ev.GetID()
		}},
		{"non-hex pubkey, id recomputed", func(ev *nostr.Event) { ev.PubKey = strings.Repeat("g", 64); ev.ID = ev.GetID() }},
	}
	var v verifier
	for _, warm := range []bool{false, true} {
		for _, tc := range cases {
			ev := signed("hello")
			tc.mutate(&ev)
			wantID := ev.CheckID()
			wantSig, _ := ev.CheckSignature()
			wantSig = wantSig && wantID
			idOK, sigOK := v.check(&ev)
			if idOK != wantID || sigOK != wantSig {
				t.Errorf("%s (warm cache %v): got id %v sig %v, go-nostr says id %v sig %v", tc.name, warm, idOK, sigOK, wantID, wantSig)
			}
		}
	}
}

func flipHex(s string, i int) string {
	b := []byte(s)
	if b[i] == '0' {
		b[i] = '1'
	} else {
		b[i] = '0'
	}
	return string(b)
}
