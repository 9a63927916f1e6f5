package runner

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/capability"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/suites"
)

// parseActorKeys reads --actor-key values: HEX, or ROLE=HEX with a role
// word of capability.ParseRole. The keys are labelled key1, key2, … in
// the order given.
func parseActorKeys(values []string) ([]*capability.Key, error) {
	var out []*capability.Key
	for i, v := range values {
		label := fmt.Sprintf("key%d", i+1)
		role, hex := capability.RoleAny, v
		if r, h, ok := strings.Cut(v, "="); ok {
			var err error
			if role, err = capability.ParseRole(r); err != nil {
				return nil, fmt.Errorf("--actor-key %s: %w", label, err)
			}
			hex = h
		}
		a, err := fixtures.ActorFromKey(label, hex)
		if err != nil {
			return nil, err
		}
		out = append(out, &capability.Key{Actor: a, Label: label, Declared: role})
	}
	return out, nil
}

// CheckHostKeys checks the form of --host-key values (HOST=HEX, HEX a
// secret key) before a run starts; which community each names is matched
// once the targets' hosts are known.
func CheckHostKeys(values []string) error {
	_, err := hostKeys(values, nil, nil)
	return err
}

// hostKeys reads --host-key HOST=HEX values into the actors the harness
// signs with per community, keyed by the Hosts entry HOST names: the entry
// itself, or the entry whose host name is HOST when HOST has no port.
// hosts nil checks the form only.
func hostKeys(values, hosts []string, commandTags nostr.Tags) (map[string]*fixtures.Actor, error) {
	if len(values) == 0 {
		return nil, nil
	}
	out := map[string]*fixtures.Actor{}
	for _, v := range values {
		host, hex, ok := strings.Cut(v, "=")
		if !ok || host == "" {
			return nil, fmt.Errorf("--host-key: want HOST=HEX (HOST as given to --host), got a value with no HOST")
		}
		a, err := fixtures.ActorFromKey("host-key", hex)
		if err != nil {
			return nil, fmt.Errorf("--host-key %s=…: %w", host, err)
		}
		a.CommandTags = commandTags
		if hosts == nil {
			continue
		}
		match := ""
		for _, h := range hosts {
			name := h
			if n, _, err := net.SplitHostPort(h); err == nil {
				name = n
			}
			if strings.EqualFold(h, host) || strings.EqualFold(name, host) {
				match = h
				break
			}
		}
		if match == "" {
			return nil, fmt.Errorf("--host-key %s=…: no second community is named %s (the --host values: %s)", host, host, strings.Join(hosts, ", "))
		}
		if out[match] != nil {
			return nil, fmt.Errorf("--host-key %s=…: community %s already has a key", host, match)
		}
		out[match] = a
	}
	return out, nil
}

// probeKeys runs the capability probe once for the plan, before any case:
// the configured keys, or one fresh key for every generated one. The
// findings go to the env (actor assignment) and the plan's report; it
// returns them (with how many of the probe's groups were deleted and
// which were not).
func probeKeys(ctx context.Context, env *suites.Env, keys []*capability.Key, result *reports.PlanResult) *capability.Findings {
	// A budget of steps, and never more than a third of what is left of
	// the run: a relay that answers nothing must leave the cases their time.
	budget := time.Duration(4*len(keys)+6) * env.StepTimeout
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl) / 3; left < budget {
			budget = left
		}
	}
	pctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	found := capability.Probe(pctx, capability.Target{
		URL: env.URL, AuthRelayURL: env.RelayURL, Header: env.Header, CommandTags: env.CommandTags, PoW: env.PoW, AuthOnConnect: env.AuthOnConnect, StepTimeout: env.StepTimeout, Pace: env.Pace,
	}, keys)
	recordKeyFindings(env, found, result)
	return found
}

// recordKeyFindings gives the env (actor assignment, state kinds, the
// OK→state delays) and the plan's report the capability probe's findings.
func recordKeyFindings(env *suites.Env, found *capability.Findings, result *reports.PlanResult) {
	env.KeyCaps, env.StatePublished, env.ProbedCreatorRoles = found.Keys, found.State, found.CreatorRoles
	env.Previous = found.Previous
	for _, a := range env.Keys {
		a.Previous = env.Previous
	}
	for _, a := range env.HostKeys {
		a.Previous = env.Previous
	}
	if note := previousNote(found); note != "" {
		result.Note = joinNotes(result.Note, note)
	}
	if env.Delays == nil {
		env.Delays = &suites.Delays{}
	}
	for _, d := range found.StateDelays {
		env.Delays.Observe(d)
	}
	for kind, a := range found.State {
		if result.StateEvents == nil {
			result.StateEvents = map[string]string{}
		}
		result.StateEvents[strconv.Itoa(kind)] = string(a)
	}
	for _, k := range env.KeyCaps {
		f := reports.KeyFinding{
			Label: k.Label, Declared: string(k.Declared), Admitted: string(k.Admitted),
			MayCreate: string(k.MayCreate), ModeratesForeign: string(k.ModeratesForeign),
			Kind: k.Kind(), Evidence: k.Evidence,
		}
		if !k.Generated {
			f.PubKey = k.Actor.PubKey
		}
		result.Keys = append(result.Keys, f)
	}
}

// previousNote says in the plan's report what the probe learned of NIP-29
// timeline references: that the relay requires them and the harness
// includes them (with the answers that showed it), or why a refusal that
// spoke of them was not taken for enforcement; "" when nothing was seen.
func previousNote(found *capability.Findings) string {
	if len(found.PreviousEvidence) == 0 {
		return ""
	}
	evidence := strings.Join(found.PreviousEvidence, "; ")
	if found.Previous == 0 {
		return "NIP-29 timeline references: a refusal spoke of them, but the relay was not seen to require them (capability probe: " + evidence + ")"
	}
	return fmt.Sprintf("the relay requires previous references on group events (NIP-29 timeline references: \"recommended that clients include at least 3 and that relays enforce this\"); the harness includes up to %d, the first %d hex digits of events by other keys among the group's last %d, in every group event it sends without a previous tag of its own (capability probe: %s)",
		found.Previous, fixtures.PreviousPrefix, fixtures.PreviousWindow, evidence)
}
