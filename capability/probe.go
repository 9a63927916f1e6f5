package capability

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// Probe observes every key in keys (the configured --actor-keys, in order)
// or, when keys is empty, one fresh key standing for every key the harness
// generates. Each key sends a bare 9007; each admitted key then sends a 9000
// putting a fresh public key (no role) into a group another key created,
// reverted with a 9001 when accepted; a key whose writes were all refused
// sends a 9021 join request to learn whether it is admitted at all. The
// probe's groups are deleted (9008) before it returns. A step error is
// evidence, not a finding: the answer stays Unknown.
func Probe(ctx context.Context, tg Target, keys []*Key) *Findings {
	if len(keys) == 0 {
		keys = []*Key{{Actor: fixtures.NewActor("generated"), Label: "generated", Generated: true}}
	}
	for _, k := range keys {
		k.Actor.CommandTags = tg.CommandTags
		k.Actor.PoW = tg.PoW
	}
	p := &prober{tg: tg, conns: map[string]*fixtures.Client{}}
	defer p.close(ctx)
	owned := map[*Key]string{}
	for _, k := range keys {
		if id := p.create(ctx, k); id != "" {
			owned[k] = id
		}
	}
	for _, k := range keys {
		if k.Admitted == No {
			continue
		}
		g := p.foreignGroup(ctx, k, keys, owned)
		if g.id == "" {
			k.note("moderation: not probed (no group of another key: %s)", g.why)
		} else {
			p.moderate(ctx, k, g)
		}
		switch {
		case k.Admitted == Unknown && g.id != "":
			p.join(ctx, k, g.id)
		case k.Admitted == Unknown && k.MayCreate == No:
			// No group to join: a join request for an id no group has
			// tells a refusal of the key (restricted:) from one of the id.
			p.join(ctx, k, fixtures.NewChannelID())
		}
	}
	f := &Findings{Keys: keys, Answered: p.answered}
	f.Previous = p.previous
	if len(p.groups) > 0 {
		f.State, f.StateEvidence, f.CreatorRoles, f.StateDelays = p.stateKinds(ctx, p.groups[0])
	}
	f.Deleted, f.Undeleted = p.deleteGroups(ctx)
	f.PreviousEvidence = p.previousEvidence
	return f
}

// StateKinds are the relay-signed state kinds the probe looks for on its
// group right after creating it: metadata, admins and members.
var StateKinds = []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers}

// stateKinds reads, as the group's creator, which state kinds the relay
// publishes for a new group: those of one read right after the creation,
// and of the reads below. It then measures the relay's delay between
// an OK and the state it produces (the creator's 9002 renaming the group →
// the 39000 carrying the new name; StateDelays), then reads the three kinds
// in one REQ, again until each is seen or the settle window has passed
// since the first read answered (EOSE: the relay had processed the
// creation long before): 4 × that delay, at least 100 ms, at most a fifth
// of the step timeout (the whole fifth when no delay could be measured).
func (p *prober) stateKinds(ctx context.Context, g probeGroup) (out map[int]Answer, evidence []string, creatorRoles []string, delays []time.Duration) {
	out = map[int]Answer{}
	c, err := p.conn(ctx, g.owner)
	if err != nil {
		return out, []string{"state events: " + err.Error()}, nil, nil
	}
	record := func(evs []*nostr.Event) {
		for _, ev := range evs {
			if out[ev.Kind] == Yes || !slices.Contains(StateKinds, ev.Kind) {
				continue
			}
			out[ev.Kind] = Yes
			evidence = append(evidence, fmt.Sprintf("kind %d: published (%s)", ev.Kind, ev.ID))
			if ev.Kind == fixtures.KindAdmins {
				if creatorRoles == nil {
					creatorRoles = rolesOf(ev, g.owner.PubKey)
				}
			}
		}
	}
	// What the creation published, read before the rename below: a relay
	// may lose a state event the rename regenerates unchanged (NIP-29: "a
	// single instance of each (or none)"), and a kind seen once is a kind
	// the relay publishes.
	if r, err := c.Query(ctx, nostr.Filter{Kinds: StateKinds, Tags: nostr.TagMap{"d": {g.id}}}); err == nil && !r.Closed {
		record(r.Events)
	}
	wait := p.tg.StepTimeout / 5
	window := wait
	if d, ev := p.editDelay(ctx, c, g, wait); ev != "" {
		evidence = append(evidence, ev)
		if d >= 0 {
			delays = append(delays, d)
			window = min(max(4*d, settleFloor), wait)
		}
	}
	var start time.Time
	for {
		r, err := c.Query(ctx, nostr.Filter{Kinds: StateKinds, Tags: nostr.TagMap{"d": {g.id}}})
		if start.IsZero() {
			start = time.Now()
		}
		switch {
		case err != nil:
			evidence = append(evidence, fmt.Sprintf("state kinds: %v", err))
			return out, evidence, creatorRoles, delays
		case r.Closed:
			evidence = append(evidence, fmt.Sprintf("state kinds %v: CLOSED %q", StateKinds, r.ClosedReason))
			return out, evidence, creatorRoles, delays
		}
		record(r.Events)
		missing := 0
		for _, kind := range StateKinds {
			if out[kind] != Yes {
				missing++
			}
		}
		if missing == 0 {
			return out, evidence, creatorRoles, delays
		}
		if time.Since(start) >= window {
			for _, kind := range StateKinds {
				if out[kind] != Yes {
					out[kind] = No
					evidence = append(evidence, fmt.Sprintf("kind %d: none for the group, read %s after the relay answered a first read (its creation long processed; settle window %s)", kind, time.Since(start).Round(time.Millisecond), window))
				}
			}
			return out, evidence, creatorRoles, delays
		}
		if !pause(ctx, min(50*time.Millisecond, window-time.Since(start)+time.Millisecond)) {
			return out, evidence, creatorRoles, delays
		}
	}
}

