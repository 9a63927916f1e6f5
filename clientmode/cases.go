package clientmode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/clause"
)

// Case is one client conformance case: a relay script, the intents handed
// to the client, and the judgement of its answers and wire traffic.
type Case struct {
	ID          string       // client/<profile>/<slug>
	Profile     string       // labels or identity
	Clause      string       // the client clause it cites (clause.LookupClause)
	Level       clause.Level // case level: the clause level's CaseLevel (MUST for MUST, MUST NOT and RULE clauses; SHOULD)
	Requirement string       // one line, our own words
	Script      Script
	// Second, when set, is a second scripted relay with its own self key
	// (the same user); an op written "read-labels@2" goes to it.
	Second *Script
	Ops    []string // intent ops, in order, after init
	Judge  func(j *Judging) error
	// Group is the group id of NIP-29 intents (GroupID when empty); Code
	// the invite code a join intent carries.
	Group, Code string
	// Reading, when set, says how the case reads a sentence that leaves a
	// choice open (shown in the report).
	Reading string
	// Runs, when above one, is how many times the case runs by default
	// (--repeat raises it, never lowers it): the rule under test is about
	// a race, which one run may miss; runs that disagree fail as flaky.
	Runs int
}

// Judging is what a case's judgement looks at.
type Judging struct {
	Keys    Keys
	Channel string
	Answers []Answer // one per op, in order
	Events  []json.RawMessage
	Filters []json.RawMessage
	Script  Script
	Group   string
	// SecondURL and SecondFilters: the second scripted relay, when the
	// case has one.
	SecondURL     string
	SecondFilters []json.RawMessage
	// Auths are the client's AUTH events on the (first) scripted relay
	// and what it made of them.
	Auths    []AuthCheck
	readings []string
}

// Saw records which careful reading a client took (shown in the report).
func (j *Judging) Saw(reading string) { j.readings = append(j.readings, reading) }

// Channel is the channel every labels case talks about.
const Channel = "42fdbd94-13e6-4f82-b065-5812e4a02a8b"

// NewChannel is the UUID the create cases create.
const NewChannel = "9b1c3a52-6f0e-4d7a-8c21-3e5f7a9d0b14"

// Label is the label the add-label cases add; FindLabel the one find looks for.
const (
	Label     = "status:active"
	FindLabel = "support"
	baseTime  = 1760000000
)

func snap(sk string, created int64, labels []string, extra ...nostr.Tag) nostr.Event {
	tags := nostr.Tags{{"d", Channel}, {"t", "stream"}, {"name", "Build Systems"}}
	if len(labels) > 0 {
		tags = append(tags, nostr.Tag{"L", "nip-cl"})
	}
	for _, l := range labels {
		tags = append(tags, nostr.Tag{"l", l, "nip-cl"})
	}
	tags = append(tags, extra...)
	ev := nostr.Event{Kind: 39000, CreatedAt: nostr.Timestamp(created), Tags: tags}
	ev.Sign(sk)
	return ev
}

// good is the valid older snapshot the snapshot cases fall back to.
func good(k Keys) nostr.Event { return snap(k.RelaySK, baseTime, []string{"team:infra"}) }

func wantOutcome(want string) func(*Judging) error {
	return func(j *Judging) error {
		if got := j.Answers[0].Outcome; got != want {
			return fmt.Errorf("client reported %q, expected %q", got, want)
		}
		return nil
	}
}

// sameEvent: every submission is the same signed event, byte for byte.
func sameEvent(min int) func(*Judging) error {
	return func(j *Judging) error {
		if len(j.Events) < min {
			return fmt.Errorf("client sent the command %d time(s), expected at least %d (it must resend while the outcome is uncertain)", len(j.Events), min)
		}
		for i, e := range j.Events[1:] {
			if !bytes.Equal(compact(e), compact(j.Events[0])) {
				var a, b nostr.Event
				json.Unmarshal(j.Events[0], &a)
				json.Unmarshal(e, &b)
				return fmt.Errorf("retry %d is not the stored signed event: id %s, first attempt %s", i+1, b.ID, a.ID)
			}
		}
		return nil
	}
}

func compact(b []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}

func all(fs ...func(*Judging) error) func(*Judging) error {
	return func(j *Judging) error {
		for _, f := range fs {
			if err := f(j); err != nil {
				return err
			}
		}
		return nil
	}
}

