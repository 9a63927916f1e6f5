// Package bench measures how fast a relay applies and publishes channel
// mutations and answers discovery reads: the engine of `nipcl-conform
// bench`.
//
// Against one target it creates Channels channels (named and labelled with
// the run ID), then for Duration keeps Concurrency connections sending the
// profile's mutation back to back (labels: 9002 add-label/remove-label;
// identity: 9002 t tags; nip29: 9002 metadata edits), each connection on
// its own channels and subscribed to their 39000. Meanwhile one more
// connection repeats the profile's discovery read. It reports acknowledged
// mutations per second, OK latency, snapshot publication latency (OK →
// matching 39000 on the live subscription) and discovery latency.
//
// A target that cannot be measured gives an *Error naming the reason in
// one line: unreachable, refusing writes, rate-limiting, or a step that
// did not finish within its deadline. Every network step has a deadline.
package bench

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/internal/pace"
	"github.com/nipcl/nipcl-conform/internal/text"
)

// Target is one relay to measure.
type Target struct {
	Name    string // column heading, e.g. "reference(labels)" or "relay29"
	URL     string // ws:// or wss://
	Profile string // nip29, identity or labels
	Note    string // how the profile was chosen (auto-detection), if not given
}

// Options configure a measurement. Zero values take the defaults.
type Options struct {
	Channels    int           // channels created per target (default 8)
	Concurrency int           // connections sending mutations (default 4, at most Channels)
	Duration    time.Duration // measured window per target (default 10s)
	StepTimeout time.Duration // deadline of each network step (default 10s)
	RunID       string        // namespaces channel names and labels (required)
	// Safe deletes every channel the run created (9008) when it ends.
	Safe bool
	// Rate bounds writes per second to a target; 0 = unlimited.
	Rate float64
	// Header holds extra HTTP headers for every WebSocket upgrade
	// (--header); never written to the report.
	Header http.Header
	// CommandTags are extra tags every command the bench signs carries
	// (--command-tag; a deployment's own admission tags).
	CommandTags nostr.Tags
	// Progress, when set, is called a few times a second with the share of
	// the target's measured window that has passed (0–1).
	Progress func(target string, done float64)
}

func (o Options) withDefaults() Options {
	if o.Channels <= 0 {
		o.Channels = 8
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	o.Concurrency = min(o.Concurrency, o.Channels)
	if o.Duration <= 0 {
		o.Duration = 10 * time.Second
	}
	if o.StepTimeout <= 0 {
		o.StepTimeout = 10 * time.Second
	}
	return o
}

// Result is what was measured against one target.
type Result struct {
	Target      string        `json:"target"`
	URL         string        `json:"url"`
	Profile     string        `json:"profile"`
	Note        string        `json:"note,omitempty"`
	Mutation    string        `json:"mutation"`
	Read        string        `json:"discovery_read"`
	Channels    int           `json:"channels"`
	Concurrency int           `json:"concurrency"`
	Elapsed     time.Duration `json:"elapsed_ns"`
	// Mutations is the number of mutations the relay acknowledged (OK true)
	// within the window; PerSecond divides it by Elapsed.
	Mutations int     `json:"mutations"`
	PerSecond float64 `json:"mutations_per_second"`
	OK        Stats   `json:"ok_latency"`
	// Snapshot is OK → matching 39000 seen on the live subscription; a
	// snapshot that arrived before its OK counts as 0 and in BeforeOK.
	Snapshot Stats `json:"snapshot_latency"`
	BeforeOK int   `json:"snapshots_before_ok"`
	// Missed counts acknowledged mutations whose 39000 was not seen within
	// the step timeout after the window.
	Missed int `json:"snapshots_missed"`
	// Discovery is the latency of the discovery read; Incomplete counts
	// answers that did not list every channel of the run.
	Discovery      Stats  `json:"discovery_latency"`
	Incomplete     int    `json:"discovery_incomplete"`
	DiscoveryError string `json:"discovery_error,omitempty"`
	// Cleanup is set in safe mode.
	Cleanup *Cleanup `json:"cleanup,omitempty"`
}

// Cleanup reports the channels safe mode deleted.
type Cleanup struct {
	Deleted int      `json:"deleted"`
	Failed  []string `json:"failed,omitempty"`
}

// Kind classifies why a target could not be measured.
type Kind string

// The reasons a measurement stops.
const (
	Unreachable Kind = "unreachable"
	Refused     Kind = "refuses writes"
	RateLimited Kind = "rate-limited"
	Failed      Kind = "failed"
)

// Error is a target that could not be measured; its message is one line.
type Error struct {
	Target string
	Kind   Kind
	Detail string
	Err    error // underlying error, if any
}

func (e *Error) Error() string {
	return clippedLine(fmt.Sprintf("%s: %s: %s", e.Target, e.Kind, e.Detail))
}

func (e *Error) Unwrap() error { return e.Err }

// clippedLine folds s to a single line of at most 300 bytes (text.OneLine,
// then text.Clip).
func clippedLine(s string) string { return text.Clip(text.OneLine(s), 300) }

// stepError classifies a failed network step.
func stepError(target, what string, err error) *Error {
	k := Failed
	if errors.Is(err, fixtures.ErrUnreachable) {
		k = Unreachable
	}
	return &Error{Target: target, Kind: k, Detail: what + ": " + err.Error(), Err: err}
}

// answerError classifies an OK false answer to a write.
func answerError(target, what string, ok fixtures.OK) *Error {
	k := Refused
	if strings.HasPrefix(ok.Reason, "rate-limited:") {
		k = RateLimited
	}
	return &Error{Target: target, Kind: k, Detail: fmt.Sprintf("%s answered %s", what, ok)}
}

// pending is one mutation whose snapshot is awaited.
type pending struct {
	ok   time.Time // zero until acknowledged
	seen time.Time // zero until its 39000 arrived
}

// worker is one connection, its channels and its snapshot bookkeeping.
type worker struct {
	c     *fixtures.Client
	actor *fixtures.Actor
	ids   []string
	seq   map[string]int

	mu      sync.Mutex
	waiting map[string]*pending // channel + "\x00" + token
	notify  chan struct{}       // pinged whenever a snapshot arrives
	lats    []time.Duration     // OK latencies
}

func key(id, tok string) string { return id + "\x00" + tok }

// watch records the arrival of every matching 39000 on sub until the
// connection ends or ctx is done.
func (w *worker) watch(ctx context.Context, sub *fixtures.Subscription, o ops) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.c.Done():
			return
		case ev := <-sub.Events():
			now := time.Now()
			if ev.Kind != fixtures.KindMetadata {
				continue
			}
			d, _ := fixtures.TagValue(ev, "d")
			w.mu.Lock()
			for _, tok := range o.tokens(ev) {
				if p := w.waiting[key(d, tok)]; p != nil && p.seen.IsZero() {
					p.seen = now
				}
			}
			w.mu.Unlock()
			select {
			case w.notify <- struct{}{}:
			default:
			}
		}
	}
}