// settleFloor is the shortest settle window (framework.SettleFloor).
const settleFloor = 100 * time.Millisecond

// editDelay renames the probe's group with its creator's 9002 and returns
// the delay from the OK to the first read of the 39000 carrying the new
// name (-1 when none was seen within wait, or the 9002 was refused), with
// evidence for the report.
func (p *prober) editDelay(ctx context.Context, c *fixtures.Client, g probeGroup, wait time.Duration) (time.Duration, string) {
	name := "probe-" + fixtures.NewGroupID()
	ok, err := p.publish(ctx, g.owner, fixtures.EditChannel(g.owner, g.id, nostr.Tag{"name", name}))
	switch {
	case err != nil:
		return -1, "OK→state delay: the 9002 renaming the probe's group: " + err.Error()
	case !ok.Accepted:
		return -1, "OK→state delay: the 9002 renaming the probe's group was refused: " + ok.String()
	}
	at := time.Now()
	for {
		r, err := c.Query(ctx, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {g.id}}})
		if err != nil || r.Closed {
			return -1, fmt.Sprintf("OK→state delay: the 39000 read failed (%v, CLOSED %q)", err, r.ClosedReason)
		}
		for _, ev := range r.Events {
			if v, _ := fixtures.TagValue(ev, "name"); v == name {
				d := time.Since(at)
				return d, fmt.Sprintf("OK→state delay: the 39000 showed the 9002's new name %s after its OK", d.Round(time.Microsecond))
			}
		}
		if time.Since(at) >= wait {
			return -1, fmt.Sprintf("OK→state delay: no 39000 showed the 9002's new name within %s of its OK", wait)
		}
		if !pause(ctx, 20*time.Millisecond) {
			return -1, "OK→state delay: stopped"
		}
	}
}

// pause waits d or until ctx ends (a poll interval, not a sleep: the
// caller's loop has its own deadline).
func pause(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

type probeGroup struct {
	id    string
	owner *fixtures.Actor
	why   string // when id is empty: why there is none
}

type prober struct {
	tg     Target
	conns  map[string]*fixtures.Client
	groups []probeGroup
	fresh  *probeGroup // a fresh key's group, made when no configured key's group fits
	// answered: some write of the probe got an OK.
	answered bool
	// previous: the timeline references the relay was seen to enforce (0
	// = not seen), with the answers that showed it (timeline).
	previous         int
	previousEvidence []string
}

func (k *Key) note(format string, args ...any) {
	k.Evidence = append(k.Evidence, fmt.Sprintf(format, args...))
}

func (p *prober) conn(ctx context.Context, a *fixtures.Actor) (*fixtures.Client, error) {
	if c := p.conns[a.PubKey]; c != nil {
		return c, nil
	}
	c, err := fixtures.Dial(ctx, p.tg.URL, fixtures.DialOptions{
		Actor: a, Header: p.tg.Header, StepTimeout: p.tg.StepTimeout, Transcript: p.tg.Transcript, AuthOnConnect: p.tg.AuthOnConnect,
		AuthRelayURL: p.tg.AuthRelayURL,
	})
	if err != nil {
		return nil, err
	}
	p.conns[a.PubKey] = c
	return c, nil
}

// close ends the probe's connections; once ctx has ended (an interrupt,
// the run's deadline) it does not wait for a slow relay's closing
// handshake.
func (p *prober) close(ctx context.Context) {
	var wg sync.WaitGroup
	for _, c := range p.conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Close()
		}()
	}
	closed := make(chan struct{})
	go func() {
		wg.Wait()
		close(closed)
	}()
	select {
	case <-closed:
	case <-ctx.Done():
	}
}

