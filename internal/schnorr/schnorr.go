// Package schnorr makes BIP-340 signatures with secp256k1-voi's curve
// arithmetic, following the BIP's signing algorithm step by step except
// for its last, optional step: verifying the signature just made.
//
// BIP-340 calls that check "recommended, but can be omitted if the
// computation cost is prohibitive"; it guards a long-lived key against a
// fault in the signer's own computation. secp256k1-voi's Sign always makes
// it, and it was 55 % of a harness signature (BENCHMARKS.md). The harness
// signs with throwaway keys, and the relay under test verifies every event
// it is sent: a wrong signature would be seen there, not silently stored.
// The package's tests check the BIP's own signing vectors and that
// secp256k1-voi and go-nostr both verify what it makes.
package schnorr

import (
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"

	secp256k1 "gitlab.com/yawning/secp256k1-voi"
)

// Key is a parsed secret key with its x-only public key (BIP-340's d and
// bytes(P)), ready to sign.
type Key struct {
	d    *secp256k1.Scalar // negated when d'·G has an odd Y
	pubX [32]byte
}

// NewKey parses a 32-byte secret key (BIP-340's sk): it must be in 1..n-1.
func NewKey(secret []byte) (*Key, error) {
	if len(secret) != secp256k1.ScalarSize {
		return nil, fmt.Errorf("schnorr: secret key is %d bytes, not %d", len(secret), secp256k1.ScalarSize)
	}
	dPrime, err := secp256k1.NewScalarFromCanonicalBytes((*[secp256k1.ScalarSize]byte)(secret))
	if err != nil {
		return nil, fmt.Errorf("schnorr: secret key is not below the group order: %w", err)
	}
	if dPrime.IsZero() != 0 {
		return nil, errors.New("schnorr: secret key is zero")
	}
	p := secp256k1.NewIdentityPoint().ScalarBaseMult(dPrime)
	px, odd := secp256k1.SplitUncompressedPoint(p.UncompressedBytes())
	k := &Key{d: secp256k1.NewScalar().ConditionalNegate(dPrime, odd)}
	copy(k.pubX[:], px)
	return k, nil
}

// GenerateKey makes a key from crypto/rand and returns it with its 32-byte
// secret.
func GenerateKey() (*Key, []byte, error) {
	secret := make([]byte, secp256k1.ScalarSize)
	for {
		if _, err := rand.Read(secret); err != nil {
			return nil, nil, fmt.Errorf("schnorr: read a secret key: %w", err)
		}
		if k, err := NewKey(secret); err == nil {
			return k, secret, nil
		}
	}
}

// SignRandom signs msg with 32 fresh bytes from crypto/rand as aux.
func (k *Key) SignRandom(msg []byte) ([64]byte, error) {
	var aux [32]byte
	if _, err := rand.Read(aux[:]); err != nil {
		return [64]byte{}, fmt.Errorf("schnorr: read aux: %w", err)
	}
	return k.Sign(&aux, msg)
}

// PublicKey is the key's x-only public key, bytes(P).
func (k *Key) PublicKey() [32]byte { return k.pubX }

// Sign signs the 32-byte message msg with the auxiliary random data aux
// (BIP-340's a: fresh random bytes for each signature, or zeros where
// determinism is wanted), as BIP-340's Sign(sk, m) without its final
// self-verification.
func (k *Key) Sign(aux *[32]byte, msg []byte) ([64]byte, error) {
	var sig [64]byte
	// t = bytes(d) xor hash_BIP0340/aux(a)
	var t [32]byte
	auxHash := taggedHash(tagAux, aux[:])
	db := k.d.Bytes()
	for i := range t {
		t[i] = db[i] ^ auxHash[i]
	}
	// k' = int(hash_BIP0340/nonce(t || bytes(P) || m)) mod n; fail if 0
	rnd := taggedHash(tagNonce, t[:], k.pubX[:], msg)
	kPrime, _ := secp256k1.NewScalarFromBytes(&rnd)
	if kPrime.IsZero() != 0 {
		return sig, errors.New("schnorr: nonce is zero")
	}
	// R = k'·G; k = k' if has_even_y(R), otherwise n - k'
	r := secp256k1.NewIdentityPoint().ScalarBaseMult(kPrime)
	rx, odd := secp256k1.SplitUncompressedPoint(r.UncompressedBytes())
	nonce := secp256k1.NewScalar().ConditionalNegate(kPrime, odd)
	// e = int(hash_BIP0340/challenge(bytes(R) || bytes(P) || m)) mod n
	eh := taggedHash(tagChallenge, rx, k.pubX[:], msg)
	e, _ := secp256k1.NewScalarFromBytes(&eh)
	// sig = bytes(R) || bytes((k + e·d) mod n)
	s := secp256k1.NewScalar().Multiply(e, k.d)
	s.Add(nonce, s)
	copy(sig[:32], rx)
	copy(sig[32:], s.Bytes())
	return sig, nil
}

// The tagged hashes' prefixes, sha256(tag) twice (BIP-340).
var (
	tagAux       = tagPrefix("BIP0340/aux")
	tagNonce     = tagPrefix("BIP0340/nonce")
	tagChallenge = tagPrefix("BIP0340/challenge")
)

func tagPrefix(tag string) [64]byte {
	h := sha256.Sum256([]byte(tag))
	var p [64]byte
	copy(p[:32], h[:])
	copy(p[32:], h[:])
	return p
}

// taggedHash is hash_tag(x) = sha256(sha256(tag) || sha256(tag) || x).
func taggedHash(prefix [64]byte, parts ...[]byte) [32]byte {
	h := sha256.New()
	h.Write(prefix[:])
	for _, p := range parts {
		h.Write(p)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}
