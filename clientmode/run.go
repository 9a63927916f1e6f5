package clientmode

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nipcl/nipcl-conform/internal/text"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/reports"
)

// Options configure a client-mode run.
type Options struct {
	Profile string        // "nip29", "labels", "identity" or "" for all
	Command string        // adapter command; "" runs the built-in reference client
	Fault   string        // reference client fault switch (only without Command)
	Timeout time.Duration // deadline per intent; zero means 20s
	// Wait is how long the built-in reference client waits for an OK
	// before it counts the attempt as Unknown; zero means DefaultWait.
	Wait time.Duration
	// Repeat runs each case this many times (zero or one: once, or the
	// case's own Runs when it has more); a case whose runs disagree is
	// reported as a flaky failure with the tally.
	Repeat int
	// Parallel is how many cases run at once (zero: DefaultParallel()).
	// Each case has its own scripted relays and its own client process,
	// so cases never share state; results keep the order of the cases.
	Parallel int
	// IgnoreLimit makes every scripted relay ignore the limit of a REQ
	// filter (Script.IgnoreLimit): a lawful relay, since NIP-01 says
	// relays SHOULD use limit, not MUST.
	IgnoreLimit bool
}

// WaitEnv names the environment variable that tells an adapter process
// how long, in milliseconds, the harness's reference client waits for an
// OK before it counts the attempt as Unknown (--reference-wait): an
// adapter may set its library's own timeouts to it.
const WaitEnv = "NIPCL_CLIENT_WAIT_MS"

// DefaultParallel is the number of cases run at once when
// Options.Parallel is zero: twice the number of cores, since a case
// spends most of its time waiting on sockets and on the client.
func DefaultParallel() int { return 2 * runtime.NumCPU() }

// Profiles are the client case profiles: nip29 (the client sentences of
// NIP-29), labels and identity (the NIP-CL drafts).
var Profiles = []string{"nip29", "labels", "identity"}

// clauseProfile is the client profile a clause's cases run under:
// "nip29" for NIP-29 client clauses, else the clause's draft profile.
func clauseProfile(cl clause.Clause) string {
	if p := cl.Profile(); p != "" {
		return p
	}
	return "nip29"
}

// PlanName is the plan a profile's client cases report under:
// client-labels or client-identity.
func PlanName(profile string) string { return "client-" + profile }

// Fingerprint identifies the client case table (IDs, clauses, levels,
// requirements): "client:sha256:" + 12 hex digits. It goes into the
// reports' catalogue field.
func Fingerprint() string {
	h := sha256.New()
	for _, c := range Cases {
		fmt.Fprintf(h, "%s\t%s\t%s\t%s\t%s\n", c.ID, c.Profile, c.Clause, c.Level, c.Requirement)
	}
	return "client:sha256:" + hex.EncodeToString(h.Sum(nil))[:12]
}

// Selected returns the cases of a profile ("" for all).
func Selected(profile string) []Case {
	var out []Case
	for _, c := range Cases {
		if profile == "" || c.Profile == profile {
			out = append(out, c)
		}
	}
	return out
}

// Run runs the selected cases, each against a fresh scripted relay and a
// fresh client, and returns one result per case.
func Run(ctx context.Context, o Options) []reports.CaseResult {
	return RunCases(ctx, Selected(o.Profile), o, nil)
}

// RunCases runs cases, Options.Parallel at a time, and returns their
// results in the order of cases. each, when not nil, is called with every
// result in that order as soon as it and all before it are done (so a
// caller can print progress deterministically). Cases not started when
// ctx ends are left out.
func RunCases(ctx context.Context, cases []Case, o Options, each func(reports.CaseResult)) []reports.CaseResult {
	n := o.Parallel
	if n <= 0 {
		n = DefaultParallel()
	}
	results := make([]*reports.CaseResult, len(cases))
	done := make([]chan struct{}, len(cases))
	for i := range done {
		done[i] = make(chan struct{})
	}
	sem := make(chan struct{}, n)
	go func() {
		for i, c := range cases {
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; close(done[i]) }()
				if ctx.Err() != nil {
					return
				}
				r := RunCase(ctx, c, o)
				results[i] = &r
			}()
		}
	}()
	var out []reports.CaseResult
	for i := range cases {
		<-done[i]
		if results[i] == nil {
			continue
		}
		out = append(out, *results[i])
		if each != nil {
			each(*results[i])
		}
	}
	return out
}

