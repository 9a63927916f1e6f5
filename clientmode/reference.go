package clientmode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/nbd-wtf/go-nostr"
)

// Fault switches of the reference client: each breaks one client rule on
// purpose, so the kill test can show a case catches it.
var Faults = []struct{ Name, Clause, What string }{
	{"resign-on-retry", "labels/responses.18", "signs a new event (new ID) for every retry instead of resending the stored one"},
	{"generic-rejection-rejected", "labels/responses.4", "takes a refusal without a nip-cl prefix as Rejected"},
	{"downgrade-committed", "labels/responses.20", "lets a refusal that follows a positive OK for the same event replace Committed"},
	{"trust-any-signer", "labels/snapshot.12", "accepts a snapshot with any valid signature, whoever signed it"},
	{"accept-client-signed", "labels/snapshot.12", "accepts a snapshot signed by the user's own key"},
	{"cache-by-channel", "labels/snapshot.14", "caches snapshots by channel ID alone, not by relay identity"},
	{"snapshot-rollback", "labels/snapshot.15", "lets the last snapshot received win, even an older one"},
	{"labels-from-commands", "labels/snapshot.11", "also takes labels from the add-label tags of stored kind 9002 commands it reads"},
	{"create-without-query", "identity/choosing-one-channel.3", "creates a new channel for creator+label without asking the relay for an existing one"},
	{"drop-unknown-labels", "labels/values-and-limits.4", "shows only labels with a prefix it knows (status:, team:, workflow/)"},
	{"creator-from-filter", "identity/trust.2", "takes every channel the #P query returns as the creator's, without reading its P tag"},
	{"ignore-capability", "labels/capability.3", "sends label commands without checking NIP-11 for nip-cl"},
	{"type-from-last-t", "identity/identity-tags.4", "takes the channel type from the last t tag instead of the first"},
	{"creator-from-signer", "identity/older-events.2", "takes the state event's signer as the creator when P is missing"},
	{"identity-event-time", "identity/creation-time.3", "ranks channels by the state event's created_at instead of the created_at tag"},
	{"identity-trust-any", "identity/trust.1", "relies on identity tags of state events whoever signed them"},
	{"no-snapshot-cache", "labels/snapshot.15", "keeps no snapshot cache: each read shows whatever that read returned"},
	{"snapshot-cache-frozen", "labels/snapshot.14", "keeps the first snapshot it accepted and never replaces it"},
	{"nip29-trust-pubkey", "nip29/clients.1", "takes the NIP-11 pubkey (the operator contact) as the key that signs group state"},
	{"nip29-trust-any-signer", "nip29/clients.1", "relies on group state events (39000-39003) whoever signed them"},
	{"flags-sticky", "nip29/clients.2", "keeps a flag once any version of the group's 39000 had it, though the current one omits it"},
	{"membership-first-event", "nip29/clients.3", "tells membership from the earliest kind 9000/9001 naming the user, not the latest"},
	{"ignore-previous", "nip29/clients.4", "shows every message without checking its previous references"},
	{"no-10009-check", "nip29/clients.5", "when the primary relay is unreachable, gives up without reading the admins' kind 10009"},
	{"ignore-moved", "nip29/clients.6", "reads the admins' kind 10009 but keeps reporting the old relay"},
	{"inherit-membership", "nip29/clients.7", "takes membership of the parent group as membership of a subgroup"},
	{"children-from-child-tags", "nip29/clients.8", "takes a group's children from its child tags only, not from the parent tags of the others"},
	{"join-without-code", "nip29/clients.9", "sends the join request without the invite code"},
	{"members-merge", "nip29/clients.18", "merges each 39002 into the members it already knows, so a member who left or was removed stays listed"},
	{"roles-first-only", "nip29/clients.19", "reads only the first role of an admin's p tag in the 39001"},
	{"roles-known-only", "nip29/clients.19", "shows only the roles it knows (admin, moderator) of the 39003"},
	{"nip29-ok-optimistic", "nip29/clients.20", "reports a NIP-29 command committed when the connection closes before any OK"},
	{"nip29-last-ok-wins", "nip29/clients.20", "lets a later OK for the same NIP-29 command replace the first"},
	{"nip29-commit-on-send", "nip29/clients.20", "reports a NIP-29 command committed once it is sent, without waiting for the OK"},
	{"auth-stale-challenge", "nip42/auth.4", "answers the AUTH challenge of a new connection with the first challenge it got from that relay"},
}

