// Package delayproxy is a TCP proxy that holds every byte for a fixed
// one-way delay in each direction, so a relay on loopback answers as if it
// were across a real network link (RTT = 2 × the one-way delay). It
// models latency only: bandwidth is unlimited and order is kept. With a
// Host (StartHost), it also sends every HTTP request it forwards with that
// Host header, as a client that dialled the relay's own address would: a
// relay that routes by Host (communities, virtual hosts) sees its own name,
// never the proxy's address.
package delayproxy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Proxy forwards connections from its listener to one upstream address.
type Proxy struct {
	ln       net.Listener
	upstream string
	oneWay   time.Duration
	host     string // Host header of every forwarded request ("" = as sent)

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// Start listens on listen (e.g. "127.0.0.1:0") and forwards every
// connection to upstream ("host:port") with oneWay delay each way.
func Start(listen, upstream string, oneWay time.Duration) (*Proxy, error) {
	return StartHost(listen, upstream, oneWay, "")
}

// StartHost is Start, with every HTTP request (the NIP-11 GET, the
// WebSocket upgrade) forwarded with Host header host: the relay's own
// name, or --host-header's. Once a connection is upgraded (or carries
// what is not plain HTTP/1.1), its bytes pass as they are.
func StartHost(listen, upstream string, oneWay time.Duration, host string) (*Proxy, error) {
	if oneWay < 0 {
		return nil, fmt.Errorf("delayproxy: negative delay %s", oneWay)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("delayproxy: listen %s: %w", listen, err)
	}
	p := &Proxy{ln: ln, upstream: upstream, oneWay: oneWay, host: host, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.acceptLoop()
	return p, nil
}

// Addr is the proxy's listening address ("127.0.0.1:port").
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// RTT is the round trip the proxy adds.
func (p *Proxy) RTT() time.Duration { return 2 * p.oneWay }

// Close stops accepting, drops every open connection and waits for the
// proxy's goroutines to end.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		_ = c.Close()
	}
	p.mu.Unlock()
	err := p.ln.Close()
	p.wg.Wait()
	return err
}

func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		_ = c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	_ = c.Close()
}

func (p *Proxy) acceptLoop() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		if !p.track(c) {
			continue
		}
		p.wg.Add(1)
		go p.serve(c)
	}
}

func (p *Proxy) serve(client net.Conn) {
	defer p.wg.Done()
	defer p.untrack(client)
	up, err := net.DialTimeout("tcp", p.upstream, 10*time.Second)
	if err != nil {
		return
	}
	if !p.track(up) {
		return
	}
	defer p.untrack(up)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); p.pipe(up, client, p.host) }()
	go func() { defer wg.Done(); p.pipe(client, up, "") }()
	wg.Wait()
}

// maxGather is the most chunks written in one write.
const maxGather = 64

// chunk is bytes read at a time; they are written at due.
type chunk struct {
	data []byte
	due  time.Time
}

// pipe copies src to dst, each chunk written oneWay after it was read
// (with host set, HTTP requests get that Host header: readRequests).
// When src ends, dst is half-closed after the last delayed chunk, so a
// closing peer is seen as late as its last bytes.
func (p *Proxy) pipe(dst, src net.Conn, host string) {
	queue := make(chan chunk, 4096)
	go func() {
		defer close(queue)
		send := func(b []byte) { queue <- chunk{b, time.Now().Add(p.oneWay)} }
		var r io.Reader = src
		if host != "" {
			br := bufio.NewReaderSize(src, 32<<10)
			if err := readRequests(br, host, p.Addr(), send); err != nil {
				return
			}
			r = br
		}
		// One read buffer; each chunk keeps a copy of what was read (a
		// fresh 32 KiB buffer per read, zeroed, for messages of a few
		// hundred bytes was most of the proxy's CPU).
		buf := make([]byte, 32<<10)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				send(bytes.Clone(buf[:n]))
			}
			if err != nil {
				return
			}
		}
	}()
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	// Chunks already due when one is written go out with it, in one
	// write: the bytes and their order are the same, the peer's reads
	// fewer.
	var next *chunk
	for {
		c := next
		next = nil
		if c == nil {
			got, ok := <-queue
			if !ok {
				break
			}
			c = &got
		}
		if d := time.Until(c.due); d > 0 {
			timer.Reset(d)
			<-timer.C
		}
		bufs := net.Buffers{c.data}
		ended := false
	gather:
		for len(bufs) < maxGather {
			select {
			case more, ok := <-queue:
				if !ok {
					ended = true
					break gather
				}
				if time.Until(more.due) > 0 {
					next = &more
					break gather
				}
				bufs = append(bufs, more.data)
			default:
				break gather
			}
		}
		if _, err := bufs.WriteTo(dst); err != nil {
			_ = src.Close()
			for range queue { // let the reader end
			}
			return
		}
		if ended {
			break
		}
	}
	if cw, ok := dst.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	} else {
		_ = dst.Close()
	}
}

// readRequests forwards HTTP/1.1 requests from br with their Host header
// set to host where it names the proxy itself, self (or is absent; a Host
// naming anything else — another community — passes as sent), each head
// and body as read, until a
// request upgrades the connection, carries a body of unknown length, or
// br does not hold an HTTP request head; the rest of br then passes as is.
// An error is br's: the connection ended.
func readRequests(br *bufio.Reader, host, self string, send func([]byte)) error {
	for {
		var head bytes.Buffer
		for {
			line, err := br.ReadSlice('\n')
			head.Write(line)
			if err == bufio.ErrBufferFull {
				send(bytes.Clone(head.Bytes())) // not a request head we can read
				return nil
			}
			if err != nil {
				if head.Len() > 0 {
					send(bytes.Clone(head.Bytes()))
				}
				return err
			}
			if len(bytes.TrimRight(line, "\r\n")) == 0 {
				break
			}
		}
		out, length, raw := rewriteHead(head.Bytes(), host, self)
		send(out)
		if raw {
			return nil
		}
		for length > 0 {
			buf := make([]byte, min(length, 32<<10))
			n, err := br.Read(buf)
			if n > 0 {
				send(buf[:n])
				length -= n
			}
			if err != nil {
				return err
			}
		}
	}
}

// rewriteHead returns an HTTP request head with its Host header set to
// host when it names self or is absent, the length of the body that
// follows, and whether the bytes after it are not a next request (an
// upgrade, a chunked body, not HTTP).
func rewriteHead(head []byte, host, self string) (out []byte, length int, raw bool) {
	lines := strings.SplitAfter(string(head), "\n")
	if len(lines) == 0 || !strings.Contains(lines[0], " HTTP/1.") {
		return head, 0, true
	}
	var b strings.Builder
	b.WriteString(lines[0])
	hostDone := false
	for _, l := range lines[1:] {
		name, value, _ := strings.Cut(l, ":")
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "host":
			if hostDone {
				continue
			}
			if strings.EqualFold(strings.TrimSpace(value), self) {
				l = "Host: " + host + "\r\n"
			}
			hostDone = true
		case "upgrade", "transfer-encoding":
			raw = true
		case "content-length":
			length, _ = strconv.Atoi(strings.TrimSpace(value))
		case "":
			if !hostDone {
				b.WriteString("Host: " + host + "\r\n")
				hostDone = true
			}
		}
		b.WriteString(l)
	}
	return []byte(b.String()), length, raw
}
