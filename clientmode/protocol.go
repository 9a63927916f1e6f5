// Package clientmode tests Nostr clients against the client obligations of
// the NIP-CL drafts. The harness plays a relay that misbehaves on purpose
// (a scripted in-process WebSocket server), hands the client under test
// intents over a JSON-lines adapter protocol, and judges both the outcome
// the client reports and what it put on the wire.
package clientmode

import "encoding/json"

// ProtocolVersion is the adapter protocol version the harness speaks. It
// sends it in the init intent ("protocol":3); an adapter answers init
// with the version it speaks: 3 (per-field knowledge in read-group
// answers), 2 (the NIP-29 intents and "unsupported"), or nothing for
// version 1 (see docs/client-mode.md: a v1 adapter still runs every case
// whose intents exist in v1; the others end unsupported; a v2 adapter's
// read-group answers count every field as shown).
const ProtocolVersion = 3

// Intent is one thing the harness asks the client under test to do. It is
// one JSON line on the adapter's stdin.
//
//	{"id":1,"op":"init","secret":"<hex>","protocol":3}
//	{"id":2,"op":"add-label","relay":"ws://127.0.0.1:N","channel":"<uuid>","label":"status:active"}
//	{"id":2,"op":"create","relay":"ws://…","channel":"<uuid>","label":"team:infra"}
//	{"id":3,"op":"read-labels","relay":"ws://…","channel":"<uuid>"}
//	{"id":4,"op":"find","relay":"ws://…","creator":"<hex>","label":"support"}
//	{"id":5,"op":"ensure","relay":"ws://…","creator":"<hex>","label":"support","channel":"<uuid to create>"}
//	{"id":2,"op":"join","relay":"ws://…","group":"build-systems","code":"<invite code>"}   (v2, NIP-29)
//	{"id":3,"op":"remove-user","relay":"ws://…","group":"build-systems","user":"<hex>"}   (v3, NIP-29 moderation)
//	{"id":2,"op":"locate-group","relay":"ws://… (primary)","group":"…","admins":["<hex>"],"relays":["ws://…"]}
type Intent struct {
	ID       int    `json:"id"`
	Op       string `json:"op"`
	Protocol int    `json:"protocol,omitempty"` // init: the harness's protocol version
	Secret   string `json:"secret,omitempty"`
	Relay    string `json:"relay,omitempty"`
	Channel  string `json:"channel,omitempty"`
	Label    string `json:"label,omitempty"`
	Creator  string `json:"creator,omitempty"`
	// v2, NIP-29 intents.
	Group   string   `json:"group,omitempty"`   // the group id (h / d tag value)
	Code    string   `json:"code,omitempty"`    // join: the invite code, when there is one
	Content string   `json:"content,omitempty"` // post: the message text
	Admins  []string `json:"admins,omitempty"`  // locate-group: the group's admins, as a client would have cached them
	Relays  []string `json:"relays,omitempty"`  // locate-group: the user's other relays, where 10009 lists can be read
	User    string   `json:"user,omitempty"`    // remove-user (v3): the member to remove
}

// Intent operations of protocol version 1.
const (
	OpInit       = "init"         // take this secret key as the user's identity
	OpAddLabel   = "add-label"    // add a label to a channel (kind 9002)
	OpCreate     = "create"       // create the channel with one initial label (kind 9007)
	OpReadLabels = "read-labels"  // show the channel's current labels
	OpFind       = "find"         // pick the one channel of creator+label (identity draft)
	OpChannel    = "read-channel" // show a channel's type, labels (later t tags) and creator (identity draft)
	OpEnsure     = "ensure"       // find it, or create it (as channel) when there is none
)

// NIP-29 intent operations (protocol version 2).
const (
	OpCreateGroup  = "create-group"  // create the group (kind 9007 with h) -> outcome
	OpJoin         = "join"          // ask to join (kind 9021, with code when given) -> outcome
	OpLeave        = "leave"         // leave (kind 9022) -> outcome
	OpPost         = "post"          // post a chat message (kind 9, h, with the client's previous tags) -> outcome
	OpReadGroup    = "read-group"    // the group as the client understands it -> known, group
	OpMember       = "am-member"     // is the user a member -> known, member
	OpReadMessages = "read-messages" // the group's messages as the client shows them -> messages, flagged
	OpLocateGroup  = "locate-group"  // where is the group now (primary relay offline) -> relay
	// OpRemoveUser (protocol version 3) is a moderation command.
	OpRemoveUser = "remove-user" // remove a member (kind 9001 with h and p) -> outcome
)

// v2Ops are the operations a version 2 adapter knows besides v1Ops.
var v2Ops = []string{OpCreateGroup, OpJoin, OpLeave, OpPost, OpReadGroup, OpMember, OpReadMessages, OpLocateGroup}

// v1Ops are the operations a version 1 adapter knows.
var v1Ops = []string{OpInit, OpAddLabel, OpCreate, OpReadLabels, OpFind, OpChannel, OpEnsure}