// FaultNames lists the fault switch names.
func FaultNames() []string {
	var out []string
	for _, f := range Faults {
		out = append(out, f.Name)
	}
	return out
}

// Reference is the reference client: it follows the drafts' client rules
// unless a fault switch says otherwise. The zero Attempts means 3.
type Reference struct {
	Fault    string
	Attempts int
	Timeout  time.Duration // per network step (dial, query); zero means DefaultWait
	OKWait   time.Duration // how long to wait for an OK; zero means DefaultWait
	secret   string
	pub      string
	// cache of accepted snapshots, scoped by relay identity and channel.
	cache map[string]nostr.Event
	// groups caches accepted NIP-29 state events, by relay identity,
	// group and kind.
	groups map[string]nostr.Event
	// flagsSeen remembers flags of earlier 39000 versions (only the
	// flags-sticky fault reads it).
	flagsSeen map[string]bool
	// members remembers every member listed so far, by relay and group
	// (only the members-merge fault reads it).
	members map[string][]string
	// challenges is the first AUTH challenge of each relay (only the
	// auth-stale-challenge fault reads it).
	challenges map[string]string
}

// Do carries out one intent.
func (c *Reference) Do(ctx context.Context, in Intent) Answer {
	a := Answer{ID: in.ID}
	var err error
	switch in.Op {
	case OpInit:
		c.secret = in.Secret
		c.pub, err = nostr.GetPublicKey(in.Secret)
		a.Protocol = ProtocolVersion
	case OpAddLabel, OpCreate:
		a.Outcome, err = c.command(ctx, in)
	case OpReadLabels:
		a.Labels, a.Known, err = c.readLabels(ctx, in)
	case OpFind:
		a.Channel, err = c.find(ctx, in)
	case OpEnsure:
		a.Channel, err = c.ensure(ctx, in)
	case OpChannel:
		err = c.readChannel(ctx, in, &a)
	case OpCreateGroup, OpJoin, OpLeave, OpPost, OpRemoveUser:
		a.Outcome, err = c.groupCommand(ctx, in)
	case OpReadGroup:
		a.Group, a.Known, err = c.readGroup(ctx, in)
	case OpMember:
		a.Member, a.Known, err = c.amMember(ctx, in)
	case OpReadMessages:
		a.Messages, a.Flagged, err = c.readMessages(ctx, in)
	case OpLocateGroup:
		a.Relay, err = c.locateGroup(ctx, in)
	default:
		err = fmt.Errorf("unknown op %q", in.Op)
	}
	if err != nil {
		a.Error = err.Error()
	}
	return a
}

func (c *Reference) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultWait
}

// DefaultWait is how long the reference client waits for each network step.
const DefaultWait = 3 * time.Second

type relayInfo struct {
	Self       string   `json:"self"`
	Pubkey     string   `json:"pubkey"`
	Extensions []string `json:"supported_extensions"`
}

func (c *Reference) info(ctx context.Context, relay string) (relayInfo, error) {
	var ri relayInfo
	u := "http" + strings.TrimPrefix(relay, "ws")
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return ri, err
	}
	req.Header.Set("Accept", "application/nostr+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return ri, err
	}
	defer resp.Body.Close()
	err = json.NewDecoder(resp.Body).Decode(&ri)
	return ri, err
}

// conn is one WebSocket connection that answers AUTH challenges.
type conn struct {
	ws  *websocket.Conn
	ref *Reference
}

func (c *Reference) dial(ctx context.Context, relay string) (*conn, error) {
	dctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	ws, _, err := websocket.Dial(dctx, relay, nil)
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(1 << 20)
	return &conn{ws: ws, ref: c}, nil
}

