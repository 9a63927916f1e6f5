// Package delayproxy is a TCP proxy that holds every byte for a fixed
// one-way delay in each direction, so a relay on loopback answers as if it
// were across a real network link (RTT = 2 × the one-way delay). It
// models latency only: bandwidth is unlimited and order is kept.
package delayproxy

import (
	"fmt"
	"net"
	"sync"
	"time"
)

// Proxy forwards connections from its listener to one upstream address.
type Proxy struct {
	ln       net.Listener
	upstream string
	oneWay   time.Duration

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// Start listens on listen (e.g. "127.0.0.1:0") and forwards every
// connection to upstream ("host:port") with oneWay delay each way.
func Start(listen, upstream string, oneWay time.Duration) (*Proxy, error) {
	if oneWay < 0 {
		return nil, fmt.Errorf("delayproxy: negative delay %s", oneWay)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("delayproxy: listen %s: %w", listen, err)
	}
	p := &Proxy{ln: ln, upstream: upstream, oneWay: oneWay, conns: map[net.Conn]struct{}{}}
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
	go func() { defer wg.Done(); p.pipe(up, client) }()
	go func() { defer wg.Done(); p.pipe(client, up) }()
	wg.Wait()
}

// chunk is bytes read at a time; they are written at due.
type chunk struct {
	data []byte
	due  time.Time
}

// pipe copies src to dst, each chunk written oneWay after it was read.
// When src ends, dst is half-closed after the last delayed chunk, so a
// closing peer is seen as late as its last bytes.
func (p *Proxy) pipe(dst, src net.Conn) {
	queue := make(chan chunk, 4096)
	go func() {
		defer close(queue)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				queue <- chunk{buf[:n], time.Now().Add(p.oneWay)}
			}
			if err != nil {
				return
			}
		}
	}()
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	for c := range queue {
		if d := time.Until(c.due); d > 0 {
			timer.Reset(d)
			<-timer.C
		}
		if _, err := dst.Write(c.data); err != nil {
			_ = src.Close()
			for range queue { // let the reader end
			}
			return
		}
	}
	if cw, ok := dst.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	} else {
		_ = dst.Close()
	}
}
