package framework

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL
	gomegatypes "github.com/onsi/gomega/types"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/reports"
)

// T is what a case body works with: the run's Env, the case's context and
// transcript, actors and connections that are cleaned up after the case,
// and assertion helpers that keep exact wire answers in failure messages.
type T struct {
	Env  *Env
	Case Case

	ctx     context.Context
	tr      *fixtures.Transcript
	g       Gomega // the case's own Gomega: failures in our words
	mu      sync.Mutex
	clients []*fixtures.Client
	nextKey int
	// usedKeys are the configured keys (Env.Keys index) the case took.
	usedKeys map[int]bool
	actors   map[string]*fixtures.Actor // by pubkey, for safe-mode cleanup
	created  []createdChannel           // accepted 9007s, deleted in safe mode
	// creators are the creators of the groups the case created, by id;
	// deleted the ids of groups the case deleted (9008 accepted).
	creators map[string]string
	deleted  map[string]bool
	// gone are the keys a 9001 or 9022 of the case took out of a group,
	// by group id and pubkey.
	gone map[string]map[string]bool
	// seenState records the state events the case has read, by kind and
	// group: a kind seen earlier in the case and gone later is a finding
	// about the case's steps, never a missing feature.
	seenState map[stateKey]string
	// resent: a write of the case was resent after a rate limit (noted once).
	resent bool
	// paceRefused is the first rate-limit refusal any of the case's
	// connections received ("" = none; see observeRefusal).
	paceRefused string
	// notJudged are the steps the case went on past without judging
	// (NotJudged).
	notJudged []string
	// lastState is the last instance of each state event the case read,
	// by kind, group and reader (see LastState).
	lastState map[stateKey]*nostr.Event
	// readings are the "id=value" readings noted so far (see Reading).
	readings map[string]bool
	// limitRefusals are refused events that left a published limit.
	limitRefusals []string
	// clock stamps the case's group commands (suites/clock.go).
	clock *fixtures.Clock
	// oks are the case's sends and their OKs (okpostcondition.go).
	oks okLog
	// root is the step scope of the case's own goroutine: the clause its
	// current step checks (Checking, verdict.go), what a plain failure
	// breaks. workers are the scopes of the goroutines t.Go runs, by
	// goroutine id; failures the failures raised in them, with their
	// scopes (scope.go).
	root     scopeSlot
	workers  map[uint64]*scopeSlot
	failures []failedStep
	// lastSettle describes the last wait that ended without its
	// condition (settle.go).
	lastSettle string
}

// createdChannel is a channel the case created: its id, its creator's
// key and the community (Host, "" for the relay URL's own) it lives in.
type createdChannel struct {
	id, creator, host string
	// unconfirmed: the create got no OK (the step ended first: a timeout,
	// an interrupt); the relay may have created the channel all the same.
	unconfirmed bool
}

type stateKey struct {
	kind   int
	ch     string
	reader string
}

func newT(ctx context.Context, env *Env, c Case) *T {
	return &T{Env: env, Case: c, ctx: ctx, tr: fixtures.NewTranscript(0), g: NewGomega(failInOurWords)}
}

// failInOurWords is the fail handler of every case's Gomega: Gomega's
// matcher text reworded to "expected …, observed …" (Reword), reported at
// the assertion's caller. It is per case, so no process-global handler
// decides what a case's failure says.
func failInOurWords(message string, callerSkip ...int) {
	skip := 0
	if len(callerSkip) > 0 {
		skip = callerSkip[0]
	}
	Fail(Reword(message), skip+1)
}

// Expect starts an assertion on the case's own Gomega (see failInOurWords).
func (t *T) Expect(actual any, extra ...any) gomegatypes.Assertion {
	return t.g.Expect(actual, extra...)
}

// Within reports whether cond holds: at once, or within the settle
// window after the relay answered cond's own read (a barrier: the relay
// had processed the steps before it; see settle.go). A wait whose expiry
// the case judges itself (unsupported, blocked, a diagnosis), never a
// failure by itself. cond must read the relay. When cond did not hold,
// the report notes how long the case waited and why that was enough
// (LastSettle gives the same words for the verdict).
func (t *T) Within(cond func(g Gomega)) bool { return t.within(cond, 0) }

// within is Within with a settle window of at least floor.
func (t *T) within(cond func(g Gomega), floor time.Duration) bool {
	held, s := t.settleAtLeast(cond, floor)
	if !held {
		t.mu.Lock()
		t.lastSettle = s.String()
		t.mu.Unlock()
		t.Note("not seen: %s", s)
	}
	return held
}

// WithinDeferred is Within for work a relay may do after its OK without
// a barrier that shows it (NIP-09 deletions, which a relay may apply in a
// background pass): the OK→state delays say nothing of such work, so the
// window is at least the one a relay that showed no delay gets (a fifth
// of --timeout), however fast its state events came.
func (t *T) WithinDeferred(cond func(g Gomega)) bool {
	return t.within(cond, t.Env.deferredWindow())
}

