package lawful

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/nipcl/nipcl-conform/conformance"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

var (
	combos = flag.Int("lawful.n", 2, "lawful combinations drawn per profile (CI: 2; a deep run: -lawful.n=500)")
	seed   = flag.Uint64("lawful.seed", 20261206, "seed of the draw (0: a random one, printed on failure as -rapid.seed)")
)

var profiles = []string{framework.ProfileNIP29, framework.ProfileIdentity, framework.ProfileLabels}

// TestLawful is the lawful-relay property, per profile: for combinations
// of lawful variants drawn by rapid (reference.Dimensions: at most one
// variant per dimension, shrinking towards the plain relay), the clean
// reference relay gets no failing case, and every blocked or unsupported
// line beyond the plain relay's own is explained by a variant of the
// combination (explains); and a fault drawn beside the variants is caught
// by a case citing its clause, or every case that could catch it is
// blocked or unsupported by the combination (the fault is not observable
// there). A counterexample is a minimal combination, replayed by the seed
// rapid prints.
//
// The three profiles run at once (each its own baseline, then its draws,
// in order: rapid's draws and their seed are those of one profile run
// alone), and each combination's clean run and kill plan run in two child
// processes at once: a run of the suites mostly waits on its relay, so
// the children overlap those waits (BENCHMARKS.md, "The lawful-relay
// property").
func TestLawful(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the suite once per drawn combination and profile")
	}
	// rapid reads its flags when a check starts: set once, before the
	// profiles' checks run concurrently.
	configureRapid(t, *combos, 90*time.Second)
	for _, p := range profiles {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			base := baselines(t, []string{p}, nil)
			rapid.Check(t, property(p, base[p], nil, false, true))
		})
	}
}

// TestLawfulCatchesAPlantedWrongCase plants the mistake the issue names —
// a case that takes a catch-all HTTP page for AV support — in place of
// base/livekit/1, and requires the property to fail with a combination
// that shows it (no AV, and an HTTP variant answering the well-known path
// with something other than 404).
func TestLawfulCatchesAPlantedWrongCase(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the livekit section once per drawn combination")
	}
	sections := []string{"nip29/livekit"}
	base := baselines(t, []string{framework.ProfileNIP29}, sections)
	rec := &recordingTB{name: t.Name()}
	// Any combination that shows the planted case has no-livekit (with AV
	// the relay answers 204): shrinking need not reach the minimal one for
	// the assertions below, so it gets 15 s, not TestLawful's 90 s.
	configureRapid(t, 40, 15*time.Second)
	func() {
		defer func() {
			if r := recover(); r != nil && r != errStop {
				panic(r)
			}
		}()
		rapid.Check(rec, property(framework.ProfileNIP29, base[framework.ProfileNIP29], sections, true, false))
	}()
	if !rec.Failed() {
		t.Fatalf("the property held with a case that reads any non-404 answer at %s as AV support: the lawful draw did not catch it", "/.well-known/nip29/livekit")
	}
	msg := rec.String()
	if !strings.Contains(msg, "base/livekit/1") || !strings.Contains(msg, "no-livekit") {
		t.Errorf("the property failed, but its counterexample does not name the planted case and the no-livekit variant:\n%s", msg)
	}
	t.Logf("caught as expected:\n%s", firstLines(msg, 8))
}

// plantedAVCase is the wrong judgement TestLawfulCatchesAPlantedWrongCase
// plants: any answer at the well-known path but a 404 is taken as "the
// relay offers AV", and NIP-29's 204 is then required.
func plantedAVCase(t *framework.T) {
	u := strings.Replace(strings.Replace(t.Env.URL, "ws://", "http://", 1), "wss://", "https://", 1)
	u = strings.TrimSuffix(u, "/") + "/.well-known/nip29/livekit"
	client := &http.Client{Timeout: t.Env.StepTimeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(u)
	t.Must(err, "GET "+u)
	resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		t.Unsupported("no AV: 404")
	}
	if resp.StatusCode != http.StatusNoContent {
		framework.Failf("NIP-29 (nip29/livekit.1): the relay answered the well-known path, so it offers AV, and must answer 204; got %d", resp.StatusCode)
	}
}