func (k *conn) send(ctx context.Context, v ...any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return k.ws.Write(ctx, websocket.MessageText, b)
}

// next reads frames until one that is not an AUTH exchange.
func (k *conn) next(ctx context.Context, relay string) ([]json.RawMessage, error) {
	for {
		_, data, err := k.ws.Read(ctx)
		if err != nil {
			return nil, err
		}
		var f []json.RawMessage
		if json.Unmarshal(data, &f) != nil || len(f) == 0 {
			continue
		}
		var typ string
		json.Unmarshal(f[0], &typ)
		if typ == "AUTH" && len(f) > 1 {
			var challenge string
			json.Unmarshal(f[1], &challenge)
			if k.ref.Fault == "auth-stale-challenge" {
				if k.ref.challenges == nil {
					k.ref.challenges = map[string]string{}
				}
				if first, ok := k.ref.challenges[relay]; ok {
					challenge = first // the fault: the first connection's challenge
				} else {
					k.ref.challenges[relay] = challenge
				}
			}
			ev := nostr.Event{Kind: 22242, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"relay", relay}, {"challenge", challenge}}}
			if err := ev.Sign(k.ref.secret); err == nil {
				k.send(ctx, "AUTH", ev)
			}
			continue
		}
		return f, nil
	}
}

// ackClass sorts an OK message into the outcome table of the labels draft.
func ackClass(ok bool, msg string) string {
	if ok {
		return Committed
	}
	prefix, rest, found := strings.Cut(msg, ": ")
	if !found || prefix == "" || strings.ContainsAny(prefix, " ") {
		return Unknown
	}
	marker, _, _ := strings.Cut(rest, " ") // the detail after one space is ignored
	switch marker {
	case "nip-cl-rejected":
		return Rejected
	default:
		return Unknown
	}
}

// command signs a label command (kind 9002 add-label, or kind 9007 labeled
// creation) once and submits it until the outcome is known or the attempts
// run out.
func (c *Reference) command(ctx context.Context, in Intent) (string, error) {
	if c.secret == "" {
		return "", errors.New("no identity: send init first")
	}
	if c.Fault != "ignore-capability" {
		ri, err := c.info(ctx, in.Relay)
		if err != nil {
			return "", fmt.Errorf("NIP-11: %w", err)
		}
		if !slices.Contains(ri.Extensions, "nip-cl") {
			return Unsupported, nil
		}
	}
	var ev nostr.Event
	if in.Op == OpCreate {
		ev = nostr.Event{Kind: 9007, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"h", in.Channel}, {"channel_type", "stream"}, {"name", "nipcl-conform"}, {"label", in.Label}}}
	} else {
		ev = nostr.Event{Kind: 9002, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"h", in.Channel}, {"add-label", in.Label}}}
	}
	if err := ev.Sign(c.secret); err != nil {
		return "", err
	}
	attempts := c.Attempts
	if attempts <= 0 {
		attempts = 3
	}
	uncertain := false
	for i := 0; i < attempts; i++ {
		if i > 0 && c.Fault == "resign-on-retry" {
			ev.CreatedAt++
			ev.Sign(c.secret)
		}
		class := c.submit(ctx, in.Relay, ev, false)
		if class == "generic" {
			if c.Fault == "generic-rejection-rejected" {
				class = Rejected
			} else {
				class = Unknown
			}
		}
		switch class {
		case Committed:
			return Committed, nil
		case Rejected:
			if uncertain {
				return Unknown, nil // a later rejection proves nothing about the uncertain attempt
			}
			return Rejected, nil
		}
		uncertain = true
	}
	return Unknown, nil
}