// Gomega is the case's own Gomega, for Eventually and Consistently
// (prefer t.Eventually, which words its failure as the step that waited).
func (t *T) Gomega() Gomega { return t.g }

// Ctx is the case's context (cancelled at the case deadline).
func (t *T) Ctx() context.Context { return t.ctx }

// Transcript is the case's wire transcript.
func (t *T) Transcript() *fixtures.Transcript { return t.tr }

// Note records an informational remark in the report.
func (t *T) Note(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	t.tr.Note("%s", msg)
	AddReportEntry(EntryNote, msg, ReportEntryVisibilityNever)
}

// Unsupported ends the case as "unsupported" (the relay lacks an optional feature).
func (t *T) Unsupported(reason string) {
	recordOutcome(reports.Unsupported)
	Skip(reason)
}

// Must fails the case when err is not nil. Its verdict policy: a step
// timeout is a timeout, a vanished relay a harness error, and an AUTH
// refusal blocks the case on PreAuth (answering the harness's AUTH is a
// precondition in every profile, never a NIP-42 failure by itself).
func (t *T) Must(err error, what string) {
	GinkgoHelper()
	if err != nil {
		if errors.Is(err, fixtures.ErrAuthRefused) {
			t.Blocked(PreAuth, authRefusalObserved(t.Env, what, err))
		}
		recordStepError(err)
		Fail(fmt.Sprintf("%s: %v", what, err))
	}
}

// rememberActor keeps a key so safe mode can delete the actor's channels.
// Callers hold t.mu.
func (t *T) rememberActor(a *fixtures.Actor) {
	if t.actors == nil {
		t.actors = map[string]*fixtures.Actor{}
	}
	t.actors[a.PubKey] = a
	a.Clock = t.actorClockLocked()
	a.CommandTags = t.Env.CommandTags
	a.PoW = t.Env.PoW
	a.Previous = t.Env.Previous
}

// Unique returns a run-scoped unique token usable in names and labels
// (lowercase letters, digits and '-').
func (t *T) Unique(prefix string) string {
	return t.Env.UniqueToken(prefix)
}

// NewGroupID returns a fresh group id for a case's bare 9007: the one
// Env.GroupID mints where the target's profile constrains group ids, else
// an ordinary (non-UUID) NIP-29 id.
func (t *T) NewGroupID() string {
	if t.Env.GroupID != nil {
		return t.Env.GroupID()
	}
	return fixtures.NewGroupID()
}

func (t *T) DialOptions(a *fixtures.Actor, host string) fixtures.DialOptions {
	o := fixtures.DialOptions{
		Actor: a, Host: host, Header: t.Env.Header, StepTimeout: t.Env.StepTimeout, Transcript: t.tr,
		AuthOnConnect: t.Env.AuthOnConnect && a != nil, AuthRelayURL: t.Env.RelayURL,
	}
	if l := t.Limitation(); l != nil {
		o.MaxSubscriptions = l.MaxSubscriptions
	}
	o.CloseSettle, _ = t.Env.SettleWindow()
	o.CloseSettle = min(o.CloseSettle, time.Second)
	return o
}

// Connect opens a connection as actor a (nil = anonymous), authenticated
// when the relay challenges on connect.
func (t *T) Connect(a *fixtures.Actor) *fixtures.Client {
	GinkgoHelper()
	return t.ConnectWith(t.DialOptions(a, ""))
}

// ConnectHost is Connect with another Host header (another community).
func (t *T) ConnectHost(a *fixtures.Actor, host string) *fixtures.Client {
	GinkgoHelper()
	return t.ConnectWith(t.DialOptions(a, host))
}

// ConnectWith opens a connection with explicit options (transcript and
// step timeout are filled in when empty).
func (t *T) ConnectWith(o fixtures.DialOptions) *fixtures.Client {
	GinkgoHelper()
	if o.Transcript == nil {
		o.Transcript = t.tr
	}
	if o.StepTimeout == 0 {
		o.StepTimeout = t.Env.StepTimeout
	}
	if o.AuthRelayURL == "" {
		o.AuthRelayURL = t.Env.RelayURL
	}
	return t.ConnectURL(t.Env.URL, o)
}

func (t *T) closeAll() {
	t.mu.Lock()
	cs := t.clients
	t.clients = nil
	t.mu.Unlock()
	for _, c := range cs {
		c.Close()
	}
}

// Publish sends ev on c and returns the exact OK.
func (t *T) Publish(c *fixtures.Client, ev *nostr.Event) fixtures.OK {
	GinkgoHelper()
	ok, err := t.Send(c, ev)
	t.Must(err, fmt.Sprintf("publish kind %d", ev.Kind))
	t.TimelineRefused(c, ev, ok)
	return ok
}

