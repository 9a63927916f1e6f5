package reference

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip13"

	"github.com/nipcl/nipcl-conform/clause"
)

// A Variant is one freedom the NIP texts give a relay, made a named hook
// set of the reference relay. Under every combination of variants (one per
// Dimension at most) the relay still breaks no sentence, so the harness
// must give it 0 failing cases and only true blocked/unsupported lines
// (conformance/lawful holds it to that, drawing combinations with rapid).
//
// Variants, relay policies (policies.go) and readings (readings.go) are
// the three kinds of lawful switch; Variants lists all three, so
// `serve --variant`, `serve --lawful SEED` and the lawful-relay property
// draw from one catalogue. A variant installs hooks (hooks below); the
// conforming code calls the hook slices at the place of the behaviour,
// never a variant's name. Faults are the fourth kind, the unlawful one: a
// fault row with an install func becomes a switch of Kind "fault"
// (faultSwitches) and is installed through the same path, after the
// variants (installSwitches, hooks.go).
type Variant struct {
	Name string // switch name, as passed in Config.Variants
	// Dimension groups variants that exclude each other (two answers to
	// unknown HTTP paths, two clocks); one combination takes at most one
	// variant of each dimension.
	Dimension string
	// Profiles the variant applies to; nil = every profile.
	Profiles []string
	// Freedom is the sentence (or the silence) that leaves the choice to
	// the relay: "NIP-01: …". Kind "policy" and "reading" rows say why in
	// their own catalogue.
	Freedom string
	// Describes is what the relay does under the variant, in our words.
	Describes string
	// Kind is "variant", "policy" or "reading" (or "fault" for a fault's
	// hook set, which Variants does not list: Faults does).
	Kind string
	// Drawn reports whether the lawful draw (Lawful, the property test)
	// may pick the variant; switches that need keys the harness is not
	// given (listed-keys-only) are left to their own tests.
	Drawn bool

	install func(r *Relay)
}

// hooks are the slices the reference relay's behaviour is composed from:
// a variant appends to them, and the conforming code calls every hook of a
// slice at the place of the behaviour (as khatru composes a relay from
// RejectEvent, QueryEvents, … slices). Empty slices leave the relay as the
// NIP texts' most common reading has it.
type hooks struct {
	// General slices (hooks.go calls them) that faults and variants share.
	// editStateTags edits the tags of an event the relay generates and
	// signs: a state event (39000-39003: core and profile tags, before the
	// stateTags hooks add theirs; 39004, 39005) or a membership notice.
	editStateTags []func(kind int, ch *Channel, tags nostr.Tags) nostr.Tags
	// okText rewrites the reason of an OK, accepted or not, after the
	// profile's markers and before a refusal is reworded.
	okText []func(ev *nostr.Event, accepted bool, reason string) string
	// serveInfo edits the NIP-11 document served to one request.
	serveInfo []func(req *http.Request, doc *Info)
	// readFilter rewrites a filter as the relay reads it for verb
	// (readREQ: the stored read, readCOUNT, readLive: live delivery); the
	// filter's Tags are the hook's own copy.
	readFilter []func(f nostr.Filter, verb string) nostr.Filter
	// skipAccess reports that the read of filter f by verb leaves the
	// read-access rule out.
	skipAccess []func(f *nostr.Filter, verb string) bool
	// grantRead widens the read-access rule (query.go), in SQL and in Go.
	grantRead []readGrant
	// grantProfileRead widens the profile's read rule (system channels;
	// search.go), in SQL and in Go.
	grantProfileRead []profileGrant
	// permit lets a role the conforming rule refuses take an action
	// (actEditMetadata, actRemoveUser, …; role "" = no role in the group).
	permit []func(action, role string) bool
	// tokenClaims edits the claims of a LiveKit token the relay mints.
	tokenClaims []func(claims map[string]any)
	// subscription decides the filters a subscription id holds when a REQ
	// opens or replaces it (old: its filters before, nil if none; next:
	// the REQ's) or a CLOSE ends it (next nil); nil = the id holds none.
	subscription []func(subID string, old, next nostr.Filters) nostr.Filters
	// signState returns the key that signs a relay-signed state event of
	// kind ("" = the next hook's, or the relay's own).
	signState []func(kind int) string
	// editChannel edits the group a 9007 (prev nil) or a 9002 (prev: the
	// group before it) leaves, after the profile's rules applied it.
	editChannel []func(ev *nostr.Event, prev, next *Channel)

	// answerHTTP answers a plain HTTP request for anything but NIP-11 at
	// "/", the WebSocket upgrade and (when offered) the AV endpoints; the
	// first hook that returns true wrote the answer.
	answerHTTP []func(w http.ResponseWriter, req *http.Request) bool
	// challengeOnDemand: the NIP-42 challenge is not sent on connect, only
	// with the first "auth-required:" answer (NIP-42: "The relay MAY send
	// … at any moment").
	challengeOnDemand []func() bool
	// concurrentMessages: each message a connection sends is handled on
	// its own goroutine, started after the hook's delay, so a later
	// message may take effect (and be answered) before an earlier one.
	concurrentMessages []func(data []byte) time.Duration
	// liveLate: each live delivery to a connection goes out after the
	// hook's delay, in the order the connection's deliveries were made.
	liveLate []func() time.Duration
	// onConnect runs once a connection is open (after the challenge, when
	// it goes out on connect).
	onConnect []func(c *conn)
	// afterAuth runs after an AUTH was accepted (and its OK queued).
	afterAuth []func(c *conn)
	// afterMessage runs after each message of a connection was handled.
	afterMessage []func(c *conn)
	// onCloseMessage runs after a client's CLOSE of subID was applied.
	onCloseMessage []func(c *conn, subID string)
	// orderStored reorders the stored events a REQ's filters matched
	// (newest first, ties by the tie rule, when it is called).
	orderStored []func(filters []nostr.Filter, evs []*nostr.Event)
	// refuseRead returns the CLOSED reason for a REQ or COUNT refused
	// before it is read ("" = read it).
	refuseRead []func(c *conn, verb string, filters nostr.Filters) string
	// estimateCount answers a COUNT whose exact number is n with an
	// estimate, and whether the answer says so ("approximate": true).
	estimateCount []func(n int64) (estimate int64, approximate bool)
	// refuseEvent returns the OK reason for an authenticated event
	// refused before it is applied ("" = apply it).
	refuseEvent []func(c *conn, ev *nostr.Event) string
	// reword rewrites the text of a refusal (OK false, CLOSED).
	reword []func(reason string) string
	// omitState reports that a relay-signed state kind is not published.
	omitState []func(kind int) bool
	// notLive reports that a committed event is stored but not delivered
	// to live subscriptions (NIP-01: new events "SHOULD be sent").
	notLive []func(r *Relay, ev *nostr.Event) bool
	// editInfo edits the NIP-11 document.
	editInfo []func(info *Info)
	// stateTags adds tags to a state event the relay publishes from the
	// transaction t (nil outside one; t.command is the event it applies).
	stateTags []func(t *txn, kind int, ch *Channel) nostr.Tags
	// dropIdentical reports that regenerating an unchanged state event of
	// kind, whose current instance was signed at prevAt, loses it.
	dropIdentical []func(r *Relay, kind int, prevAt int64) bool
	// absent lists optional features the relay lacks.
	absent map[feature]bool
	// roleNames renames the relay's roles on the wire (internal name ->
	// the name its 9000s, 39001, 39002 and 39003 use); nil = the names
	// as they are.
	roleNames map[string]string

	// Issue 34, variants_deploy.go. writeAuthed decides
	// whether an EVENT passes the NIP-42 write gate (the first hook that
	// decides answers; none: the event's own key must have authenticated).
	// extraRoles lists roles a 39001 entry carries after the granted one,
	// leadingRoles those it carries before it.
	// unknownHost reports a Host name at which no community is served.
	writeAuthed  []func(c *conn, ev *nostr.Event) (authed, decided bool)
	extraRoles   []func(role string) []string
	leadingRoles []func(role string) []string
	unknownHost  []func(host string) bool
}