// outstanding counts acknowledged mutations whose snapshot has not arrived.
func (w *worker) outstanding() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, p := range w.waiting {
		if !p.ok.IsZero() && p.seen.IsZero() {
			n++
		}
	}
	return n
}

// Run measures one target. On error the result is nil and the error is an
// *Error; channels already created are still deleted in safe mode, and the
// error names those that could not be.
//
// The steps: connect the writers, create the channels, subscribe to their
// 39000, connect the discovery reader, measure for the window, wait for
// the snapshots still on their way, and tally the latencies.
func Run(ctx context.Context, t Target, opts Options) (_ *Result, rerr error) {
	opts = opts.withDefaults()
	o, err := opsFor(t.Profile, opts.RunID)
	if err != nil {
		return nil, &Error{Target: t.Name, Kind: Failed, Detail: err.Error(), Err: err}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	m := &measurement{t: t, opts: opts, o: o, pacer: pace.New(opts.Rate),
		res: &Result{Target: t.Name, URL: t.URL, Profile: t.Profile, Note: t.Note, Mutation: o.mutation, Read: o.discovery,
			Channels: opts.Channels, Concurrency: opts.Concurrency}}

	if err := m.connectWorkers(ctx); err != nil {
		return nil, err
	}
	defer closeAll(m.workers)
	if opts.Safe {
		cl := &Cleanup{}
		m.res.Cleanup = cl
		defer func() { m.deleteChannels(cl, rerr) }()
	}
	if err := m.createChannels(ctx); err != nil {
		return nil, err
	}
	if err := m.subscribeSnapshots(ctx); err != nil {
		return nil, err
	}
	reader, err := fixtures.Dial(ctx, t.URL, fixtures.DialOptions{Actor: fixtures.NewActor("bench-reader"), StepTimeout: opts.StepTimeout, Header: opts.Header})
	if err != nil {
		return nil, stepError(t.Name, "connect the discovery reader", err)
	}
	defer reader.Close()
	discLats, err := m.measureWindow(ctx, cancel, reader)
	if err != nil {
		return nil, err
	}
	m.awaitSnapshots(ctx)
	m.tally(discLats)
	return m.res, nil
}

// measurement is one Run's state: the target, its profile's operations,
// the writers and their channels, and the result being filled in.
type measurement struct {
	t       Target
	opts    Options
	o       ops
	pacer   *pace.Pacer
	res     *Result
	workers []*worker
	all     []string // every channel of the run
}

// connectWorkers opens the writers' connections, one actor each.
func (m *measurement) connectWorkers(ctx context.Context) error {
	m.workers = make([]*worker, m.opts.Concurrency)
	for i := range m.workers {
		a := fixtures.NewActor(fmt.Sprintf("bench-%d", i+1))
		a.CommandTags = m.opts.CommandTags
		c, err := fixtures.Dial(ctx, m.t.URL, fixtures.DialOptions{Actor: a, StepTimeout: m.opts.StepTimeout, Header: m.opts.Header})
		if err != nil {
			closeAll(m.workers)
			return stepError(m.t.Name, "connect", err)
		}
		m.workers[i] = &worker{c: c, actor: a, seq: map[string]int{}, waiting: map[string]*pending{}, notify: make(chan struct{}, 1)}
	}
	return nil
}

// deleteChannels is safe mode's cleanup when Run returns: it deletes the
// channels and, when some could not be, says so in Run's error (rerr).
func (m *measurement) deleteChannels(cl *Cleanup, rerr error) {
	cleanup(m.workers, m.opts, cl)
	var be *Error
	if len(cl.Failed) > 0 && errors.As(rerr, &be) {
		be.Detail += fmt.Sprintf("; safe mode could NOT delete %d channels: %s", len(cl.Failed), strings.Join(cl.Failed, "; "))
	}
}

// createChannels creates the channels, dealt round-robin so each has one
// writer; a refused 9007 stops the run.
func (m *measurement) createChannels(ctx context.Context) error {
	for i := 0; i < m.opts.Channels; i++ {
		w := m.workers[i%len(m.workers)]
		id := fixtures.NewChannelID()
		if err := m.pacer.Wait(ctx); err != nil {
			return stepError(m.t.Name, "create channel", err)
		}
		ok, err := w.c.Publish(ctx, m.o.create(w.actor, id))
		if err != nil {
			return stepError(m.t.Name, "create channel", err)
		}
		if !ok.Accepted {
			return answerError(m.t.Name, "the 9007 creating a channel", ok)
		}
		w.ids = append(w.ids, id)
		m.all = append(m.all, id)
	}
	return nil
}

// subscribeSnapshots subscribes each writer to its own channels' 39000
// and starts watching for them.
func (m *measurement) subscribeSnapshots(ctx context.Context) error {
	for _, w := range m.workers {
		sub, err := w.c.Subscribe(ctx, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": w.ids}})
		if err != nil {
			return stepError(m.t.Name, "subscribe to the channels' 39000", err)
		}
		if closed, reason := sub.ClosedReason(); closed {
			return &Error{Target: m.t.Name, Kind: Failed, Detail: fmt.Sprintf("the subscription to the channels' 39000 was CLOSED: %q", reason)}
		}
		go w.watch(ctx, sub, m.o)
	}
	return nil
}

// measureWindow runs the measured window: the discovery reader, every
// writer's mutations and the progress ticker, until the window ends or a
// writer fails (which cancels the rest). It sets Elapsed and returns the
// discovery latencies.
func (m *measurement) measureWindow(ctx context.Context, cancel context.CancelFunc, reader *fixtures.Client) ([]time.Duration, error) {
	start := time.Now()
	end := start.Add(m.opts.Duration)
	wctx, wcancel := context.WithDeadline(ctx, end)
	defer wcancel()

	var (
		failMu sync.Mutex
		fail   *Error
	)
	stop := func(e *Error) {
		failMu.Lock()
		if fail == nil {
			fail = e
		}
		failMu.Unlock()
		cancel()
	}

	var wg sync.WaitGroup
	var discLats []time.Duration
	wg.Add(1)
	go func() {
		defer wg.Done()
		discLats = m.readDiscovery(ctx, wctx, reader)
	}()
	for _, w := range m.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if e := m.mutate(ctx, wctx, w, end); e != nil {
				stop(e)
			}
		}()
	}
	if m.opts.Progress != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.reportProgress(wctx, start)
		}()
	}
	wg.Wait()
	m.res.Elapsed = min(time.Since(start), m.opts.Duration)
	if fail != nil {
		return nil, fail
	}
	return discLats, nil
}

