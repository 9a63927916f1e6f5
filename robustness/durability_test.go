package robustness

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	_ "modernc.org/sqlite" // driver "sqlite", to read the journal mode

	"github.com/nipcl/nipcl-conform/fixtures"
)

const (
	durWorkers  = 6
	durAckGoal  = 1000
	durStep     = 5 * time.Second
	durMaxLoad  = 60 * time.Second // guard: the goal must be reached well before
	relayKeyHex = "7f3b1c2d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789abcdef"
)

var labelRe = regexp.MustCompile(`^[a-z0-9][a-z0-9._:/-]*$`)

// server is one `nipcl-conform serve` subprocess.
type server struct {
	cmd  *exec.Cmd
	url  string
	done chan struct{} // closed when the process has exited
	err  error         // its exit status, once done is closed
}

// startServe starts the reference relay on db and waits for its
// "listening on ws://…" line.
func startServe(t *testing.T, db string) *server {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", db, "--profile", "labels", "--key", relayKeyHex)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, done: make(chan struct{})}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "listening on ") {
				select {
				case lines <- sc.Text():
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		s.err = cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-s.done
	})
	select {
	case l := <-lines:
		s.url = strings.Fields(strings.TrimPrefix(l, "listening on "))[0]
	case <-s.done:
		t.Fatalf("serve exited before listening: %v", s.err)
	case <-time.After(20 * time.Second):
		t.Fatal("serve printed no \"listening on\" line within 20s")
	}
	return s
}

// record is one command the relay acknowledged with OK true.
type record struct {
	ev      *nostr.Event
	actor   int
	channel string
	labels  []string // labels the command puts on the channel
}

// TestCrashDurability drives concurrent label commands at a file-backed
// reference relay, SIGKILLs it once enough were acknowledged, restarts it on
// the same file and checks that every acknowledged command survived.
func TestCrashDurability(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "relay.db")
	srv := startServe(t, db)

	actors := make([]*fixtures.Actor, durWorkers)
	for i := range actors {
		actors[i] = fixtures.NewActor(fmt.Sprintf("w%d", i))
	}
	var (
		mu    sync.Mutex
		acked []record
		count atomic.Int64
		goal  = make(chan struct{})
		once  sync.Once
	)
	ack := func(r record) {
		mu.Lock()
		acked = append(acked, r)
		mu.Unlock()
		if count.Add(1) >= durAckGoal {
			once.Do(func() { close(goal) })
		}
	}
	loadCtx, stopLoad := context.WithCancel(context.Background())
	defer stopLoad()
	var wg sync.WaitGroup
	start := time.Now()
	for w := range durWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			load(loadCtx, srv.url, w, actors[w], ack)
		}()
	}
	select {
	case <-goal:
	case <-time.After(durMaxLoad):
		t.Fatalf("only %d commands acknowledged in %s", count.Load(), durMaxLoad)
	}
	if err := srv.cmd.Process.Kill(); err != nil { // SIGKILL, mid-load
		t.Fatal(err)
	}
	killedAt := time.Since(start)
	<-srv.done
	stopLoad()
	wg.Wait()
	mu.Lock()
	recs := slices.Clone(acked)
	mu.Unlock()
	t.Logf("%d commands acknowledged (%d at the kill signal) in %s; %d workers", len(recs), count.Load(), killedAt.Round(time.Millisecond), durWorkers)

	checkJournal(t, db)
	srv = startServe(t, db)
	verify(t, srv.url, actors, recs)
}

// load creates channels with two labels each and adds labels to them until
// the connection ends.
func load(ctx context.Context, url string, w int, a *fixtures.Actor, ack func(record)) {
	c, err := fixtures.Dial(ctx, url, fixtures.DialOptions{Actor: a, AuthOnConnect: true, StepTimeout: durStep})
	if err != nil {
		return
	}
	defer c.Close()
	for n := 0; ctx.Err() == nil; n++ {
		initial := []string{fmt.Sprintf("w%d.c%d", w, n), "load"}
		spec := &fixtures.ChannelSpec{Name: fmt.Sprintf("load %d/%d", w, n), Visibility: fixtures.Open,
			Extra: nostr.Tags{{"label", initial[0]}, {"label", initial[1]}}}
		ev := fixtures.CreateChannel(a, spec)
		ok, err := c.Publish(ctx, ev)
		if err != nil {
			return
		}
		if !ok.Accepted {
			continue
		}
		ack(record{ev: ev, actor: w, channel: spec.ID, labels: initial})
		for j := 0; j < 8 && ctx.Err() == nil; j++ {
			v := fmt.Sprintf("m%d", j)
			ev := a.Event(fixtures.KindEditMetadata, nostr.Tags{{"h", spec.ID}, {"add-label", v}}, "")
			ok, err := c.Publish(ctx, ev)
			if err != nil {
				return
			}
			if ok.Accepted {
				ack(record{ev: ev, actor: w, channel: spec.ID, labels: []string{v}})
			}
		}
	}
}

// checkJournal reads the journal mode the relay left in the file.
func checkJournal(t *testing.T, db string) {
	t.Helper()
	h, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var mode string
	if err := h.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "wal" {
		t.Errorf("journal_mode %q, want wal", mode)
	}
}