// wireRole is the name the relay gives the internal role on the wire.
func (r *Relay) wireRole(role string) string {
	if n, ok := r.hooks.roleNames[role]; ok {
		return n
	}
	return role
}

// internalRole reads a role name of a 9000: the relay's own names map
// back to its roles; under a renaming variant the default names are
// names it does not support ("" is returned for them).
func (r *Relay) internalRole(name string) string {
	if r.hooks.roleNames == nil {
		return name
	}
	for in, wire := range r.hooks.roleNames {
		if wire == name {
			return in
		}
	}
	return ""
}

// feature is an optional part of the NIP texts a variant may take away.
type feature string

const (
	featureSubgroups feature = "subgroups"
	featureSearch    feature = "search"
	featureCount     feature = "count"
	featurePins      feature = "pins"
	featureInvites   feature = "invites"
)

// lacks reports whether a variant took the optional feature away.
func (r *Relay) lacks(f feature) bool { return r.hooks.absent[f] }

// refusal rewrites a refusal's text through the reword hooks.
func (r *Relay) refusal(reason string) string {
	for _, h := range r.hooks.reword {
		reason = h(reason)
	}
	return reason
}

// stateOmitted reports whether a variant keeps the relay from publishing
// the state kind.
func (r *Relay) stateOmitted(kind int) bool {
	for _, h := range r.hooks.omitState {
		if h(kind) {
			return true
		}
	}
	return false
}

// dropsIdenticalState reports whether a variant loses an unchanged state
// event when the relay regenerates it.
func (r *Relay) dropsIdenticalState(kind int, prevAt int64) bool {
	for _, h := range r.hooks.dropIdentical {
		if h(r, kind, prevAt) {
			return true
		}
	}
	return false
}

// deliveredLive reports whether a committed event goes to live
// subscriptions.
func (r *Relay) deliveredLive(ev *nostr.Event) bool {
	for _, h := range r.hooks.notLive {
		if h(r, ev) {
			return false
		}
	}
	return true
}

// liveDelay reports whether live deliveries go out late, and the delay of
// the next one.
func (r *Relay) liveDelay() (time.Duration, bool) {
	for _, h := range r.hooks.liveLate {
		return h(), true
	}
	return 0, false
}

// randomDelay is the timing variants' delay: one time in late, up to
// 25 ms (as late as a busy relay's scheduler leaves work), else up to
// usual.
func randomDelay(late int, usual time.Duration) time.Duration {
	if rand.N(late) == 0 {
		return rand.N(25 * time.Millisecond)
	}
	return rand.N(usual)
}

// noticeFreedom is the sentence that lets a relay send a NOTICE whenever
// it likes (notice-on-connect, notices-midstream).
const noticeFreedom = "NIP-01: NOTICE is \"used to send human-readable error messages or other things to clients\", at no set moment"

// welcomeNotice sends every connection a NOTICE as soon as it opens.
func welcomeNotice(r *Relay) {
	r.hooks.onConnect = append(r.hooks.onConnect, func(c *conn) {
		c.notice("welcome to the nipcl-conform reference relay")
	})
}

// messageDelay reports whether a connection's messages are handled
// concurrently, and the delay before the next one's handling starts.
func (r *Relay) messageDelay(data []byte) (time.Duration, bool) {
	for _, h := range r.hooks.concurrentMessages {
		return h(data), true
	}
	return 0, false
}

// challengeOnConnect reports whether the challenge goes out on connect.
func (r *Relay) challengeOnConnect() bool {
	for _, h := range r.hooks.challengeOnDemand {
		if h() {
			return false
		}
	}
	return true
}