func wantLabels(want []string) func(*Judging) error {
	return func(j *Judging) error {
		a := j.Answers[0]
		if !a.Known {
			return fmt.Errorf("client shows no label set, expected %v from the valid relay-signed snapshot", want)
		}
		got := slices.Clone(a.Labels)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			return fmt.Errorf("client shows labels %v, expected %v", a.Labels, want)
		}
		return nil
	}
}

func wantNoLabels(j *Judging) error {
	if a := j.Answers[0]; a.Known {
		return fmt.Errorf("client shows labels %v from a snapshot it must discard (expected no label set, not an empty one)", a.Labels)
	}
	return nil
}

func noEvents(j *Judging) error {
	if len(j.Events) > 0 {
		return fmt.Errorf("client sent %d label command(s) to a relay without nip-cl in supported_extensions", len(j.Events))
	}
	return nil
}

func wantKind(kind int) func(*Judging) error {
	return func(j *Judging) error {
		var ev nostr.Event
		if len(j.Events) == 0 || json.Unmarshal(j.Events[0], &ev) != nil || ev.Kind != kind {
			return fmt.Errorf("expected a kind %d command on the wire, got kind %d", kind, ev.Kind)
		}
		return nil
	}
}

func replies(r ...Reply) []Reply { return r }

func events(f func(k Keys) []nostr.Event) func(Keys) []nostr.Event { return f }

// Cases is the client case table: the drafts' cases, then NIP-29's.
var Cases = slices.Concat(draftCases, nip29Cases)

