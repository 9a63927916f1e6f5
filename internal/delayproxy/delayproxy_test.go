package delayproxy

import (
	"bufio"
	"net"
	"testing"
	"time"
)

// echo serves one line-echo server on loopback.
func echo(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
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
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if _, err := c.Write([]byte(line)); err != nil {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// TestRoundTripTakesTwiceTheDelay: a request/answer through the proxy takes
// at least the RTT, bytes arrive intact and in order.
func TestRoundTripTakesTwiceTheDelay(t *testing.T) {
	const oneWay = 20 * time.Millisecond
	p, err := Start("127.0.0.1:0", echo(t), oneWay)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	for i, msg := range []string{"one\n", "two\n", "three\n"} {
		start := time.Now()
		if _, err := c.Write([]byte(msg)); err != nil {
			t.Fatal(err)
		}
		got, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if got != msg {
			t.Fatalf("round %d: got %q, want %q", i, got, msg)
		}
		if el := time.Since(start); el < p.RTT() {
			t.Fatalf("round %d took %s, less than the RTT %s", i, el, p.RTT())
		}
	}
}

// TestCloseEndsConnections: Close returns with connections open and they
// see EOF.
func TestCloseEndsConnections(t *testing.T) {
	p, err := Start("127.0.0.1:0", echo(t), time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("x\n")); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 16)
	for {
		if _, err := c.Read(buf); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatal("connection still open after Close")
			}
			return
		}
	}
}
