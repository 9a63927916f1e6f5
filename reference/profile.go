package reference

import (
	"fmt"
	"github.com/nipcl/nipcl-conform/clause"
	"slices"

	"github.com/nbd-wtf/go-nostr"
)

// Channel is the relay's authoritative record of one NIP-29 channel, read
// inside the transaction that changes it.
type Channel struct {
	Community  string
	UUID       string
	Type       string // stream|forum|dm|workflow|system
	Visibility string // open|private ("" only while a 9007 is being parsed); private is NIP-29's private flag
	Archived   bool
	Deleted    bool
	Name       string
	About      string
	Picture    string
	Banner     string
	// The NIP-29 flags other than private (see nip29_flags.go).
	Closed     bool   // join requests are not honoured
	Hidden     bool   // 39000-39003 are served to members only
	Restricted bool   // only members may post
	Creator    string // pubkey that signed the creating 9007
	CreatedAt  int64  // relay clock at creation (unix seconds)
	Labels     []string
	Members    map[string]string // pubkey -> owner|admin|member

	// storedMembers is the member list as the database holds it (read by
	// loadChannel or written by saveChannel, in the same transaction), so
	// saveChannel rewrites members only when they changed; nil = unknown.
	// clone shares it: a clone starts out equal to the stored channel.
	storedMembers map[string]string
}

func (ch *Channel) clone() *Channel {
	cp := *ch
	cp.Labels = slices.Clone(ch.Labels)
	cp.Members = make(map[string]string, len(ch.Members))
	for k, v := range ch.Members {
		cp.Members[k] = v
	}
	return &cp
}

// roleOf returns the highest role any of the keys holds ("" = none).
func (ch *Channel) roleOf(keys ...string) string {
	best := ""
	for _, k := range keys {
		if r := ch.Members[k]; roleRank(r) > roleRank(best) {
			best = r
		}
	}
	return best
}

func roleRank(role string) int {
	switch role {
	case roleOwner:
		return 3
	case roleAdmin:
		return 2
	case roleMember:
		return 1
	}
	return 0
}

const (
	roleOwner  = "owner"
	roleAdmin  = "admin"
	roleMember = "member"
)

// reader is who is reading: the connection's community and the pubkeys it
// has authenticated (none = nobody).
type reader struct {
	community string
	pubkeys   []string
	// count is true while the read answers a NIP-45 COUNT.
	count bool
	// faulty is what only fault switches keep about a read.
	faulty readFaults
}

func (rd *reader) has(pk string) bool { return slices.Contains(rd.pubkeys, pk) }

// rejection is a refused EVENT: prefix is the NIP-01 machine-readable prefix
// (invalid, restricted, duplicate, auth-required, error ...).
type rejection struct {
	prefix string
	msg    string
}

func (e *rejection) Error() string { return e.prefix + ": " + e.msg }

func reject(prefix, format string, args ...any) error {
	return &rejection{prefix: prefix, msg: fmt.Sprintf(format, args...)}
}