// draftCases are the client cases of the NIP-CL drafts.
var draftCases = []Case{
	{ID: "client/labels/retry-same-event", Profile: "labels", Clause: "labels/responses.18", Level: "MUST",
		Requirement: "After a lost OK (disconnect) the client resends the very same signed event and reports Committed on the positive OK.",
		Script:      Script{Replies: replies(Reply{Drop: true}, Reply{OK: true})},
		Ops:         []string{OpAddLabel},
		Judge:       all(sameEvent(2), wantOutcome(Committed))},
	{ID: "client/labels/no-new-id-for-unknown", Profile: "labels", Clause: "labels/responses.21", Level: "MUST",
		Requirement: "Answered error: nip-cl-unknown every time, the client never signs a new event and reports Unknown.",
		Script:      Script{Replies: replies(Reply{Msg: "error: nip-cl-unknown application evidence unavailable"})},
		Ops:         []string{OpAddLabel},
		Judge:       all(sameEvent(1), wantOutcome(Unknown))},
	{ID: "client/labels/generic-refusal-unknown", Profile: "labels", Clause: "labels/responses.4", Level: "MUST",
		Requirement: "A refusal without a nip-cl marker (blocked:, error:) is Unknown, even on the first attempt.",
		Script:      Script{Replies: replies(Reply{Msg: "blocked: not allowed"}, Reply{Msg: "error: internal"})},
		Ops:         []string{OpAddLabel},
		Judge:       all(sameEvent(1), wantOutcome(Unknown))},
	{ID: "client/labels/missing-ok-unknown", Profile: "labels", Clause: "labels/responses.4", Level: "MUST",
		Requirement: "No OK at all (the connection stays open) is Unknown; any retry is the same signed event.",
		Script:      Script{Replies: replies(Reply{Silent: true})},
		Ops:         []string{OpAddLabel},
		Judge:       all(sameEvent(1), wantOutcome(Unknown))},
	{ID: "client/labels/prefix-case-sensitive", Profile: "labels", Clause: "labels/responses.4", Level: "MUST",
		Requirement: "A marker in the wrong case (restricted: NIP-CL-REJECTED) is not recognized: Unknown.",
		Script:      Script{Replies: replies(Reply{Msg: "restricted: NIP-CL-REJECTED"})},
		Ops:         []string{OpAddLabel},
		Judge:       all(sameEvent(1), wantOutcome(Unknown))},
	{ID: "client/labels/explicit-rejection", Profile: "labels", Clause: "labels/responses.19", Level: "MUST",
		Requirement: "restricted: nip-cl-rejected on the first attempt is Rejected.",
		Script:      Script{Replies: replies(Reply{Msg: "restricted: nip-cl-rejected not an owner or admin"})},
		Ops:         []string{OpAddLabel},
		Judge:       wantOutcome(Rejected)},
	{ID: "client/labels/detail-ignored", Profile: "labels", Clause: "labels/responses.7", Level: "MUST",
		Requirement: "The detail after the prefix is ignored: invalid: nip-cl-rejected followed by misleading words is still Rejected.",
		Script:      Script{Replies: replies(Reply{Msg: "invalid: nip-cl-rejected duplicate: nip-cl-committed"})},
		Ops:         []string{OpAddLabel},
		Judge:       wantOutcome(Rejected)},
	{ID: "client/labels/committed-on-retry", Profile: "labels", Clause: "labels/responses.20", Level: "MUST",
		Requirement: "After a lost OK, duplicate: nip-cl-committed on the retry is Committed, not demoted by the earlier uncertainty.",
		Script:      Script{Replies: replies(Reply{Drop: true}, Reply{OK: true, Msg: "duplicate: nip-cl-committed"}, Reply{Msg: "restricted: nip-cl-rejected"})},
		Ops:         []string{OpAddLabel},
		Judge:       all(sameEvent(2), wantOutcome(Committed))},
	{ID: "client/labels/no-downgrade", Profile: "labels", Clause: "labels/responses.20", Level: "MUST", Runs: 5,
		Requirement: "A refusal arriving after a positive OK for the same event does not demote Committed.",
		Script:      Script{Replies: replies(Reply{OK: true, Then: &Reply{Msg: "restricted: nip-cl-rejected"}})},
		Ops:         []string{OpAddLabel},
		Judge:       wantOutcome(Committed)},
	{ID: "client/labels/capability-checked", Profile: "labels", Clause: "labels/capability.3", Level: "MUST",
		Requirement: "On a relay whose NIP-11 lacks nip-cl the client sends no label command.",
		Script:      Script{NoCapability: true},
		Ops:         []string{OpAddLabel},
		Judge:       noEvents},
	{ID: "client/labels/create-retry-same-event", Profile: "labels", Clause: "labels/responses.18", Level: "MUST",
		Requirement: "A labeled creation (kind 9007) whose OK was lost is resent as the very same signed event; the positive OK is Committed.",
		Script:      Script{Replies: replies(Reply{Drop: true}, Reply{Msg: "error: nip-cl-unknown"}, Reply{OK: true, Msg: "duplicate: nip-cl-committed"})},
		Ops:         []string{OpCreate},
		Judge:       all(sameEvent(3), wantKind(9007), wantOutcome(Committed))},
	{ID: "client/labels/create-capability-checked", Profile: "labels", Clause: "labels/capability.3", Level: "MUST",
		Requirement: "On a relay whose NIP-11 lacks nip-cl the client sends no labeled creation.",
		Script:      Script{NoCapability: true},
		Ops:         []string{OpCreate},
		Judge:       noEvents},
	{ID: "client/labels/labels-from-snapshot", Profile: "labels", Clause: "labels/snapshot.11", Level: "MUST",
		Requirement: "Labels come from the relay-signed 39000 only, never from stored kind 9002 commands served alongside it.",
		Script: Script{Events: events(func(k Keys) []nostr.Event {
			cmd := nostr.Event{Kind: 9002, CreatedAt: baseTime + 20, Tags: nostr.Tags{{"h", Channel}, {"add-label", "team:pending"}}}
			cmd.Sign(k.UserSK)
			return []nostr.Event{good(k), cmd}
		})},
		Ops: []string{OpReadLabels}, Judge: wantLabels([]string{"team:infra"})},
	{ID: "client/labels/snapshot-foreign-signer", Profile: "labels", Clause: "labels/snapshot.12", Level: "MUST",
		Requirement: "A newer snapshot validly signed by a key other than the relay's self is not accepted.",
		Script: Script{Events: events(func(k Keys) []nostr.Event {
			return []nostr.Event{good(k), snap(k.StrangerSK, baseTime+10, []string{"team:evil"})}
		})},
		Ops: []string{OpReadLabels}, Judge: wantLabels([]string{"team:infra"})},
	{ID: "client/labels/snapshot-client-signed", Profile: "labels", Clause: "labels/snapshot.12", Level: "MUST",
		Requirement: "A newer 39000 signed by the user's own key is not accepted: only the relay's key is authoritative.",
		Script: Script{Events: events(func(k Keys) []nostr.Event {
			return []nostr.Event{good(k), snap(k.UserSK, baseTime+10, []string{"team:mine"})}
		})},
		Ops: []string{OpReadLabels}, Judge: wantLabels([]string{"team:infra"})},
	{ID: "client/labels/snapshot-bad-signature", Profile: "labels", Clause: "labels/snapshot.12", Level: "MUST",
		Requirement: "A newer snapshot whose ID or signature does not verify is not accepted.",
		Script: Script{Events: events(func(k Keys) []nostr.Event {
			bad := snap(k.RelaySK, baseTime+10, []string{"team:forged"})
			bad.Tags = append(bad.Tags, nostr.Tag{"name", "tampered"})
			return []nostr.Event{good(k), bad}
		})},
		Ops: []string{OpReadLabels}, Judge: wantLabels([]string{"team:infra"})},
	{ID: "client/labels/snapshot-two-d", Profile: "labels", Clause: "labels/snapshot.13", Level: "MUST",
		Requirement: "A newer snapshot with two d tags is discarded.",
		Script: Script{Events: events(func(k Keys) []nostr.Event {
			return []nostr.Event{good(k), snap(k.RelaySK, baseTime+10, []string{"team:other"}, nostr.Tag{"d", "other"})}
		})},
		Ops: []string{OpReadLabels}, Judge: wantLabels([]string{"team:infra"})},
	{ID: "client/labels/snapshot-unsorted", Profile: "labels", Clause: "labels/snapshot.7", Level: "MUST",
		Requirement: "A newer snapshot with unsorted l tags is discarded whole, not partly accepted.",
		Script: Script{Events: events(func(k Keys) []nostr.Event {
			return []nostr.Event{good(k), snap(k.RelaySK, baseTime+10, []string{"zz:last", "aa:first"})}
		})},
		Ops: []string{OpReadLabels}, Judge: wantLabels([]string{"team:infra"})},
	{ID: "client/labels/snapshot-noncanonical-value", Profile: "labels", Clause: "labels/snapshot.7", Level: "MUST",
		Requirement: "A newer snapshot carrying a value outside the label pattern (uppercase) is discarded whole.",
		Script: Script{Events: events(func(k Keys) []nostr.Event {
			return []nostr.Event{good(k), snap(k.RelaySK, baseTime+10, []string{"Team:Infra", "team:infra"})}
		})},
		Ops: []string{OpReadLabels}, Judge: wantLabels([]string{"team:infra"})},
	{ID: "client/labels/unknown-values-kept", Profile: "labels", Clause: "labels/values-and-limits.4", Level: "MUST",
		Requirement: "Valid label values the client does not recognize are kept and shown.",
		Script: Script{Events: events(func(k Keys) []nostr.Event {
			return []nostr.Event{snap(k.RelaySK, baseTime, []string{"0x.vendor/odd_thing-1", "team:infra", "zz:9"})}
		})},
		Ops: []string{OpReadLabels}, Judge: wantLabels([]string{"0x.vendor/odd_thing-1", "team:infra", "zz:9"})},
	{ID: "client/labels/snapshot-discard-not-empty", Profile: "labels", Clause: "labels/snapshot.13", Level: "MUST",
		Requirement: "When the only snapshot is noncanonical (two d tags) the client has no label set, not an empty one.",
		Script: Script{Events: events(func(k Keys) []nostr.Event {
			return []nostr.Event{snap(k.RelaySK, baseTime, []string{"team:infra"}, nostr.Tag{"d", "other"})}
		})},
		Ops: []string{OpReadLabels}, Judge: wantNoLabels},
	{ID: "client/labels/snapshot-no-rollback", Profile: "labels", Clause: "labels/snapshot.15", Level: "MUST",
		Requirement: "Read three times: the first read serves a newer snapshot, the second only the older one, the third a newest one; the labels never roll back and follow the newest.",
		Script: Script{Rounds: []func(Keys) []nostr.Event{
			func(k Keys) []nostr.Event {
				return []nostr.Event{snap(k.RelaySK, baseTime+10, []string{"status:active", "team:infra"})}
			},
			func(k Keys) []nostr.Event { return []nostr.Event{good(k)} },
			func(k Keys) []nostr.Event {
				return []nostr.Event{snap(k.RelaySK, baseTime+20, []string{"status:done", "team:infra"})}
			},
		}},
		Ops: []string{OpReadLabels, OpReadLabels, OpReadLabels}, Judge: func(j *Judging) error {
			want := [][]string{{"status:active", "team:infra"}, {"status:active", "team:infra"}, {"status:done", "team:infra"}}
			why := []string{"the newer snapshot", "the relay now serves only the older snapshot: no rollback", "a newest snapshot arrived: the cache must follow it"}
			for i := range j.Answers {
				jj := *j
				jj.Answers = j.Answers[i:]
				if err := wantLabels(want[i])(&jj); err != nil {
					return fmt.Errorf("read %d (%s): %w", i+1, why[i], err)
				}
			}
			return nil
		}},
	{ID: "client/labels/cache-per-relay", Profile: "labels", Clause: "labels/snapshot.14", Level: "MUST",
		Requirement: "Snapshots are cached per relay identity: a newer snapshot of the same channel ID from one relay does not replace another relay's.",
		Script: Script{Events: events(func(k Keys) []nostr.Event {
			return []nostr.Event{snap(k.RelaySK, baseTime+100, []string{"team:one"})}
		})},
		Second: &Script{Events: events(func(k Keys) []nostr.Event {
			return []nostr.Event{snap(k.RelaySK, baseTime, []string{"team:two"})}
		})},
		Ops: []string{OpReadLabels, OpReadLabels + "@2"}, Judge: func(j *Judging) error {
			if err := wantLabels([]string{"team:one"})(j); err != nil {
				return fmt.Errorf("first relay: %w", err)
			}
			jj := *j
			jj.Answers = j.Answers[1:]
			if err := wantLabels([]string{"team:two"})(&jj); err != nil {
				return fmt.Errorf("second relay (another self key, same channel ID): %w", err)
			}
			return nil
		}},
	{ID: "client/labels/snapshot-tie-lowest-id", Profile: "labels", Clause: "labels/snapshot.14", Level: "MUST",
		Requirement: "Read three times: an older snapshot, then two newer ones with the same created_at lowest ID first, then the same two highest ID first: after the first read the lowest ID's labels win.",
		Script: Script{Rounds: []func(Keys) []nostr.Event{
			func(k Keys) []nostr.Event { return []nostr.Event{good(k)} },
			func(k Keys) []nostr.Event { a, b := tiePair(k); return []nostr.Event{a, b} },
			func(k Keys) []nostr.Event { a, b := tiePair(k); return []nostr.Event{b, a} },
		}},
		Ops: []string{OpReadLabels, OpReadLabels, OpReadLabels}, Judge: func(j *Judging) error {
			lo, _ := tiePair(j.Keys)
			tie, _ := canonicalLabels(lo, Channel)
			want := [][]string{{"team:infra"}, tie, tie}
			why := []string{"the only snapshot", "a tie, lowest ID first", "the same tie, highest ID first"}
			for i := range j.Answers {
				jj := *j
				jj.Answers = j.Answers[i:]
				if err := wantLabels(want[i])(&jj); err != nil {
					return fmt.Errorf("read %d (%s): %w", i+1, why[i], err)
				}
			}
			return nil
		}},
	{ID: "client/labels/every-attempt-dropped", Profile: "labels", Clause: "labels/responses.4", Level: "MUST",
		Requirement: "Every attempt is dropped before an OK (the connection closes): the client never reports Committed; the outcome is Unknown.",
		Script:      Script{Replies: replies(Reply{Drop: true})},
		Ops:         []string{OpAddLabel},
		Judge:       all(sameEvent(1), wantOutcome(Unknown))},

	{ID: "client/identity/choose-oldest", Profile: "identity", Clause: "identity/choosing-one-channel.4", Level: "MUST",
		Requirement: "Among several channels of one creator and label the client picks the smallest created_at tag; untagged ones rank last.",
		Script:      Script{Events: identityEvents},
		Ops:         []string{OpFind}, Judge: wantChannel("ch-oldest")},
	{ID: "client/identity/tag-not-event-time", Profile: "identity", Clause: "identity/creation-time.3", Level: "MUST",
		Requirement: "Channel age comes from the created_at tag, not from the state event's own created_at (an edited old channel stays oldest).",
		Script:      Script{Events: identityPick("ch-newer", "ch-oldest")},
		Ops:         []string{OpFind}, Judge: wantChannel("ch-oldest")},
	{ID: "client/identity/relay-signed-only", Profile: "identity", Clause: "identity/trust.1", Level: "MUST",
		Requirement: "Identity tags of a state event signed by another key are not relied on.",
		Script:      Script{Events: identityPick("ch-forged", "ch-plain")},
		Ops:         []string{OpFind}, Judge: wantChannel("ch-plain")},
	{ID: "client/identity/ensure-uses-existing", Profile: "identity", Clause: "identity/choosing-one-channel.3", Level: "MUST",
		Requirement: "Asked for the one channel of creator and label, the client reuses the existing one and creates nothing.",
		Script:      Script{Events: identityPick("ch-plain")},
		Ops:         []string{OpEnsure}, Judge: all(wantChannel("ch-plain"), func(j *Judging) error {
			if len(j.Events) > 0 {
				return fmt.Errorf("client sent %d event(s) although the query found a channel", len(j.Events))
			}
			return nil
		})},
	{ID: "client/identity/ensure-creates-on-empty", Profile: "identity", Clause: "identity/choosing-one-channel.3", Level: "MUST",
		Requirement: "When the #P+#t query returns nothing the client creates exactly one channel, carrying the label as a t tag.",
		Ops:         []string{OpEnsure}, Judge: all(wantChannel(NewChannel), wantKind(9007), func(j *Judging) error {
			var ev nostr.Event
			json.Unmarshal(j.Events[0], &ev)
			if len(j.Events) != 1 || !slices.ContainsFunc(ev.Tags, func(t nostr.Tag) bool { return len(t) == 2 && t[0] == "t" && t[1] == FindLabel }) {
				return fmt.Errorf("expected one kind 9007 with [t %s], got %d event(s): %s", FindLabel, len(j.Events), j.Events[0])
			}
			return nil
		}, wantFilterPT)},
	{ID: "client/identity/type-from-first-t", Profile: "identity", Clause: "identity/identity-tags.4", Level: "MUST",
		Requirement: "The channel type is the first t tag; every later t tag is a label.",
		Script: Script{Events: events(func(k Keys) []nostr.Event {
			return []nostr.Event{identityState(k, nostr.Tags{{"t", "forum"}, {"t", "support"}, {"t", "ops"}, {"P", k.UserPK}, {"created_at", strconv.Itoa(baseTime)}})}
		})},
		Ops: []string{OpChannel}, Judge: func(j *Judging) error {
			a := j.Answers[0]
			got := slices.Clone(a.Labels)
			slices.Sort(got)
			if a.Type != "forum" || !slices.Equal(got, []string{"ops", "support"}) {
				return fmt.Errorf("client shows type %q and labels %v, expected type forum and labels [ops support]", a.Type, a.Labels)
			}
			return nil
		}},
	{ID: "client/identity/missing-p-unknown", Profile: "identity", Clause: "identity/older-events.2", Level: "MUST",
		Requirement: "A state event without P leaves the creator unknown; it is not guessed from the signer.",
		Script: Script{Events: events(func(k Keys) []nostr.Event {
			return []nostr.Event{identityState(k, nostr.Tags{{"t", "chat"}})}
		})},
		Ops: []string{OpChannel}, Judge: func(j *Judging) error {
			if a := j.Answers[0]; a.Creator != "" {
				return fmt.Errorf("client names %s as the creator of a channel whose state event has no P", a.Creator)
			}
			return nil
		}},
	{ID: "client/identity/p-identifies-creator", Profile: "identity", Clause: "identity/trust.2", Level: "MUST",
		Requirement: "A channel the #P query returns whose P names someone else is not the creator's, whatever its labels.",
		Script: Script{Events: events(func(k Keys) []nostr.Event {
			ev := nostr.Event{Kind: 39000, CreatedAt: baseTime, Tags: nostr.Tags{{"d", "ch-not-yours"}, {"t", "chat"}, {"t", FindLabel}, {"P", k.Stranger}, {"created_at", strconv.Itoa(baseTime - 100)}}}
			ev.Sign(k.RelaySK)
			return append([]nostr.Event{ev}, identityPick("ch-plain")(k)...)
		})},
		Ops: []string{OpFind}, Judge: wantChannel("ch-plain")},
	{ID: "client/identity/no-create-without-capability", Profile: "identity", Clause: "identity/advertising.3", Level: "SHOULD",
		Requirement: "On a relay whose NIP-11 lacks nip-cl the client does not create a labeled channel.",
		Script:      Script{NoCapability: true},
		Ops:         []string{OpEnsure}, Judge: noEvents},
	{ID: "client/identity/query-p-and-t", Profile: "identity", Clause: "identity/choosing-one-channel.3", Level: "MUST",
		Requirement: "The client looks for the channel with a kinds 39000 filter on #P (creator) and #t (label).",
		Script:      Script{Events: identityEvents},
		Ops:         []string{OpFind}, Judge: wantFilterPT},
}

