package readings

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/conformance"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

var allProfiles = []string{framework.ProfileNIP29, framework.ProfileIdentity, framework.ProfileLabels}

// readingProfiles lists the profiles a reading is proved in: its own, or
// every profile for a NIP-29 reading (every profile's relay meets it, and
// the NIP-CL suites must not depend on it either).
func readingProfiles(rd clause.Reading) []string {
	if rd.Profile != "" {
		return []string{rd.Profile}
	}
	return allProfiles
}

// plan is one proof plan: a profile and the readings set away from their
// default (none for the default plans).
type plan struct {
	name, profile string
	readings      map[string]string
	full          bool // the whole suite (else only the noting cases' sections)
}

func (p plan) value(id string) string {
	if v, ok := p.readings[id]; ok {
		return v
	}
	rd, _ := clause.LookupReading(id)
	return rd.Default()
}

// TestEveryReadingPasses runs, in three processes (conformance.RunShares), one plan per profile with
// every reading at its default (only the sections of the cases that note
// readings: TestKill's clean plans run the whole suite that way) and one
// whole-suite plan per non-default reading value and profile. Every case
// must pass (unsupported and slow cases as in the clean plans); every
// plan must note each of its profile's readings it changed, with the value
// it was given; and no case may note a value the relay was not given.
func TestEveryReadingPasses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite once per reading value")
	}
	var plans []plan
	for _, p := range allProfiles {
		plans = append(plans, plan{name: p + " readings=default", profile: p})
	}
	for _, rd := range clause.Readings() {
		for _, v := range rd.ValueNames()[1:] {
			for _, p := range readingProfiles(rd) {
				plans = append(plans, plan{name: p + " reading=" + rd.ID + "=" + v, profile: p,
					readings: map[string]string{rd.ID: v}, full: true})
			}
		}
	}
	var runPlans []runner.Plan
	for _, pl := range plans {
		rp := runner.Plan{Name: pl.name, Profile: pl.profile,
			Target: &runner.ReferenceTarget{Config: reference.Config{Profile: pl.profile, Readings: pl.readings}}}
		if !pl.full {
			rp.Sections = notingSections(pl.profile)
		}
		runPlans = append(runPlans, rp)
	}
	dir := conformance.KeepReportDir(t, "readings")
	// Scale: the limit-ordering cases need distractors, not 200 of them
	// per plan (no reading touches limit; the clean plans of TestKill run
	// the default scale).
	// Three processes side by side overlap the cases' waits (relays'
	// clocks, settle windows) on a 2-core machine.
	res := conformance.RunShares(t, runner.Options{
		Plans: runPlans, ReportDir: dir, StepTimeout: 5 * time.Second, Deadline: 10 * time.Minute, Scale: 25,
	}, 3)
	if res == nil {
		return // a share, in its child process
	}
	byPlan := conformance.ByPlan(res.Cases)
	var table []string
	for _, pl := range plans {
		cases := byPlan[pl.name]
		if len(cases) == 0 {
			t.Errorf("%s: no cases ran", pl.name)
			continue
		}
		noted := map[string]map[string][]string{} // reading -> value -> cases
		for _, c := range cases {
			if !conformance.CleanOutcome(c) {
				t.Errorf("%s: %s", pl.name, conformance.Describe(c))
			}
			for _, n := range c.Notes {
				id, v, ok := parseNote(n)
				if !ok {
					continue
				}
				if noted[id] == nil {
					noted[id] = map[string][]string{}
				}
				noted[id][v] = append(noted[id][v], c.ID)
			}
		}
		// No case may see a reading the relay was not given.
		for id, vals := range noted {
			rd, ok := clause.LookupReading(id)
			if !ok {
				t.Errorf("%s: a case notes unknown reading %q", pl.name, id)
				continue
			}
			if !rd.AppliesTo(pl.profile) {
				continue // a baseline case's observation on another profile's relay
			}
			for v, ids := range vals {
				if v != pl.value(id) {
					t.Errorf("%s: %s noted reading %s=%s, but the relay takes %s", pl.name, strings.Join(ids, ","), id, v, pl.value(id))
				}
			}
		}
		// Every reading of the profile is seen with the value it has: the
		// changed one in a whole-suite plan, all of them in a default plan.
		for _, rd := range clause.Readings() {
			if !rd.AppliesTo(pl.profile) {
				continue
			}
			if _, changed := pl.readings[rd.ID]; pl.full && !changed {
				continue
			}
			v := pl.value(rd.ID)
			if ids := noted[rd.ID][v]; len(ids) == 0 {
				t.Errorf("%s: no case noted reading %s=%s (the cases that should: %s)", pl.name, rd.ID, v, strings.Join(rd.Cases, ", "))
			} else if pl.full {
				sort.Strings(ids)
				table = append(table, fmt.Sprintf("%-9s %-45s %4d cases, noted by %s", pl.profile, rd.ID+"="+v, len(cases), strings.Join(ids, " ")))
			}
		}
	}
	t.Logf("readings proof (%d plans, %d cases in %s):\n%s", len(plans), len(res.Cases),
		res.Finished.Sub(res.Started).Round(time.Millisecond), strings.Join(table, "\n"))
}

// notingSections are the sections of the cases that note the readings of
// a profile.
func notingSections(profile string) []string {
	seen := map[string]bool{}
	var out []string
	for _, rd := range clause.Readings() {
		if !rd.AppliesTo(profile) {
			continue
		}
		for _, id := range rd.Cases {
			if c, ok := suites.Lookup(id); ok && !seen[c.Section] {
				seen[c.Section] = true
				out = append(out, c.Section)
			}
		}
	}
	sort.Strings(out)
	return out
}

// parseNote reads a "reading: <id>=<value>" note (framework.T.Reading).
func parseNote(n string) (id, value string, ok bool) {
	rest, ok := strings.CutPrefix(n, "reading: ")
	if !ok {
		return "", "", false
	}
	return strings.Cut(rest, "=")
}