// Answer is the adapter's reply to one intent: one JSON line on its stdout,
// carrying the intent's id.
//
//	{"id":1,"protocol":3}                  init: the adapter speaks v3 (2: v2; left out: v1)
//	{"id":2,"outcome":"committed"}        (add-label, create, create-group, join, leave, post, remove-user) committed | rejected | unknown | unsupported
//	{"id":3,"known":true,"labels":["a"]}  known=false: the client has no trustworthy label set
//	{"id":4,"channel":"<d>"}              find: "" when it found none; ensure: the channel found or created
//	{"id":6,"known":true,"type":"forum","labels":["ops"],"creator":"<hex>"}  read-channel
//	{"id":7,"known":true,"group":{"name":"…","private":true,"admins":[{"pubkey":"…","roles":["admin"]}]},"fields":{"roles":"unsupported"}}  read-group
//	{"id":8,"known":true,"member":false}  am-member
//	{"id":9,"messages":["<id>"],"flagged":["<id>"]}  read-messages
//	{"id":10,"relay":"ws://…"}            locate-group
//	{"id":5,"unsupported":"reason"}       (v2) the client does not do this: the case ends unsupported
//	{"id":5,"error":"text"}               the adapter could not carry the intent out
//
// Any answer may carry "evidence": free text or any JSON value, shown in
// the case's report.
type Answer struct {
	ID       int        `json:"id"`
	Protocol int        `json:"protocol,omitempty"` // init answer: 2 for a v2 adapter
	Outcome  string     `json:"outcome,omitempty"`
	Known    bool       `json:"known,omitempty"`
	Labels   []string   `json:"labels,omitempty"`
	Channel  string     `json:"channel,omitempty"`
	Type     string     `json:"type,omitempty"`    // read-channel: the channel type
	Creator  string     `json:"creator,omitempty"` // read-channel: "" when unknown
	Group    *GroupView `json:"group,omitempty"`   // read-group
	Member   bool       `json:"member,omitempty"`  // am-member (with known)
	Messages []string   `json:"messages,omitempty"`
	Flagged  []string   `json:"flagged,omitempty"` // read-messages: shown with a warning, or hidden, for failing the previous check
	Relay    string     `json:"relay,omitempty"`   // locate-group
	// Fields (v3, read-group) says, per field of Group, what the client
	// knows of it: FieldUnknown (the library reads this field but holds
	// no value for it after this read) or FieldUnsupported (the library
	// does not read it at all). A field not listed is FieldShown.
	Fields map[string]string `json:"fields,omitempty"`
	// Unsupported (v2) says the client does not do what the intent asks,
	// and why; the case ends unsupported, never as a harness error.
	Unsupported string `json:"unsupported,omitempty"`
	// Evidence (v2) is anything the adapter wants in the report: free text
	// (a JSON string) or a JSON value.
	Evidence json.RawMessage `json:"evidence,omitempty"`
	Error    string          `json:"error,omitempty"`
}

// GroupView is a group as the client understands it (read-group).
type GroupView struct {
	Name       string      `json:"name,omitempty"`
	Private    bool        `json:"private,omitempty"`
	Restricted bool        `json:"restricted,omitempty"`
	Hidden     bool        `json:"hidden,omitempty"`
	Closed     bool        `json:"closed,omitempty"`
	Admins     []AdminView `json:"admins,omitempty"`
	Members    []string    `json:"members,omitempty"`
	Roles      []string    `json:"roles,omitempty"`
	Pins       []string    `json:"pins,omitempty"`
	Parent     string      `json:"parent,omitempty"`
	Children   []string    `json:"children,omitempty"`
}

// What a client knows of one field of a read-group answer (Answer.Fields).
const (
	// FieldShown: the value in the answer is what the client shows (an
	// empty list or a false flag included). The default.
	FieldShown = "shown"
	// FieldUnknown: the library reads this field, but after this read it
	// holds no value for it (its parser threw on the event, or it kept
	// none it accepts). Judged as "shows nothing": it fails a case whose
	// rule says the client shows the value, never one whose rule says
	// what the client must not take.
	FieldUnknown = "unknown"
	// FieldUnsupported: the library does not read this field at all (it
	// has no such property, or never asks for the kind that carries it).
	// Never judged: a case about that field ends unsupported.
	FieldUnsupported = "unsupported"
)

// GroupFields are the field names of a read-group answer, as Fields keys:
// the GroupView JSON names, and "admin-roles" for the roles of each admin.
var GroupFields = []string{"name", "private", "restricted", "hidden", "closed", "admins", "admin-roles", "members", "roles", "pins", "parent", "children"}

// fieldKind is the state event kind a read-group field comes from.
var fieldKind = map[string]int{"name": 39000, "private": 39000, "restricted": 39000, "hidden": 39000, "closed": 39000,
	"parent": 39000, "children": 39000, "admins": 39001, "admin-roles": 39001, "members": 39002, "roles": 39003, "pins": 39005}

// AdminView is one admin and its roles.
type AdminView struct {
	Pubkey string   `json:"pubkey"`
	Roles  []string `json:"roles,omitempty"`
}

// Outcomes of a command as the client reports them.
const (
	Committed   = "committed"
	Rejected    = "rejected"
	Unknown     = "unknown"
	Unsupported = "unsupported" // the client did not send: the relay lacks the capability
)
