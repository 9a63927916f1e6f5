package clientmode

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/reports"
)

func TestCasesCiteClientClauses(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Cases {
		if seen[c.ID] {
			t.Errorf("duplicate case %s", c.ID)
		}
		seen[c.ID] = true
		cl, ok := clause.LookupClause(c.Clause)
		if !ok {
			t.Errorf("%s: unknown clause %s", c.ID, c.Clause)
			continue
		}
		if cl.Subject != clause.SubjectClient {
			t.Errorf("%s: cites %s, which is not a client clause", c.ID, c.Clause)
		}
		if cl.Level.CaseLevel() != c.Level {
			t.Errorf("%s: level %s, clause %s says %s", c.ID, c.Level, c.Clause, cl.Level)
		}
		if c.Profile != clauseProfile(cl) {
			t.Errorf("%s: profile %s, clause %s belongs to %s", c.ID, c.Profile, c.Clause, clauseProfile(cl))
		}
	}
	for _, f := range Faults {
		if _, ok := clause.LookupClause(f.Clause); !ok {
			t.Errorf("fault %s: unknown clause %s", f.Name, f.Clause)
		}
	}
}

// TestKill: the clean reference client passes every case; every fault
// switch is caught by a failing case that cites the clause it breaks.
func TestKill(t *testing.T) {
	ctx := context.Background()
	o := Options{Timeout: 10 * time.Second, Wait: 500 * time.Millisecond}
	for _, r := range Run(ctx, o) {
		if r.Outcome != reports.Pass {
			t.Errorf("clean client: %s: %s: %s\n%s", r.ID, r.Outcome, r.Message, r.Transcript)
		}
	}
	for _, f := range Faults {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel() // the runs mostly wait on sockets
			killOne(t, f.Name, f.Clause)
		})
	}
}

// killOne runs every case with one fault switched on: no case may end in
// a timeout or harness error, and a case citing the clause the fault
// breaks must fail.
func killOne(t *testing.T, fault, breaks string) {
	// One case at a time per fault: the faults already run in parallel,
	// and the 500 ms OK wait must not starve.
	o := Options{Fault: fault, Timeout: 10 * time.Second, Wait: 500 * time.Millisecond, Parallel: 1}
	caught := false
	for _, r := range Run(context.Background(), o) {
		switch r.Outcome {
		case reports.Pass:
		case reports.Fail:
			if len(r.Clauses) == 1 && r.Clauses[0] == breaks {
				caught = true
			}
		default:
			t.Errorf("fault %s: %s: %s: %s", fault, r.ID, r.Outcome, r.Message)
		}
	}
	if !caught {
		t.Errorf("fault %s (breaks %s) is caught by no case citing that clause", fault, breaks)
	}
}

// TestDocsListEveryCaseAndFault keeps docs/client-mode.md in step with the
// case table and the fault switches.
func TestDocsListEveryCaseAndFault(t *testing.T) {
	doc, err := os.ReadFile("../docs/client-mode.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Cases {
		if !strings.Contains(string(doc), "`"+c.ID+"`") {
			t.Errorf("docs/client-mode.md does not list case %s", c.ID)
		}
	}
	for _, f := range Faults {
		if !strings.Contains(string(doc), "`"+f.Name+"`") {
			t.Errorf("docs/client-mode.md does not list fault %s", f.Name)
		}
	}
}

