package framework

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL

	"github.com/nipcl/nipcl-conform/capability"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/reports"
)

// Precondition is something the harness needs of a target to drive its
// scenarios and that no NIP or draft requires of a relay (the target
// contract). A target that does not meet one is incompatible with the
// scenarios that need it, not non-conforming: the cases are reported
// "blocked" with what the harness needs and how to adapt, never "fail".
type Precondition struct {
	ID    string // stable, e.g. "create-group"
	Need  string // what the harness needs, in our words
	Adapt string // how a relay operator or the harness's flags can meet it
}

// The preconditions of the target contract.
var (
	PreCreateGroup = Precondition{"create-group",
		"a fresh key's bare 9007 (h tag only) creates a group",
		"let any authenticated key create groups, or pass --actor-key with keys the relay lets create groups"}
	PreAdmitKeys = Precondition{"admit-keys",
		"the relay accepts writes from the harness's keys",
		"pass --actor-key with keys the relay admits (one per actor a case needs)"}
	PreModerator = Precondition{"moderator-role",
		"the creator of a group holds a role that may moderate it (put/remove users, edit metadata)",
		"give group creators a moderating role, or name the relay's roles with --role-map admin=ROLE"}
	PreEditMetadata = Precondition{"edit-metadata",
		"the group's creator can set its metadata and flags with a NIP-29 9002",
		"accept 9002 from the group's creator, or give creators a role that may edit metadata"}
	PreStateEvents = Precondition{"state-events",
		"the relay publishes a 39000 for each group, readable by #d",
		"publish relay-signed 39000 metadata events (NIP-29 marks them optional, but every group scenario reads them)"}
	PreAdminsList = Precondition{"admins-list",
		"the relay publishes a 39001 admin list for each group, readable by #d",
		"publish 39001 (NIP-29 makes it optional), or name the relay's moderating role with --role-map admin=ROLE"}
	PreMembersList = Precondition{"members-list",
		"the relay publishes a 39002 member list the group's admins can read",
		"publish 39002 (NIP-29 makes it optional), or leave these cases blocked"}
	PreReadServed = Precondition{"read-served",
		"the relay serves the REQ shape the case reads with",
		"serve that filter shape; the refusal's reason is quoted in the case"}
	PreDeleteGroup = Precondition{"delete-group",
		"a group's creator can delete it with 9008",
		"accept 9008 from the group's creator (safe mode needs it to clean up)"}
	PreHostKey = Precondition{"host-key",
		"a second community (--host) that admits the key the harness signs with there (a fresh channel created there is accepted)",
		"pass --host-key HOST=HEX with a key that community admits (communities that admit different keys), or name a second community that admits the harness's keys"}
	PreRateLimit = Precondition{"rate-limit",
		"the relay accepts the harness's writes at the pace it sends them",
		"the relay answered a write with a rate limit (rate-limited:, or words of a rate limit): run again with --rate N below the relay's limit (writes per second, global across workers), and --parallel 1"}
	PreProofOfWork = Precondition{"proof-of-work",
		"the relay accepts writes without NIP-13 proof of work",
		"the relay requires NIP-13 proof of work on the harness's writes (pow:, or words of proof of work): run again with --pow N, N the difficulty its refusal names (the harness mines a nonce tag on every event it signs; it mines on its own only what NIP-11 limitation.min_pow_difficulty publishes, up to 16 bits); no --actor-key can satisfy it"}
	PreTimeline = Precondition{"timeline-references",
		"the relay accepts the harness's group events with the NIP-29 timeline references it can supply (the first 8 hex digits of events by other keys among the group's last 50 it can read)",
		"the relay requires previous references (NIP-29: \"recommended that clients include at least 3 and that relays enforce this\") and refused the ones the harness could read, or found none to read (a key that cannot read the group cannot name its events): the refusal is quoted; count only events the author can read, or leave these cases blocked"}
	PreAuth = Precondition{"auth",
		"the relay answers the harness's NIP-42 AUTH",
		"send a challenge on connect or with auth-required:, and accept kind 22242 answers whose relay tag is the relay's URL (the --target URL, or the one --relay-url names)"}
)