// Send paces writes, resends the same event with backoff after a rate
// limit, and records accepted creates for safe-mode cleanup.
func (t *T) Send(c *fixtures.Client, ev *nostr.Event) (fixtures.OK, error) {
	backoff := 250 * time.Millisecond
	for attempt := 0; ; attempt++ {
		if t.Env.Pace != nil {
			if err := t.Env.Pace(t.ctx); err != nil {
				return fixtures.OK{}, fmt.Errorf("pacing writes: %w", err)
			}
		}
		ok, err := c.Publish(t.ctx, ev)
		t.logOK(c, ev, ok, err)
		// A rate limit refuses the sender's pace, not the event (NIP-01's
		// "rate-limited:", or an "error:" in words of one): the same signed
		// event is sent again after a backoff, in every mode; a relay still
		// refusing it blocks the case on PreRateLimit (Accept, RefusedWrite).
		if err == nil && !ok.Accepted && paceRefusal(ok.Reason) == &PreRateLimit && attempt < 5 {
			t.tr.Note("rate-limited (%s); resending the same event in %s", ok.Reason, backoff)
			t.mu.Lock()
			first := !t.resent
			t.resent = true
			t.mu.Unlock()
			if first {
				t.Note("a write was answered rate-limited (%q) and sent again after a backoff (the relay's pace, not the event; later ones are in the transcript)", ok.Reason)
			}
			timer := time.NewTimer(backoff)
			select {
			case <-timer.C:
			case <-t.ctx.Done():
				timer.Stop()
				return ok, nil
			}
			backoff *= 2
			continue
		}
		if err == nil && ok.Accepted {
			t.track(c.Host(), ev)
		}
		if err != nil && ev.Kind == fixtures.KindCreateGroup && t.Env.Safe {
			// No answer is no refusal: safe mode deletes it too.
			t.trackUnconfirmed(c.Host(), ev)
		}
		if err == nil && !ok.Accepted {
			t.noteLimitRefusal(ev, ok)
		}
		return ok, err
	}
}

// Track records accepted creates (once per channel: an accepted exact
// retry of a create is the same channel), and forgets channels the case
// deleted.
func (t *T) Track(ev *nostr.Event) { t.track("", ev) }

