// Package capability learns, once per run and before any case acts, what
// each key the harness may act with is allowed to do on the target: whether
// the relay admits it, whether it may create a group (a bare 9007), and
// whether it may moderate a group it does not administer (a 9000 on a group
// the probe created with another key, reverted at once). Cases then get keys
// by the kind of actor they need (suites.ActorKind), never by position.
package capability

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// Answer is what a probe step observed: yes, no, or not observed.
type Answer string

// The answers of a probe step.
const (
	Unknown Answer = ""
	Yes     Answer = "yes"
	No      Answer = "no"
)

// Role is what a user declares a key to be (--actor-key ROLE=HEX).
type Role string

// The role words of --actor-key.
const (
	// RoleAny: no declaration; the probe decides what the key is used for.
	RoleAny Role = ""
	// RoleCreator: a key that may create groups; it acts as the creator or
	// owner of the cases' groups (and, like any key, as an admin they name).
	RoleCreator Role = "creator"
	// RoleUnprivileged: a key without moderation power over groups it does
	// not administer; it acts as outsider, watcher or member without a role.
	RoleUnprivileged Role = "unprivileged"
)

// Roles lists the role words --actor-key accepts, for help texts.
var Roles = []Role{RoleCreator, RoleUnprivileged}

// ParseRole reads a role word (case-insensitive; "member" and "outsider"
// are accepted for unprivileged, "owner" for creator).
func ParseRole(s string) (Role, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "creator", "owner":
		return RoleCreator, nil
	case "unprivileged", "member", "outsider":
		return RoleUnprivileged, nil
	}
	return RoleAny, fmt.Errorf("unknown key role %q (want creator or unprivileged)", s)
}

// Key is one key and what the probe observed of it.
type Key struct {
	// Actor holds the key; for the generated-keys row it is the key the
	// probe used as the subject (a fresh key, like every generated one).
	Actor *fixtures.Actor
	// Label names the key in reports: "key1" (the first --actor-key, with
	// its public key) or "generated".
	Label string
	// Generated is true for the row that stands for every fresh key.
	Generated bool
	// Declared is the role the user gave the key (--actor-key ROLE=HEX).
	Declared Role
	// Admitted: the relay accepted a write from the key (yes), refused the
	// key itself (auth-required: or AUTH refused: no), or neither showed.
	Admitted Answer
	// MayCreate: the key's bare 9007 was accepted (yes) or refused for the
	// key (restricted:, blocked:, auth-required:: no).
	MayCreate Answer
	// ModeratesForeign: the key's 9000 on a group another key created was
	// accepted (yes) or refused (no).
	ModeratesForeign Answer
	// Evidence is the wire answers the findings rest on, one per step.
	Evidence []string
}

// Contradiction says how the probe contradicted the role the user
// declared for the key ("" when it did not): a key declared unprivileged
// that the probe saw moderate a group it does not administer, or one
// declared a creator whose bare 9007 was refused. The observation wins —
// such a key is never handed out for the declared role — and the report
// says so (Kind), so no advice rests on the declaration.
func (k *Key) Contradiction() string {
	switch {
	case k.Declared == RoleUnprivileged && k.ModeratesForeign == Yes:
		return "declared unprivileged, but the probe saw it moderate a group it does not administer (its 9000 there was accepted): not used as an unprivileged actor"
	case k.Declared == RoleCreator && k.MayCreate == No:
		return "declared creator, but the probe saw its bare 9007 refused: not used as a creator"
	}
	return ""
}

// Kind says what the probe found the key fit for, in report words, with
// the contradiction of its declared role first when there is one.
func (k *Key) Kind() string {
	if c := k.Contradiction(); c != "" {
		return c + "; " + k.observedKind()
	}
	return k.observedKind()
}