// tiePair is two relay-signed snapshots with the same created_at, the
// lowest ID first (deterministic: an event ID does not depend on the
// signature).
func tiePair(k Keys) (lo, hi nostr.Event) {
	a := snap(k.RelaySK, baseTime+10, []string{"team:a"})
	b := snap(k.RelaySK, baseTime+10, []string{"team:b"})
	if a.ID > b.ID {
		a, b = b, a
	}
	return a, b
}

// identityEvents: four channels of one creator with the label. The
// relay-signed ch-oldest has the smallest tag but was edited last; a
// stranger-signed one claims an even older tag; one has no tag and the
// smallest d.
func identityEvents(k Keys) []nostr.Event {
	mk := func(sk, d string, eventTime int64, tag string) nostr.Event {
		tags := nostr.Tags{{"d", d}, {"t", "chat"}, {"t", FindLabel}, {"P", k.UserPK}}
		if tag != "" {
			tags = append(tags, nostr.Tag{"created_at", tag})
		}
		ev := nostr.Event{Kind: 39000, CreatedAt: nostr.Timestamp(eventTime), Tags: tags}
		ev.Sign(sk)
		return ev
	}
	return []nostr.Event{
		mk(k.RelaySK, "ch-plain", baseTime+10, strconv.Itoa(baseTime+10)),
		mk(k.RelaySK, "ch-newer", baseTime+100, strconv.Itoa(baseTime+50)),
		mk(k.RelaySK, "ch-oldest", baseTime+900, strconv.Itoa(baseTime)),
		mk(k.StrangerSK, "ch-forged", baseTime, strconv.Itoa(baseTime-1000)),
		mk(k.RelaySK, "ch-0-untagged", baseTime-500, ""),
	}
}

