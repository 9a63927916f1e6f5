package reference

import (
	"fmt"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
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

// BenchmarkCryptoFloor is the per-operation cost of the BIP-340 work the
// in-process run needs (BENCHMARKS.md, "the floor"): the relay's check of
// a client event with btcec (as before issue 36) and with secp256k1-voi
// (now), a harness actor's signature (fixtures.Actor: voi, key parsed
// once) beside go-nostr's Event.Sign, and the relay's own signature with
// the nonce made inline (its whole CPU cost, wherever it runs).
func BenchmarkCryptoFloor(b *testing.B) {
	a := fixtures.NewActor("bench")
	ev := a.Event(9002, nostr.Tags{{"h", "x"}, {"name", "bench"}}, "")
	b.Run("verify-btcec", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if ok, _ := ev.CheckSignature(); !ok {
				b.Fatal("bad signature")
			}
		}
	})
	b.Run("verify-voi", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var v verifier // a fresh cache: every check verifies
			if _, ok := v.check(ev); !ok {
				b.Fatal("bad signature")
			}
		}
	})
	b.Run("harness-sign-go-nostr", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			e := nostr.Event{Kind: 9002, Tags: nostr.Tags{{"h", "x"}}, CreatedAt: nostr.Timestamp(i)}
			_ = e.Sign(a.SecretKey)
		}
	})
	b.Run("harness-sign-actor", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			a.EventAt(time.Unix(int64(i), 0), 9002, nostr.Tags{{"h", "x"}}, "")
		}
	})
	b.Run("relay-sign-inline-nonce", func(b *testing.B) {
		var s signer
		for i := 0; i < b.N; i++ {
			e := nostr.Event{Kind: 39000, Tags: nostr.Tags{{"d", "x"}}}
			_ = s.sign(&e, a.SecretKey)
		}
	})
}
