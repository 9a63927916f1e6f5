package reference

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
	"github.com/nbd-wtf/go-nostr"
)

// signer signs relay events with parsed keys cached, so a signature costs
// one scalar multiplication instead of two (go-nostr's Event.Sign derives
// the public key again on every call).
type signer struct {
	mu   sync.Mutex
	keys map[string]*signingKey
}

type signingKey struct {
	sk     *btcec.PrivateKey
	pubHex string
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
	k := &signingKey{sk: sk, pubHex: hex.EncodeToString(pk.SerializeCompressed()[1:])}
	if s.keys == nil {
		s.keys = map[string]*signingKey{}
	}
	s.keys[secretHex] = k
	return k, nil
}

// sign sets pubkey, id and sig of ev, like nostr.Event.Sign.
func (s *signer) sign(ev *nostr.Event, secretHex string) error {
	k, err := s.key(secretHex)
	if err != nil {
		return err
	}
	if ev.Tags == nil {
		ev.Tags = nostr.Tags{}
	}
	ev.PubKey = k.pubHex
	h := sha256.Sum256(ev.Serialize())
	sig, err := schnorr.Sign(k.sk, h[:], schnorr.FastSign())
	if err != nil {
		return fmt.Errorf("sign relay event: %w", err)
	}
	ev.ID = hex.EncodeToString(h[:])
	ev.Sig = hex.EncodeToString(sig.Serialize())
	return nil
}