// publish sends ev as a; a refused AUTH is reported as such.
func (p *prober) publish(ctx context.Context, a *fixtures.Actor, ev *nostr.Event) (fixtures.OK, error) {
	c, err := p.conn(ctx, a)
	if err != nil {
		return fixtures.OK{}, err
	}
	if p.tg.Pace != nil {
		if err := p.tg.Pace(ctx); err != nil {
			return fixtures.OK{}, fmt.Errorf("pacing writes: %w", err)
		}
	}
	if p.previous > 0 {
		a.Previous = p.previous
	}
	ok, err := c.Publish(ctx, ev)
	if err == nil {
		p.answered = true
		if p.previous == 0 {
			ok, err = p.timeline(ctx, c, a, ev, ok)
		}
	}
	return ok, err
}

// timeline learns whether the relay enforces NIP-29 timeline references
// ("it's recommended that clients include at least 3 and that relays
// enforce this") from positive evidence only: a group event of the probe
// without a previous tag, sent where another key had posted, refused with
// an OK whose text speaks of previous references, then the same event
// with references (read on the connection, fixtures.Client.Publish)
// answered otherwise. From then on every probe actor, and the run's
// actors (Findings.Previous), send them. Any other answer is returned
// unchanged.
func (p *prober) timeline(ctx context.Context, c *fixtures.Client, a *fixtures.Actor, ev *nostr.Event, ok fixtures.OK) (fixtures.OK, error) {
	n, refused := fixtures.PreviousRefusal(ok)
	if !refused || fixtures.HasPrevious(ev) || ev.Tags.Find("h") == nil {
		return ok, nil
	}
	first := ok
	a.Previous = n
	if p.tg.Pace != nil {
		if err := p.tg.Pace(ctx); err != nil {
			a.Previous = 0
			return first, fmt.Errorf("pacing writes: %w", err)
		}
	}
	again, err := c.Publish(ctx, ev)
	switch {
	case err != nil:
		a.Previous = 0
		return first, err
	case !fixtures.HasPrevious(ev):
		a.Previous = 0
		p.previousEvidence = append(p.previousEvidence, fmt.Sprintf("kind %d without previous references: %s; no event of another key to reference could be read, so enforcement is not assumed", ev.Kind, first))
		return first, nil
	}
	if _, still := fixtures.PreviousRefusal(again); still {
		a.Previous = 0
		p.previousEvidence = append(p.previousEvidence, fmt.Sprintf("kind %d without previous references: %s; with references: %s (refused for them again: enforcement is not assumed)", ev.Kind, first, again))
		return again, nil
	}
	p.previous = n
	p.previousEvidence = append(p.previousEvidence, fmt.Sprintf("kind %d without previous references, after another key posted in the group: %s; the same with %d references: %s", ev.Kind, first, len(ev.Tags.Find("previous"))-1, again))
	return again, nil
}

// keyRefused reports whether an OK false refuses the key rather than the
// command (NIP-42's and NIP-01's prefixes for who may write).
func keyRefused(reason string) bool {
	for _, p := range []string{"auth-required:", "restricted:", "blocked:"} {
		if strings.HasPrefix(reason, p) {
			return true
		}
	}
	return false
}

// failedStep records a step error; a refused AUTH means the key is not admitted.
func failedStep(k *Key, what string, err error) {
	if errors.Is(err, fixtures.ErrAuthRefused) {
		k.Admitted = No
	}
	k.note("%s: %v", what, err)
}

// create sends k's bare 9007 and returns the group's id when accepted.
func (p *prober) create(ctx context.Context, k *Key) string {
	id := fixtures.NewChannelID()
	ok, err := p.publish(ctx, k.Actor, fixtures.CreateGroup(k.Actor, id))
	switch {
	case err != nil:
		failedStep(k, "bare 9007", err)
		return ""
	case ok.Accepted:
		k.MayCreate, k.Admitted = Yes, Yes
		k.note("bare 9007: %s", ok)
		p.groups = append(p.groups, probeGroup{id: id, owner: k.Actor})
		return id
	case strings.HasPrefix(ok.Reason, "auth-required:"):
		k.MayCreate, k.Admitted = No, No
	case keyRefused(ok.Reason):
		k.MayCreate = No
	}
	k.note("bare 9007: %s", ok)
	return ""
}