// profile is the set of hooks where the NIP-CL drafts differ. The core calls
// them and never branches on the profile name itself (khatru-style).
//
// All hooks run on the connection goroutine; tx-taking hooks run inside the
// command's single write transaction, so anything they store commits (or
// rolls back) together with the command and its state events.
type profile interface {
	// name is the Config.Profile value.
	name() string
	// extensions is the NIP-11 supported_extensions array.
	extensions() []string
	// channelTypes lists the channel_type values a 9007 may use.
	channelTypes() []string

	// onCreate validates the profile's tags on a 9007 and records them on ch
	// (labels, defaults). ch.Visibility is "" when the 9007 had no visibility
	// tag; the core defaults it to "open" afterwards. An error rejects the
	// whole event and nothing is applied.
	onCreate(ev *nostr.Event, ch *Channel) error
	// onEdit validates the profile's tags on a 9002 and applies them to ch, a
	// copy of the current state that the core stores if the command succeeds.
	// prev is the state before the command. An error rejects the whole event.
	onEdit(ev *nostr.Event, prev, ch *Channel) error

	// stateTags returns the profile's tags for a relay-signed state event of
	// the given kind (39000..39003), appended after the core's NIP-29 tags.
	stateTags(kind int, ch *Channel) nostr.Tags
	// onMembership runs after a member was added (added=true) or removed in
	// ch, inside the command's transaction (e.g. 44100/44101 notices).
	onMembership(t *txn, ch *Channel, pubkey string, added bool) error

	// readSQL returns an extra SQL condition AND-ed to every stored read (REQ
	// and COUNT) of filter f, with its arguments. It may use the aliases e
	// (events) and c (channels, LEFT JOINed on e.channel; NULL when the event
	// belongs to no channel). "" = no extra condition.
	readSQL(f *nostr.Filter, rd *reader) (string, []any)
	// readMatch is readSQL's rule for live delivery. ch is nil when the event
	// belongs to no channel.
	readMatch(f *nostr.Filter, rd *reader, ev *nostr.Event, ch *Channel) bool

	// okReason may rewrite the reason of the OK answering ev (e.g. fixed
	// receipt prefixes). accepted is the OK's boolean.
	okReason(ev *nostr.Event, accepted bool, reason string) string
	// duplicate answers an EVENT whose id is already stored in the community,
	// inside the write transaction.
	duplicate(t *txn, ev *nostr.Event) (bool, string)

	// selfReadKinds lists kinds whose readers the profile alone decides: the
	// core's channel read-access rule is skipped for them, so readSQL and
	// readMatch must restrict them (identity: 44100/44101 go only to the
	// member in their p tag, even after that member was removed).
	selfReadKinds() []int
	// admitEdit reports whether the profile admits a 9002 that the core's
	// role check refuses (the reference profiles admit none unless a fault
	// switch is on).
	admitEdit(ev *nostr.Event, ch *Channel) bool
	// supportedNIPs may change the NIP-11 supported_nips array.
	supportedNIPs(base []any) []any
}

// commandHooks is optional. A profile that owns the application of some
// group commands (labels: label-only 9002 and the guarantees of h-tagged
// 9007) implements it. prepare runs on the connection goroutine before the
// write lock is taken, outside any transaction (only fault switches that
// read state outside the serialization boundary use it). command runs inside
// the command's transaction after the duplicate check; handled=false leaves
// the event to the core's dispatch, handled=true makes err the outcome.
type commandHooks interface {
	prepare(r *Relay, community string, ev *nostr.Event)
	command(t *txn, ev *nostr.Event) (handled bool, err error)
}

// profiles builds each profile with the relay's fault switches and
// readings. "nip29" is another name of "none" (the harness's profile of
// that name).
var profiles = map[string]func(faultSet, readingSet) profile{
	clause.ProfileNone:     func(faultSet, readingSet) profile { return noneProfile{} },
	clause.ProfileNIP29:    func(faultSet, readingSet) profile { return noneProfile{} },
	clause.ProfileIdentity: newIdentityProfile,
	clause.ProfileLabels:   newLabelsProfile,
}

// noneProfile is plain NIP-29 as the target contract uses it: no NIP-CL.
// The other profiles embed it and override what their draft changes.
type noneProfile struct{}

var _ profile = noneProfile{}

func (noneProfile) name() string         { return clause.ProfileNone }
func (noneProfile) extensions() []string { return []string{} }
func (noneProfile) channelTypes() []string {
	// A relay without NIP-CL refuses channel_type=system.
	return []string{"stream", "forum", "dm", "workflow"}
}

// onCreate: a relay without NIP-CL ignores label tags on create.
func (noneProfile) onCreate(*nostr.Event, *Channel) error { return nil }

// onEdit: a relay without NIP-CL ignores label tags on edit.
func (noneProfile) onEdit(*nostr.Event, *Channel, *Channel) error { return nil }

// stateTags: the channel type rides on 39000 as ["t", type].
func (noneProfile) stateTags(kind int, ch *Channel) nostr.Tags {
	if kind == kindGroupMetadata {
		return nostr.Tags{{"t", ch.Type}}
	}
	return nil
}

func (noneProfile) onMembership(*txn, *Channel, string, bool) error { return nil }

func (noneProfile) readSQL(*nostr.Filter, *reader) (string, []any) { return "", nil }

func (noneProfile) readMatch(*nostr.Filter, *reader, *nostr.Event, *Channel) bool { return true }

func (noneProfile) okReason(_ *nostr.Event, _ bool, reason string) string { return reason }

func (noneProfile) duplicate(*txn, *nostr.Event) (bool, string) {
	return true, "duplicate: already have this event"
}

func (noneProfile) selfReadKinds() []int { return nil }

func (noneProfile) admitEdit(*nostr.Event, *Channel) bool { return false }

func (noneProfile) supportedNIPs(base []any) []any { return base }