// Variant names (kind "variant"; policies and readings keep their own).
const (
	variantHTTP404          = "http-unknown-404"
	variantHTTPCatchAll     = "http-catch-all-html"
	variantHTTPRedirect     = "http-unknown-redirect"
	variantAuthOnDemand     = "auth-on-demand"
	variantAuthForReads     = "auth-for-reads"
	variantNo39001          = "no-39001"
	variantNo39002          = "no-39002"
	variantNo39003          = "no-39003"
	variantNo39004          = "no-39004"
	variantRelaySignedStore = "relay-signed-not-live"
	variantClockBehind      = "relay-clock-behind"
	variantClockAhead       = "relay-clock-ahead"
	variantErrorPrefix      = "refusals-error-prefix"
	variantMaxLimit20       = "max-limit-20"
	variantMaxSubs8         = "max-subscriptions-8"
	variantNoCount          = "no-count"
	variantCountApproximate = "count-approximate"
	variantNoSearch         = "no-search"
	variantNoSubgroups      = "no-subgroups"
	variantNoPins           = "no-pins"
	variantNoInvites        = "no-invites"
	variantUnknownTags      = "metadata-keeps-unknown-tags"
	variantNarrowWindow     = "created-at-60s-past-30s-future"
	variantStateLost        = "state-lost-on-regeneration"
	variantNarrowUnadvert   = "created-at-60s-past-30s-future-unpublished"
	variantRateLimited      = "rate-limited-5-per-key"
	variantRateLimitError   = "rate-limit-error-5-per-key"
	// Issue 34, the relay29 example's policies and relay-chosen role names.
	variantRoleNames      = "role-names-king-moderator"
	variantKindsAllowlist = "kinds-allowlist-relay29"
	variantTagLimits      = "tag-limits-relay29"
	variantRatePerConn    = "rate-limited-20-per-connection"
	variantPoW            = "pow-10"
	variantPoWUnpublished = "pow-10-unpublished"
	// One connection's messages handled concurrently, as khatru does.
	variantConcurrentMessages = "messages-handled-concurrently"
	variantNoticeOnConnect    = "notice-on-connect"
	variantClosedAfterClose   = "closed-answers-close"
	variantUnlimitedUnordered = "unlimited-reads-unordered"
	variantLiveLate           = "live-delivery-late"
	variantMembersByPubkey    = "member-lists-by-pubkey"
	variantNoticesMidstream   = "notices-midstream"
	variantChallengeRenewed   = "challenge-renewed-after-auth"
	variantDefaultLimitHidden = "default-limit-100-unpublished"
)

// powDifficulty is what the proof-of-work variants require: small enough
// that mining it (about a thousand hashes per event) keeps a run short.
const powDifficulty = 10

// requirePoW refuses an EVENT whose id has fewer than bits leading zero
// bits (NIP-13), in the words khatru's policy uses.
func requirePoW(bits int) func(c *conn, ev *nostr.Event) string {
	return func(_ *conn, ev *nostr.Event) string {
		if d := nip13.Difficulty(ev.ID); d < bits {
			return fmt.Sprintf("pow: difficulty %d is less than %d", d, bits)
		}
		return ""
	}
}

// relayClockSkew is how far relay-clock-behind and relay-clock-ahead set
// the relay's clock from the machine's: a few seconds, as an unsynchronised
// server runs.
const relayClockSkew = 3 * time.Second

// notFoundHTML, catchAllPage: what a relay's HTTP side says at a path it
// does not serve (relay29's basic-khatru example answers the catch-all
// text at every path).
const catchAllPage = "nothing to see here, you must use a nip-29 powered client"

