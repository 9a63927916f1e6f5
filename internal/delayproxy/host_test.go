package delayproxy

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestHostNamesTheRelay: through a proxy started with a Host, every HTTP
// request that would name the proxy names the relay instead — on a
// kept-alive connection too, and for a WebSocket upgrade, whose later bytes
// pass as they are — while a Host naming something else (another
// community) passes unchanged.
func TestHostNamesTheRelay(t *testing.T) {
	var mu sync.Mutex
	var hosts []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hosts = append(hosts, r.Host)
		mu.Unlock()
		if r.Header.Get("Upgrade") != "" {
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return
			}
			defer conn.Close()
			fmt.Fprint(buf, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
			_ = buf.Flush()
			line, _ := buf.ReadString('\n') // raw bytes after the upgrade, echoed
			fmt.Fprint(conn, line)
			return
		}
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	upstream := strings.TrimPrefix(srv.URL, "http://")
	p, err := StartHost("127.0.0.1:0", upstream, time.Millisecond, "relay.example:443")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	for i := 0; i < 2; i++ { // one kept-alive connection, two requests
		resp, err := client.Get("http://" + p.Addr() + "/")
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	req, _ := http.NewRequest(http.MethodGet, "http://"+p.Addr()+"/", nil)
	req.Host = "other.example:" + strings.Split(p.Addr(), ":")[1]
	if resp, err := client.Do(req); err == nil {
		_, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
	}

	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nHost: not-a-header\n", p.Addr())
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line == "\r\n" {
			break
		}
	}
	if line, _ := r.ReadString('\n'); line != "Host: not-a-header\n" {
		t.Errorf("bytes after the upgrade came back as %q", line)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"relay.example:443", "relay.example:443", req.Host, "relay.example:443"}
	if strings.Join(hosts, " ") != strings.Join(want, " ") {
		t.Errorf("the relay saw Host %v, want %v", hosts, want)
	}
}