// Blocked ends the case as "blocked" by an unmet precondition: the harness
// cannot drive the scenario on this target. observed is the wire answer
// that showed it.
func (t *T) Blocked(p Precondition, observed string) {
	GinkgoHelper()
	recordVerdict(Verdict{Outcome: reports.Blocked, Precondition: p.ID})
	Fail(fmt.Sprintf("incompatible: the harness needs %s — %s (observed: %s)", p.Need, p.Adapt, observed))
}

// stateLost fails the case when a state event the case reads as its
// group's creator (still in the group: no 9001 or 9022 of the case took it
// out) is missing although the precondition held: the creator saw that
// kind for the group earlier in the case, or the capability probe saw the
// relay publish it for a new group. The precondition is judged by its
// own probe; losing it is a finding about the case's steps, reported
// against the clauses the case cites, with the transcript. It returns
// when the absence is a missing feature (the caller blocks the case).
func (t *T) stateLost(c *fixtures.Client, kind int, ch string) {
	GinkgoHelper()
	if c.Actor() == nil {
		return
	}
	reader := c.Actor().PubKey
	t.mu.Lock()
	seen, deleted := t.seenState[stateKey{kind, ch, reader}], t.deleted[ch]
	creator, gone := t.creators[ch], t.gone[ch][reader]
	t.mu.Unlock()
	if deleted || gone || creator != reader {
		return
	}
	// NIP-29: "a single instance of each (or none) should exist at all
	// times for each group": none is lawful, for a while too, so a lost
	// state event is noted, never failed; the case goes on from the last
	// instance it read (LastState) or blocks on the precondition.
	if seen != "" {
		t.Note("the relay published kind %d for group %s earlier in this case (%s) and serves none to %s after the case's later steps (NIP-29 allows none: \"a single instance of each (or none)\")", kind, ch, seen, ActorName(c))
		return
	}
	if t.Env.StatePublished[kind] == capability.Yes {
		t.Note("the relay publishes kind %d for a new group (the capability probe read one), but serves none for group %s, created by %s in this case, after the case's steps (NIP-29 allows none)", kind, ch, ActorName(c))
	}
}

// okPrefix is NIP-01's machine-readable prefix: one word and a colon.
var okPrefix = regexp.MustCompile(`^[a-z][a-z0-9_-]*:`)

// CheckPrefix fails the case when a refusal's message lacks NIP-01's
// machine-readable prefix: an OK's breaks ClauseOKPrefix, a CLOSED's
// ClauseClosedPrefix — framework rules, which every case observes (see
// verdict.go).
func CheckPrefix(kind, msg string) {
	GinkgoHelper()
	if !okPrefix.MatchString(msg) {
		id := ClauseOKPrefix
		if kind == "CLOSED" {
			id = ClauseClosedPrefix
		}
		recordVerdict(Verdict{Violates: id})
		Failf("NIP-01 (%s): a %s refusal's message must start with a machine-readable prefix and a colon (e.g. \"restricted: …\"), got %q", id, kind, msg)
	}
}

// RefusedWrite classifies an OK false on a write the scenario needs: an
// unauthenticated or unadmitted key blocks the case (PreAdmitKeys), any
// other refusal blocks it with p.
func (t *T) RefusedWrite(p Precondition, ok fixtures.OK, what string) {
	GinkgoHelper()
	observed := what + ": " + ok.String()
	switch {
	case paceRefusal(ok.Reason) != nil:
		t.Blocked(*paceRefusal(ok.Reason), observed)
	case strings.HasPrefix(ok.Reason, "auth-required:"):
		t.Blocked(PreAuth, observed)
	case strings.HasPrefix(ok.Reason, "restricted:") && !t.keysConfigured() && p.ID == PreCreateGroup.ID:
		t.Blocked(PreAdmitKeys, observed)
	}
	t.Blocked(p, observed)
}