// variantCatalogue is every variant of kind "variant".
var variantCatalogue = []Variant{
	unknownPathAnswer(variantHTTP404, "every plain HTTP request that is not NIP-11 is answered 404 Not Found (the AV paths too, where AV is not offered)",
		func(w http.ResponseWriter, req *http.Request) { http.NotFound(w, req) }),
	unknownPathAnswer(variantHTTPCatchAll, "every plain HTTP request that is not NIP-11, at any path (the AV paths too, where AV is not offered), is answered 200 text/html with a catch-all page, as relay29's basic-khatru example does",
		func(w http.ResponseWriter, _ *http.Request) { htmlPage(w, catchAllPage) }),
	unknownPathAnswer(variantHTTPRedirect, "every plain HTTP request that is not NIP-11 is redirected (302) to a web client page at /app",
		func(w http.ResponseWriter, req *http.Request) {
			if req.URL.Path == "/app" {
				htmlPage(w, "<html><body>web client</body></html>")
				return
			}
			http.Redirect(w, req, "/app", http.StatusFound)
		}),
	{Name: variantAuthOnDemand, Dimension: "nip42-challenge", Kind: "variant", Drawn: true,
		Freedom:   "NIP-42: \"Relays MAY send an AUTH message … at any time\"; a relay may send its challenge only when it first needs it",
		Describes: "no challenge on connect; the challenge is sent with the connection's first \"auth-required:\" answer: to an EVENT, or to a REQ or COUNT naming (#h, #d) a private or hidden group before AUTH, as khatru-based relays ask",
		install: func(r *Relay) {
			r.hooks.challengeOnDemand = append(r.hooks.challengeOnDemand, func() bool { return true })
			r.hooks.refuseRead = append(r.hooks.refuseRead, namesClosedGroup)
		}},
	{Name: variantConcurrentMessages, Dimension: "message-order", Kind: "variant", Drawn: true,
		Freedom:   "NIP-01 sets no order in which a relay handles the messages of one connection, nor in which it answers them; khatru (relay29's base) handles each message on its own goroutine",
		Describes: "each message of a connection is handled on its own goroutine, after a random delay (up to 0.2 ms; a CLOSE one time in two, any other message one time in 64, up to 25 ms): a later message (a CLOSE, a second REQ, an EVENT sent before the last OK) may take effect, and be answered, before an earlier one",
		install: func(r *Relay) {
			r.hooks.concurrentMessages = append(r.hooks.concurrentMessages, func(data []byte) time.Duration {
				// Mostly short; now and then as late as a busy relay's
				// scheduler leaves a message (relay29 in a loaded CI run
				// applied a CLOSE after the REQ sent after it). A long
				// delay costs the run its length on every message it
				// falls on, so it falls mostly on CLOSE, the message
				// whose lateness a client cannot see.
				late := 64
				if bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte(`["CLOSE"`)) {
					late = 2
				}
				// Two messages sent back to back arrive microseconds
				// apart: a fraction of a millisecond reorders them.
				return randomDelay(late, 200*time.Microsecond)
			})
		}},
	{Name: variantNoticeOnConnect, Dimension: "unsolicited-notices", Kind: "variant", Drawn: true,
		Freedom:   noticeFreedom,
		Describes: "every connection gets a NOTICE (a welcome line) as soon as it opens, before it has sent anything",
		install:   welcomeNotice},
	{Name: variantNoticesMidstream, Dimension: "unsolicited-notices", Kind: "variant", Drawn: true,
		Freedom:   noticeFreedom,
		Describes: "a NOTICE on connect and then one after every fifth message a connection sends, whatever the message was (a busy relay's warnings: \"slow down\", \"maintenance at midnight\")",
		install: func(r *Relay) {
			welcomeNotice(r)
			r.hooks.afterMessage = append(r.hooks.afterMessage, func(c *conn) {
				if c.handled.Add(1)%5 == 0 {
					c.notice("maintenance: this relay restarts at midnight UTC")
				}
			})
		}},
	{Name: variantClosedAfterClose, Dimension: "close-answer", Kind: "variant", Drawn: true,
		Freedom:   "NIP-01 asks no answer to a client's CLOSE and forbids none: CLOSED \"indicate[s] that a subscription was ended on the server side\", and the relay ends it",
		Describes: "every CLOSE is answered [\"CLOSED\", <its subscription id>, \"\"] once the relay has ended the subscription",
		install: func(r *Relay) {
			r.hooks.onCloseMessage = append(r.hooks.onCloseMessage, func(c *conn, subID string) {
				c.send(nostr.ClosedEnvelope{SubscriptionID: subID, Reason: ""})
			})
		}},
	{Name: variantUnlimitedUnordered, Dimension: "stored-order", Kind: "variant", Drawn: true,
		Freedom:   "NIP-01 orders the stored events of an initial query only \"when limit: n is present\" (\"Newer events should appear first\"); a REQ without a limit may get them in any order",
		Describes: "a REQ none of whose filters has a limit gets its stored events in a random order (then EOSE); a REQ with a limit gets them newest first",
		install: func(r *Relay) {
			r.hooks.orderStored = append(r.hooks.orderStored, func(filters []nostr.Filter, evs []*nostr.Event) {
				for _, f := range filters {
					if f.Limit > 0 || f.LimitZero {
						return
					}
				}
				rand.Shuffle(len(evs), func(i, j int) { evs[i], evs[j] = evs[j], evs[i] })
			})
		}},
	{Name: variantLiveLate, Dimension: "live-latency", Kind: "variant", Drawn: true,
		Freedom:   "NIP-01: the relay \"send[s] again all future events it receives\" to an open subscription, at no set delay (a relay that fans events out from a queue delivers them after its OK)",
		Describes: "each live delivery to a connection goes out after a random delay (up to 2 ms, or for one in eight up to 25 ms), in the order the connection's deliveries were made: often after the publisher's OK, and at different moments on different connections",
		install: func(r *Relay) {
			r.hooks.liveLate = append(r.hooks.liveLate, func() time.Duration {
				return randomDelay(8, 2*time.Millisecond)
			})
		}},
	{Name: variantMembersByPubkey, Dimension: "member-list-order", Kind: "variant", Drawn: true,
		Freedom:   "NIP-29 sets no order for the p tags of a 39001 (admins) or a 39002 (members)",
		Describes: "the p tags of every 39001 and 39002 are listed by pubkey, highest first, not in the order the users were added (the creator is not first)",
		install: func(r *Relay) {
			r.hooks.editStateTags = append(r.hooks.editStateTags, func(kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
				if kind != kindGroupAdmins && kind != kindGroupMembers {
					return tags
				}
				var at []int
				var ps nostr.Tags
				for i, tag := range tags {
					if len(tag) >= 2 && tag[0] == "p" {
						at = append(at, i)
						ps = append(ps, tag)
					}
				}
				slices.SortStableFunc(ps, func(a, b nostr.Tag) int { return strings.Compare(b[1], a[1]) })
				out := slices.Clone(tags)
				for j, i := range at {
					out[i] = ps[j]
				}
				return out
			})
		}},
	{Name: variantChallengeRenewed, Dimension: "nip42-challenge-renewal", Kind: "variant", Drawn: true,
		Freedom:   "NIP-42: the challenge is valid \"for the duration of the connection or until another challenge is sent by the relay\", and the relay MAY send AUTH at any time",
		Describes: "after every accepted AUTH the relay sends a fresh challenge, and only the newest one authenticates the next key on the connection",
		install: func(r *Relay) {
			r.hooks.afterAuth = append(r.hooks.afterAuth, func(c *conn) { c.renewChallenge() })
		}},
	{Name: variantAuthForReads, Dimension: "nip42-reads", Kind: "variant", Drawn: true,
		Freedom:   "NIP-42: a relay may require authentication for reads (\"auth-required:\" on CLOSED)",
		Describes: "every REQ and COUNT before AUTH is answered CLOSED \"auth-required: …\"",
		install: func(r *Relay) {
			r.hooks.refuseRead = append(r.hooks.refuseRead, func(c *conn, verb string, _ nostr.Filters) string {
				if c.anyAuthed() {
					return ""
				}
				return "auth-required: this relay serves " + verb + " to authenticated clients only"
			})
		}},
	unpublished(variantNo39001, kindGroupAdmins, "group admins"),
	unpublished(variantNo39002, kindGroupMembers, "group members"),
	unpublished(variantNo39003, kindGroupRoles, "group roles"),
	{Name: variantNo39004, Dimension: "state-39004", Kind: "variant", Drawn: true,
		Freedom:   "NIP-29: 39004 lists the participants of a live room where the relay offers one; publishing it is the relay's choice",
		Describes: "no kind 39004 (live participants) is ever published",
		install:   omitStateKind(kindGroupParticipants)},
	{Name: variantNarrowUnadvert, Dimension: "created-at-window", Kind: "variant", Drawn: true,
		Freedom:   "NIP-11's limitation is optional: a relay may bound created_at without publishing the bounds",
		Describes: "events more than 60 s in the past or 30 s in the future are refused \"invalid:\", and NIP-11 publishes no created_at limits (relay29's example policies)",
		install: func(r *Relay) {
			r.createdAtPast, r.createdAtFuture = 60, 30
			r.hooks.editInfo = append(r.hooks.editInfo, func(info *Info) {
				if info.Limitation != nil {
					info.Limitation.CreatedAtLowerLimit, info.Limitation.CreatedAtUpperLimit = 0, 0
				}
			})
		}},
	{Name: variantStateLost, Dimension: "state-39001", Kind: "variant", Drawn: true,
		Freedom:   "NIP-29: \"a single instance of each (or none) should exist at all times for each group\": none is lawful, for a while too",
		Describes: "when a command makes the relay regenerate an unchanged 39001 within the second its current one was signed, the relay loses it: the group has no 39001 until a later change republishes one (as an independent relay that deletes before it rewrites does)",
		install: func(r *Relay) {
			r.hooks.dropIdentical = append(r.hooks.dropIdentical, func(r *Relay, kind int, prevAt int64) bool {
				return kind == kindGroupAdmins && r.now().Unix() <= prevAt
			})
		}},
	// The rate-limit variants are not drawn: under 5 events/s the labels
	// sweeps take minutes (every refused write is resent after a backoff);
	// run them with --variant, and conformance/ratelimit holds the sweep.
	{Name: variantRateLimited, Dimension: "rate-limit", Kind: "variant",
		Freedom:   "NIP-01 lists \"rate-limited\" among the OK prefixes: a relay bounds how fast a key may write",
		Describes: "each key may write 5 events per second (bursts of 10); more are answered \"rate-limited: …\"",
		install: func(r *Relay) {
			r.rate = newRateLimiter(5, 10, r.now)
		}},
	{Name: variantRateLimitError, Dimension: "rate-limit", Kind: "variant",
		Freedom:   "NIP-01: \"error\" is for when none of the other prefixes fits, and the words are the relay's: khatru-based relays answer \"error: rate limit exceeded\"",
		Describes: "each key may write 5 events per second (bursts of 10); more are answered \"error: rate limit exceeded\"",
		install: func(r *Relay) {
			r.rate = newRateLimiter(5, 10, r.now)
			r.hooks.reword = append(r.hooks.reword, func(reason string) string {
				if strings.HasPrefix(reason, "rate-limited:") {
					return "error: rate limit exceeded"
				}
				return reason
			})
		}},
	{Name: variantRelaySignedStore, Dimension: "relay-signed-live", Kind: "variant", Drawn: true,
		Freedom:   "NIP-01: new events matching an open subscription \"SHOULD be sent\"; NIP-29 says nothing of live delivery of state",
		Describes: "events the relay signs itself (state events, notices) are stored and served by REQ, but never delivered to open subscriptions",
		install: func(r *Relay) {
			r.hooks.notLive = append(r.hooks.notLive, func(r *Relay, ev *nostr.Event) bool { return ev.PubKey == r.pubKey })
		}},
	{Name: variantClockBehind, Dimension: "relay-clock", Kind: "variant", Drawn: true,
		Freedom:   "NIP-01 asks no relay to keep its clock exact; a relay stamps the events it signs with its own clock",
		Describes: "the relay's clock runs 3 s behind the machine's (its state events, notices and admission window follow it)",
		install:   skewClock(-relayClockSkew)},
	{Name: variantClockAhead, Dimension: "relay-clock", Kind: "variant", Drawn: true,
		Freedom:   "NIP-01 asks no relay to keep its clock exact; a relay stamps the events it signs with its own clock",
		Describes: "the relay's clock runs 3 s ahead of the machine's (its state events, notices and admission window follow it)",
		install:   skewClock(relayClockSkew)},
	{Name: variantErrorPrefix, Dimension: "refusal-prefix", Kind: "variant", Drawn: true,
		Freedom:   "NIP-01: the prefix \"error\" is for \"when none of that fits\", and the words after it are the relay's; relays built on khatru wrap every policy's text in \"error:\"",
		Describes: "every refusal of an OK or CLOSED says \"error: \" followed by its text, except the prefixes a draft or NIP-42 fixes (auth-required, duplicate, the labels draft's nip-cl markers)",
		install: func(r *Relay) {
			r.hooks.reword = append(r.hooks.reword, rewordAsError)
		}},
	{Name: variantMaxLimit20, Dimension: "max-limit", Kind: "variant", Drawn: true,
		Freedom:   "NIP-01: \"Returning fewer events is acceptable\"; NIP-11 limitation.max_limit caps a filter's limit",
		Describes: "a filter's limit is capped at 20 (limitation.max_limit = 20, default_limit 20)",
		install: func(r *Relay) {
			r.maxLimit, r.defaultLimit = 20, 20
		}},
	{Name: variantDefaultLimitHidden, Dimension: "default-limit", Kind: "variant", Drawn: true,
		Freedom:   "NIP-11 limitation.default_limit (\"the maximum returned events if you send a filter without a limit\") is optional to publish, and a relay may apply one it does not publish",
		Describes: "a filter without a limit gets at most the newest 100 matches; NIP-11 publishes no default_limit (max_limit stays as it is)",
		install: func(r *Relay) {
			r.defaultLimit = min(r.defaultLimit, 100)
			r.hooks.editInfo = append(r.hooks.editInfo, func(doc *Info) {
				if doc.Limitation != nil {
					doc.Limitation.DefaultLimit = 0
				}
			})
		}},
	{Name: variantMaxSubs8, Dimension: "max-subscriptions", Kind: "variant", Drawn: true,
		Freedom:   "NIP-11 limitation.max_subscriptions: a relay bounds the open subscriptions of a connection",
		Describes: "at most 8 open subscriptions per connection (a ninth REQ is CLOSED \"restricted:\")",
		install: func(r *Relay) {
			r.maxSubs = 8
		}},
	{Name: variantNoCount, Dimension: "nip45", Kind: "variant", Drawn: true,
		Freedom:   "NIP-45 is optional: a relay that does not support COUNT leaves 45 out of supported_nips and refuses it with CLOSED",
		Describes: "COUNT is answered CLOSED \"unsupported: …\" and 45 is not in supported_nips",
		install: func(r *Relay) {
			r.hooks.absent[featureCount] = true
			r.hooks.refuseRead = append(r.hooks.refuseRead, func(_ *conn, verb string, _ nostr.Filters) string {
				if verb == "COUNT" {
					return "unsupported: COUNT is not supported by this relay"
				}
				return ""
			})
			r.hooks.editInfo = append(r.hooks.editInfo, dropNIP(45))
		}},
	{Name: variantCountApproximate, Dimension: "nip45", Kind: "variant", Drawn: true,
		Freedom:   "NIP-45: \"Relays may use probabilistic counts to reduce compute requirements. In case a relay uses probabilistic counts, it MAY indicate it in the response with approximate key\"",
		Describes: "every COUNT answer is an estimate flagged \"approximate\": true: a count of one or more is one too many or one too few half of the time (a count of none stays 0); the hll is exact",
		install: func(r *Relay) {
			r.hooks.estimateCount = append(r.hooks.estimateCount, func(n int64) (int64, bool) {
				if n > 0 && rand.IntN(2) == 0 {
					n += int64(2*rand.IntN(2) - 1)
				}
				return n, true
			})
		}},
	{Name: variantNoSearch, Dimension: "nip50", Kind: "variant", Drawn: true,
		Freedom:   "NIP-50 is optional: a relay that does not support search leaves 50 out of supported_nips",
		Describes: "no search: 50 is not in supported_nips and a filter's search field is ignored (the filter matches as if it had none)",
		install: func(r *Relay) {
			r.hooks.absent[featureSearch] = true
			r.hooks.editInfo = append(r.hooks.editInfo, dropNIP(50))
		}},
	{Name: variantNoSubgroups, Dimension: "subgroups", Kind: "variant", Drawn: true,
		Freedom:   "NIP-29: \"Groups MAY be organized hierarchically\"",
		Describes: "no subgroups: NIP-11 says nothing of them, and parent/child tags of a 9002 or 9007 are ignored",
		install: func(r *Relay) {
			r.hooks.absent[featureSubgroups] = true
		}},
	{Name: variantNoPins, Dimension: "pins", Kind: "variant", Drawn: true,
		Freedom:   "NIP-29: \"group pinned events (kind:39005) (optional)\"",
		Describes: "no pinned events: a 9010 from an owner or admin is stored as an ordinary group event (\"Groups may accept any event kind\") and no 39005 is ever published; from anyone else it is refused \"restricted:\" as every moderation event",
		install: func(r *Relay) {
			r.hooks.absent[featurePins] = true
		}},
	{Name: variantNoInvites, Dimension: "invites", Kind: "variant", Drawn: true,
		Freedom:   "NIP-29: \"The optional code tag may be used by the relay to preauthorize acceptance, together with the kind:9009 create-invite moderation event\"",
		Describes: "no invites: a 9009 create-invite is refused \"invalid:\" (as any group command kind the relay does not implement), and a join request to a closed group is refused whatever code it carries",
		install: func(r *Relay) {
			r.hooks.absent[featureInvites] = true
		}},
	{Name: variantUnknownTags, Dimension: "metadata-unknown-tags", Kind: "variant", Drawn: true, Profiles: []string{"nip29", "identity"},
		Freedom:   "NIP-29 lists the 39000 tags it defines; it does not forbid a relay to keep others a 9002 carried",
		Describes: "tags of a 9002 the relay does not implement (for example parent and child where it has no subgroups) are copied into the group's 39000 as the last 9002 gave them",
		install:   keepUnknownMetadataTags},
	{Name: variantNarrowWindow, Dimension: "created-at-window", Kind: "variant", Drawn: true,
		Freedom:   "NIP-11 limitation.created_at_lower_limit / created_at_upper_limit: a relay bounds how far an event's created_at may lie from its clock",
		Describes: "events more than 60 s in the past or 30 s in the future are refused \"invalid:\" (advertised in limitation), as relay29's example policies do",
		install: func(r *Relay) {
			r.createdAtPast, r.createdAtFuture = 60, 30
		}},
}