// readDiscovery repeats the discovery read until the window (wctx) ends,
// counting answers that miss a channel of the run; an error or CLOSED
// ends it and is recorded in the result.
func (m *measurement) readDiscovery(ctx, wctx context.Context, reader *fixtures.Client) []time.Duration {
	var lats []time.Duration
	f := m.o.query(m.all)
	for wctx.Err() == nil {
		t0 := time.Now()
		r, err := reader.Query(ctx, f)
		if err != nil {
			if wctx.Err() == nil {
				m.res.DiscoveryError = clippedLine(err.Error())
			}
			return lats
		}
		if r.Closed {
			m.res.DiscoveryError = fmt.Sprintf("CLOSED %q", r.ClosedReason)
			return lats
		}
		lats = append(lats, time.Since(t0))
		if len(r.Events) < len(m.all) {
			m.res.Incomplete++
		}
	}
	return lats
}

// mutate sends w's mutations back to back, round-robin over its channels,
// until the window (wctx) ends, recording each one's OK latency (within
// the window) and registering its snapshot as awaited. A failed or
// refused mutation is returned.
func (m *measurement) mutate(ctx, wctx context.Context, w *worker, end time.Time) *Error {
	for i := 0; wctx.Err() == nil; i++ {
		id := w.ids[i%len(w.ids)]
		n := w.seq[id]
		ev := m.o.mutate(w.actor, id, n)
		p := &pending{}
		w.mu.Lock()
		w.waiting[key(id, token(n))] = p
		w.mu.Unlock()
		if m.pacer.Wait(wctx) != nil {
			return nil
		}
		t0 := time.Now()
		ok, err := w.c.Publish(ctx, ev)
		now := time.Now()
		if err != nil {
			return stepError(m.t.Name, "mutation", err)
		}
		if !ok.Accepted {
			return answerError(m.t.Name, "a "+m.o.mutation, ok)
		}
		w.mu.Lock()
		p.ok = now
		if now.Before(end) {
			w.lats = append(w.lats, now.Sub(t0))
		}
		w.mu.Unlock()
		w.seq[id] = n + 1
	}
	return nil
}