// track is Track for an event accepted in the community host names.
func (t *T) track(host string, ev *nostr.Event) {
	h, found := fixtures.TagValue(ev, "h")
	if !found {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch ev.Kind {
	case fixtures.KindCreateGroup:
		if t.creators == nil {
			t.creators = map[string]string{}
		}
		if _, ok := t.creators[h]; !ok {
			t.creators[h] = ev.PubKey
		}
		for _, c := range t.created {
			if c.id == h && c.host == host {
				return
			}
		}
		t.created = append(t.created, createdChannel{id: h, creator: ev.PubKey, host: host})
	case fixtures.KindRemoveUser, fixtures.KindLeaveRequest:
		if t.gone == nil {
			t.gone = map[string]map[string]bool{}
		}
		if t.gone[h] == nil {
			t.gone[h] = map[string]bool{}
		}
		if ev.Kind == fixtures.KindLeaveRequest {
			t.gone[h][ev.PubKey] = true
		}
		for _, pk := range fixtures.TagValues(ev, "p") {
			t.gone[h][pk] = true
		}
	case fixtures.KindDeleteGroup:
		if t.deleted == nil {
			t.deleted = map[string]bool{}
		}
		t.deleted[h] = true
		for i, c := range t.created {
			if c.id == h && c.host == host {
				t.created = append(t.created[:i:i], t.created[i+1:]...)
				break
			}
		}
	}
}

// trackUnconfirmed records a create that got no OK, for safe-mode cleanup.
func (t *T) trackUnconfirmed(host string, ev *nostr.Event) {
	h, found := fixtures.TagValue(ev, "h")
	if !found {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.created {
		if c.id == h && c.host == host {
			return
		}
	}
	t.created = append(t.created, createdChannel{id: h, creator: ev.PubKey, host: host, unconfirmed: true})
}

// deleteCreated deletes, in safe mode, every channel the case created, as
// its creator, on a fresh connection with its own deadline.
func (t *T) deleteCreated() {
	t.mu.Lock()
	created, actors := t.created, t.actors
	t.created = nil
	t.mu.Unlock()
	if !t.Env.Safe || len(created) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*t.Env.StepTimeout)
	defer cancel()
	conns := map[string]*fixtures.Client{}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for _, ch := range created {
		what := fmt.Sprintf("%s %s", t.Case.ID, ch.id)
		if ch.host != "" {
			what += " in community " + ch.host
		}
		// The creator first; ownership may have moved to another actor of the case.
		order := []*fixtures.Actor{actors[ch.creator]}
		for pk, a := range actors {
			if pk != ch.creator {
				order = append(order, a)
			}
		}
		last := "creator key unknown to the harness"
		deleted := false
		for _, a := range order {
			if a == nil {
				continue
			}
			key := ch.host + " " + a.PubKey
			c := conns[key]
			if c == nil {
				var err error
				if c, err = fixtures.Dial(ctx, t.Env.URL, t.DialOptions(a, ch.host)); err != nil {
					last = err.Error()
					continue
				}
				conns[key] = c
			}
			if t.Env.Pace != nil {
				_ = t.Env.Pace(ctx)
			}
			ok, err := c.Publish(ctx, fixtures.DeleteChannel(a, ch.id))
			if err == nil && ok.Accepted {
				deleted = true
				break
			}
			if err != nil {
				last = err.Error()
			} else {
				last = ok.String()
			}
		}
		if ch.unconfirmed {
			what += " (its create got no answer: it may not exist)"
		}
		t.Env.Cleanup.add(deleted, what+": "+last)
	}
}

// Accept publishes ev and requires OK true. In a baseline case a refusal
// blocks the case (NIP-29 obliges no relay to accept a given write; the
// scenario needed it), in a NIP-CL case it fails it.
func (t *T) Accept(c *fixtures.Client, ev *nostr.Event, why string) fixtures.OK {
	GinkgoHelper()
	ok := t.Publish(c, ev)
	if !ok.Accepted {
		CheckPrefix("OK", ok.Reason)
		if t.Case.RefusalBlocks() {
			t.RefusedWrite(Precondition{"write-" + strconv.Itoa(ev.Kind),
				fmt.Sprintf("the relay accepts the kind %d writes the scenario makes (%s)", ev.Kind, why),
				"accept that write from the group's creator or members; the refusal is quoted"}, ok, why)
		}
		if off := time.Since(ev.CreatedAt.Time()); (off > outOfWindow || off < -outOfWindow) && windowRefusal(ok.Reason) {
			// The case put created_at far from now on purpose; a relay may
			// bound created_at without publishing the bounds (NIP-11's
			// limitation is optional), so the refusal is its window.
			where := fmt.Sprintf("%s in the past", off.Round(time.Second))
			if off < 0 {
				where = fmt.Sprintf("%s in the future", (-off).Round(time.Second))
			}
			t.Unsupported(fmt.Sprintf("%s: the relay refused a kind %d event whose created_at lies %s (%s); a relay may bound created_at (NIP-11 created_at_lower_limit / created_at_upper_limit, published or not), so the case cannot run here", why, ev.Kind, where, ok))
		}
		if pre := paceRefusal(ok.Reason); pre != nil {
			// A rate limit or a proof-of-work demand refuses the sender's
			// pace, not the write: no NIP sentence is at stake.
			t.RefusedWrite(*pre, ok, why)
		}
		if ev.Kind == fixtures.KindCreateGroup && keyRefusal(ok.Reason) {
			// No draft obliges a relay to let any key create channels: a
			// key-admission refusal is a precondition, not a failure.
			t.RefusedWrite(PreCreateGroup, ok, why)
		}
		Failf("%s: expected the relay to accept kind %d, got %s", why, ev.Kind, ok)
	}
	return ok
}

// observeRefusal records the first rate-limit refusal of the case: a case
// that then fails was refused for its pace, not for what it sent, and is
// blocked on PreRateLimit instead (judgeFailure).
func (t *T) observeRefusal(ok fixtures.OK) {
	if paceRefusal(ok.Reason) != &PreRateLimit {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.paceRefused == "" {
		t.paceRefused = ok.String()
	}
}

// outOfWindow is how far from the wall clock an event's created_at lies
// before a refusal of it may be the relay's created_at window: the case
// clock never stamps that far ahead (fixtures.DefaultClockAhead), so only
// a case that set created_at on purpose goes there.
const outOfWindow = fixtures.DefaultClockAhead + time.Second

// windowRefusal reports whether a refusal's words may be about the
// event's time (khatru: "event too old", "event too much in the future";
// the reference relay: "created_at must lie between …").
func windowRefusal(reason string) bool {
	lower := strings.ToLower(reason)
	for _, w := range []string{"created_at", "time", "old", "future", "past", "clock", "window"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// keyRefusal reports whether an OK false refuses the key rather than
// the command: auth-required:, or restricted: without a NIP-CL marker.
func keyRefusal(reason string) bool {
	return strings.HasPrefix(reason, "auth-required:") ||
		(strings.HasPrefix(reason, "restricted:") && !strings.Contains(reason, "nip-cl"))
}

// Reject publishes ev and requires OK false with the given reason prefix
// (empty prefix: any refusal). Every refusal must carry NIP-01's
// machine-readable prefix.
func (t *T) Reject(c *fixtures.Client, ev *nostr.Event, prefix, why string) fixtures.OK {
	GinkgoHelper()
	ok := t.Publish(c, ev)
	if ok.Accepted {
		Failf("%s: expected OK false%s for kind %d, got %s", why, prefixNote(prefix), ev.Kind, ok)
	}
	CheckPrefix("OK", ok.Reason)
	if prefix != "" && !strings.HasPrefix(ok.Reason, prefix) {
		Failf("%s: expected the rejection reason to start with %q, got %s", why, prefix, ok)
	}
	return ok
}

func prefixNote(p string) string {
	if p == "" {
		return ""
	}
	return fmt.Sprintf(" with prefix %q", p)
}

// Query runs a REQ on c and returns the stored events. A CLOSED answer is
// never "no events": in a baseline case it blocks the case (NIP-01 lets a
// relay refuse a REQ; the harness needed that read), in a NIP-CL case it
// fails it (the drafts' reads are ones the relay must serve). Use
// QueryAbsent where a refusal is a lawful way to withhold.
func (t *T) Query(c *fixtures.Client, filters ...nostr.Filter) []*nostr.Event {
	GinkgoHelper()
	evs := t.queryServed(c, filters...)
	t.ResultWithinLimits(filters, len(evs))
	return evs
}

// queryServed is Query without the check that the answer was not cut at
// a published limit (QueryEvery pages past it).
func (t *T) queryServed(c *fixtures.Client, filters ...nostr.Filter) []*nostr.Event {
	GinkgoHelper()
	t.FiltersWithinLimits(filters)
	r := t.QueryResult(c, filters...)
	if r.Closed {
		CheckPrefix("CLOSED", r.ClosedReason)
		observed := fmt.Sprintf("REQ %s as %s answered CLOSED %q", FilterString(filters), ActorName(c), r.ClosedReason)
		if t.Case.RefusalBlocks() {
			t.Blocked(PreReadServed, observed)
		}
		Failf("the relay refused a read the draft's scenario needs served: %s", observed)
	}
	return r.Events
}

// QueryAbsent requires that c reads nothing for filters: either EOSE with
// no events, or a refusal (CLOSED with a NIP-01 prefix) before any event
// was sent, which withholds as surely. It returns how the relay withheld,
// for the report.
func (t *T) QueryAbsent(c *fixtures.Client, why string, filters ...nostr.Filter) string {
	GinkgoHelper()
	r := t.QueryResult(c, filters...)
	if len(r.Events) > 0 {
		Failf("%s: expected %s to read nothing for %s, got %d event(s): %s", why, ActorName(c), FilterString(filters), len(r.Events), strings.Join(IDs(r.Events), ", "))
	}
	if r.Closed {
		CheckPrefix("CLOSED", r.ClosedReason)
		// A refusal is its own observation: the report says the absence
		// was a refusal, not an empty answer.
		how := fmt.Sprintf("refused with CLOSED %q", r.ClosedReason)
		t.Note("%s: %s withheld %s by a refusal (%s), not by an empty answer", why, ActorName(c), FilterString(filters), how)
		return how
	}
	return "EOSE with no events"
}

// QueryResult runs a REQ and returns the whole result (events and CLOSED).
func (t *T) QueryResult(c *fixtures.Client, filters ...nostr.Filter) fixtures.QueryResult {
	GinkgoHelper()
	r, err := c.Query(t.ctx, filters...)
	t.Must(err, "query "+FilterString(filters))
	return r
}

// Count runs a NIP-45 COUNT. NIP-45 is optional: a relay that does not
// list 45 in supported_nips and refuses (CLOSED) or does not answer makes
// the case unsupported, as does any CLOSED refusal (NIP-45's own way to
// decline). A relay that lists 45 and never answers fails: a refusal must
// be a CLOSED.
//
// The number is judged as exact: a relay that flags its answer
// "approximate": true makes the case unsupported (RequireExactCount).
func (t *T) Count(c *fixtures.Client, filters ...nostr.Filter) int64 {
	GinkgoHelper()
	r := t.CountAnswer(c, filters...)
	t.RequireExactCount(c, r, filters)
	return r.Count
}

// RequireExactCount ends the case unsupported when a COUNT answer says it
// is an estimate. NIP-45: "Relays may use probabilistic counts to reduce
// compute requirements. In case a relay uses probabilistic counts, it MAY
// indicate it in the response with approximate key". A case that compares
// a count with the number of events it wrote cannot judge an estimate (an
// estimate off by one is lawful, a leak of one withheld event is not), so
// an answer flagged approximate is not judged at all, whatever its value.
// Reading: an answer without the flag is read as exact, the relay's own
// word; the NIP lets a relay that estimates leave the flag out (MAY), and
// such a relay would meet exact checks here.
func (t *T) RequireExactCount(c *fixtures.Client, r fixtures.CountResult, filters []nostr.Filter) {
	GinkgoHelper()
	if r.Approximate {
		t.Unsupported(ApproximateCount(c, r, filters))
	}
}

// ExpectCount requires c's COUNT of filters to be want, for a case that
// checks COUNT beside other reads: an answer flagged approximate is not
// judged (RequireExactCount's reading), and the case goes on; it ends
// unsupported, naming the answer, unless another step fails it.
func (t *T) ExpectCount(c *fixtures.Client, want int64, why string, filters ...nostr.Filter) {
	GinkgoHelper()
	r := t.CountAnswer(c, filters...)
	if r.Approximate {
		t.NotJudged(ApproximateCount(c, r, filters))
		return
	}
	t.Expect(r.Count).To(Equal(want), why)
}

// ApproximateCount says why a COUNT answer flagged approximate is not
// judged.
func ApproximateCount(c *fixtures.Client, r fixtures.CountResult, filters []nostr.Filter) string {
	return fmt.Sprintf("COUNT %s as %s answered {\"count\":%d,\"approximate\":true}: NIP-45 lets a relay estimate counts and say so, and this case needs the exact number", FilterString(filters), ActorName(c), r.Count)
}

// NotJudged records a step the case could not judge and went on past:
// a case whose other steps all pass ends unsupported, with the first
// such reason (and how many there were).
func (t *T) NotJudged(why string) {
	t.mu.Lock()
	t.notJudged = append(t.notJudged, why)
	t.mu.Unlock()
}

// endNotJudged makes a case that ran to its end unsupported when one of
// its steps was not judged (NotJudged).
func (t *T) endNotJudged() {
	t.mu.Lock()
	whys := t.notJudged
	t.mu.Unlock()
	if len(whys) == 0 {
		return
	}
	why := whys[0]
	if n := len(whys) - 1; n == 1 {
		why += " (and 1 more step not judged; the case's other steps passed)"
	} else if n > 1 {
		why += fmt.Sprintf(" (and %d more steps not judged; the case's other steps passed)", n)
	} else {
		why += " (the case's other steps passed)"
	}
	t.Unsupported(why)
}

// CountAnswer is Count with the whole answer: the count and the NIP-45
// hll value the relay sent with it, if any.
func (t *T) CountAnswer(c *fixtures.Client, filters ...nostr.Filter) fixtures.CountResult {
	GinkgoHelper()
	advertised := t.Env.Info != nil && t.Env.Info.Supports(45)
	t.FiltersWithinLimits(filters)
	r, err := c.Count(t.ctx, filters...)
	if err != nil && !advertised && errors.Is(err, fixtures.ErrTimeout) {
		t.Unsupported("COUNT got no answer and NIP-45 is not in supported_nips: the relay does not serve COUNT (" + err.Error() + ")")
	}
	if err != nil && advertised && errors.Is(err, fixtures.ErrTimeout) {
		Failf("NIP-45 (nip45/count.2): the relay lists 45 in supported_nips but answered neither COUNT nor CLOSED: %v", err)
	}
	t.Must(err, "count")
	if r.Closed {
		CheckPrefix("CLOSED", r.ClosedReason)
		if strings.HasPrefix(r.ClosedReason, "auth-required") && !c.Authed() {
			// COUNT is served, but not to this connection before AUTH.
			t.Blocked(PreReadServed, fmt.Sprintf("COUNT %s refused to an unauthenticated connection with CLOSED %q: the relay counts it for authenticated clients only", FilterString(filters), r.ClosedReason))
		}
		t.Unsupported(fmt.Sprintf("COUNT refused with CLOSED %q (NIP-45 lets a relay decline; advertised in supported_nips: %v)", r.ClosedReason, advertised))
	}
	return r
}

// Subscribe opens a live subscription (after EOSE); a relay that answers
// CLOSED "auth-required:" gets the AUTH it asks for and the REQ once more
// (fixtures.Client.SubscribeAuthed), as a read does.
func (t *T) Subscribe(c *fixtures.Client, filters ...nostr.Filter) *fixtures.Subscription {
	GinkgoHelper()
	t.FiltersWithinLimits(filters)
	s, err := c.SubscribeAuthed(t.ctx, filters...)
	t.Must(err, "subscribe")
	return s
}

// CreateChannel creates a channel as c's actor and returns its UUID.
// Baseline cases create it the NIP-29 way (bare 9007, then a 9002 with
// every metadata field), and a refusal blocks the case; NIP-CL cases send
// the draft's own 9007 form and require OK true.
func (t *T) CreateChannel(c *fixtures.Client, spec fixtures.ChannelSpec) string {
	GinkgoHelper()
	if spec.Name == "" {
		spec.Name = t.Unique("chan")
	}
	if t.nip29Way() {
		return t.CreateGroupNIP29(c, spec)
	}
	ev := fixtures.CreateChannel(c.Actor(), &spec)
	t.Accept(c, ev, "create channel "+spec.ID)
	return spec.ID
}

// StateEvent returns the current relay-signed state event of kind for a
// channel (by #d), or nil when the reader gets none. Every returned event
// must be of that kind and d (NIP-01: a REQ returns only matches); of
// several heads the newest is current (ties: lowest id), and the report
// notes how many heads the relay sent (NIP-01 lets a relay keep older
// versions, NIP-29 asks for one instance: nip29/state-events.3; only
// OneHead fails on them, where a draft forbids it).
func (t *T) StateEvent(c *fixtures.Client, kind int, channel string) *nostr.Event {
	GinkgoHelper()
	heads := t.StateHeads(c, kind, channel)
	if len(heads) > 1 {
		t.Note("REQ kind %d #d %s as %s returned %d heads (%s); the newest is taken as current", kind, channel, ActorName(c), len(heads), strings.Join(IDs(heads), ", "))
	}
	head := NewestHead(heads)
	if head != nil && c.Actor() != nil {
		t.mu.Lock()
		if t.seenState == nil {
			t.seenState = map[stateKey]string{}
		}
		t.seenState[stateKey{kind, channel, c.Actor().PubKey}] = head.ID
		if t.lastState == nil {
			t.lastState = map[stateKey]*nostr.Event{}
		}
		t.lastState[stateKey{kind, channel, c.Actor().PubKey}] = head
		t.mu.Unlock()
	}
	return head
}

// StateHeads is the exact read of one channel's state: every event the
// relay sent for kind and #d, in the relay's order. An event of another
// kind or d fails the case (NIP-01: a REQ returns only matches); a CLOSED
// refusal is handled as by Query.
func (t *T) StateHeads(c *fixtures.Client, kind int, channel string) []*nostr.Event {
	GinkgoHelper()
	f := nostr.Filter{Kinds: []int{kind}, Tags: nostr.TagMap{"d": {channel}}}
	evs := t.Query(c, f)
	for _, ev := range evs {
		if d, _ := fixtures.TagValue(ev, "d"); ev.Kind != kind || d != channel {
			Failf("NIP-01 (nip01/filters): REQ %s returned kind %d with d=%q (%s), which does not match", FilterString([]nostr.Filter{f}), ev.Kind, d, ev.ID)
		}
	}
	return evs
}

// OneHead is the strict exact read: it requires at most one head for kind
// and #d and returns it (nil when the reader gets none). Several heads fail
// the case only where its draft makes the relay serve current state alone
// (Case.CurrentHead); elsewhere NIP-01 lets a relay keep older versions and
// NIP-29 only asks for one instance (SHOULD, nip29/state-events.3), so they
// are noted and the newest is returned.
func (t *T) OneHead(c *fixtures.Client, kind int, channel string) *nostr.Event {
	GinkgoHelper()
	heads := t.StateHeads(c, kind, channel)
	if len(heads) > 1 {
		t.JudgeHeads(kind, len(heads), fmt.Sprintf("REQ kind %d #d %s as %s (%s)", kind, channel, ActorName(c), strings.Join(IDs(heads), ", ")))
	}
	return NewestHead(heads)
}

// JudgeHeads is the one rule for a read that returned n > 1 heads of one
// addressable state event (kind, one d): where the case's draft makes a
// relay serve only the current head (Case.CurrentHead) it fails; elsewhere
// NIP-01 lets a relay keep older versions and NIP-29 asks for one instance
// (SHOULD, nip29/state-events.3, checked by a case of its own), so it is
// noted and the newest is taken as current.
func (t *T) JudgeHeads(kind, n int, read string) {
	GinkgoHelper()
	if r := t.Case.CurrentHead; r != nil && r.Kind == kind {
		defer t.Invariant(r.Clause)()
		Failf("%s: %s, but %s returned %d heads of kind %d", r.Clause, r.Says, read, n, kind)
	}
	t.Note("%s returned %d heads of kind %d; NIP-01 lets a relay keep older versions (NIP-29 asks for one instance: nip29/state-events.3), the newest is taken as current", read, n, kind)
}

// NewestHead is the current one of several heads: the newest, ties broken
// by the lowest id (NIP-01).
func NewestHead(evs []*nostr.Event) *nostr.Event {
	var cur *nostr.Event
	for _, ev := range evs {
		if cur == nil || ev.CreatedAt > cur.CreatedAt || (ev.CreatedAt == cur.CreatedAt && ev.ID < cur.ID) {
			cur = ev
		}
	}
	return cur
}

// MustStateEvent is StateEvent that blocks the case when the event is
// missing (NIP-29 makes every state kind optional).
func (t *T) MustStateEvent(c *fixtures.Client, kind int, channel string) *nostr.Event {
	GinkgoHelper()
	ev := t.StateEvent(c, kind, channel)
	if ev == nil {
		p := PreStateEvents
		if kind != fixtures.KindMetadata {
			p = PreMembersList
			if kind == fixtures.KindAdmins {
				p = PreAdminsList
			}
		}
		t.stateLost(c, kind, channel)
		if !t.Case.RefusalBlocks() {
			Failf("expected a kind %d state event for channel %s, got none", kind, channel)
		}
		t.Blocked(p, fmt.Sprintf("no kind %d for #d %s as %s", kind, channel, ActorName(c)))
	}
	return ev
}

// FilterString renders filters as JSON for messages.
func FilterString(filters []nostr.Filter) string {
	parts := make([]string, len(filters))
	for i, f := range filters {
		parts[i] = f.String()
	}
	return strings.Join(parts, ",")
}

// Eventually polls cond until it passes or the step timeout elapses; a
// condition never met fails the case with what and cond's last complaint.
// A complaint of a closed connection (fixtures.ErrClosed), when one of the
// case's connections has indeed ended, ends the polling at once: every
// condition polls through connections it already holds, so no later
// attempt can succeed (a relay that drops the connection cost a whole step
// timeout per such wait). The words alone, which a relay's own CLOSED or
// OK message may hold, do not.
func (t *T) Eventually(cond func(g Gomega), what string) {
	GinkgoHelper()
	if failure := t.poll(cond, what); failure != "" {
		Failf("%s", failure)
	}
}

// poll is Eventually's loop: "" when cond held, else the case's failure.
func (t *T) poll(cond func(g Gomega), what string) string {
	deadline := time.Now().Add(t.Env.StepTimeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		last := attempt(cond)
		if last == "" {
			return ""
		}
		last = Reword(strings.TrimSpace(last))
		if strings.Contains(last, fixtures.ErrClosed.Error()) && t.lostConnection() {
			return fmt.Sprintf("%s: not seen before the connection closed: %s", what, last)
		}
		if !time.Now().Before(deadline) || t.ctx.Err() != nil {
			return fmt.Sprintf("%s: not seen within %s: %s", what, t.Env.StepTimeout, last)
		}
		select {
		case <-t.ctx.Done():
		case <-tick.C:
		}
	}
}

// lostConnection reports whether one of the case's connections has ended.
func (t *T) lostConnection() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.clients {
		select {
		case <-c.Done():
			return true
		default:
		}
	}
	return false
}

// pollFailure carries an attempt's first failed assertion out of cond.
type pollFailure struct{ message string }

// attempt runs cond once with a Gomega whose first failed assertion ends
// it, and returns that assertion's message ("" when cond passed). A
// failure of the case inside cond (Failf, a refused read) is passed on.
func attempt(cond func(g Gomega)) (failure string) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(pollFailure)
			if !ok {
				panic(r)
			}
			failure = f.message
			if failure == "" {
				failure = "an assertion failed"
			}
		}
	}()
	cond(NewGomega(func(message string, _ ...int) { panic(pollFailure{message}) }))
	return ""
}