// TestServeAdapter: the adapter loop answers each intent with its id and
// answers a line that is not an intent with an error.
func TestServeAdapter(t *testing.T) {
	in := strings.NewReader(`{"id":1,"op":"init","secret":"` + NewKeys().UserSK + `"}` + "\nnot json\n" + `{"id":3,"op":"bogus"}` + "\n")
	var out strings.Builder
	if err := ServeAdapter(context.Background(), in, &out, &Reference{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || lines[0] != `{"id":1,"protocol":3}` || !strings.Contains(lines[1], `"error":"not an intent`) || !strings.Contains(lines[2], `"id":3,"error":"unknown op`) {
		t.Errorf("answers: %q", lines)
	}
}

// shAdapter is a tiny adapter in sh: it answers init with initAnswer and
// every other intent with answer ("ID" is replaced by the intent's id).
func shAdapter(initAnswer, answer string) string {
	return `while IFS= read -r line; do id=$(printf '%s' "$line" | sed 's/^{"id":\([0-9]*\).*/\1/'); ` +
		`case "$line" in *'"op":"init"'*) a='` + initAnswer + `';; *) a='` + answer + `';; esac; ` +
		`printf '%s\n' "$a" | sed "s/ID/$id/"; done`
}

// TestProtocolVersions: a v1 adapter (init answered without "protocol")
// gets unsupported for a v2 intent, never a harness error; a v2 adapter's
// unsupported answer ends the case unsupported with its reason, and its
// evidence is in the report.
func TestProtocolVersions(t *testing.T) {
	c, _ := Lookup("client/nip29/state-foreign-signer")
	o := Options{Timeout: 5 * time.Second, Command: shAdapter(`{"id":ID}`, `{"id":ID,"error":"unknown op"}`)}
	if r := RunCase(context.Background(), c, o); r.Outcome != reports.Unsupported || !strings.Contains(r.Message, "protocol version 2") {
		t.Errorf("v1 adapter on a v2 intent: %s: %s", r.Outcome, r.Message)
	}
	o.Command = shAdapter(`{"id":ID,"protocol":2}`, `{"id":ID,"unsupported":"the library has no NIP-29 reader","evidence":{"library":"demo 1.0"}}`)
	r := RunCase(context.Background(), c, o)
	if r.Outcome != reports.Unsupported || !strings.Contains(r.Message, "the library has no NIP-29 reader") {
		t.Errorf("unsupported answer: %s: %s", r.Outcome, r.Message)
	}
	if !slices.ContainsFunc(r.Notes, func(n string) bool {
		return strings.Contains(n, `evidence (intent 2 read-group): {"library":"demo 1.0"}`)
	}) {
		t.Errorf("evidence not in the notes: %q", r.Notes)
	}
	// A v1 adapter still runs v1 cases.
	lc, _ := Lookup("client/labels/explicit-rejection")
	o.Command = shAdapter(`{"id":ID}`, `{"id":ID,"outcome":"rejected"}`)
	if r := RunCase(context.Background(), lc, o); r.Outcome != reports.Pass {
		t.Errorf("v1 adapter on a v1 case: %s: %s", r.Outcome, r.Message)
	}
}

// TestRepeatFlaky: a client that answers differently across runs of one
// case is reported as a flaky failure with the tally.
func TestRepeatFlaky(t *testing.T) {
	lc, _ := Lookup("client/labels/explicit-rejection")
	state := filepath.Join(t.TempDir(), "n")
	// Even runs say rejected (right), odd runs unknown (wrong).
	cmd := `n=$(cat ` + state + ` 2>/dev/null || echo 0); echo $((n+1)) > ` + state + `; ` +
		`if [ $((n % 2)) = 0 ]; then o=rejected; else o=unknown; fi; ` + shAdapter(`{"id":ID}`, `{"id":ID,"outcome":"'$o'"}`)
	r := RunCase(context.Background(), lc, Options{Timeout: 5 * time.Second, Command: cmd, Repeat: 4})
	if r.Outcome != reports.Fail || !strings.Contains(r.Message, "flaky") || !strings.Contains(r.Message, "2 pass, 2 fail") {
		t.Errorf("flaky client: %s: %s", r.Outcome, r.Message)
	}
	r = RunCase(context.Background(), lc, Options{Timeout: 5 * time.Second, Command: shAdapter(`{"id":ID}`, `{"id":ID,"outcome":"rejected"}`), Repeat: 3})
	if r.Outcome != reports.Pass || !slices.Contains(r.Notes, "repeated 3 times, every run pass") {
		t.Errorf("steady client: %s: %s %q", r.Outcome, r.Message, r.Notes)
	}
}

// TestRunCasesParallelOrder: cases run at once report in the order of the
// case table, each result handed to the callback in that order, and every
// result says how long the harness waited for the client.
func TestRunCasesParallelOrder(t *testing.T) {
	cases := Selected("labels")[:8]
	var seen []string
	res := RunCases(context.Background(), cases, Options{Parallel: 4, Timeout: 5 * time.Second, Wait: 300 * time.Millisecond}, func(r reports.CaseResult) {
		seen = append(seen, r.ID)
	})
	if len(res) != len(cases) || len(seen) != len(cases) {
		t.Fatalf("%d results, %d callbacks, want %d", len(res), len(seen), len(cases))
	}
	for i, c := range cases {
		if res[i].ID != c.ID || seen[i] != c.ID {
			t.Errorf("result %d: %s (callback %s), want %s", i, res[i].ID, seen[i], c.ID)
		}
		if !slices.ContainsFunc(res[i].Notes, func(n string) bool { return strings.HasPrefix(n, "waited for the client: ") }) {
			t.Errorf("%s: no waiting time in the notes: %q", c.ID, res[i].Notes)
		}
	}
}

// TestFieldKnowledge: a read-group field the adapter marks unsupported
// ends the case unsupported (never a failure); one marked unknown is
// judged as showing nothing; a field status outside the protocol is a
// harness error; evidence prints "<nil>" as such.
func TestFieldKnowledge(t *testing.T) {
	run := func(id, answer string) reports.CaseResult {
		c, _ := Lookup(id)
		return RunCase(context.Background(), c, Options{Timeout: 5 * time.Second, Command: shAdapter(`{"id":ID,"protocol":3}`, answer)})
	}
	group := `"known":true,"group":{"name":"Build Systems"}`
	if r := run("client/nip29/admins-foreign-signer", `{"id":ID,`+group+`,"fields":{"admins":"unsupported"},"evidence":"\u003cnil\u003e: no 39001 reader"}`); r.Outcome != reports.Unsupported || !strings.Contains(r.Message, "does not read admins") {
		t.Errorf("admins unsupported: %s: %s", r.Outcome, r.Message)
	} else if !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "<nil>: no 39001 reader") }) {
		t.Errorf("evidence not unescaped: %q", r.Notes)
	}
	// Unknown admins: the client took no admin list, which breaks no
	// trust rule; the same unknown fails the several-roles case.
	if r := run("client/nip29/admins-foreign-signer", `{"id":ID,`+group+`,"fields":{"admins":"unknown"}}`); r.Outcome != reports.Pass {
		t.Errorf("admins unknown, trust case: %s: %s", r.Outcome, r.Message)
	}
	if r := run("client/nip29/admins-several-roles", `{"id":ID,`+group+`,"fields":{"admins":"unknown"}}`); r.Outcome != reports.Fail || !strings.Contains(r.Message, "admins unknown") {
		t.Errorf("admins unknown, several-roles case: %s: %s", r.Outcome, r.Message)
	}
	if r := run("client/nip29/admins-foreign-signer", `{"id":ID,`+group+`,"fields":{"admins":"maybe"}}`); r.Outcome != reports.HarnessError {
		t.Errorf("bad field status: %s: %s", r.Outcome, r.Message)
	}
	// An honest "do not know" about membership is no assumption.
	if r := run("client/nip29/subgroup-membership-not-inherited", `{"id":ID}`); r.Outcome != reports.Pass {
		t.Errorf("am-member unknown, not-inherited case: %s: %s", r.Outcome, r.Message)
	}
	// A v2 adapter does not get the v3 remove-user intent.
	c, _ := Lookup("client/nip29/remove-user-ok-delayed-false")
	r := RunCase(context.Background(), c, Options{Timeout: 5 * time.Second, Command: shAdapter(`{"id":ID,"protocol":2}`, `{"id":ID,"outcome":"committed"}`)})
	if r.Outcome != reports.Unsupported || !strings.Contains(r.Message, "protocol version 3") {
		t.Errorf("v2 adapter, v3 intent: %s: %s", r.Outcome, r.Message)
	}
}