// property returns the property of profile against the plain relay's own
// outcomes base; sections and override narrow and plant cases (the
// self-test); withFault draws a fault beside the variants.
func property(profile string, base map[string]reports.CaseResult, sections []string, planted, withFault bool) func(*rapid.T) {
	dims := reference.Dimensions(profile)
	names := make([]string, 0, len(dims))
	for d := range dims {
		names = append(names, d)
	}
	sort.Strings(names)
	faults := faultsOf(profile)
	return func(rt *rapid.T) {
		var variants []string
		for _, d := range names {
			// 0 is the plain relay's answer: shrinking goes there.
			if i := rapid.IntRange(0, len(dims[d])).Draw(rt, d); i > 0 {
				variants = append(variants, dims[d][i-1].Name)
			}
		}
		var fault *reference.Fault
		if withFault {
			f := rapid.SampledFrom(faults).Draw(rt, "fault")
			fault = &f
		}
		findings := runCombination(profile, variants, fault, base, sections, planted)
		if len(findings) > 0 {
			rt.Fatalf("profile %s, variants %s:\n  %s", profile, strings.Join(variants, ","), strings.Join(findings, "\n  "))
		}
	}
}

// runCombination runs the suite against the reference relay of profile
// under variants (and, in a second plan, with fault on) and returns what
// breaks the property.
func runCombination(profile string, variants []string, fault *reference.Fault, base map[string]reports.CaseResult, sections []string, planted bool) []string {
	// The clean run and the kill plan are two child processes at once.
	specs := []childSpec{{Profiles: []string{profile}, Variants: variants, Sections: sections, Planted: planted}}
	if fault != nil {
		// The fault under the combination, and the fault on the plain
		// relay: the cases that kill it there are the ones that observe
		// it (a case citing the clause for another path, e.g. an open
		// group's join beside a deleted group's, proves nothing).
		specs = append(specs, childSpec{Profiles: []string{profile}, Variants: variants, Sections: sections, Planted: planted,
			Fault: fault.Name, FaultOnly: true},
			childSpec{Profiles: []string{profile}, Sections: sections, Planted: planted, Fault: fault.Name, FaultOnly: true})
	}
	results := make([]*reports.Results, len(specs))
	errs := make([]error, len(specs))
	var wg sync.WaitGroup
	for i, spec := range specs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = runChild(spec)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return []string{"run: " + err.Error()}
		}
	}
	findings := judgeClean(variants, base, conformance.ByPlan(results[0].Cases)["clean"])
	if fault != nil {
		findings = append(findings, judgeFault(*fault, profile, variants, conformance.ByPlan(results[2].Cases)["fault"], conformance.ByPlan(results[1].Cases)["fault"])...)
	}
	return findings
}

// judgeClean holds a clean run to the property: no case fails, and every
// blocked or unsupported case the plain relay passes is explained by a
// variant of the combination.
func judgeClean(variants []string, base map[string]reports.CaseResult, cases []reports.CaseResult) []string {
	var out []string
	if len(cases) == 0 {
		return []string{"no case ran"}
	}
	for _, c := range cases {
		if c.Outcome == reports.Pass {
			continue
		}
		if b, ok := base[c.ID]; ok && b.Outcome == c.Outcome && conformance.CleanOutcome(b) {
			continue // the plain relay's own unsupported or slow case
		}
		switch c.Outcome {
		case reports.Blocked, reports.Unsupported:
			if explained(variants, c) {
				continue
			}
			out = append(out, "not explained by any variant of the combination: "+conformance.Describe(c))
		default:
			if c.Outcome == reports.Skipped && conformance.CleanOutcome(c) {
				continue
			}
			out = append(out, "false verdict: "+conformance.Describe(c))
		}
	}
	return out
}