// paceRefusal classifies a refusal by what it asks of the sender rather
// than of the event: a rate limit (NIP-01's "rate-limited:", or "error:"
// with words of one, as khatru-based relays say it) or NIP-13 proof of
// work ("pow:", or words of it). Nil for any other refusal.
func paceRefusal(reason string) *Precondition {
	lower := strings.ToLower(reason)
	switch {
	case strings.HasPrefix(lower, "rate-limited:") || strings.Contains(lower, "rate limit") || strings.Contains(lower, "rate-limit") ||
		strings.Contains(lower, "too many events") || strings.Contains(lower, "slow down") || strings.Contains(lower, "too fast") ||
		strings.Contains(lower, "events per second") || strings.Contains(lower, "per minute"):
		return &PreRateLimit
	case strings.HasPrefix(lower, "pow:") || strings.Contains(lower, "proof of work") || strings.Contains(lower, "insufficient pow") || strings.Contains(lower, "difficulty"):
		return &PreProofOfWork
	}
	return nil
}

func (t *T) keysConfigured() bool { return len(t.Env.Keys) > 0 }

// nip29Way reports whether the case drives groups the NIP-29 way (bare 9007
// then 9002, roles learned from the relay) rather than with a NIP-CL draft's
// own command forms.
func (t *T) nip29Way() bool { return t.Case.Profile == ProfileBaseline }

// CreateGroupNIP29 creates a group the NIP-29 way: a bare 9007, then, when
// the spec asks for a name or flags, one 9002 carrying every field. A
// refusal of either is a precondition, not a failure.
func (t *T) CreateGroupNIP29(c *fixtures.Client, spec fixtures.ChannelSpec) string {
	GinkgoHelper()
	if spec.ID == "" {
		spec.ID = t.NewGroupID()
	}
	ok := t.Publish(c, fixtures.CreateGroup(c.Actor(), spec.ID))
	if !ok.Accepted {
		CheckPrefix("OK", ok.Reason)
		t.RefusedWrite(PreCreateGroup, ok, "bare 9007 create-group")
	}
	meta := fixtures.GroupMetadata{Name: spec.Name, Flags: spec.Flags}
	if spec.Visibility == fixtures.Private {
		meta.Flags = append([]string{fixtures.FlagPrivate}, meta.Flags...)
	}
	if meta.Name != "" || len(meta.Flags) > 0 {
		meta.About = "nipcl-conform test group"
		ok := t.Publish(c, fixtures.EditGroup(c.Actor(), spec.ID, meta))
		if !ok.Accepted {
			CheckPrefix("OK", ok.Reason)
			t.RefusedWrite(PreEditMetadata, ok, "the creator's 9002 setting the group's metadata")
		}
	}
	return spec.ID
}

// RequireFlags blocks the case unless the group's 39000 shows every flag
// (the case needs, say, a private group and the relay did not make one).
func (t *T) RequireFlags(c *fixtures.Client, ch string, flags ...string) *nostr.Event {
	GinkgoHelper()
	meta := t.GroupMetadata(c, ch)
	for _, f := range flags {
		if !fixtures.HasFlag(meta, f) {
			t.Blocked(Precondition{"flag-" + f,
				fmt.Sprintf("a 9002 with [%q] to give a group the %s flag", f, f),
				"honour the NIP-29 flag in 9002 (the metadata cases report whether 39000 reflects it)"},
				fmt.Sprintf("39000 of %s after the 9002: %s", ch, TagsOf(meta)))
		}
	}
	return meta
}

// GroupMetadata reads a group's 39000 as c; a relay that publishes none
// blocks the case (PreStateEvents).
func (t *T) GroupMetadata(c *fixtures.Client, ch string) *nostr.Event {
	GinkgoHelper()
	ev := t.StateEvent(c, fixtures.KindMetadata, ch)
	if ev == nil {
		t.stateLost(c, fixtures.KindMetadata, ch)
		t.Blocked(PreStateEvents, "no 39000 for #d "+ch+" as "+ActorName(c))
	}
	return ev
}

