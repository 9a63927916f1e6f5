package reference

import (
	"fmt"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// TestSignerSignaturesVerify checks the relay's own BIP-340 signer against
// go-nostr's verification, for keys with even and odd public-key Y, with
// pooled and inline nonces, and that no two signatures share a nonce.
func TestSignerSignaturesVerify(t *testing.T) {
	for _, pooled := range []bool{true, false} {
		t.Run(fmt.Sprintf("pooled=%v", pooled), func(t *testing.T) {
			var s signer
			if pooled {
				done := make(chan struct{})
				defer close(done)
				s.start(done)
			}
			seenR := map[string]bool{}
			for i := 0; i < 64; i++ { // 64 random keys: both Y parities, many times over
				sk := nostr.GeneratePrivateKey()
				want, _ := nostr.GetPublicKey(sk)
				ev := &nostr.Event{Kind: 39000, CreatedAt: nostr.Timestamp(1700000000 + i), Tags: nostr.Tags{{"d", "x"}, {"t", "stream"}}, Content: fmt.Sprint(i)}
				if err := s.sign(ev, sk); err != nil {
					t.Fatal(err)
				}
				if ev.PubKey != want {
					t.Fatalf("pubkey %s, want %s", ev.PubKey, want)
				}
				if !ev.CheckID() {
					t.Fatalf("event %d: bad id", i)
				}
				if ok, err := ev.CheckSignature(); !ok {
					t.Fatalf("event %d: signature does not verify: %v", i, err)
				}
				if seenR[ev.Sig[:64]] {
					t.Fatalf("event %d: nonce reused", i)
				}
				seenR[ev.Sig[:64]] = true
				// Tampering is caught: the signature covers the content.
				ev.Content += "!"
				ev.ID = ev.GetID()
				if ok, _ := ev.CheckSignature(); ok {
					t.Fatalf("event %d: a tampered event still verifies", i)
				}
			}
		})
	}
	var s signer
	if err := s.sign(&nostr.Event{}, "zz"); err == nil {
		t.Fatal("a malformed key was accepted")
	}
}

func BenchmarkSigner(b *testing.B) {
	sk := nostr.GeneratePrivateKey()
	ev := nostr.Event{Kind: 39000, Tags: nostr.Tags{{"d", "x"}}}
	b.Run("go-nostr", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			e := ev
			_ = e.Sign(sk)
		}
	})
	b.Run("inline-nonce", func(b *testing.B) {
		var s signer
		for i := 0; i < b.N; i++ {
			e := ev
			_ = s.sign(&e, sk)
		}
	})
	b.Run("pooled-nonce", func(b *testing.B) {
		var s signer
		done := make(chan struct{})
		defer close(done)
		s.start(done)
		for i := 0; i < b.N; i++ {
			e := ev
			_ = s.sign(&e, sk)
		}
	})
}