// judgeFault requires the fault to be killed under the combination, or
// every case that kills it on the plain relay (plain: the fault alone) to
// be blocked, unsupported or left out here: the fault is then not
// observable in this combination. A killer of the plain relay that ran
// and passed here is a survival.
func judgeFault(f reference.Fault, profile string, variants []string, plain, cases []reports.CaseResult) []string {
	if killed, _ := conformance.Killed(f, profile, cases); killed || masked(f, variants) {
		return nil
	}
	observers := conformance.Judge(f, profile, plain).Killers
	if len(observers) == 0 {
		// Not killed on the plain relay either (the kill test's own
		// finding): every case citing the clause stands in.
		observers = conformance.CitingCases(f.Clause)
	}
	for _, c := range cases {
		if c.Outcome == reports.Pass && slices.Contains(observers, c.ID) && !refusedBeforeAuth(c) {
			return []string{fmt.Sprintf("fault %s (clause %s) survived: %s passed under the fault although it ran (on the plain relay it kills the fault)", f.Name, f.Clause, c.ID)}
		}
	}
	return nil // every case that observes the fault was blocked, unsupported or left out: not observable here
}

// refusedBeforeAuth reports whether a passing read-matrix row (one viewer
// per case; its note "… as anonymous: withheld by a refusal (CLOSED …)")
// was withheld by an "auth-required:" refusal: the relay (auth-for-reads)
// serves that reader nothing before AUTH, so a fault that lets
// non-members read is not observable through it, and its pass is no
// survival. Cases with several readers note refusals otherwise and are
// not excused.
func refusedBeforeAuth(c reports.CaseResult) bool {
	for _, n := range c.Notes {
		if strings.Contains(n, `withheld by a refusal (CLOSED "auth-required:`) {
			return true
		}
	}
	return false
}

// masks lists lawful variants that take away what a fault breaks: under
// all of a row's variants the fault changes nothing a client can see (a
// relay without 39001 and 39002 cannot leave identity tags off them), so
// its survival is no finding. A fault of a section whose optional feature
// a variant removes is masked too (maskedSections).
var masks = []struct {
	fault string
	allOf []string
}{
	{"identity-tags-only-on-39000", []string{"no-39001", "no-39002"}},
	// The labels' order on 39001 and 39002 cannot differ from 39000's
	// where neither is published (a draw of issue 36's no-invites run).
	{"identity-label-order-differs-by-kind", []string{"no-39001", "no-39002"}},
	// A relay that stores labels sorted lists them sorted on 39000 too:
	// sorting them on 39001 and 39002 changes nothing (a draw of issue
	// 36's property runs).
	{"identity-label-order-differs-by-kind", []string{"identity-label-order=sorted"}},
	{"admins-without-roles", []string{"no-39001"}},
	{"admins-without-roles", []string{"state-lost-on-regeneration"}},
	{"roles-not-relay-signed", []string{"no-39003"}},
	// A 9008 cannot leave served a 39001 or 39002 the relay never
	// publishes (a draw of issue 34's property runs).
	{"delete-keeps-member-lists", []string{"no-39001", "no-39002"}},
	{"livekit-participants-uppercase", []string{"no-39004"}},
	// System channels' membership changes produce no notices under this
	// reading, so the without-#t rule for their notices has nothing to
	// apply to (a draw of issue 34's property runs).
	{"identity-notice-rule-only-on-notice-kinds", []string{"identity-system-notices=not-sent"}},
	// A relay that accepts only its allowlist's kinds refuses a
	// user-signed 39000-39003 before the fault could accept it: the
	// relay then keeps the sentence the fault breaks (lawful seed 13).
	{"user-state-accepted", []string{"kinds-allowlist-relay29"}},
	{"labels-user-snapshot-matched", []string{"kinds-allowlist-relay29"}},
}

// maskedSections: a variant that removes an optional feature masks the
// faults of the feature's section.
var maskedSections = map[string][]string{
	"no-subgroups": {"nip29/subgroups"},
	"no-pins":      {"nip29/pins"},
	"no-invites":   {"nip29/invites"},
	"no-livekit":   {"nip29/livekit"},
	"no-count":     {"nip45/count"},
	"no-39003":     {"nip29/roles"},
}