// relay29KindsAllowlist are the kinds relay29's basic-khatru example lets
// in (RestrictToSpecifiedKinds): chat, threads, comments, articles,
// calendar, highlights, 9000-9007 and the join and leave requests.
var relay29KindsAllowlist = []int{9, 10, 11, 12, 1111, 30023, 31922, 31923, 9802,
	9000, 9001, 9002, 9003, 9004, 9005, 9006, 9007, 9021, 9022}

// issue34Variants are the lawful relays issue 34 names beyond the first
// round: role names the relay chooses, relay29's example policies (a kinds
// allowlist, tag limits) and a per-connection rate limit. Grouped here by
// their own dimensions.
var issue34Variants = []Variant{
	// Every profile: the drafts name no roles (owner/admin are the buzz
	// relay's convention, /work/shared/spec/README.md). NIP-29's way learns
	// the creator's role; the drafts' profiles put users by the role words
	// unless --role-map names the relay's own (the lawful property passes
	// admin=moderator,owner=king there).
	{Name: variantRoleNames, Dimension: "role-names", Kind: "variant", Drawn: true,
		Freedom:   "NIP-29: \"These users are identified by role labels which are arbitrarily defined by the relays (see also the description of kind:39003)\"; \"the exact role name is not relevant\"",
		Describes: "the relay's roles are named \"king\" (the creator's, with every power) and \"moderator\" (edits metadata, puts and removes users) in its 9000s, 39001, 39002 and 39003; a 9000 naming \"owner\" or \"admin\" is refused \"invalid:\" (roles it does not support)",
		install: func(r *Relay) {
			r.hooks.roleNames = map[string]string{roleOwner: "king", roleAdmin: "moderator", roleMember: roleMember}
		}},
	{Name: variantKindsAllowlist, Dimension: "kinds-allowlist", Kind: "variant", Drawn: true,
		Freedom:   "NIP-29: \"Groups may accept any event kind\" (a relay chooses which); NIP-01 lists \"blocked\" among the OK prefixes",
		Describes: "only kinds 9, 10, 11, 12, 1111, 30023, 31922, 31923, 9802, 9000-9007, 9021 and 9022 are accepted, and the profile's own command kinds (labels: 9008, the draft's channel deletion); any other kind is refused \"blocked: …\" (relay29's basic-khatru RestrictToSpecifiedKinds)",
		install: func(r *Relay) {
			allowed := relay29KindsAllowlist
			if clause.CanonicalProfile(r.profile.name()) == "labels" {
				allowed = append(slices.Clone(allowed), kindDeleteGroup)
			}
			r.hooks.refuseEvent = append(r.hooks.refuseEvent, func(_ *conn, ev *nostr.Event) string {
				if slices.Contains(allowed, ev.Kind) {
					return ""
				}
				return fmt.Sprintf("blocked: received event kind %d not allowed", ev.Kind)
			})
		}},
	// nip29 only (issue 34, measured): under identity the 6 indexable
	// tags refuse a 9007/9002 with the draft's type and 8 label t tags
	// (identity/labels/1, /3, /15 fail), which the draft lets a client
	// send, so the limit is not lawful there. Under labels only a label
	// over 64 characters trips it, refused "blocked:" before the draft's
	// own "invalid: nip-cl-rejected" (labels/grammar/15, /18 fail): lawful
	// if the drafts' "earlier generic admission" refusals cover a tag-size
	// policy, a reading left open, so labels is left out too.
	{Name: variantTagLimits, Dimension: "tag-limits", Kind: "variant", Drawn: true, Profiles: []string{"nip29"},
		Freedom:   "NIP-01: a relay may refuse an event for its own reasons (OK false with a prefix); NIP-11's limitation is optional",
		Describes: "an event with a tag value (its second element) over 64 characters is refused \"blocked: event contains too large tags\", and one with more than 6 single-letter (indexable) tags, kind 9005 excepted, \"blocked: too many indexable tags\" (relay29's basic-khatru PreventLargeTags(64), PreventTooManyIndexableTags(6, [9005])); nip29 only: the identity draft's 8 label t tags exceed 6, and under labels whether a tag-size refusal may precede the draft's own prefix is left open",
		install: func(r *Relay) {
			r.hooks.refuseEvent = append(r.hooks.refuseEvent, func(_ *conn, ev *nostr.Event) string {
				indexable := 0
				for _, tag := range ev.Tags {
					if len(tag) > 1 && len(tag[1]) > 64 {
						return "blocked: event contains too large tags"
					}
					if len(tag) > 0 && len(tag[0]) == 1 {
						indexable++
					}
				}
				if indexable > 6 && ev.Kind != kindDeleteEvent {
					return "blocked: too many indexable tags"
				}
				return ""
			})
		}},
	{Name: variantPoW, Dimension: "proof-of-work", Kind: "variant", Drawn: true,
		Freedom:   "NIP-13: a relay may require proof of work, and NIP-11's limitation.min_pow_difficulty publishes it; NIP-01 lists \"pow\" among the OK prefixes",
		Describes: "every EVENT whose id has fewer than 10 leading zero bits (NIP-13) is refused \"pow: difficulty D is less than 10\"; NIP-11 publishes limitation.min_pow_difficulty 10 (the harness mines to it on its own)",
		install: func(r *Relay) {
			r.hooks.refuseEvent = append(r.hooks.refuseEvent, requirePoW(powDifficulty))
			r.hooks.editInfo = append(r.hooks.editInfo, func(info *Info) {
				if info.Limitation != nil {
					info.Limitation.MinPowDifficulty = powDifficulty
				}
			})
		}},
	// Not drawn: without the published difficulty the harness mines only
	// with --pow, so every case would be blocked (true, and told with the
	// advice to pass --pow 10; TestVariantPoWUnpublished).
	{Name: variantPoWUnpublished, Dimension: "proof-of-work", Kind: "variant",
		Freedom:   "NIP-13: a relay may require proof of work; NIP-11's limitation is optional",
		Describes: "every EVENT whose id has fewer than 10 leading zero bits is refused \"pow: difficulty D is less than 10\", and NIP-11 does not publish it (run with --pow 10)",
		install: func(r *Relay) {
			r.hooks.refuseEvent = append(r.hooks.refuseEvent, requirePoW(powDifficulty))
		}},
	// Not drawn, like the per-key rate limits: a labels sweep writes
	// faster than 20 events/s on one connection.
	{Name: variantRatePerConn, Dimension: "rate-limit", Kind: "variant",
		Freedom:   "NIP-01 lists \"rate-limited\" among the OK prefixes: a relay bounds how fast a connection may write",
		Describes: "each connection may write 20 events per second (bursts of 40), whatever the key; more are answered \"rate-limited: …\"",
		install: func(r *Relay) {
			l := newRateLimiter(20, 40, r.now)
			r.hooks.refuseEvent = append(r.hooks.refuseEvent, func(c *conn, _ *nostr.Event) string {
				if l.allow(fmt.Sprintf("%p", c)) {
					return ""
				}
				return "rate-limited: at most 20 events per second per connection (burst 40)"
			})
		}},
}