// RunCase runs one case (Options.Repeat times).
func RunCase(ctx context.Context, c Case, o Options) reports.CaseResult {
	start := time.Now()
	res := reports.CaseResult{ID: c.ID, Plan: PlanName(c.Profile), Profile: c.Profile, Area: "client", Level: c.Level,
		Requirement: c.Requirement, Clauses: []string{c.Clause}, Reading: c.Reading}
	if cl, ok := clause.LookupClause(c.Clause); ok {
		res.Section, res.Source, res.Ref = cl.Section, cl.Source, cl.Ref
		res.Notes = append(res.Notes, c.Clause+": "+cl.Text)
	}
	if c.Reading != "" {
		res.Notes = append(res.Notes, "reading: "+c.Reading)
	}
	repeat := ""
	if o.Repeat > 1 {
		repeat = fmt.Sprintf(" --repeat %d", o.Repeat)
	}
	if o.Command != "" {
		res.Repro = fmt.Sprintf("nipcl-conform client --profile %s --client-cmd %q --case %s%s", c.Profile, o.Command, c.ID, repeat)
	} else if o.Fault != "" {
		res.Repro = fmt.Sprintf("nipcl-conform client --profile %s --client-fault %s --case %s%s", c.Profile, o.Fault, c.ID, repeat)
	} else {
		res.Repro = fmt.Sprintf("nipcl-conform client --profile %s --case %s%s", c.Profile, c.ID, repeat)
	}
	runs := max(o.Repeat, c.Runs, 1)
	if c.Runs > 1 && o.Repeat <= 1 {
		res.Notes = append(res.Notes, fmt.Sprintf("runs %d times by default: the rule under test is about a race", c.Runs))
	}
	var all []runResult
	tally := map[reports.Outcome]int{}
	for i := 0; i < runs && ctx.Err() == nil; i++ {
		r := runCase(ctx, c, o)
		all = append(all, r)
		tally[r.outcome]++
	}
	first := all[0]
	res.Outcome, res.Message, res.Transcript = first.outcome, first.msg, first.transcript
	res.Notes = append(res.Notes, first.notes...)
	if len(tally) > 1 {
		// The case disagrees with itself: report the tally and the first
		// run that did not pass, as a failure.
		var parts []string
		for _, oc := range []reports.Outcome{reports.Pass, reports.Fail, reports.Unsupported, reports.Timeout, reports.HarnessError} {
			if n := tally[oc]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, oc))
			}
		}
		for i, r := range all {
			if r.outcome != reports.Pass {
				res.Outcome = reports.Fail
				res.Message = fmt.Sprintf("flaky: the case disagrees with itself over %d runs (%s); run %d: %s: %s", len(all), strings.Join(parts, ", "), i+1, r.outcome, r.msg)
				res.Transcript = r.transcript
				break
			}
		}
	} else if len(all) > 1 {
		res.Notes = append(res.Notes, fmt.Sprintf("repeated %d times, every run %s", len(all), first.outcome))
	}
	res.DurationMS = time.Since(start).Milliseconds()
	return res
}

// quietThreshold is the shortest silence before a client's answer that
// counts as the library waiting on a timer of its own (a publish timeout,
// an EOSE wait it gives up on) rather than working.
const quietThreshold = 250 * time.Millisecond

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// runResult is one run of a case.
type runResult struct {
	outcome    reports.Outcome
	msg        string
	transcript string
	notes      []string // evidence the adapter attached
}