// foreignGroup finds a group k did not create: another key's, or one a
// fresh key creates for the purpose.
func (p *prober) foreignGroup(ctx context.Context, k *Key, keys []*Key, owned map[*Key]string) probeGroup {
	for _, o := range keys {
		if o != k && owned[o] != "" {
			return probeGroup{id: owned[o], owner: o.Actor}
		}
	}
	if p.fresh == nil {
		owner := fixtures.NewActor("probe-owner")
		owner.CommandTags = p.tg.CommandTags
		owner.PoW = p.tg.PoW
		id := fixtures.NewChannelID()
		ok, err := p.publish(ctx, owner, fixtures.CreateGroup(owner, id))
		switch {
		case err != nil:
			p.fresh = &probeGroup{why: fmt.Sprintf("a fresh key's bare 9007: %v", err)}
		case !ok.Accepted:
			p.fresh = &probeGroup{why: "a fresh key's bare 9007: " + ok.String()}
		default:
			p.fresh = &probeGroup{id: id, owner: owner}
			p.groups = append(p.groups, *p.fresh)
		}
	}
	return *p.fresh
}

// moderate sends k's 9000 putting a fresh key (no role) into g, and
// reverts it with a 9001 when the relay accepted it.
func (p *prober) moderate(ctx context.Context, k *Key, g probeGroup) {
	target := fixtures.NewActor("probe-target").PubKey
	ok, err := p.publish(ctx, k.Actor, fixtures.PutUser(k.Actor, g.id, target, ""))
	switch {
	case err != nil:
		failedStep(k, "9000 on a group another key created", err)
		return
	case ok.Accepted:
		k.ModeratesForeign, k.Admitted = Yes, Yes
		k.note("9000 on a group another key created: %s", ok)
	default:
		k.ModeratesForeign = No
		k.note("9000 on a group another key created: %s", ok)
		if strings.HasPrefix(ok.Reason, "auth-required:") {
			k.Admitted = No
		}
		return
	}
	// Revert: the key itself, else the group's owner.
	for _, a := range []*fixtures.Actor{k.Actor, g.owner} {
		if ok, err := p.publish(ctx, a, fixtures.RemoveUser(a, g.id, target)); err == nil && ok.Accepted {
			return
		}
	}
	k.note("revert: the 9001 removing the probe's user was refused (the group is deleted next)")
}

// join sends k's 9021 to learn whether the relay admits the key at all
// (its 9007 and 9000 told nothing).
func (p *prober) join(ctx context.Context, k *Key, id string) {
	ok, err := p.publish(ctx, k.Actor, fixtures.JoinRequest(k.Actor, id, ""))
	switch {
	case err != nil:
		failedStep(k, "9021 join request", err)
		return
	case ok.Accepted:
		k.Admitted = Yes
	case keyRefused(ok.Reason) && k.MayCreate == No:
		// Every write the key made was refused for the key.
		k.Admitted = No
	}
	k.note("9021 join request: %s", ok)
	if k.Admitted == No && !strings.HasPrefix(ok.Reason, "auth-required:") {
		k.note("every command of the key was refused; a relay that requires tags of its own on commands (outside NIP-29 and NIP-CL) takes them from --command-tag K=V")
	}
}

// deleteGroups deletes the probe's groups as their creators, also when
// the probe's own time ran out or the run was stopped (on a context of
// its own, a few steps long), and says which it could not delete.
func (p *prober) deleteGroups(ctx context.Context) (deleted int, undeleted []string) {
	step := p.tg.StepTimeout
	if step <= 0 {
		step = 10 * time.Second
	}
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Duration(2+len(p.groups))*step)
	defer cancel()
	for _, g := range p.groups {
		ok, err := p.publish(dctx, g.owner, fixtures.DeleteChannel(g.owner, g.id))
		switch {
		case err != nil:
			undeleted = append(undeleted, "capability probe group "+g.id+": "+err.Error())
		case !ok.Accepted:
			undeleted = append(undeleted, "capability probe group "+g.id+": "+ok.String())
		default:
			deleted++
		}
	}
	return deleted, undeleted
}

// rolesOf returns the roles a 39001 lists for pubkey: every non-empty role
// of its first p tag, each once, in the relay's order (nil when it lists
// none). The moderating role is the set, not its first member.
func rolesOf(admins *nostr.Event, pubkey string) []string {
	for _, tag := range admins.Tags {
		if len(tag) < 2 || tag[0] != "p" || tag[1] != pubkey {
			continue
		}
		var roles []string
		for _, r := range tag[2:] {
			if r != "" && !slices.Contains(roles, r) {
				roles = append(roles, r)
			}
		}
		return roles
	}
	return nil
}
