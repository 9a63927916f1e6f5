package clientmode

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nipcl/nipcl-conform/internal/text"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Client is the client under test, seen through the adapter protocol.
type Client interface {
	// Do hands one intent over and waits for the answer until ctx ends.
	Do(ctx context.Context, in Intent) (Answer, error)
	Close()
}

// ErrTimeout marks an intent the client did not answer in time.
var ErrTimeout = errors.New("client did not answer before the deadline")

// inProcess runs the reference client in this process.
type inProcess struct{ ref *Reference }

// NewInProcess wraps a reference client with the given fault ("" for none)
// and OK wait (zero: DefaultWait).
func NewInProcess(fault string, wait time.Duration) Client {
	return &inProcess{ref: &Reference{Fault: fault, OKWait: wait}}
}

func (c *inProcess) Do(ctx context.Context, in Intent) (Answer, error) {
	done := make(chan Answer, 1)
	go func() { done <- c.ref.Do(ctx, in) }()
	select {
	case a := <-done:
		return a, nil
	case <-ctx.Done():
		return Answer{}, ErrTimeout
	}
}

func (c *inProcess) Close() {}

// process is an adapter command speaking JSON lines on stdin/stdout.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *limited
	mu     sync.Mutex
	log    []string
}

// StartProcess runs command with sh -c; one process per case.
func StartProcess(command string, env []string) (Client, error) {
	cmd := exec.Command("sh", "-c", command)
	cmd.Env = env
	setGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, stdin: stdin, lines: make(chan string, 16), stderr: &limited{max: 4096}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start client command: %w", err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	return p, nil
}

func (p *process) Do(ctx context.Context, in Intent) (Answer, error) {
	b := marshal(in)
	p.note("harness> %s", b)
	werr := make(chan error, 1)
	go func() { _, err := p.stdin.Write(append(b, '\n')); werr <- err }()
	select {
	case err := <-werr:
		if err != nil {
			return Answer{}, fmt.Errorf("client exited or stopped reading its stdin (%v)%s", err, p.stderrTail())
		}
	case <-ctx.Done():
		return Answer{}, ErrTimeout
	}
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return Answer{}, fmt.Errorf("client exited or closed its stdout without answering%s", p.stderrTail())
			}
			p.note("client< %s", line)
			if strings.TrimSpace(line) == "" {
				continue
			}
			var a Answer
			dec := json.NewDecoder(strings.NewReader(line))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&a); err != nil {
				return Answer{}, fmt.Errorf("client printed a line that is not an answer: %q: %v", text.Clip(line, 200), err)
			}
			if a.ID != in.ID {
				return Answer{}, fmt.Errorf("client answered id %d, expected %d", a.ID, in.ID)
			}
			return a, nil
		case <-ctx.Done():
			return Answer{}, ErrTimeout
		}
	}
}

func (p *process) Close() {
	p.stdin.Close()
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second): // grace for a clean exit after EOF, then kill
		killGroup(p.cmd)
		<-done
	}
}

func (p *process) note(f string, a ...any) {
	p.mu.Lock()
	p.log = append(p.log, fmt.Sprintf(f, a...))
	p.mu.Unlock()
}

func (p *process) stderrTail() string {
	if s := strings.TrimSpace(p.stderr.String()); s != "" {
		return "; stderr: " + text.Clip(s, 500)
	}
	return ""
}

// marshal encodes v as JSON without escaping <, > and & (so that a
// library's "<nil>" reads as such in reports), without a trailing newline.
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte(fmt.Sprintf("%q", err.Error()))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// limited keeps the first max bytes written to it.
type limited struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (l *limited) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.max - len(l.buf); room > 0 {
		if len(b) < room {
			room = len(b)
		}
		l.buf = append(l.buf, b[:room]...)
	}
	return len(b), nil
}

func (l *limited) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.buf)
}