// namesClosedGroup is auth-on-demand's read rule: before AUTH, a REQ or
// COUNT naming a private or hidden group by #h or #d is answered
// "auth-required:" (with the challenge), so a member learns it must
// authenticate; other reads are answered from the anonymous view.
func namesClosedGroup(c *conn, verb string, filters nostr.Filters) string {
	if c.anyAuthed() {
		return ""
	}
	for _, f := range filters {
		for _, name := range []string{"h", "d"} {
			for _, id := range f.Tags[name] {
				ch, err := loadChannel(c.r.sqlDB(), c.community, id)
				if err == nil && ch != nil && !ch.Deleted && (ch.Visibility == "private" || ch.Hidden) {
					return "auth-required: " + verb + " names a group whose members only may read it"
				}
			}
		}
	}
	return ""
}

// unknownPathAnswer is a variant of the http-unknown-path dimension: what
// the relay answers to a plain HTTP request that is not NIP-11.
func unknownPathAnswer(name, describes string, answer func(w http.ResponseWriter, req *http.Request)) Variant {
	return Variant{Name: name, Dimension: "http-unknown-path", Kind: "variant", Drawn: true,
		Freedom:   "NIP-11 defines only the answer to Accept: application/nostr+json; other HTTP answers are the relay's own",
		Describes: describes,
		install: func(r *Relay) {
			r.hooks.answerHTTP = append(r.hooks.answerHTTP, func(w http.ResponseWriter, req *http.Request) bool {
				answer(w, req)
				return true
			})
		}}
}