// masked reports whether the combination takes away what f breaks.
func masked(f reference.Fault, variants []string) bool {
	for _, m := range masks {
		if m.fault != f.Name {
			continue
		}
		all := true
		for _, v := range m.allOf {
			all = all && slices.Contains(variants, v)
		}
		if all {
			return true
		}
	}
	for _, v := range variants {
		if slices.Contains(maskedSections[v], f.Section) {
			return true
		}
	}
	return false
}

// explains maps a variant to the lines it may lawfully cause: an outcome,
// the precondition of a blocked case ("" = any), and words the message
// holds ("" = any) or a case ID prefix.
var explains = map[string][]allowance{
	"auth-on-demand":        {{reports.Blocked, "read-served", "auth-required", ""}},
	"auth-for-reads":        {{reports.Blocked, "read-served", "auth-required", ""}, {reports.Unsupported, "", "auth-required", ""}},
	"no-39001":              {{reports.Blocked, "admins-list", "", ""}, {reports.Unsupported, "", "39001", ""}},
	"no-39002":              {{reports.Blocked, "members-list", "", ""}, {reports.Unsupported, "", "39002", ""}},
	"no-39003":              {{reports.Unsupported, "", "39003", ""}},
	"no-39004":              {{reports.Unsupported, "", "39004", ""}},
	"relay-signed-not-live": {{reports.Blocked, "live-state", "", ""}, {reports.Unsupported, "", "live", ""}},
	"max-limit-20":          {{reports.Unsupported, "", "limit", ""}},
	// More events in one second than the unpublished cut: no read with
	// until gets them all (framework.T.PageBack says so).
	"default-limit-100-unpublished": {{reports.Unsupported, "", "without publishing default_limit", ""}},
	"max-subscriptions-8":           {{reports.Unsupported, "", "subscription", ""}},
	"no-count":                      {{reports.Unsupported, "", "COUNT", ""}},
	// Counts flagged approximate are not judged against exact numbers.
	// base/hll/2 cannot know the registers of what an estimate counted.
	"count-approximate": {{reports.Unsupported, "", `"approximate":true`, ""}, {reports.Unsupported, "", "probabilistic or otherwise", "base/hll/"}},
	"no-search":         {{reports.Unsupported, "", "NIP-50", ""}, {reports.Unsupported, "", "search", ""}},
	"no-subgroups":      {{reports.Unsupported, "", "subgroups", ""}},
	"no-pins":           {{reports.Unsupported, "", "pinned events", ""}, {reports.Unsupported, "", "no 39005", ""}},
	"no-invites":        {{reports.Unsupported, "", "invites are optional", ""}},
	"no-livekit":        {{reports.Unsupported, "", "", "base/livekit/"}, {reports.Unsupported, "", "39004", ""}},
	// Only the cases whose assertion rests on a key's lack of moderation
	// power (unprivilegedCases) may be blocked for want of such a key.
	"every-key-moderates":            {{reports.Blocked, "unprivileged-key", "", unprivilegedCases}},
	"state-lost-on-regeneration":     {{reports.Blocked, "admins-list", "", ""}, {reports.Unsupported, "", "39001", ""}},
	"rate-limited-5-per-key":         {{reports.Blocked, "rate-limit", "", ""}},
	"rate-limit-error-5-per-key":     {{reports.Blocked, "rate-limit", "", ""}},
	"rate-limited-20-per-connection": {{reports.Blocked, "rate-limit", "", ""}},
	// Proof of work the relay publishes explains nothing: the harness mines
	// it (NIP-11 limitation.min_pow_difficulty). Unpublished, every write
	// is refused until --pow (not drawn; TestVariantPoW, and a run with
	// --variant pow-10-unpublished blocks on proof-of-work naming --pow).
	"pow-10":             nil,
	"pow-10-unpublished": {{reports.Blocked, "proof-of-work", "--pow", ""}, {reports.Unsupported, "", "pow:", ""}},
	// Role names the relay chooses explain nothing: the harness learns them.
	"role-names-king-moderator": nil,
	// relay29's example policies: the kinds it refuses (9008, 9009, 9010,
	// addressable kinds but its own) and tags over its limits.
	"kinds-allowlist-relay29": {{reports.Blocked, "", "not allowed", ""}, {reports.Unsupported, "", "not allowed", ""}},
	"tag-limits-relay29":      {{reports.Blocked, "", "too large tags", ""}, {reports.Unsupported, "", "too large tags", ""}, {reports.Blocked, "", "indexable tags", ""}, {reports.Unsupported, "", "indexable tags", ""}},
	// A case that needs a created_at outside the relay's published window.
	"created-at-60s-past-30s-future":             {{reports.Unsupported, "", "created_at", ""}},
	"created-at-60s-past-30s-future-unpublished": {{reports.Unsupported, "", "created_at", ""}, {reports.Blocked, "", "created_at", ""}},
	// Issue 34. A write gate that does not tie writes to the signer's
	// own AUTH, or no write gate: the AUTH cases have nothing to refuse.
	"auth-writes-any-key": {{reports.Unsupported, "", "does not tie writes to AUTH", "base/auth/"}},
	"no-auth-for-writes": {{reports.Unsupported, "", "does not tie writes to AUTH", "base/auth/"}, {reports.Unsupported, "", "does not gate writes on NIP-42", "base/auth/"},
		{reports.Unsupported, "", "sent no AUTH challenge", "base/auth/"}, {reports.Unsupported, "", "no AUTH could be completed", "base/auth/"},
		{reports.Blocked, "auth", "never authenticated", ""}},
	// NIP-11 only for its Accept header, several roles per admin and
	// routing by Host explain nothing: the harness asks with the header,
	// accepts any role set holding the one it asked for, and reaches the
	// relay at the names it knows.
	"nip11-accept-only-426":   nil,
	"several-roles-per-admin": nil,
	// A moderator listed with a powerless role first explains nothing:
	// the harness puts the creator's whole role set and compares role
	// sets as sets.
	"powerless-role-first": nil,
	// A relay that reviews joins to open groups defers them: the case that
	// follows an honoured join has none (a draw of issue 34's property runs).
	"nip29-join-open-group=review": {{reports.Unsupported, "", "defers joins", ""}},
	"host-routing":                 nil,
	// Timeline references a relay enforces explain nothing: the probe
	// sees it and the harness sends them (NIP-29's recommended client).
	"previous-min-3": nil,
}

