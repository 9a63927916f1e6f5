package clientmode

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/reports"
)

// Options configure a client-mode run.
type Options struct {
	Profile string        // "labels", "identity" or "" for both
	Command string        // adapter command; "" runs the built-in reference client
	Fault   string        // reference client fault switch (only without Command)
	Timeout time.Duration // deadline per intent; zero means 20s
	// Wait is how long the built-in reference client waits for an OK
	// before it counts the attempt as Unknown; zero means DefaultWait.
	Wait time.Duration
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
	var out []reports.CaseResult
	for _, c := range Selected(o.Profile) {
		if ctx.Err() != nil {
			break
		}
		out = append(out, RunCase(ctx, c, o))
	}
	return out
}

// RunCase runs one case.
func RunCase(ctx context.Context, c Case, o Options) reports.CaseResult {
	start := time.Now()
	res := reports.CaseResult{ID: c.ID, Plan: PlanName(c.Profile), Profile: c.Profile, Area: "client", Level: c.Level,
		Requirement: c.Requirement, Clauses: []string{c.Clause}}
	if cl, ok := clause.LookupClause(c.Clause); ok {
		res.Section, res.Source, res.Ref = cl.Section, cl.Source, cl.Ref
		res.Notes = append(res.Notes, c.Clause+": "+cl.Text)
	}
	if o.Command != "" {
		res.Repro = fmt.Sprintf("nipcl-conform client --profile %s --client-cmd %q --case %s", c.Profile, o.Command, c.ID)
	} else if o.Fault != "" {
		res.Repro = fmt.Sprintf("nipcl-conform client --profile %s --client-fault %s --case %s", c.Profile, o.Fault, c.ID)
	} else {
		res.Repro = fmt.Sprintf("nipcl-conform client --profile %s --case %s", c.Profile, c.ID)
	}
	defer func() { res.DurationMS = time.Since(start).Milliseconds() }()
	outcome, msg, transcript := runCase(ctx, c, o)
	res.Outcome, res.Message, res.Transcript = outcome, msg, transcript
	res.DurationMS = time.Since(start).Milliseconds()
	return res
}

func runCase(ctx context.Context, c Case, o Options) (reports.Outcome, string, string) {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	keys := NewKeys()
	relay, err := StartRelay(c.Script, keys)
	if err != nil {
		return reports.HarnessError, "start scripted relay: " + err.Error(), ""
	}
	defer relay.Close()
	var second *Relay
	if c.Second != nil {
		k2 := keys
		k2.RelaySK = NewKeys().RelaySK
		k2.RelayPK, _ = nostr.GetPublicKey(k2.RelaySK)
		if second, err = StartRelay(*c.Second, k2); err != nil {
			return reports.HarnessError, "start second scripted relay: " + err.Error(), ""
		}
		defer second.Close()
	}
	var cl Client
	if o.Command != "" {
		cl, err = StartProcess(o.Command, os.Environ())
		if err != nil {
			return reports.HarnessError, err.Error(), ""
		}
	} else {
		cl = NewInProcess(o.Fault, o.Wait)
	}
	var log []string
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
	intents := []Intent{{ID: 1, Op: OpInit, Secret: keys.UserSK}}
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
		}
		intents = append(intents, in)
	}
	var answers []Answer
	for _, in := range intents {
		ictx, cancel := context.WithTimeout(ctx, timeout)
		a, err := cl.Do(ictx, in)
		cancel()
		if in.Op == OpInit {
			log = append(log, fmt.Sprintf("intent %d init (user %s)", in.ID, keys.UserPK))
		} else {
			log = append(log, fmt.Sprintf("intent %d %s -> %+v", in.ID, in.Op, a))
		}
		if errors.Is(err, ErrTimeout) {
			cl.Close()
			return reports.Timeout, fmt.Sprintf("intent %d (%s): no answer within %s", in.ID, in.Op, timeout), transcript()
		}
		if err != nil {
			cl.Close()
			return reports.HarnessError, fmt.Sprintf("intent %d (%s): %v", in.ID, in.Op, err), transcript()
		}
		if a.Error != "" {
			cl.Close()
			return reports.HarnessError, fmt.Sprintf("intent %d (%s): the client could not carry it out: %s", in.ID, in.Op, a.Error), transcript()
		}
		if in.Op != OpInit {
			answers = append(answers, a)
		}
	}
	cl.Close()
	relay.Close()
	evs, filters, _ := relay.Wire.Snapshot()
	j := &Judging{Keys: keys, Channel: Channel, Answers: answers, Events: evs, Filters: filters, Script: c.Script}
	if err := c.Judge(j); err != nil {
		return reports.Fail, err.Error(), transcript()
	}
	return reports.Pass, "", transcript()
}

// Coverage lists every client clause of the selected profile ("" for both)
// with the client cases citing it and their outcomes in res (nil: the
// table only), for the HTML report. A client clause no case cites says so.
func Coverage(profile string, res []reports.CaseResult) []reports.Coverage {
	var out []reports.Coverage
	for _, cl := range clause.Clauses() {
		if cl.Subject != clause.SubjectClient || (profile != "" && cl.Profile() != profile) {
			continue
		}
		row := reports.Coverage{ID: cl.ID, Title: cl.Level + " (client): " + cl.Text, Outcomes: map[reports.Outcome]int{}}
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