func (k *Key) observedKind() string {
	switch {
	case k.Admitted == No:
		return "not admitted"
	case k.MayCreate == Yes && k.ModeratesForeign == Yes:
		return "creator, moderates foreign groups"
	case k.MayCreate == Yes && k.ModeratesForeign == No:
		return "creator, unprivileged elsewhere"
	case k.MayCreate == Yes:
		return "creator"
	case k.ModeratesForeign == Yes:
		return "moderates foreign groups"
	case k.ModeratesForeign == No:
		return "unprivileged"
	case k.MayCreate == No:
		return "may not create groups"
	}
	return "not observed"
}

// FitsCreator reports whether the key may act as a group's creator: it may
// create (or was not refused and was declared a creator).
func (k *Key) FitsCreator() bool {
	if k.Admitted == No || k.MayCreate == No || k.Declared == RoleUnprivileged {
		return false
	}
	return k.MayCreate == Yes || k.Declared == RoleCreator || k.Generated
}

// FitsUnprivileged reports whether the key may act as a key without
// moderation power: the probe saw its foreign 9000 refused, or (not
// observed) the user declared it unprivileged, or it is a fresh key whose
// power could not be probed (it is what every case used before the probe).
func (k *Key) FitsUnprivileged() bool {
	if k.Admitted == No || k.ModeratesForeign == Yes || k.Declared == RoleCreator {
		return false
	}
	return k.ModeratesForeign == No || k.Declared == RoleUnprivileged || k.Generated
}

// FitsAny reports whether the key may act at all.
func (k *Key) FitsAny() bool { return k.Admitted != No }

// Findings are what the probe saw: each key, and which state kinds the
// relay publishes for a new group (a relay-wide precondition, judged here
// once, never from a case's later state).
type Findings struct {
	Keys []*Key
	// State maps 39000, 39001 and 39002 to yes (published for the probe's
	// new group), no, or absent (not observed: no group, or a read failed).
	State         map[int]Answer
	StateEvidence []string
	// CreatorRoles are the roles the probe's own 39001 gave the group's
	// creator, every non-empty one in the relay's order (nil when none was
	// seen): the relay's moderating role set (NIP-29: "Each admin is listed
	// along with one or more roles", in no order the text gives), for
	// cases whose own group's 39001 is gone (NIP-29 allows none).
	CreatorRoles []string
	// StateDelays are the delays the probe measured between an OK and the
	// state event it produced (its 9002's OK → the 39000 showing it): the
	// first samples of the cases' settle windows (suites/framework).
	StateDelays []time.Duration
	// Deleted counts the probe's groups it deleted (9008) before it
	// returned; Undeleted names those it could not, and why.
	Deleted   int
	Undeleted []string
	// Answered: the relay answered at least one of the probe's writes with
	// an OK (accepted or refused), so it is not silent even when no
	// answer said what a key may do (a pow: or rate-limited: refusal).
	Answered bool
	// Previous is how many NIP-29 timeline references the relay was seen
	// to require on a group event (a probe event without them refused
	// with words of previous references, accepted with them; 0 = not
	// seen): the run's actors then send them (fixtures.Actor.Previous).
	// PreviousEvidence is the wire answers that showed it, or that showed
	// a refusal that was not taken for enforcement.
	Previous         int
	PreviousEvidence []string
}

// Target is how the probe reaches the relay.
type Target struct {
	URL string
	// AuthRelayURL is the relay's own URL, signed into the AUTH relay tag
	// (behind a delay proxy or a tunnel it differs from URL; "" = URL).
	AuthRelayURL  string
	AuthOnConnect bool
	StepTimeout   time.Duration
	// Pace, when set, is called before every write (safe mode's rate).
	Pace func(ctx context.Context) error
	// Transcript, when set, receives the probe's wire traffic.
	Transcript *fixtures.Transcript
	// Header holds extra HTTP headers for every WebSocket upgrade (--header).
	Header http.Header
	// CommandTags are extra tags every command of the probe carries
	// (--command-tag; a deployment's own admission tags).
	CommandTags nostr.Tags
	// PoW is the NIP-13 difficulty the probe's events are mined to.
	PoW int
}
