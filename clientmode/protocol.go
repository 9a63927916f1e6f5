// Package clientmode tests Nostr clients against the client obligations of
// the NIP-CL drafts. The harness plays a relay that misbehaves on purpose
// (a scripted in-process WebSocket server), hands the client under test
// intents over a JSON-lines adapter protocol, and judges both the outcome
// the client reports and what it put on the wire.
package clientmode

// Intent is one thing the harness asks the client under test to do. It is
// one JSON line on the adapter's stdin.
//
//	{"id":1,"op":"init","secret":"<hex>"}
//	{"id":2,"op":"add-label","relay":"ws://127.0.0.1:N","channel":"<uuid>","label":"status:active"}
//	{"id":2,"op":"create","relay":"ws://…","channel":"<uuid>","label":"team:infra"}
//	{"id":3,"op":"read-labels","relay":"ws://…","channel":"<uuid>"}
//	{"id":4,"op":"find","relay":"ws://…","creator":"<hex>","label":"support"}
//	{"id":5,"op":"ensure","relay":"ws://…","creator":"<hex>","label":"support","channel":"<uuid to create>"}
type Intent struct {
	ID      int    `json:"id"`
	Op      string `json:"op"`
	Secret  string `json:"secret,omitempty"`
	Relay   string `json:"relay,omitempty"`
	Channel string `json:"channel,omitempty"`
	Label   string `json:"label,omitempty"`
	Creator string `json:"creator,omitempty"`
}

// Intent operations.
const (
	OpInit       = "init"         // take this secret key as the user's identity
	OpAddLabel   = "add-label"    // add a label to a channel (kind 9002)
	OpCreate     = "create"       // create the channel with one initial label (kind 9007)
	OpReadLabels = "read-labels"  // show the channel's current labels
	OpFind       = "find"         // pick the one channel of creator+label (identity draft)
	OpChannel    = "read-channel" // show a channel's type, labels (later t tags) and creator (identity draft)
	OpEnsure     = "ensure"       // find it, or create it (as channel) when there is none
)

// Answer is the adapter's reply to one intent: one JSON line on its stdout,
// carrying the intent's id.
//
//	{"id":2,"outcome":"committed"}        (add-label, create) committed | rejected | unknown | unsupported
//	{"id":3,"known":true,"labels":["a"]}  known=false: the client has no trustworthy label set
//	{"id":4,"channel":"<d>"}              find: "" when it found none; ensure: the channel found or created
//	{"id":6,"known":true,"type":"forum","labels":["ops"],"creator":"<hex>"}  read-channel
//	{"id":5,"error":"text"}               the adapter could not carry the intent out
type Answer struct {
	ID      int      `json:"id"`
	Outcome string   `json:"outcome,omitempty"`
	Known   bool     `json:"known,omitempty"`
	Labels  []string `json:"labels,omitempty"`
	Channel string   `json:"channel,omitempty"`
	Type    string   `json:"type,omitempty"`    // read-channel: the channel type
	Creator string   `json:"creator,omitempty"` // read-channel: "" when unknown
	Error   string   `json:"error,omitempty"`
}

// Outcomes of a label command as the client reports them.
const (
	Committed   = "committed"
	Rejected    = "rejected"
	Unknown     = "unknown"
	Unsupported = "unsupported" // the client did not send: the relay lacks the capability
)