func runCase(ctx context.Context, c Case, o Options) runResult {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	keys := NewKeys()
	if o.IgnoreLimit {
		c.Script.IgnoreLimit = true
		if c.Second != nil {
			second := *c.Second
			second.IgnoreLimit = true
			c.Second = &second
		}
	}
	relay, err := StartRelay(c.Script, keys)
	if err != nil {
		return runResult{outcome: reports.HarnessError, msg: "start scripted relay: " + err.Error()}
	}
	defer relay.Close()
	var second *Relay
	if c.Second != nil {
		k2 := keys
		k2.RelaySK = NewKeys().RelaySK
		k2.RelayPK, _ = nostr.GetPublicKey(k2.RelaySK)
		if second, err = StartRelay(*c.Second, k2); err != nil {
			return runResult{outcome: reports.HarnessError, msg: "start second scripted relay: " + err.Error()}
		}
		defer second.Close()
	}
	var cl Client
	if o.Command != "" {
		// The adapter may set its library's own timeouts (a publish's
		// wait for an OK, a read's wait for EOSE) to what the reference
		// client waits for an OK: NIPCL_CLIENT_WAIT_MS.
		wait := o.Wait
		if wait <= 0 {
			wait = DefaultWait
		}
		cl, err = StartProcess(o.Command, append(os.Environ(), fmt.Sprintf("%s=%d", WaitEnv, wait.Milliseconds())))
		if err != nil {
			return runResult{outcome: reports.HarnessError, msg: err.Error()}
		}
	} else {
		cl = NewInProcess(o.Fault, o.Wait)
	}
	var log, notes, waits, idles []string
	var waited, idle time.Duration
	// waitNote says how long the harness waited for the client's answers:
	// the time the library (and its adapter) took, apart from the case's
	// own setup; and of that, the time it spent in its own timeouts —
	// the wire silent, both ways, until it answered.
	waitNote := func() string {
		n := fmt.Sprintf("waited for the client: %.2f s (%s)", waited.Seconds(), strings.Join(waits, ", "))
		if len(idles) > 0 {
			n += fmt.Sprintf("; of which in its own timeouts (nothing on the wire before its answer): %.2f s (%s)", idle.Seconds(), strings.Join(idles, ", "))
		} else {
			n += "; none in its own timeouts"
		}
		return n
	}
	lastFrame := func() time.Time {
		t := relay.Wire.LastFrame()
		if second != nil {
			if t2 := second.Wire.LastFrame(); t2.After(t) {
				t = t2
			}
		}
		return t
	}
	transcript := func() string {
		t := strings.Join(log, "\n")
		if w := relay.Wire.Transcript(); w != "" {
			t += "\n-- relay " + relay.URL + " --\n" + w
		}
		if second != nil {
			if w := second.Wire.Transcript(); w != "" {
				t += "\n-- second relay " + second.URL + " --\n" + w
			}
		}
		return strings.TrimSpace(t)
	}
	end := func(oc reports.Outcome, msg string) runResult {
		cl.Close()
		return runResult{outcome: oc, msg: msg, transcript: transcript(), notes: append(notes, waitNote())}
	}
	group := c.Group
	if group == "" {
		group = GroupID
	}
	intents := []Intent{{ID: 1, Op: OpInit, Secret: keys.UserSK, Protocol: ProtocolVersion}}
	for i, op := range c.Ops {
		in := Intent{ID: i + 2, Op: op, Relay: relay.URL}
		if o, ok := strings.CutSuffix(op, "@2"); ok && second != nil {
			in.Op, in.Relay = o, second.URL
		}
		op = in.Op
		switch op {
		case OpAddLabel:
			in.Channel, in.Label = Channel, Label
		case OpCreate:
			in.Channel, in.Label = NewChannel, "team:infra"
		case OpReadLabels, OpChannel:
			in.Channel = Channel
		case OpFind:
			in.Creator, in.Label = keys.UserPK, FindLabel
		case OpEnsure:
			in.Creator, in.Label, in.Channel = keys.UserPK, FindLabel, NewChannel
		case OpCreateGroup, OpLeave, OpReadGroup, OpMember, OpReadMessages:
			in.Group = group
		case OpRemoveUser:
			in.Group, in.User = group, keys.Stranger
		case OpJoin:
			in.Group, in.Code = group, c.Code
		case OpPost:
			in.Group, in.Content = group, "hello from nipcl-conform"
		case OpLocateGroup:
			in.Group, in.Admins = group, []string{keys.AdminPK}
			if second != nil {
				in.Relays = []string{second.URL}
			}
		}
		intents = append(intents, in)
	}
	version := 1
	var answers []Answer
	for n, in := range intents {
		if need := opVersion(in.Op); in.Op != OpInit && version < need {
			log = append(log, fmt.Sprintf("intent %d %s: not in protocol version %d", in.ID, in.Op, version))
			return end(reports.Unsupported, fmt.Sprintf("intent %d (%s) is a protocol version %d intent and the adapter answered init as version %d", in.ID, in.Op, need, version))
		}
		if n > 0 {
			relay.SetRound(n - 1)
			if second != nil {
				second.SetRound(n - 1)
			}
		}
		ictx, cancel := context.WithTimeout(ctx, timeout)
		asked := time.Now()
		a, err := cl.Do(ictx, in)
		cancel()
		answered := time.Now()
		took := answered.Sub(asked)
		waited += took
		waits = append(waits, fmt.Sprintf("%s %.2f s", in.Op, took.Seconds()))
		// Silence before the answer: since the intent was asked or the
		// last frame after it, whichever is later. Under the threshold it
		// is the library's own work, not a timer.
		quiet := answered.Sub(later(asked, lastFrame()))
		if quiet >= quietThreshold {
			idle += quiet
			idles = append(idles, fmt.Sprintf("%s %.2f s", in.Op, quiet.Seconds()))
		}
		if in.Op == OpInit {
			log = append(log, fmt.Sprintf("intent %d init (user %s, protocol %d; the client speaks %d)", in.ID, keys.UserPK, ProtocolVersion, max(a.Protocol, 1)))
		} else {
			b := marshal(a)
			log = append(log, fmt.Sprintf("intent %d %s -> %s", in.ID, in.Op, b))
		}
		if len(a.Evidence) > 0 {
			notes = append(notes, fmt.Sprintf("evidence (intent %d %s): %s", in.ID, in.Op, evidenceText(a.Evidence)))
		}
		if errors.Is(err, ErrTimeout) {
			return end(reports.Timeout, fmt.Sprintf("intent %d (%s): no answer within %s", in.ID, in.Op, timeout))
		}
		if err != nil {
			return end(reports.HarnessError, fmt.Sprintf("intent %d (%s): %v", in.ID, in.Op, err))
		}
		if a.Unsupported != "" {
			return end(reports.Unsupported, fmt.Sprintf("intent %d (%s): the client does not do this: %s", in.ID, in.Op, a.Unsupported))
		}
		if a.Error != "" {
			return end(reports.HarnessError, fmt.Sprintf("intent %d (%s): the client could not carry it out: %s", in.ID, in.Op, a.Error))
		}
		if err := checkFields(a); err != nil {
			return end(reports.HarnessError, fmt.Sprintf("intent %d (%s): %v", in.ID, in.Op, err))
		}
		if in.Op == OpInit {
			version = min(max(a.Protocol, 1), ProtocolVersion)
			continue
		}
		answers = append(answers, a)
	}
	cl.Close()
	relay.Close()
	evs, filters, _ := relay.Wire.Snapshot()
	j := &Judging{Keys: keys, Channel: Channel, Group: group, Answers: answers, Events: evs, Filters: filters, Script: c.Script, Auths: relay.Wire.AuthChecks()}
	if second != nil {
		second.Close()
		_, j.SecondFilters, _ = second.Wire.Snapshot()
		j.SecondURL = second.URL
	}
	err = c.Judge(j)
	res := runResult{outcome: reports.Pass, transcript: transcript(), notes: append(notes, waitNote())}
	var unread unsupportedError
	switch {
	case errors.As(err, &unread):
		res.outcome, res.msg = reports.Unsupported, unread.Error()
	case err != nil:
		res.outcome, res.msg = reports.Fail, err.Error()
	}
	for _, r := range j.readings {
		res.notes = append(res.notes, "reading seen: "+r)
	}
	return res
}

