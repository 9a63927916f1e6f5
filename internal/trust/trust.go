// Package trust makes the harness trust extra certificate authorities
// (run/bench --ca-cert): a relay behind a TLS proxy with a private CA or a
// self-signed certificate. Go also reads SSL_CERT_FILE and SSL_CERT_DIR
// for its system pool; --ca-cert adds to that pool, it never replaces it.
package trust

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
)

// Pool returns the system roots plus every certificate in the PEM files.
// A file that cannot be read or holds no certificate is an error naming it.
func Pool(files []string) (*x509.CertPool, error) {
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	for _, f := range files {
		pem, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("--ca-cert: %w", err)
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--ca-cert %s: no PEM certificate in it", f)
		}
	}
	return pool, nil
}

// Install makes every HTTP request and WebSocket of this process (both use
// http.DefaultTransport) trust the system roots plus the certificates in
// files, and so every TLS connection made with ClientConfig (a proxy that
// dials the relay itself). No files: nothing changes.
func Install(files []string) error {
	if len(files) == 0 {
		return nil
	}
	pool, err := Pool(files)
	if err != nil {
		return err
	}
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return errors.New("--ca-cert: the default HTTP transport is not an *http.Transport")
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if t.TLSClientConfig != nil {
		cfg = t.TLSClientConfig.Clone()
	}
	cfg.RootCAs = pool
	t.TLSClientConfig = cfg
	return nil
}

// ClientConfig is the TLS configuration for a connection this process
// makes to serverName outside http.DefaultTransport (a raw TLS dial): the
// roots Install set up, else the system's.
func ClientConfig(serverName string) *tls.Config {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if t, ok := http.DefaultTransport.(*http.Transport); ok && t.TLSClientConfig != nil {
		cfg = t.TLSClientConfig.Clone()
	}
	cfg.ServerName = serverName
	return cfg
}