// htmlPage answers 200 text/html with body.
func htmlPage(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, body)
}

// unpublished is the variant of a relay that never publishes the state
// kind (NIP-29 allows none of each).
func unpublished(name string, kind int, what string) Variant {
	return Variant{Name: name, Dimension: fmt.Sprintf("state-%d", kind), Kind: "variant", Drawn: true,
		Freedom:   "NIP-29: \"a single instance of each (or none) should exist at all times for each group\"",
		Describes: fmt.Sprintf("no kind %d (%s) is ever published", kind, what),
		install:   omitStateKind(kind)}
}

func omitStateKind(kind int) func(r *Relay) {
	return func(r *Relay) {
		r.hooks.omitState = append(r.hooks.omitState, func(k int) bool { return k == kind })
	}
}

func skewClock(d time.Duration) func(r *Relay) {
	return func(r *Relay) {
		base := r.now
		r.now = func() time.Time { return base().Add(d) }
	}
}

func dropNIP(n int) func(info *Info) {
	return func(info *Info) {
		info.SupportedNIPs = slices.DeleteFunc(info.SupportedNIPs, func(v any) bool { return v == n })
	}
}

// rewordAsError is refusals-error-prefix: "restricted: text" becomes
// "error: text"; auth-required, duplicate and the labels draft's fixed
// markers keep their words.
func rewordAsError(reason string) string {
	prefix, rest, found := strings.Cut(reason, ":")
	if !found || prefix == "error" || prefix == "auth-required" || prefix == "duplicate" || strings.Contains(reason, "nip-cl-") {
		return reason
	}
	return "error:" + rest
}