// submit sends ev once on a fresh connection and classifies the answer:
// Committed, Rejected, Unknown, or "generic" for a refusal without a
// recognized NIP-CL marker. nip29 says ev is a NIP-29 command (the
// nip29-* faults apply to those only).
func (c *Reference) submit(ctx context.Context, relay string, ev nostr.Event, nip29 bool) string {
	k, err := c.dial(ctx, relay)
	if err != nil {
		return Unknown
	}
	defer k.ws.CloseNow()
	wait := c.OKWait
	if wait <= 0 {
		wait = DefaultWait
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	if k.send(wctx, "EVENT", ev) != nil {
		return Unknown
	}
	if nip29 && c.Fault == "nip29-commit-on-send" {
		k.next(wctx, relay) // whatever the relay answers, or nothing
		return Committed    // the fault: sent counts as accepted
	}
	for {
		f, err := k.next(wctx, relay)
		if err != nil {
			if nip29 && c.Fault == "nip29-ok-optimistic" && wctx.Err() == nil {
				return Committed // the fault: a closed connection counts as accepted
			}
			return Unknown // disconnect or silence
		}
		var typ, id string
		json.Unmarshal(f[0], &typ)
		if typ != "OK" || len(f) < 4 {
			continue
		}
		json.Unmarshal(f[1], &id)
		if id != ev.ID {
			continue
		}
		var ok bool
		var msg string
		json.Unmarshal(f[2], &ok)
		json.Unmarshal(f[3], &msg)
		class := ackClass(ok, msg)
		if class == Unknown && !ok && !strings.Contains(msg, ": nip-cl-unknown") {
			class = "generic"
		}
		lastWins := (!nip29 && c.Fault == "downgrade-committed") || (nip29 && c.Fault == "nip29-last-ok-wins")
		if !lastWins || class != Committed {
			return class
		}
		// The fault: keep listening a moment and let the last OK for the ID win.
		lctx, lcancel := context.WithTimeout(wctx, 250*time.Millisecond)
		defer lcancel()
		for {
			f, err := k.next(lctx, relay)
			if err != nil {
				return class
			}
			var typ, id2 string
			json.Unmarshal(f[0], &typ)
			if len(f) >= 4 && typ == "OK" && json.Unmarshal(f[1], &id2) == nil && id2 == ev.ID {
				json.Unmarshal(f[2], &ok)
				json.Unmarshal(f[3], &msg)
				class = ackClass(ok, msg)
			}
		}
	}
}

// query sends one REQ and collects events until EOSE.
func (c *Reference) query(ctx context.Context, relay string, filter nostr.Filter) ([]nostr.Event, error) {
	k, err := c.dial(ctx, relay)
	if err != nil {
		return nil, err
	}
	defer k.ws.CloseNow()
	qctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	if err := k.send(qctx, "REQ", "q", filter); err != nil {
		return nil, err
	}
	var out []nostr.Event
	for {
		f, err := k.next(qctx, relay)
		if err != nil {
			return out, err
		}
		var typ string
		json.Unmarshal(f[0], &typ)
		switch typ {
		case "EVENT":
			if len(f) < 3 {
				continue
			}
			var ev nostr.Event
			if json.Unmarshal(f[2], &ev) == nil {
				out = append(out, ev)
			}
		case "EOSE", "CLOSED":
			k.send(qctx, "CLOSE", "q")
			return out, nil
		}
	}
}

// trusted reports whether a state event may be relied on: a valid ID and
// signature, and a signer that is the relay's NIP-11 self key.
func (c *Reference) trusted(ev nostr.Event, self string, anySigner bool) bool {
	if !ev.CheckID() {
		return false
	}
	if ok, _ := ev.CheckSignature(); !ok {
		return false
	}
	switch {
	case anySigner:
		return true
	case ev.PubKey == self:
		return true
	case c.Fault == "accept-client-signed" && ev.PubKey == c.pub:
		return true
	}
	return false
}

// canonicalLabels returns the label set of a snapshot for channel, or
// ok=false when the snapshot must be discarded.
func canonicalLabels(ev nostr.Event, channel string) (labels []string, ok bool) {
	var d, L int
	var ts int
	for _, t := range ev.Tags {
		if len(t) == 0 {
			continue
		}
		switch t[0] {
		case "d":
			d++
			if len(t) != 2 || t[1] != channel {
				return nil, false
			}
		case "t":
			ts++
			if len(t) != 2 {
				return nil, false
			}
		case "L":
			L++
			if len(t) != 2 || t[1] != "nip-cl" {
				return nil, false
			}
		case "l":
			if len(t) != 3 || t[2] != "nip-cl" || !validLabel(t[1]) {
				return nil, false
			}
			if n := len(labels); n > 0 && labels[n-1] >= t[1] {
				return nil, false // unsorted or repeated
			}
			labels = append(labels, t[1])
		}
	}
	if ev.Kind != 39000 || d != 1 || ts != 1 || len(labels) > 32 {
		return nil, false
	}
	if (len(labels) == 0) != (L == 0) || L > 1 {
		return nil, false
	}
	if labels == nil {
		labels = []string{}
	}
	return labels, true
}

// validLabel: the labels draft's value pattern ^[a-z0-9][a-z0-9._:/-]*$,
// at most 64 bytes.
func validLabel(v string) bool {
	if v == "" || len(v) > 64 {
		return false
	}
	for i := 0; i < len(v); i++ {
		b := v[i]
		switch {
		case b >= 'a' && b <= 'z', b >= '0' && b <= '9':
		case i > 0 && (b == '.' || b == '_' || b == ':' || b == '/' || b == '-'):
		default:
			return false
		}
	}
	return true
}

// newer is NIP-01 replaceable ordering: greater created_at, then lower ID.
func newer(a, b nostr.Event) bool {
	if a.CreatedAt != b.CreatedAt {
		return a.CreatedAt > b.CreatedAt
	}
	return a.ID < b.ID
}

func (c *Reference) readLabels(ctx context.Context, in Intent) ([]string, bool, error) {
	ri, err := c.info(ctx, in.Relay)
	if err != nil {
		return nil, false, fmt.Errorf("NIP-11: %w", err)
	}
	evs, err := c.query(ctx, in.Relay, nostr.Filter{Kinds: []int{39000}, Tags: nostr.TagMap{"d": {in.Channel}}})
	if err != nil {
		return nil, false, err
	}
	if c.cache == nil {
		c.cache = map[string]nostr.Event{}
	}
	key := ri.Self + "\x00" + in.Relay + "\x00" + in.Channel
	if c.Fault == "cache-by-channel" {
		key = in.Channel
	}
	if c.Fault == "no-snapshot-cache" {
		delete(c.cache, key) // the fault: each read starts from nothing
	}
	var fromCommands []string
	for _, ev := range evs {
		if ev.Kind == 9002 && c.Fault == "labels-from-commands" {
			for _, t := range ev.Tags {
				if len(t) == 2 && t[0] == "add-label" {
					fromCommands = append(fromCommands, t[1])
				}
			}
		}
		if !c.trusted(ev, ri.Self, c.Fault == "trust-any-signer") {
			continue
		}
		if _, ok := canonicalLabels(ev, in.Channel); !ok {
			continue
		}
		cur, have := c.cache[key]
		if c.Fault == "snapshot-cache-frozen" && have {
			continue // the fault: the first accepted snapshot stays forever
		}
		if !have || newer(ev, cur) || c.Fault == "snapshot-rollback" {
			c.cache[key] = ev
		}
	}
	cur, have := c.cache[key]
	if !have {
		return nil, false, nil
	}
	labels, _ := canonicalLabels(cur, in.Channel)
	if c.Fault == "drop-unknown-labels" {
		labels = slices.DeleteFunc(slices.Clone(labels), func(l string) bool {
			return !strings.HasPrefix(l, "status:") && !strings.HasPrefix(l, "team:") && !strings.HasPrefix(l, "workflow/")
		})
	}
	for _, l := range fromCommands {
		if !slices.Contains(labels, l) {
			labels = append(labels, l)
		}
	}
	return labels, true, nil
}

// find applies the identity draft's "choosing one channel" rule.
func (c *Reference) find(ctx context.Context, in Intent) (string, error) {
	ri, err := c.info(ctx, in.Relay)
	if err != nil {
		return "", fmt.Errorf("NIP-11: %w", err)
	}
	evs, err := c.query(ctx, in.Relay, nostr.Filter{Kinds: []int{39000}, Tags: nostr.TagMap{"P": {in.Creator}, "t": {in.Label}}})
	if err != nil {
		return "", err
	}
	type cand struct {
		d       string
		created int64
		has     bool
	}
	var cs []cand
	for _, ev := range evs {
		if !c.trusted(ev, ri.Self, c.Fault == "identity-trust-any") {
			continue
		}
		if p := ev.Tags.Find("P"); c.Fault != "creator-from-filter" && (p == nil || p[1] != in.Creator) {
			continue // only P says who created a channel; the relay's filtering is no proof
		}
		d := ev.Tags.Find("d")
		if d == nil {
			continue
		}
		x := cand{d: d[1]}
		if c.Fault == "identity-event-time" {
			x.created, x.has = int64(ev.CreatedAt), true
		} else if t := ev.Tags.Find("created_at"); t != nil {
			if n, err := strconv.ParseInt(t[1], 10, 64); err == nil {
				x.created, x.has = n, true
			}
		}
		cs = append(cs, x)
	}
	if len(cs) == 0 {
		return "", nil
	}
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.has != b.has {
			return a.has
		}
		if a.has && a.created != b.created {
			return a.created < b.created
		}
		return a.d < b.d
	})
	return cs[0].d, nil
}

