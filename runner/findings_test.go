package runner

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/capability"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/suites"
)

// TestFindingsHandedOnGiveTheSameEnv: a worker that applies the parent's
// findings (through their JSON, as the worker description carries them)
// ends with the env and plan report the probe itself gave: the same keys'
// findings (the worker's own --actor-key keys), state kinds, creator role
// and OK→state delays. Findings that do not match the worker's keys are
// an error, not a silent mix.
func TestFindingsHandedOnGiveTheSameEnv(t *testing.T) {
	hex := fixtures.NewActor("k").SecretKey
	declared, err := parseActorKeys([]string{"creator=" + hex})
	if err != nil {
		t.Fatal(err)
	}
	k := declared[0]
	k.Admitted, k.MayCreate, k.ModeratesForeign, k.Evidence = capability.Yes, capability.Yes, capability.No, []string{"9007: OK true"}
	found := &capability.Findings{Keys: declared, State: map[int]capability.Answer{39000: capability.Yes, 39002: capability.No},
		CreatorRoles: []string{"admin"}, StateDelays: []time.Duration{3 * time.Millisecond}, Deleted: 2,
		Previous: 3, PreviousEvidence: []string{"9000 without references: OK false \"invalid: needs 3 previous references\""}}
	probed, probedRes := &suites.Env{}, reports.PlanResult{}
	recordKeyFindings(probed, found, &probedRes)

	raw, err := json.Marshal(findingsOf(linkProbe{rtt: time.Millisecond, challenge: true}, "labels", "note", found))
	if err != nil {
		t.Fatal(err)
	}
	var f Findings
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	if f.RTT != time.Millisecond || !f.Challenge || f.Profile != "labels" || f.Deleted != 2 {
		t.Errorf("findings lost in JSON: %+v", f)
	}
	mine, err := parseActorKeys([]string{"creator=" + hex})
	if err != nil {
		t.Fatal(err)
	}
	given, givenRes := &suites.Env{Keys: []*fixtures.Actor{mine[0].Actor}}, reports.PlanResult{}
	if err := applyKeyFindings(given, mine, &f, &givenRes); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(probedRes, givenRes) {
		t.Errorf("plan report from handed-on findings:\n%+v\nwant the probe's:\n%+v", givenRes, probedRes)
	}
	if given.KeyCaps[0].Actor != mine[0].Actor || given.KeyCaps[0].Kind() != probed.KeyCaps[0].Kind() ||
		!reflect.DeepEqual(given.ProbedCreatorRoles, []string{"admin"}) || !reflect.DeepEqual(given.StatePublished, probed.StatePublished) ||
		given.Previous != 3 || mine[0].Actor.Previous != 3 {
		t.Errorf("env from handed-on findings differs: %+v", given)
	}
	if err := applyKeyFindings(&suites.Env{}, nil, &f, &reports.PlanResult{}); err == nil {
		t.Error("findings of one key applied to a worker with none: no error")
	}
}

// TestFindingsHandOnTheNIP11Document: the document the probe read comes
// back from the findings' JSON as a fetch would give it (Raw as served),
// and a worker without one, or with one no fetch would accept, fetches.
func TestFindingsHandOnTheNIP11Document(t *testing.T) {
	doc := `{"name":"r","self":"ab","supported_nips":[1,29],"supported_extensions":["nip-cl"],"limitation":{"max_subscriptions":7}}`
	raw, err := json.Marshal(&Findings{NIP11: doc})
	if err != nil {
		t.Fatal(err)
	}
	var f Findings
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	info := f.relayInfo()
	if info == nil || info.Raw != doc || info.Name != "r" || info.Self != "ab" || !info.HasExtension("nip-cl") || !info.Supports(29) ||
		info.Limitation == nil || info.Limitation.MaxSubscriptions != 7 {
		t.Errorf("document handed on: %+v", info)
	}
	big := `{"name":"r","description":"` + strings.Repeat("x", maxHandedNIP11) + `"}`
	if handedNIP11(doc) != doc || handedNIP11(big) != "" {
		t.Errorf("a %d-byte document is handed on, a %d-byte one is not: want the first only", len(doc), len(big))
	}
	for _, f := range []*Findings{nil, {}, {NIP11: "not json"}} {
		if info := f.relayInfo(); info != nil {
			t.Errorf("%+v: %+v, want nil (fetch it)", f, info)
		}
	}
}