// LastState is the last instance of a state event c's actor read in this
// case (nil when none): what a case goes on from when the relay later
// serves none, as NIP-29 allows.
func (t *T) LastState(c *fixtures.Client, kind int, ch string) *nostr.Event {
	if c.Actor() == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastState[stateKey{kind, ch, c.Actor().PubKey}]
}

// ModeratorRoles returns the roles that let a user moderate, as one set a
// 9000 puts in one p tag: --role-map admin=…, else every role the relay
// gave the group's creator in 39001 (NIP-29: "Each admin is listed along
// with one or more roles", in no order the text gives, so the first is
// not the moderating one by position). What was observed decides how a
// relay without one blocks the case: no 39001 at all (admins-list), a
// 39001 without the creator, or one listing the creator with no role
// (moderator-role; the last also breaks NIP-29's "Each admin is listed
// along with one or more roles", nip29/admins.1, which a case of its own
// reports).
func (t *T) ModeratorRoles(c *fixtures.Client, ch string) []string {
	GinkgoHelper()
	if r := t.Env.RoleMap["admin"]; r != "" {
		return []string{r}
	}
	roles, pre, observed := t.CreatorRoles(c, ch)
	if len(roles) == 0 && pre.ID == PreAdminsList.ID && len(t.Env.ProbedCreatorRoles) > 0 {
		t.Note("%s; the case goes on with the moderating roles the capability probe read in its own group's 39001: %s", observed, RoleSet(t.Env.ProbedCreatorRoles))
		return slices.Clone(t.Env.ProbedCreatorRoles)
	}
	if len(roles) == 0 {
		t.Blocked(pre, observed)
	}
	return roles
}

// CreatorRoles reads the creator's roles from the group's 39001: every
// non-empty role of its entry, in the relay's order. With none it returns
// the precondition the observation leaves unmet and what was observed, in
// words that tell the three cases apart.
func (t *T) CreatorRoles(c *fixtures.Client, ch string) ([]string, Precondition, string) {
	GinkgoHelper()
	admins := t.StateEvent(c, fixtures.KindAdmins, ch)
	if admins == nil {
		t.stateLost(c, fixtures.KindAdmins, ch)
		if admins = t.LastState(c, fixtures.KindAdmins, ch); admins == nil {
			return nil, PreAdminsList, fmt.Sprintf("no 39001 published for #d %s (read as the creator %s)", ch, ActorName(c))
		}
		t.Note("the creator's roles are read from the 39001 of %s the case read earlier (%s): the relay serves none now", ch, admins.ID)
	}
	found, listed := HasP(admins, c.Actor().PubKey)
	if !found {
		return nil, PreModerator, fmt.Sprintf("the 39001 of %s does not list the creator: %s", ch, TagsOf(admins))
	}
	if roles := RolesOf(listed); len(roles) > 0 {
		return roles, Precondition{}, ""
	}
	return nil, PreModerator, fmt.Sprintf("the 39001 of %s lists the creator with no role at all: %s (NIP-29: \"Each admin is listed along with one or more roles\", nip29/admins.1)", ch, TagsOf(admins))
}