// ValidFault reports whether name is a fault switch ("" is the clean client).
func ValidFault(name string) bool { return name == "" || slices.Contains(FaultNames(), name) }

// ensure finds the one channel of creator+label, and creates it (kind 9007
// with the label as a t tag) only when the relay returned none.
func (c *Reference) ensure(ctx context.Context, in Intent) (string, error) {
	if c.Fault != "create-without-query" {
		d, err := c.find(ctx, in)
		if err != nil || d != "" {
			return d, err
		}
	}
	if c.Fault != "ignore-capability" {
		ri, err := c.info(ctx, in.Relay)
		if err != nil {
			return "", fmt.Errorf("NIP-11: %w", err)
		}
		if !slices.Contains(ri.Extensions, "nip-cl") {
			return "", nil // no labeled channel on a relay without nip-cl
		}
	}
	ev := nostr.Event{Kind: 9007, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"h", in.Channel}, {"t", in.Label}}}
	if err := ev.Sign(c.secret); err != nil {
		return "", err
	}
	switch c.submit(ctx, in.Relay, ev, false) {
	case Committed:
		return in.Channel, nil
	default:
		return "", nil
	}
}

// readChannel reads a channel's identity tags from its relay-signed 39000:
// the type is the first t tag, later t tags are labels, the creator is P
// (unknown without it).
func (c *Reference) readChannel(ctx context.Context, in Intent, a *Answer) error {
	ri, err := c.info(ctx, in.Relay)
	if err != nil {
		return fmt.Errorf("NIP-11: %w", err)
	}
	evs, err := c.query(ctx, in.Relay, nostr.Filter{Kinds: []int{39000}, Tags: nostr.TagMap{"d": {in.Channel}}})
	if err != nil {
		return err
	}
	var best *nostr.Event
	for i, ev := range evs {
		if c.trusted(ev, ri.Self, false) && (best == nil || newer(ev, *best)) {
			best = &evs[i]
		}
	}
	if best == nil {
		return nil
	}
	a.Known = true
	var ts []string
	for _, t := range best.Tags {
		switch {
		case len(t) >= 2 && t[0] == "t":
			ts = append(ts, t[1])
		case len(t) >= 2 && t[0] == "P":
			if a.Creator == "" {
				a.Creator = t[1]
			}
		}
	}
	if len(ts) > 0 {
		if c.Fault == "type-from-last-t" {
			a.Type, a.Labels = ts[len(ts)-1], ts[:len(ts)-1]
		} else {
			a.Type, a.Labels = ts[0], ts[1:]
		}
	}
	if a.Creator == "" && c.Fault == "creator-from-signer" {
		a.Creator = best.PubKey
	}
	return nil
}
