package framework

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL

	"github.com/nipcl/nipcl-conform/capability"
	"github.com/nipcl/nipcl-conform/fixtures"
)

// ActorKind is what a case needs of an actor's key. The run's capability
// probe (package capability) says which keys fit which kind; T.Actor hands
// out keys by kind, never by position.
type ActorKind string

// The actor kinds.
const (
	// KindCreator: a key that may create groups (the case's creator or owner).
	KindCreator ActorKind = "creator"
	// KindUnprivileged: a key that may not moderate groups it does not
	// administer: an outsider whose refusal a case judges, or a member
	// without a role whose moderation event a case expects refused. Only a
	// case whose assertion rests on the key's lack of power asks for it
	// (T.ActorAs, ChannelWithMemberKind); a member who posts, leaves or
	// reads needs none (NIP-29, 9022: "Any user can send one of these
	// events"), so it runs on a relay where every key moderates too.
	KindUnprivileged ActorKind = "unprivileged"
	// KindAny: any admitted key (an admin the case puts, a bystander).
	KindAny ActorKind = "any"
)

// actorKinds declares the kind of every actor name the cases use; a name
// not listed is KindAny (names starting "distractor" included).
var actorKinds = map[string]ActorKind{
	"owner":    KindCreator,
	"creator":  KindCreator,
	"first":    KindCreator,
	"stranger": KindCreator, // creates a channel of its own
	"other":    KindCreator, // a second creator: its 9007 must be judged for the id, not the key
	"outsider": KindUnprivileged,
	"watcher":  KindAny, // watches a subscription: needs no particular power
	"member":   KindAny, // posts, leaves, reads as a member; cases that expect its moderation refused ask for KindUnprivileged
	"joiner":   KindAny, // a join request needs no particular power
	"reader":   KindAny, // reads what anyone (or every member) may read
	"admin":    KindAny,
	"heir":     KindAny,
	"authed":   KindAny,
	"friend":   KindAny,
	"impostor": KindAny,
	"late":     KindAny,
}

// ActorKindOf is the declared kind of an actor name.
func ActorKindOf(name string) ActorKind {
	if k, ok := actorKinds[name]; ok {
		return k
	}
	return KindAny
}

// The preconditions an actor's kind can leave unmet.
var (
	PreCreatorKey = Precondition{"creator-key",
		"a key that may create groups, for the case's creator",
		"pass --actor-key creator=HEX with a key the relay lets create groups (the report's key table shows what the probe saw of each key)"}
	PreUnprivilegedKey = Precondition{"unprivileged-key",
		"a key without moderation power over groups it does not administer, for the case's outsider, or for a member without a role whose moderation event the case expects refused",
		"pass at least one --actor-key unprivileged=HEX that the relay admits and that may not moderate groups it does not administer (the report's key table shows what the probe saw of each key)"}
	PreFreshKeys = Precondition{"fresh-keys",
		"keys with no history on the relay, because the case reads by the actor's own key (#P, #p, COUNT) and counts everything that key did",
		"run without --actor-key (the harness then makes a fresh key per actor), or let the relay admit fresh keys; configured keys are shared by every case of a run"}
	PreActorKeys = Precondition{"actor-keys",
		"as many distinct configured keys of each kind as the case has actors",
		"pass more --actor-key keys (each actor of a case takes its own key; creator=HEX and unprivileged=HEX say which is which)"}
)

// Actor returns an actor of the kind its name declares (ActorKindOf).
func (t *T) Actor(name string) *fixtures.Actor {
	GinkgoHelper()
	return t.ActorAs(ActorKindOf(name), name)
}

// ActorAs returns an actor whose key fits kind: a fresh key (when the probe
// found fresh keys fit it), or an unused configured key that fits. When no
// key fits, the case is blocked with the precondition naming the missing
// kind of key.
func (t *T) ActorAs(kind ActorKind, name string) *fixtures.Actor {
	GinkgoHelper()
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.Env.Keys) == 0 {
		if gen := t.Env.generatedCaps(); gen != nil {
			t.requireFit(gen, kind, name)
		}
		a := fixtures.NewActor(name)
		t.rememberActor(a)
		return a
	}
	if t.Case.FreshKeys {
		t.Blocked(PreFreshKeys, fmt.Sprintf("the case's %s would act with a configured key (--actor-key), which other cases of the run also use", name))
	}
	caps := t.Env.KeyCaps
	if len(caps) != len(t.Env.Keys) {
		// Not probed (an Env built by hand): the configured keys, in order.
		if t.nextKey >= len(t.Env.Keys) {
			t.Blocked(PreActorKeys, fmt.Sprintf("the case needs more actors than the %d configured keys (--actor-key)", len(t.Env.Keys)))
		}
		k := t.Env.Keys[t.nextKey]
		t.nextKey++
		a := &fixtures.Actor{Name: name, SecretKey: k.SecretKey, PubKey: k.PubKey}
		t.rememberActor(a)
		return a
	}
	best, bestScore := -1, 0
	for i, k := range caps {
		if t.usedKeys[i] || !fits(k, kind) {
			continue
		}
		if s := spare(k, kind); best < 0 || s < bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		t.noFittingKey(kind, name, caps)
	}
	if t.usedKeys == nil {
		t.usedKeys = map[int]bool{}
	}
	t.usedKeys[best] = true
	k := t.Env.Keys[best]
	a := &fixtures.Actor{Name: name, SecretKey: k.SecretKey, PubKey: k.PubKey}
	t.rememberActor(a)
	if kind == KindUnprivileged && caps[best].ModeratesForeign == capability.Unknown {
		t.tr.Note("%s: key %s was declared unprivileged; the probe could not observe its moderation power", name, caps[best].Label)
	}
	return a
}