// RequireRelaySigned fails unless ev is signed, with a valid id and
// signature, by the relay key.
func (t *T) RequireRelaySigned(ev *nostr.Event) {
	GinkgoHelper()
	// Every state event the harness reads is held to it, whatever the
	// case cites.
	defer t.Invariant("nip29/state-events.1")()
	t.Expect(ev.PubKey).To(Equal(t.Env.RelayPubKey), "kind %d %s must be signed by the relay key (NIP-11 self)", ev.Kind, ev.ID)
	okID, okSig, err := fixtures.VerifyEvent(ev)
	t.Expect(okID).To(BeTrue(), "kind %d %s: id must match its content", ev.Kind, ev.ID)
	t.Expect(err).NotTo(HaveOccurred(), "kind %d %s: signature check", ev.Kind, ev.ID)
	t.Expect(okSig).To(BeTrue(), "kind %d %s: signature must verify", ev.Kind, ev.ID)
}

// Go runs fn concurrently for i in [0,n) and waits for all; failures inside
// are reported to the case. Each fn runs with a step scope of its own,
// starting as the caller's: a Checking or Invariant inside changes only
// its own, a failure inside breaks its own, and the caller's scope after
// Go is the one it had before (scope.go).
func (t *T) Go(n int, fn func(i int)) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		t.spawn(func() { fn(i) }, wg.Done)
	}
	wg.Wait()
}