type allowance struct {
	outcome      reports.Outcome
	precondition string
	mentions     string
	// casePrefix: a case ID prefix, or (a space-separated list) the case
	// IDs and "section/" prefixes the line may come from.
	casePrefix string
}

// unprivilegedCases are the cases whose assertion rests on a key's lack of
// moderation power (issue 34, actors by what the verdict needs): a refused
// moderation event of an outsider or a plain member, what a non-member
// must not read, a parent's admin refused on the child. A relay on which
// every key moderates blocks them, and only them.
const unprivilegedCases = "base/count/2 base/create/4 base/create/5 base/delete/2 base/invites/3 base/livekit/3 " +
	"base/deleted/3 base/moderation/1 base/moderation/2 base/moderation/3 base/moderation/4 base/moderation/5 base/moderation/6 base/permissions/ base/pins/3 base/read/ base/reads/ base/restricted/1 base/subgroups/11 " +
	"identity/labels/12 identity/leave/ identity/naming/ identity/optin/ identity/reads/ identity/system/2 identity/system/3 " +
	"labels/add-remove/9 labels/add-remove/10 labels/add-remove/12 labels/authorization/ labels/discovery/9 labels/discovery/13 " +
	"labels/initial/5 labels/reads/ labels/responses/6 labels/responses/10 labels/responses/11 labels/scope/8"

// fromCases reports whether id is one of list's case IDs, or under one of
// its "section/" prefixes.
func fromCases(list, id string) bool {
	for _, c := range strings.Fields(list) {
		if id == c || (strings.HasSuffix(c, "/") && strings.HasPrefix(id, c)) {
			return true
		}
	}
	return false
}