func fits(k *capability.Key, kind ActorKind) bool {
	switch kind {
	case KindCreator:
		return k.FitsCreator()
	case KindUnprivileged:
		return k.FitsUnprivileged()
	}
	return k.FitsAny()
}

// spare scores how much other kinds would miss a key (lower is taken
// first), so a case's creator does not take the only unprivileged key, nor
// a bystander the only creator.
func spare(k *capability.Key, kind ActorKind) int {
	s := 0
	if kind != KindCreator && k.FitsCreator() {
		s += 2
	}
	if kind != KindUnprivileged && k.FitsUnprivileged() {
		s++
	}
	return s
}

// requireFit blocks the case when fresh keys do not fit kind, the kind of
// the case's actor name.
func (t *T) requireFit(gen *capability.Key, kind ActorKind, name string) {
	GinkgoHelper()
	if fits(gen, kind) {
		return
	}
	evidence := strings.Join(gen.Evidence, "; ")
	switch {
	case gen.Admitted == capability.No:
		t.Blocked(PreAdmitKeys, "the capability probe's fresh key: "+evidence)
	case kind == KindCreator:
		t.Blocked(PreCreateGroup, "the capability probe's fresh key: "+evidence)
	default:
		t.Blocked(PreUnprivilegedKey, "the case's "+name+" needs a key without moderation power, and every fresh key may moderate groups it does not administer (the relay lets any authenticated key moderate); the capability probe: "+evidence+"; pass --actor-key unprivileged=HEX with a key the relay admits without moderation power")
	}
}

// noFittingKey blocks the case: no unused configured key fits kind.
func (t *T) noFittingKey(kind ActorKind, name string, caps []*capability.Key) {
	GinkgoHelper()
	var fitting, seen []string
	for _, k := range caps {
		seen = append(seen, k.Label+": "+k.Kind())
		if fits(k, kind) {
			fitting = append(fitting, k.Label)
		}
	}
	keys := strings.Join(seen, ", ")
	var contradicted []string
	for _, k := range caps {
		if k.Contradiction() != "" {
			contradicted = append(contradicted, k.Label)
		}
	}
	if len(contradicted) > 0 {
		// The observation wins over the declaration, and the advice says
		// so rather than asking for what the user already declared.
		keys += "; the probe contradicted the role declared for " + strings.Join(contradicted, ", ")
	}
	if len(fitting) > 0 {
		t.Blocked(PreActorKeys, fmt.Sprintf("the case's %s needs another %s key; the case already uses %s (keys: %s)", name, kind, strings.Join(fitting, ", "), keys))
	}
	switch kind {
	case KindCreator:
		t.Blocked(PreCreatorKey, fmt.Sprintf("none of the keys you passed may create groups (keys: %s)", keys))
	case KindUnprivileged:
		t.Blocked(PreUnprivilegedKey, fmt.Sprintf("every key you passed may moderate groups it does not administer, or is not admitted (keys: %s); pass at least one key without moderation power", keys))
	}
	t.Blocked(PreAdmitKeys, fmt.Sprintf("the relay admits none of the keys you passed (keys: %s)", keys))
}

// generatedCaps is the probe's finding for fresh keys (nil: not probed).
func (e *Env) generatedCaps() *capability.Key {
	if len(e.KeyCaps) == 1 && e.KeyCaps[0].Generated {
		return e.KeyCaps[0]
	}
	return nil
}

// HostActor returns the actor that signs in the community host names: the
// key --host-key gave for it (Env.HostKeys), or fallback, the case's own
// actor of the first community, when none was given.
func (t *T) HostActor(host string, fallback *fixtures.Actor) *fixtures.Actor {
	k := t.Env.HostKeys[host]
	if k == nil {
		return fallback
	}
	a := &fixtures.Actor{Name: fallback.Name + "@" + host, SecretKey: k.SecretKey, PubKey: k.PubKey}
	t.mu.Lock()
	t.rememberActor(a)
	t.mu.Unlock()
	return a
}
