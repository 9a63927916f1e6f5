package schnorr

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"gitlab.com/yawning/secp256k1-voi/secec/bitcoin"
	"pgregory.net/rapid"
)

// bip340SigningVectors are BIP-340's test vectors 0 to 3, the ones with a
// secret key (test-vectors.csv: secret key, public key, aux_rand, message,
// signature).
var bip340SigningVectors = [][5]string{
	{"0000000000000000000000000000000000000000000000000000000000000003", "F9308A019258C31049344F85F89D5229B531C845836F99B08601F113BCE036F9", "0000000000000000000000000000000000000000000000000000000000000000", "0000000000000000000000000000000000000000000000000000000000000000", "E907831F80848D1069A5371B402410364BDF1C5F8307B0084C55F1CE2DCA821525F66A4A85EA8B71E482A74F382D2CE5EBEEE8FDB2172F477DF4900D310536C0"},
	{"B7E151628AED2A6ABF7158809CF4F3C762E7160F38B4DA56A784D9045190CFEF", "DFF1D77F2A671C5F36183726DB2341BE58FEAE1DA2DECED843240F7B502BA659", "0000000000000000000000000000000000000000000000000000000000000001", "243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89", "6896BD60EEAE296DB48A229FF71DFE071BDE413E6D43F917DC8DCF8C78DE33418906D11AC976ABCCB20B091292BFF4EA897EFCB639EA871CFA95F6DE339E4B0A"},
	{"C90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B14E5C9", "DD308AFEC5777E13121FA72B9CC1B7CC0139715309B086C960E18FD969774EB8", "C87AA53824B4D7AE2EB035A2B5BBBCCC080E76CDC6D1692C4B0B62D798E6D906", "7E2D58D8B3BCDF1ABADEC7829054F90DDA9805AAB56C77333024B9D0A508B75C", "5831AAEED7B44BB74E5EAB94BA9D4294C49BCF2A60728D8B4C200F50DD313C1BAB745879A5AD954A72C45A91C3A51D3C7ADEA98D82F8481E0E1E03674A6F3FB7"},
	{"0B432B2677937381AEF05BB02A66ECD012773062CF3FA2549E44F58ED2401710", "25D1DFF95105F5253C4022F628A996AD3A0D95FBF21D468A1B33F8C160D8F517", "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "7EB0509757E246F19449885651611CB965ECC1A187DD51B64FDA1EDC9637D5EC97582B9CB13DB3933705B32BA982AF5AF25FD78881EBB32771FC5922EFC66EA3"},
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBIP340SigningVectors: the same key, aux_rand and message give the
// BIP's public key and signature, byte for byte.
func TestBIP340SigningVectors(t *testing.T) {
	for i, v := range bip340SigningVectors {
		k, err := NewKey(unhex(t, v[0]))
		if err != nil {
			t.Fatalf("vector %d: %v", i, err)
		}
		if pub := k.PublicKey(); !strings.EqualFold(hex.EncodeToString(pub[:]), v[1]) {
			t.Errorf("vector %d: public key %x, want %s", i, pub, v[1])
		}
		sig, err := k.Sign((*[32]byte)(unhex(t, v[2])), unhex(t, v[3]))
		if err != nil {
			t.Fatalf("vector %d: %v", i, err)
		}
		if !strings.EqualFold(hex.EncodeToString(sig[:]), v[4]) {
			t.Errorf("vector %d: signature %x, want %s", i, sig, v[4])
		}
	}
}

// TestSignaturesVerify: for any key, aux and event, secp256k1-voi's
// verifier and go-nostr's CheckSignature accept the signature, and the
// signature equals secp256k1-voi's own for the same aux.
func TestSignaturesVerify(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		secret := rapid.SliceOfN(rapid.Byte(), 32, 32).Draw(rt, "secret")
		aux := [32]byte(rapid.SliceOfN(rapid.Byte(), 32, 32).Draw(rt, "aux"))
		content := rapid.String().Draw(rt, "content")
		k, err := NewKey(secret)
		ref, refErr := bitcoin.NewSchnorrPrivateKey(secret)
		if (err == nil) != (refErr == nil) {
			rt.Fatalf("NewKey error %v, secp256k1-voi's %v", err, refErr)
		}
		if err != nil {
			return
		}
		pub := k.PublicKey()
		ev := nostr.Event{Kind: 1, Content: content, Tags: nostr.Tags{}, PubKey: hex.EncodeToString(pub[:])}
		h := sha256.Sum256(ev.Serialize())
		sig, err := k.Sign(&aux, h[:])
		if err != nil {
			rt.Fatal(err)
		}
		ev.ID, ev.Sig = hex.EncodeToString(h[:]), hex.EncodeToString(sig[:])
		if ok, err := ev.CheckSignature(); !ok || err != nil {
			rt.Fatalf("go-nostr rejects the signature: %v", err)
		}
		if !ref.PublicKey().Verify(h[:], sig[:]) {
			rt.Fatal("secp256k1-voi rejects the signature")
		}
		refSig, err := ref.Sign(fixedReader(aux), h[:], nil)
		if err != nil {
			rt.Fatal(err)
		}
		if hex.EncodeToString(refSig) != ev.Sig {
			rt.Fatalf("signature %s, secp256k1-voi's %x", ev.Sig, refSig)
		}
	})
}

// TestNewKeyRejectsOutOfRange: zero, the group order and short keys are
// refused.
func TestNewKeyRejectsOutOfRange(t *testing.T) {
	for _, s := range []string{
		strings.Repeat("00", 32),
		"FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141",
		"01",
	} {
		if _, err := NewKey(unhex(t, s)); err == nil {
			t.Errorf("NewKey(%s) accepted", s)
		}
	}
}

// fixedReader reads aux once (secp256k1-voi's Sign reads 32 bytes).
type fixedReader [32]byte

func (f fixedReader) Read(p []byte) (int, error) { return copy(p, f[:]), nil }

// BenchmarkSign is one signature of a 32-byte message.
func BenchmarkSign(b *testing.B) {
	k, err := NewKey(sha256.New().Sum(nil))
	if err != nil {
		b.Fatal(err)
	}
	var aux [32]byte
	msg := make([]byte, 32)
	for b.Loop() {
		if _, err := k.Sign(&aux, msg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSignVoi is secp256k1-voi's Sign of the same, with its check.
func BenchmarkSignVoi(b *testing.B) {
	k, err := bitcoin.NewSchnorrPrivateKey(sha256.New().Sum(nil))
	if err != nil {
		b.Fatal(err)
	}
	msg := make([]byte, 32)
	for b.Loop() {
		if _, err := k.Sign(fixedReader{}, msg, nil); err != nil {
			b.Fatal(err)
		}
	}
}