// RolesOf returns the non-empty role names of a p tag's roles (tag[2:]),
// each once, in their order.
func RolesOf(listed []string) []string {
	var out []string
	for _, r := range listed {
		if r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// HasRoles reports whether the roles a p tag lists (tag[2:]) contain every
// role of put: a role set is compared as a set, in any order and beside
// any other role the relay keeps (NIP-29: "one or more roles").
func HasRoles(listed, put []string) bool {
	for _, r := range put {
		if !slices.Contains(listed, r) {
			return false
		}
	}
	return true
}

// RoleSet names a role set for a message: ["admin"], ["member" "admin"];
// "no role" for none.
func RoleSet(roles []string) string {
	if len(roles) == 0 {
		return "no role"
	}
	return fmt.Sprintf("%q", roles)
}

// PutRoles names the roles a case's "admin" or "owner" gets on this
// target, for one p tag: the role map, or (NIP-29 way) the creator's
// moderating roles, the whole set; "member" or "" means no role at all (a
// plain member, nil).
func (t *T) PutRoles(c *fixtures.Client, ch, role string) []string {
	GinkgoHelper()
	if role == "" || role == "member" {
		if r := t.Env.RoleMap["member"]; r != "" {
			return []string{r}
		}
		if t.nip29Way() || role == "" {
			return nil
		}
		return []string{role}
	}
	if r := t.Env.RoleMap[role]; r != "" {
		return []string{r}
	}
	if t.nip29Way() {
		return t.ModeratorRoles(c, ch)
	}
	return []string{role}
}

func ActorName(c *fixtures.Client) string {
	if c.Actor() == nil {
		return "anonymous"
	}
	return c.Actor().Name
}

// TagsOf renders an event's tags for a message ("none" for nil).
func TagsOf(ev *nostr.Event) string {
	if ev == nil {
		return "none"
	}
	var b strings.Builder
	b.WriteString("[")
	for i, tg := range ev.Tags {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%q", []string(tg))
	}
	b.WriteString("]")
	return b.String()
}

// PrePutListed: the same-second membership cases start from a user the
// creator's 9000 put in the group, shown in 39002.
var PrePutListed = Precondition{"put-listed",
	"a user the group's creator puts with a 9000 is listed in the group's 39002 (a case of nip29/membership reports it at its own level)",
	"list users put by 9000 in 39002"}

// PreWithheldMetadata: the labels cases about channels whose labels
// outsiders must not read need a channel whose metadata outsiders cannot
// read. The labels draft gives labels "exactly the same visibility as
// channel metadata" and defines no visibility of its own; NIP-29 says
// "private" hides a group's messages and "hidden" its metadata. A relay
// that offers neither flag leaves those cases without a channel to judge.
var PreWithheldMetadata = Precondition{ID: "withheld-metadata",
	Need:  "a 9002 carrying a group's name with NIP-29's [\"private\"] and [\"hidden\"] flags withholds its 39000 from non-members",
	Adapt: "support NIP-29's private and hidden flags on 9002 (hidden: metadata served to members only)"}

// TimelineRefused blocks the case on PreTimeline when ok refuses ev for
// its timeline references (fixtures.PreviousRefusal) and the references
// were the harness's, not the case's own (fixtures.Client.HarnessTimeline):
// the relay enforces NIP-29's recommended references and the harness
// could not satisfy it, which says nothing of what the case tests.
func (t *T) TimelineRefused(c *fixtures.Client, ev *nostr.Event, ok fixtures.OK) {
	GinkgoHelper()
	if t.Env.Previous <= 0 || ok.Accepted || !c.HarnessTimeline(ev.ID) {
		return
	}
	if _, refused := fixtures.PreviousRefusal(ok); refused {
		t.Blocked(PreTimeline, fmt.Sprintf("kind %d event with the harness's timeline references: %s", ev.Kind, ok))
	}
}

// Timeline adds NIP-29 timeline references to ev, unsigned, when the
// relay enforces them (fixtures.Client.TimelineRefs): for a case that
// fixes an event's id before publishing it (same-second ties). Publish
// adds them to every other group event by itself.
func (t *T) Timeline(c *fixtures.Client, ev *nostr.Event) *nostr.Event {
	GinkgoHelper()
	_, err := c.TimelineRefs(t.ctx, ev)
	t.Must(err, "timeline references")
	return ev
}

// TimelineContext gives the group ch, where the relay enforces NIP-29
// timeline references, as many events of c's actor as the harness sends
// references (ordinary kind 9 messages): then every other key has enough
// to name, and an event of c's actor still in flight when another key
// writes (a race) cannot raise that key's minimum past what it read.
// Without enforcement it does nothing.
func (t *T) TimelineContext(c *fixtures.Client, ch string) {
	GinkgoHelper()
	for i := 0; i < t.Env.Previous; i++ {
		t.Accept(c, fixtures.Message(c.Actor(), ch, t.Unique("timeline context")), "a message other keys' timeline references can name")
	}
}