// identityState is a relay-signed 39000 for Channel with the given tags
// after its d tag.
func identityState(k Keys, tags nostr.Tags) nostr.Event {
	ev := nostr.Event{Kind: 39000, CreatedAt: baseTime + 30, Tags: append(nostr.Tags{{"d", Channel}}, tags...)}
	ev.Sign(k.RelaySK)
	return ev
}

// identityPick serves only the named channels of identityEvents: each
// identity case isolates one rule.
func identityPick(ds ...string) func(Keys) []nostr.Event {
	return func(k Keys) []nostr.Event {
		var out []nostr.Event
		for _, ev := range identityEvents(k) {
			if d := ev.Tags.Find("d"); d != nil && slices.Contains(ds, d[1]) {
				out = append(out, ev)
			}
		}
		return out
	}
}

func wantChannel(want string) func(*Judging) error {
	return func(j *Judging) error {
		if got := j.Answers[0].Channel; got != want {
			return fmt.Errorf("client chose channel %q, expected %q", got, want)
		}
		return nil
	}
}

func wantFilterPT(j *Judging) error {
	for _, raw := range j.Filters {
		var f nostr.Filter
		if json.Unmarshal(raw, &f) != nil {
			continue
		}
		if slices.Contains(f.Kinds, 39000) && slices.Contains(f.Tags["P"], j.Keys.UserPK) && slices.Contains(f.Tags["t"], FindLabel) {
			return nil
		}
	}
	var fs []string
	for _, f := range j.Filters {
		fs = append(fs, string(f))
	}
	return fmt.Errorf("no REQ filter with kinds [39000], #P [creator] and #t [%s]; filters sent: %s", FindLabel, strings.Join(fs, " "))
}

// Lookup returns the case with the given ID.
func Lookup(id string) (Case, bool) {
	for _, c := range Cases {
		if c.ID == id {
			return c, true
		}
	}
	return Case{}, false
}
