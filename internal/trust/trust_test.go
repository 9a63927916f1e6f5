package trust

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPoolReadsPEMAndNamesBadFiles: a PEM CA file joins the pool; a file
// that is missing or holds no certificate is an error naming it.
func TestPoolReadsPEMAndNamesBadFiles(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "notes.txt")
	_ = os.WriteFile(good, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	_ = os.WriteFile(bad, []byte("not a certificate"), 0o644)
	if _, err := Pool([]string{good}); err != nil {
		t.Errorf("a PEM CA: %v", err)
	}
	for _, f := range []string{bad, filepath.Join(dir, "missing.pem")} {
		if _, err := Pool([]string{f}); err == nil || !strings.Contains(err.Error(), "--ca-cert") {
			t.Errorf("%s: err %v, want a --ca-cert error", f, err)
		}
	}
}
