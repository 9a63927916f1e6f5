package reference

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/chaincfg/chainhash"
	"github.com/nbd-wtf/go-nostr"
)

// signer makes the relay's BIP-340 signatures (state events, notices).
//
// A Schnorr signature costs one elliptic-curve multiplication, R = k·G for
// the nonce k, and go-nostr's Event.Sign (like btcec's schnorr.Sign) adds
// one more to derive the public key again. Relay events are signed inside
// the write transaction, where that time is serial, so the signer keeps
// parsed keys (public key derived once) and takes R from a pool of nonces
// that a background goroutine precomputes. Each nonce is a fresh uniformly
// random k from crypto/rand, used for exactly one signature (BIP-340
// allows any such k in place of its default derivation; verification is
// unchanged). When the pool is empty a nonce is made inline.
type signer struct {
	mu   sync.Mutex
	keys map[string]*signingKey

	poolOnce sync.Once
	pool     chan nonce
	// signed counts signatures made (CryptoCounts).
	signed atomic.Int64
}

// signingKey is a parsed secret key, negated when needed so that its
// public key has an even Y (BIP-340).
type signingKey struct {
	d      btcec.ModNScalar
	pubX   [32]byte
	pubHex string
}

// nonce is k with R = k·G; k is negated when needed so R has an even Y.
type nonce struct {
	k  btcec.ModNScalar
	rx [32]byte
}

// noncePoolSize bounds the precomputed nonces (each ~100 bytes).
const noncePoolSize = 128

// start runs the nonce filler until done is closed.
func (s *signer) start(done <-chan struct{}) {
	s.poolOnce.Do(func() { s.pool = make(chan nonce, noncePoolSize) })
	go func() {
		for {
			n, err := newNonce()
			if err != nil {
				return // crypto/rand failed; sign makes (and reports) its own
			}
			select {
			case s.pool <- n:
			case <-done:
				return
			}
		}
	}()
}

func newNonce() (nonce, error) {
	var n nonce
	var buf [32]byte
	for {
		if _, err := rand.Read(buf[:]); err != nil {
			return n, fmt.Errorf("nonce: %w", err)
		}
		if overflow := n.k.SetBytes(&buf); overflow == 0 && !n.k.IsZero() {
			break
		}
	}
	var r btcec.JacobianPoint
	btcec.ScalarBaseMultNonConst(&n.k, &r)
	r.ToAffine()
	if r.Y.IsOdd() {
		n.k.Negate()
	}
	r.X.PutBytesUnchecked(n.rx[:])
	return n, nil
}

func (s *signer) nextNonce() (nonce, error) {
	select {
	case n := <-s.pool: // a nil pool (never started) is never ready
		return n, nil
	default:
		return newNonce()
	}
}

func (s *signer) key(secretHex string) (*signingKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k, ok := s.keys[secretHex]; ok {
		return k, nil
	}
	raw, err := hex.DecodeString(secretHex)
	if err != nil || len(raw) != 32 {
		return nil, fmt.Errorf("invalid relay secret key")
	}
	sk, pk := btcec.PrivKeyFromBytes(raw)
	if sk.Key.IsZero() {
		return nil, fmt.Errorf("invalid relay secret key")
	}
	k := &signingKey{d: sk.Key}
	compressed := pk.SerializeCompressed()
	if compressed[0] == 0x03 { // odd Y
		k.d.Negate()
	}
	copy(k.pubX[:], compressed[1:])
	k.pubHex = hex.EncodeToString(k.pubX[:])
	if s.keys == nil {
		s.keys = map[string]*signingKey{}
	}
	s.keys[secretHex] = k
	return k, nil
}

// sign sets pubkey, id and sig of ev, like nostr.Event.Sign.
func (s *signer) sign(ev *nostr.Event, secretHex string) error {
	s.signed.Add(1)
	k, err := s.key(secretHex)
	if err != nil {
		return err
	}
	if ev.Tags == nil {
		ev.Tags = nostr.Tags{}
	}
	ev.PubKey = k.pubHex
	h := sha256.Sum256(ev.Serialize())
	n, err := s.nextNonce()
	if err != nil {
		return fmt.Errorf("sign relay event: %w", err)
	}
	// e = tagged_hash("BIP0340/challenge", R.x || P.x || m) mod n
	var e btcec.ModNScalar
	e.SetBytes((*[32]byte)(chainhash.TaggedHash(chainhash.TagBIP0340Challenge, n.rx[:], k.pubX[:], h[:])))
	// s = k + e·d mod n
	sv := new(btcec.ModNScalar).Mul2(&e, &k.d).Add(&n.k)
	var sig [64]byte
	copy(sig[:32], n.rx[:])
	sv.PutBytesUnchecked(sig[32:])
	ev.ID = hex.EncodeToString(h[:])
	ev.Sig = hex.EncodeToString(sig[:])
	return nil
}