// keepUnknownMetadataTags installs metadata-keeps-unknown-tags: the
// tags of a group's last accepted 9002 that the relay does not implement
// ride along in its 39000.
func keepUnknownMetadataTags(r *Relay) {
	var mu sync.Mutex
	kept := map[string]nostr.Tags{} // community + "\x00" + group id -> tags
	known := map[string]bool{"h": true, "name": true, "picture": true, "banner": true, "about": true, "private": true, "public": true,
		"closed": true, "open": true, "hidden": true, "visible": true, "restricted": true, "unrestricted": true,
		"previous": true, "livekit": true, "no-text": true, "no-livekit": true}
	implemented := func(name string) bool {
		if known[name] || (len(name) == 1 && name != "t") {
			return true
		}
		return (name == "parent" || name == "child") && !r.lacks(featureSubgroups)
	}
	r.hooks.stateTags = append(r.hooks.stateTags, func(t *txn, kind int, ch *Channel) nostr.Tags {
		if kind != kindGroupMetadata {
			return nil
		}
		key := ch.Community + "\x00" + ch.UUID
		mu.Lock()
		defer mu.Unlock()
		// The 9002 this transaction applies to ch sets the kept tags.
		if t != nil && t.command != nil && t.command.Kind == kindEditMetadata {
			if id, ok := lastTag(t.command, "h"); ok && id == ch.UUID {
				var extra nostr.Tags
				for _, tag := range t.command.Tags {
					if len(tag) >= 1 && !implemented(tag[0]) {
						extra = append(extra, tag)
					}
				}
				kept[key] = extra
			}
		}
		return kept[key]
	})
}

// Variants returns every lawful switch — variants, policies and readings —
// sorted by kind then name. A reading value is named "READING=VALUE".
func Variants() []Variant {
	out := append(append(append([]Variant(nil), variantCatalogue...), issue34Variants...), deploymentVariants...)
	for _, p := range policyCatalogue {
		p := p
		dim, drawn := "policy:"+p.Name, true
		switch p.Name {
		case policyTiesNewestStoredFirst, policyTiesFirstStoredFirst:
			dim = "ties"
		case policyListedKeysOnly, policyListedCreators:
			drawn = false // need keys the harness is given by flag
		case policyNoLiveKit:
			dim = "av"
		}
		out = append(out, Variant{Name: p.Name, Dimension: dim, Kind: "policy", Drawn: drawn, Describes: p.Describes,
			install: func(r *Relay) { r.policies[p.Name] = true }})
	}
	for _, rd := range clause.Readings() {
		for _, v := range rd.Values[1:] {
			var profiles []string
			if rd.Profile != "" {
				profiles = []string{rd.Profile}
			}
			out = append(out, Variant{Name: rd.ID + "=" + v.Name, Dimension: "reading:" + rd.ID, Kind: "reading", Drawn: true,
				Profiles: profiles, Freedom: rd.Open, Describes: v.Meaning})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return kindRank(out[i].Kind) < kindRank(out[j].Kind)
		}
		return out[i].Name < out[j].Name
	})
	return out
}

func kindRank(k string) int {
	switch k {
	case "variant":
		return 0
	case "policy":
		return 1
	}
	return 2
}

// AppliesTo reports whether the variant applies to a relay of profile.
func (v Variant) AppliesTo(profile string) bool {
	profile = clause.CanonicalProfile(profile)
	return len(v.Profiles) == 0 || slices.Contains(v.Profiles, profile)
}

// LookupVariant finds a lawful switch by name.
func LookupVariant(name string) (Variant, bool) {
	for _, v := range Variants() {
		if v.Name == name {
			return v, true
		}
	}
	return Variant{}, false
}

// Dimensions lists, for profile, every dimension the lawful draw may take a
// value of and its variants (the conforming default is "no variant").
func Dimensions(profile string) map[string][]Variant {
	out := map[string][]Variant{}
	for _, v := range Variants() {
		if v.Drawn && v.AppliesTo(profile) {
			out[v.Dimension] = append(out[v.Dimension], v)
		}
	}
	return out
}

// Lawful draws a random lawful combination for profile from seed: each
// dimension keeps the default with probability 1/2, else takes one of its
// variants. The same seed and profile give the same combination.
func Lawful(seed uint64, profile string) []string {
	rng := rand.New(rand.NewPCG(seed, 0x6e6970636c))
	dims := Dimensions(profile)
	names := make([]string, 0, len(dims))
	for d := range dims {
		names = append(names, d)
	}
	sort.Strings(names)
	var out []string
	for _, d := range names {
		if rng.IntN(2) == 0 {
			continue
		}
		vs := dims[d]
		out = append(out, vs[rng.IntN(len(vs))].Name)
	}
	sort.Strings(out)
	return out
}

// applyVariants validates names for profile and splits them: policies and
// readings go to their own sets, variants are returned to be installed.
func applyVariants(names []string, profile string, policies map[string]bool, readings readingSet) ([]Variant, error) {
	var out []Variant
	dims := map[string]string{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		v, ok := LookupVariant(n)
		if !ok {
			return nil, fmt.Errorf("reference: unknown variant %q (see `nipcl-conform faults`)", n)
		}
		if !v.AppliesTo(profile) {
			return nil, fmt.Errorf("reference: variant %q applies only to profile %s, not %q", n, strings.Join(v.Profiles, ", "), profile)
		}
		if other, dup := dims[v.Dimension]; dup && other != n {
			return nil, fmt.Errorf("reference: variants %q and %q exclude each other (both answer %s)", other, n, v.Dimension)
		}
		dims[v.Dimension] = n
		switch v.Kind {
		case "policy":
			policies[n] = true
		case "reading":
			id, val, _ := strings.Cut(n, "=")
			readings[id] = val
		default:
			out = append(out, v)
		}
	}
	return out, nil
}
