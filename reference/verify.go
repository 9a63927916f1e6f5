package reference

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
	"github.com/nbd-wtf/go-nostr"
)

// verifier checks client event ids and BIP-340 signatures like go-nostr's
// CheckID and CheckSignature, but hashes the event once for both and keeps
// parsed public keys (a parse costs a field square root), a real share of
// each command's CPU when the same few keys write back to back.
type verifier struct {
	mu   sync.Mutex
	keys map[string]*btcec.PublicKey
}

// verifierKeys bounds the parsed-key cache; when full it starts over.
const verifierKeys = 4096

// check returns whether ev.ID is the hash of ev and whether ev.Sig is a
// valid signature of it by ev.PubKey (false when the id is wrong).
func (v *verifier) check(ev *nostr.Event) (idOK, sigOK bool) {
	h := sha256.Sum256(ev.Serialize())
	if len(ev.ID) != 64 || hex.EncodeToString(h[:]) != ev.ID {
		return false, false
	}
	pub := v.pubKey(ev.PubKey)
	if pub == nil || len(ev.Sig) != 128 {
		return true, false
	}
	raw, err := hex.DecodeString(ev.Sig)
	if err != nil {
		return true, false
	}
	sig, err := schnorr.ParseSignature(raw)
	if err != nil {
		return true, false
	}
	return true, sig.Verify(h[:], pub)
}

func (v *verifier) pubKey(pubHex string) *btcec.PublicKey {
	v.mu.Lock()
	pub, ok := v.keys[pubHex]
	v.mu.Unlock()
	if ok {
		return pub
	}
	raw, err := hex.DecodeString(pubHex)
	if err != nil || len(raw) != 32 {
		return nil
	}
	if pub, err = schnorr.ParsePubKey(raw); err != nil {
		return nil
	}
	v.mu.Lock()
	if v.keys == nil || len(v.keys) >= verifierKeys {
		v.keys = make(map[string]*btcec.PublicKey, 64)
	}
	v.keys[pubHex] = pub
	v.mu.Unlock()
	return pub
}