// explained reports whether a variant of the combination explains c.
func explained(variants []string, c reports.CaseResult) bool {
	for _, v := range variants {
		for _, a := range explains[v] {
			if a.outcome == c.Outcome && (a.precondition == "" || a.precondition == c.Precondition) &&
				(a.mentions == "" || strings.Contains(c.Message, a.mentions)) &&
				(a.casePrefix == "" || fromCases(a.casePrefix, c.ID)) {
				return true
			}
		}
	}
	return false
}

// baselines runs the plain reference relay of each profile once and
// returns each case's outcome there.
func baselines(t *testing.T, ps []string, sections []string) map[string]map[string]reports.CaseResult {
	t.Helper()
	res, err := runChild(childSpec{Profiles: ps, Sections: sections})
	if err != nil {
		t.Fatalf("baseline run: %v", err)
	}
	out := map[string]map[string]reports.CaseResult{}
	for plan, cases := range conformance.ByPlan(res.Cases) {
		if plan == "clean" && len(ps) == 1 {
			plan = ps[0] // a child of one profile names its plan "clean"
		}
		out[plan] = map[string]reports.CaseResult{}
		for _, c := range cases {
			if !conformance.CleanOutcome(c) {
				t.Fatalf("the plain reference relay (%s) is not clean: %s", plan, conformance.Describe(c))
			}
			out[plan][c.ID] = c
		}
	}
	return out
}

// faultsOf lists the faults that apply to profile.
func faultsOf(profile string) []reference.Fault {
	var out []reference.Fault
	for _, f := range reference.Faults() {
		if f.Profile == "" || f.Profile == profile {
			out = append(out, f)
		}
	}
	return out
}

// configureRapid sets rapid's number of checks and seed from -lawful.n and
// -lawful.seed, and its shrink time to shrink, unless -rapid.checks,
// -rapid.seed or -rapid.shrinktime were given, and keeps rapid from
// writing fail files into the tree.
func configureRapid(t *testing.T, checks int, shrink time.Duration) {
	t.Helper()
	// The flags given on the command line, seen before the first call sets
	// any (flag.Visit counts a flag.Set as given too).
	givenOnce.Do(func() { flag.Visit(func(f *flag.Flag) { given[f.Name] = true }) })
	set := func(name, v string) {
		if !given[name] {
			if err := flag.Set(name, v); err != nil {
				t.Fatalf("flag %s: %v", name, err)
			}
		}
	}
	set("rapid.checks", strconv.Itoa(checks))
	set("rapid.seed", strconv.FormatUint(*seed, 10))
	set("rapid.nofailfile", "true")
	// Each check is a run of the suite: give shrinking time to reach a
	// minimal combination.
	set("rapid.shrinktime", shrink.String())
}

var (
	givenOnce sync.Once
	given     = map[string]bool{}
)

var (
	tmpOnce sync.Once
	tmpRoot string
)

// tempDir is a fresh report directory under one test-wide root (rapid's
// property has no *testing.T of its own).
func tempDir() string {
	tmpOnce.Do(func() { tmpRoot = mustTemp("", "nipcl-lawful-") })
	return mustTemp(tmpRoot, "run-")
}

// errStop ends a recorded property run at its first Fatal.
var errStop = fmt.Errorf("lawful: stop")

// recordingTB is a rapid.TB that records instead of failing the test: the
// self-test asserts that the property fails.
type recordingTB struct {
	name   string
	mu     sync.Mutex
	lines  []string
	failed bool
}

func (r *recordingTB) Helper()                 {}
func (r *recordingTB) Name() string            { return r.name }
func (r *recordingTB) Logf(f string, a ...any) { r.add(fmt.Sprintf(f, a...)) }
func (r *recordingTB) Log(a ...any)            { r.add(fmt.Sprint(a...)) }
func (r *recordingTB) Skipf(f string, a ...any) {
	r.add("skip: " + fmt.Sprintf(f, a...))
	panic(errStop)
}
func (r *recordingTB) Skip(a ...any)             { r.Skipf("%s", fmt.Sprint(a...)) }
func (r *recordingTB) SkipNow()                  { panic(errStop) }
func (r *recordingTB) Errorf(f string, a ...any) { r.fail(fmt.Sprintf(f, a...)) }
func (r *recordingTB) Error(a ...any)            { r.fail(fmt.Sprint(a...)) }
func (r *recordingTB) Fatalf(f string, a ...any) { r.fail(fmt.Sprintf(f, a...)); panic(errStop) }
func (r *recordingTB) Fatal(a ...any)            { r.fail(fmt.Sprint(a...)); panic(errStop) }
func (r *recordingTB) FailNow()                  { r.fail("FailNow"); panic(errStop) }
func (r *recordingTB) Fail()                     { r.fail("Fail") }
func (r *recordingTB) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