// opVersion is the protocol version that introduced op.
func opVersion(op string) int {
	switch {
	case slices.Contains(v1Ops, op):
		return 1
	case slices.Contains(v2Ops, op):
		return 2
	}
	return 3
}

// checkFields rejects a read-group answer's field statuses that are not
// in the protocol (an unknown field name or status).
func checkFields(a Answer) error {
	for f, st := range a.Fields {
		if !slices.Contains(GroupFields, f) {
			return fmt.Errorf("the answer's fields names %q, which is no read-group field (%s)", f, strings.Join(GroupFields, ", "))
		}
		switch st {
		case FieldShown, FieldUnknown, FieldUnsupported:
		default:
			return fmt.Errorf("the answer's fields says %q for %s: the statuses are shown, unknown and unsupported", st, f)
		}
	}
	return nil
}

// evidenceText renders an answer's evidence: a JSON string as its text,
// any other JSON value compact.
func evidenceText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return text.Clip(s, 2000)
	}
	// Decoded and encoded again without HTML escaping: an adapter's
	// encoder may have written "<nil>" as "\u003cnil\u003e".
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) == nil {
		return text.Clip(string(marshal(v)), 2000)
	}
	return text.Clip(string(compact(raw)), 2000)
}

// Coverage lists every client clause of the selected profile ("" for both)
// with the client cases citing it and their outcomes in res (nil: the
// table only), for the HTML report. A client clause no case cites says so.
func Coverage(profile string, res []reports.CaseResult) []reports.Coverage {
	var out []reports.Coverage
	for _, cl := range clause.Clauses() {
		if cl.Subject != clause.SubjectClient || (profile != "" && clauseProfile(cl) != profile) {
			continue
		}
		row := reports.Coverage{ID: cl.ID, Title: string(cl.Level) + " (client): " + cl.Text, Outcomes: map[reports.Outcome]int{}}
		for _, c := range Cases {
			if c.Clause == cl.ID {
				row.Cases = append(row.Cases, c.ID)
			}
		}
		for _, r := range res {
			if slices.Contains(row.Cases, r.ID) {
				row.Outcomes[r.Outcome]++
			}
		}
		if len(row.Cases) == 0 {
			row.Note = "no client case yet"
		}
		out = append(out, row)
	}
	return out
}
