package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// privateCA makes a CA and a certificate for 127.0.0.1 signed by it; it
// writes the CA as PEM to a file and returns the file and the server's
// certificate.
func privateCA(t *testing.T) (caFile string, leaf tls.Certificate) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "nipcl-conform test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	cert := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		KeyUsage: x509.KeyUsageDigitalSignature,
	}
	parsedCA, _ := x509.ParseCertificate(caDER)
	der, err := x509.CreateCertificate(rand.Reader, cert, parsedCA, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o644); err != nil {
		t.Fatal(err)
	}
	return caFile, tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// tlsFront terminates TLS with cert and forwards the bytes to the relay at
// addr, as a TLS proxy in front of a deployment does; it returns the
// wss:// URL.
func tlsFront(t *testing.T, cert tls.Certificate, addr string) string {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				up, err := net.Dial("tcp", addr)
				if err != nil {
					return
				}
				defer up.Close()
				go func() { _, _ = io.Copy(up, c) }()
				_, _ = io.Copy(c, up)
			}()
		}
	}()
	return "wss://" + ln.Addr().String()
}

// TestPrivateCATarget: a relay behind a TLS listener whose certificate a
// private CA signed is refused with an x509 error until --ca-cert names
// the CA; then the run passes.
func TestPrivateCATarget(t *testing.T) {
	caFile, cert := privateCA(t)
	relay := serve(t, "--profile", "nip29")
	target := tlsFront(t, cert, strings.TrimPrefix(relay, "ws://"))
	args := []string{"run", "--target", target, "--profile", "nip29", "--parallel", "1", "--focus", "base/create/*", "--focus", "base/nip11/*"}

	r := cli(t, time.Minute, append(args, "--report-dir", t.TempDir())...)
	if r.code != 2 || !strings.Contains(r.stderr, "certificate") {
		t.Errorf("without --ca-cert: exit %d, want 2 and an x509 error\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	r = cli(t, time.Minute, append(args, "--ca-cert", caFile, "--report-dir", t.TempDir())...)
	if r.code != 0 {
		t.Errorf("with --ca-cert: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	r = cli(t, time.Minute, "run", "--target", target, "--ca-cert", filepath.Join(t.TempDir(), "missing.pem"))
	if r.code != 2 || !strings.Contains(r.stderr, "--ca-cert") {
		t.Errorf("missing CA file: exit %d\n%s", r.code, r.stderr)
	}
}

// TestPrivateCAReachesTheRelayThroughTheCasesOwnProxy: cases that put a
// proxy of their own between the client and the relay (the lost
// acknowledgement of labels/responses/8 and /9) dial the wss:// relay with
// the roots --ca-cert installed, as every other connection does — not a
// harness error of an untrusted certificate.
func TestPrivateCAReachesTheRelayThroughTheCasesOwnProxy(t *testing.T) {
	caFile, cert := privateCA(t)
	relay := serve(t, "--profile", "labels")
	target := tlsFront(t, cert, strings.TrimPrefix(relay, "ws://"))
	r := cli(t, 2*time.Minute, "run", "--target", target, "--profile", "labels", "--parallel", "1",
		"--focus", "labels/responses/8", "--focus", "labels/responses/9", "--ca-cert", caFile, "--report-dir", t.TempDir())
	if r.code != 0 {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}