func verify(t *testing.T, url string, actors []*fixtures.Actor, recs []record) {
	ctx := context.Background()
	byActor := make([][]record, len(actors))
	want := map[string][]string{} // channel -> labels acknowledged on it
	owner := map[string]int{}
	for _, r := range recs {
		byActor[r.actor] = append(byActor[r.actor], r)
		want[r.channel] = append(want[r.channel], r.labels...)
		owner[r.channel] = r.actor
	}
	var wg sync.WaitGroup
	for i, a := range actors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := fixtures.Dial(ctx, url, fixtures.DialOptions{Actor: a, AuthOnConnect: true, StepTimeout: durStep})
			if err != nil {
				t.Errorf("%s: %v", a, err)
				return
			}
			defer c.Close()
			mine := byActor[i]
			// Every acknowledged command is stored.
			ids := make([]string, 0, len(mine))
			for _, r := range mine {
				ids = append(ids, r.ev.ID)
			}
			found := map[string]bool{}
			for chunk := range slices.Chunk(ids, 200) {
				res, err := c.Query(ctx, nostr.Filter{IDs: chunk, Limit: len(chunk)})
				if err != nil {
					t.Errorf("%s: query commands: %v", a, err)
					return
				}
				for _, ev := range res.Events {
					found[ev.ID] = true
				}
			}
			for _, r := range mine {
				if !found[r.ev.ID] {
					t.Errorf("acknowledged kind %d %s (channel %s) is not stored after the crash", r.ev.Kind, r.ev.ID, r.channel)
				}
			}
			// Every channel exists with a canonical snapshot holding its labels.
			var chans []string
			for ch, o := range owner {
				if o == i {
					chans = append(chans, ch)
				}
			}
			slices.Sort(chans)
			snaps := map[string]*nostr.Event{}
			for chunk := range slices.Chunk(chans, 200) {
				res, err := c.Query(ctx, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": chunk}, Limit: len(chunk)})
				if err != nil {
					t.Errorf("%s: query snapshots: %v", a, err)
					return
				}
				for _, ev := range res.Events {
					d, _ := fixtures.TagValue(ev, "d")
					snaps[d] = ev
				}
			}
			for _, ch := range chans {
				snap := snaps[ch]
				if snap == nil {
					t.Errorf("channel %s (acknowledged create) has no 39000 after the crash", ch)
					continue
				}
				labels, err := canonicalLabels(snap)
				if err != nil {
					t.Errorf("channel %s: 39000 not canonical: %v\n%v", ch, err, snap.Tags)
					continue
				}
				for _, l := range want[ch] {
					if !slices.Contains(labels, l) {
						t.Errorf("channel %s: acknowledged label %q missing from 39000 labels %q", ch, l, labels)
					}
				}
			}
			// Exact retries of acknowledged commands answer as committed.
			for _, r := range mine {
				ok, err := c.Send(ctx, r.ev)
				if err != nil {
					t.Errorf("retry %s: %v", r.ev.ID, err)
					return
				}
				if !ok.Accepted || ok.Reason != "duplicate: nip-cl-committed" {
					t.Errorf("retry of acknowledged kind %d %s: %s, want OK true \"duplicate: nip-cl-committed\"", r.ev.Kind, r.ev.ID, ok)
				}
			}
		}()
	}
	wg.Wait()
}

// canonicalLabels checks a labels-profile 39000: relay-signed, one t tag,
// ["L","nip-cl"] iff labels, ["l", v, "nip-cl"] strictly ascending, at most
// 32, each a valid label. It returns the labels.
func canonicalLabels(ev *nostr.Event) ([]string, error) {
	if ev.PubKey != mustPubKey(relayKeyHex) {
		return nil, fmt.Errorf("signed by %s, not the relay key", ev.PubKey)
	}
	if ok, _ := ev.CheckSignature(); !ok || !ev.CheckID() {
		return nil, fmt.Errorf("id or signature does not verify")
	}
	var ts, ls []string
	nL := 0
	for _, tag := range ev.Tags {
		switch tag[0] {
		case "t":
			ts = append(ts, tag[1])
		case "L":
			if len(tag) != 2 || tag[1] != "nip-cl" {
				return nil, fmt.Errorf("L tag %q", tag)
			}
			nL++
		case "l":
			if len(tag) != 3 || tag[2] != "nip-cl" || !labelRe.MatchString(tag[1]) || len(tag[1]) > 64 {
				return nil, fmt.Errorf("l tag %q", tag)
			}
			ls = append(ls, tag[1])
		}
	}
	switch {
	case len(ts) != 1:
		return nil, fmt.Errorf("%d t tags", len(ts))
	case (len(ls) > 0) != (nL == 1) || nL > 1:
		return nil, fmt.Errorf("%d L tags for %d labels", nL, len(ls))
	case len(ls) > 32:
		return nil, fmt.Errorf("%d labels", len(ls))
	}
	for i := 1; i < len(ls); i++ {
		if ls[i-1] >= ls[i] {
			return nil, fmt.Errorf("l tags not strictly ascending: %q", ls)
		}
	}
	return ls, nil
}

func mustPubKey(sk string) string {
	pk, err := nostr.GetPublicKey(sk)
	if err != nil {
		panic(err)
	}
	return pk
}