// IDs returns the d-or-id identity of events, for readable set comparisons.
func IDs(evs []*nostr.Event) []string {
	out := make([]string, 0, len(evs))
	for _, ev := range evs {
		out = append(out, ev.ID)
	}
	return out
}

// DTags returns the d tag of each event (channel IDs of state events).
func DTags(evs []*nostr.Event) []string {
	out := make([]string, 0, len(evs))
	for _, ev := range evs {
		d, _ := fixtures.TagValue(ev, "d")
		out = append(out, d)
	}
	return out
}

// ConnectURL opens a connection to another URL (a proxy in front of the relay, such as the lost-ack proxy) that is
// closed with the case.
func (t *T) ConnectURL(u string, o fixtures.DialOptions) *fixtures.Client {
	GinkgoHelper()
	if o.Transcript == nil {
		o.Transcript = t.tr
	}
	if o.StepTimeout == 0 {
		o.StepTimeout = t.Env.StepTimeout
	}
	if o.Header == nil {
		o.Header = t.Env.Header
	}
	if o.OnRefusal == nil {
		o.OnRefusal = t.observeRefusal
	}
	c, err := fixtures.Dial(t.Ctx(), u, o)
	t.Must(err, "connect "+u) // a refused AUTH blocks the case (see Must)
	// A relay that challenges only on demand (NIP-42: "at any time") gets
	// the actor's authentication before the case acts as that actor: a
	// member's read of a private group by ids or authors does not name
	// the group, so the relay would not ask for it there.
	if o.Actor != nil && !o.AuthOnConnect && !o.NoAutoAuth && !t.Env.AuthOnConnect {
		_, err := c.EnsureAuth(t.ctx)
		t.Must(err, "authenticate "+o.Actor.Name)
	}
	t.mu.Lock()
	t.clients = append(t.clients, c)
	t.mu.Unlock()
	return c
}