func (r *recordingTB) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, s)
}

func (r *recordingTB) fail(s string) {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
	r.add(s)
}

func (r *recordingTB) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.lines, "\n")
}

func firstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

func mustTemp(dir, pattern string) string {
	d, err := os.MkdirTemp(dir, pattern)
	if err != nil {
		panic(fmt.Sprintf("lawful: temporary directory: %v", err))
	}
	return d
}

// childEnv carries a childSpec to TestLawfulChild: Ginkgo allows one run
// of the suites per process, so every combination runs in a child process
// of this test binary.
const childEnv = "NIPCL_LAWFUL_CHILD"

// childSpec is one run of the suites: a plan per profile under the
// variants ("clean", or the profile's name for a baseline), and a kill
// plan ("fault") when Fault is set.
type childSpec struct {
	Profiles []string
	Variants []string
	Fault    string
	Sections []string
	Planted  bool // plantedAVCase replaces base/livekit/1
	// FaultOnly runs the kill plan alone (its combination's clean run is
	// another child, at the same time).
	FaultOnly bool
	ReportDir string
}

// TestLawfulChild is the child process of the property (skipped unless
// NIPCL_LAWFUL_CHILD holds its spec).
func TestLawfulChild(t *testing.T) {
	raw := os.Getenv(childEnv)
	if raw == "" {
		t.Skip("the child process of the lawful-relay property; runs only when TestLawful starts it")
	}
	var spec childSpec
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		t.Fatalf("%s: %v", childEnv, err)
	}
	var plans []runner.Plan
	for _, p := range spec.Profiles {
		if spec.FaultOnly {
			break
		}
		name := p
		if len(spec.Profiles) == 1 {
			name = "clean"
		}
		plans = append(plans, runner.Plan{Name: name, Profile: p, Sections: spec.Sections,
			Target: &runner.ReferenceTarget{Config: reference.Config{Profile: p, Variants: spec.Variants}}})
	}
	if spec.Fault != "" {
		for _, f := range reference.Faults() {
			if f.Name == spec.Fault {
				plans = append(plans, conformance.KillPlan("fault", spec.Profiles[0], f, spec.Variants))
			}
		}
	}
	var override map[string]func(*framework.T)
	if spec.Planted {
		override = map[string]func(*framework.T){"base/livekit/1": plantedAVCase}
	}
	// The drafts' profiles put users by the role words admin and owner
	// (the buzz relay's names) unless --role-map names the relay's own;
	// NIP-29's way learns the creator's role. A relay with its own names
	// is driven as its operator would drive it.
	var roleMap map[string]string
	if slices.Contains(spec.Variants, "role-names-king-moderator") && len(spec.Profiles) == 1 && spec.Profiles[0] != framework.ProfileNIP29 {
		roleMap = map[string]string{"admin": "moderator", "owner": "king"}
	}
	if _, err := runner.Run(context.Background(), runner.Options{
		Plans: plans, ReportDir: spec.ReportDir, StepTimeout: 5 * time.Second, Deadline: 10 * time.Minute, Scale: 25, Override: override, RoleMap: roleMap,
	}); err != nil {
		t.Fatalf("run: %v", err)
	}
}

// runChild runs spec in a child process and reads its results.
func runChild(spec childSpec) (*reports.Results, error) {
	spec.ReportDir = tempDir()
	raw, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestLawfulChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+string(raw))
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("child run %s: %w\n%s", raw, err, lastLines(string(out), 20))
	}
	return reports.ReadJSON(filepath.Join(spec.ReportDir, "results.json"))
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