// TestScriptedRelayChecks: the scripted relay keeps the newest events up
// to a filter's limit (unless it ignores limit) and verifies AUTH events
// as NIP-42 tells relays to.
func TestScriptedRelayChecks(t *testing.T) {
	k := NewKeys()
	old := meta(k.RelaySK, baseTime, "old")
	mid := meta(k.RelaySK, baseTime+5, "mid")
	newest := meta(k.RelaySK, baseTime+10, "new")
	s := Script{Match: true, Events: func(Keys) []nostr.Event { return []nostr.Event{old, newest, mid} }}
	r := &Relay{Keys: k, script: s, URL: "ws://127.0.0.1:4242"}
	names := func(evs []nostr.Event) (out []string) {
		for _, ev := range evs {
			out = append(out, ev.Tags.Find("name")[1])
		}
		return out
	}
	if got := names(r.answer([]nostr.Filter{{Kinds: []int{39000}, Limit: 2}})); !slices.Equal(got, []string{"new", "mid"}) {
		t.Errorf("limit 2: %v, want the two newest in script order [new mid]", got)
	}
	r.script.IgnoreLimit = true
	if got := names(r.answer([]nostr.Filter{{Kinds: []int{39000}, Limit: 1}})); len(got) != 3 {
		t.Errorf("ignoring limit: %v, want all three", got)
	}
	r.challenges = []string{"c1", "c2"}
	auth := func(challenge, relay string, at nostr.Timestamp) nostr.Event {
		ev := nostr.Event{Kind: 22242, CreatedAt: at, Tags: nostr.Tags{{"relay", relay}, {"challenge", challenge}}}
		ev.Sign(k.UserSK)
		return ev
	}
	for _, c := range []struct {
		ev     nostr.Event
		refuse string
		stale  bool
	}{
		{auth("c2", "ws://127.0.0.1:4242/", nostr.Now()), "", false},
		{auth("c1", "ws://127.0.0.1:4242", nostr.Now()), "earlier connection", true},
		{auth("c2", "ws://example.com", nostr.Now()), "relay tag", false},
		{auth("c2", "ws://127.0.0.1:4242", nostr.Now()-3600), "ten minutes", false},
	} {
		got := r.checkAuth(c.ev, 2, "c2")
		if (c.refuse == "") != (got.Refused == "") || !strings.Contains(got.Refused, c.refuse) || got.Stale != c.stale {
			t.Errorf("AUTH %v: refused %q stale %v, want %q stale %v", c.ev.Tags, got.Refused, got.Stale, c.refuse, c.stale)
		}
	}
}