// reportProgress calls Options.Progress a few times a second with the
// share of the window that has passed, and with 1 when it ends.
func (m *measurement) reportProgress(wctx context.Context, start time.Time) {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-wctx.Done():
			m.opts.Progress(m.t.Name, 1)
			return
		case <-tick.C:
			m.opts.Progress(m.t.Name, min(1, float64(time.Since(start))/float64(m.opts.Duration)))
		}
	}
}

// awaitSnapshots waits for the snapshots still on their way, up to one
// step timeout in all.
func (m *measurement) awaitSnapshots(ctx context.Context) {
	deadline := time.NewTimer(m.opts.StepTimeout)
	defer deadline.Stop()
	for _, w := range m.workers {
		for w.outstanding() > 0 {
			select {
			case <-w.notify:
			case <-deadline.C:
				return
			case <-ctx.Done():
				return
			}
		}
	}
}

// tally fills in the result's counts and latency statistics: OK latency,
// snapshot latency (a snapshot before its OK counts as 0), snapshots
// missed, and the discovery latencies.
func (m *measurement) tally(discLats []time.Duration) {
	var okLats, snapLats []time.Duration
	for _, w := range m.workers {
		w.mu.Lock()
		okLats = append(okLats, w.lats...)
		for _, p := range w.waiting {
			switch {
			case p.ok.IsZero():
			case p.seen.IsZero():
				m.res.Missed++
			case p.seen.Before(p.ok):
				m.res.BeforeOK++
				snapLats = append(snapLats, 0)
			default:
				snapLats = append(snapLats, p.seen.Sub(p.ok))
			}
		}
		w.mu.Unlock()
	}
	m.res.Mutations = len(okLats)
	m.res.PerSecond = float64(m.res.Mutations) / m.res.Elapsed.Seconds()
	m.res.OK = Summarize(okLats)
	m.res.Snapshot = Summarize(snapLats)
	m.res.Discovery = Summarize(discLats)
}

// closeAll closes every worker's connection (nil entries skipped).
func closeAll(ws []*worker) {
	for _, w := range ws {
		if w != nil {
			w.c.Close()
		}
	}
}

// cleanup deletes every channel the workers created (9008), each bounded by
// the step timeout, and records what it could not delete.
func cleanup(ws []*worker, opts Options, c *Cleanup) {
	for _, w := range ws {
		for _, id := range w.ids {
			ctx, cancel := context.WithTimeout(context.Background(), opts.StepTimeout)
			ok, err := w.c.Publish(ctx, fixtures.DeleteChannel(w.actor, id))
			cancel()
			switch {
			case err != nil:
				c.Failed = append(c.Failed, id+": "+clippedLine(err.Error()))
			case !ok.Accepted:
				c.Failed = append(c.Failed, id+": "+ok.String())
			default:
				c.Deleted++
			}
		}
	}
}
