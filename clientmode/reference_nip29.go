package clientmode

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// GroupID is the group every NIP-29 client case talks about: an ordinary
// (non-UUID) id, as NIP-29 groups have.
const GroupID = "build-systems"

// stateKey is the key a NIP-29 client trusts for group state: the NIP-11
// self key (nip29/clients.1).
func (c *Reference) stateKey(ri relayInfo) string {
	if c.Fault == "nip29-trust-pubkey" {
		return ri.Pubkey
	}
	return ri.Self
}

// groupCommand signs one NIP-29 command (create-group, join, leave, post)
// and submits it, resending the same event while no OK came back.
func (c *Reference) groupCommand(ctx context.Context, in Intent) (string, error) {
	if c.secret == "" {
		return "", errors.New("no identity: send init first")
	}
	tags := nostr.Tags{{"h", in.Group}}
	kind := 0
	switch in.Op {
	case OpCreateGroup:
		kind = 9007
	case OpJoin:
		kind = 9021
		if in.Code != "" && c.Fault != "join-without-code" {
			tags = append(tags, nostr.Tag{"code", in.Code})
		}
	case OpLeave:
		kind = 9022
	case OpRemoveUser:
		kind = 9001
		tags = append(tags, nostr.Tag{"p", in.User})
	case OpPost:
		kind = 9
		prev, err := c.previousRefs(ctx, in)
		if err != nil {
			return "", err
		}
		for _, p := range prev {
			tags = append(tags, nostr.Tag{"previous", p})
		}
	}
	ev := nostr.Event{Kind: kind, CreatedAt: nostr.Now(), Tags: tags, Content: in.Content}
	if err := ev.Sign(c.secret); err != nil {
		return "", err
	}
	attempts := c.Attempts
	if attempts <= 0 {
		attempts = 3
	}
	for i := 0; i < attempts; i++ {
		switch class := c.submit(ctx, in.Relay, ev, true); class {
		case Committed:
			return Committed, nil
		case Rejected, "generic":
			return Rejected, nil // NIP-01: OK false means the event was not accepted
		}
	}
	return Unknown, nil
}

// previousRefs picks up to three previous references: the first 8 hex
// characters of the newest events seen from the relay in the group, not
// the user's own (NIP-29 § Timeline references).
func (c *Reference) previousRefs(ctx context.Context, in Intent) ([]string, error) {
	evs, err := c.query(ctx, in.Relay, nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {in.Group}}, Limit: 50})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, ev := range evs {
		if ev.PubKey != c.pub && len(ev.ID) >= 8 && len(out) < 3 {
			out = append(out, ev.ID[:8])
		}
	}
	return out, nil
}

// groupState reads the relay's state events of kinds for group d (or all
// groups when d is empty) and keeps, per group and kind, the newest one
// the relay's self key signed, merged with the cache of earlier reads.
func (c *Reference) groupState(ctx context.Context, in Intent, ri relayInfo, f nostr.Filter) (map[string]nostr.Event, error) {
	evs, err := c.query(ctx, in.Relay, f)
	if err != nil {
		return nil, err
	}
	if c.groups == nil {
		c.groups = map[string]nostr.Event{}
		c.flagsSeen = map[string]bool{}
	}
	key := c.stateKey(ri)
	out := map[string]nostr.Event{}
	for _, ev := range evs {
		if ev.Kind < 39000 || ev.Kind > 39005 {
			continue
		}
		if !c.trusted(ev, key, c.Fault == "nip29-trust-any-signer") || key == "" && c.Fault != "nip29-trust-any-signer" {
			continue // no self key named: no state can be verified
		}
		d := ev.Tags.GetD()
		ck := fmt.Sprintf("%s\x00%s\x00%s\x00%d", ri.Self, in.Relay, d, ev.Kind)
		if cur, have := c.groups[ck]; !have || newer(ev, cur) {
			c.groups[ck] = ev
		}
		if ev.Kind == 39000 {
			for _, t := range ev.Tags {
				if len(t) > 0 {
					c.flagsSeen[d+"\x00"+t[0]] = true
				}
			}
		}
	}
	for ck, ev := range c.groups {
		if strings.HasPrefix(ck, ri.Self+"\x00"+in.Relay+"\x00") {
			out[fmt.Sprintf("%s\x00%d", ev.Tags.GetD(), ev.Kind)] = ev
		}
	}
	return out, nil
}

func (c *Reference) readGroup(ctx context.Context, in Intent) (*GroupView, bool, error) {
	ri, err := c.info(ctx, in.Relay)
	if err != nil {
		return nil, false, fmt.Errorf("NIP-11: %w", err)
	}
	// Every 39000 (the subgroup tree is assembled from all of them), and
	// the group's other state events.
	st, err := c.groupState(ctx, in, ri, nostr.Filter{Kinds: []int{39000}})
	if err != nil {
		return nil, false, err
	}
	more, err := c.groupState(ctx, in, ri, nostr.Filter{Kinds: []int{39001, 39002, 39003, 39005}, Tags: nostr.TagMap{"d": {in.Group}}})
	if err != nil {
		return nil, false, err
	}
	for k, v := range more {
		st[k] = v
	}
	meta, ok := st[in.Group+"\x0039000"]
	if !ok {
		return nil, false, nil
	}
	g := &GroupView{}
	has := func(name string) bool {
		if c.Fault == "flags-sticky" && c.flagsSeen[in.Group+"\x00"+name] {
			return true
		}
		return slices.ContainsFunc(meta.Tags, func(t nostr.Tag) bool { return len(t) > 0 && t[0] == name })
	}
	g.Private, g.Restricted, g.Hidden, g.Closed = has("private"), has("restricted"), has("hidden"), has("closed")
	if t := meta.Tags.Find("name"); len(t) > 1 {
		g.Name = t[1]
	}
	if t := meta.Tags.Find("parent"); len(t) > 1 {
		g.Parent = t[1]
	}
	if c.Fault == "children-from-child-tags" {
		for _, t := range meta.Tags {
			if len(t) > 1 && t[0] == "child" {
				g.Children = append(g.Children, t[1])
			}
		}
	} else {
		for k, ev := range st {
			if t := ev.Tags.Find("parent"); strings.HasSuffix(k, "\x0039000") && len(t) > 1 && t[1] == in.Group {
				g.Children = append(g.Children, ev.Tags.GetD())
			}
		}
		slices.Sort(g.Children)
	}
	if ev, ok := st[in.Group+"\x0039001"]; ok {
		for _, t := range ev.Tags {
			if len(t) > 1 && t[0] == "p" {
				roles := append([]string(nil), t[2:]...)
				if c.Fault == "roles-first-only" && len(roles) > 1 {
					roles = roles[:1]
				}
				g.Admins = append(g.Admins, AdminView{Pubkey: t[1], Roles: roles})
			}
		}
	}
	if ev, ok := st[in.Group+"\x0039002"]; ok {
		for _, t := range ev.Tags {
			if len(t) > 1 && t[0] == "p" {
				g.Members = append(g.Members, t[1])
			}
		}
		if c.Fault == "members-merge" {
			if c.members == nil {
				c.members = map[string][]string{}
			}
			mk := in.Relay + "\x00" + in.Group
			for _, m := range c.members[mk] {
				if !slices.Contains(g.Members, m) {
					g.Members = append(g.Members, m) // the fault: nobody ever leaves
				}
			}
			c.members[mk] = g.Members
		}
	}
	if ev, ok := st[in.Group+"\x0039003"]; ok {
		for _, t := range ev.Tags {
			if len(t) > 1 && t[0] == "role" && (c.Fault != "roles-known-only" || t[1] == "admin" || t[1] == "moderator") {
				g.Roles = append(g.Roles, t[1])
			}
		}
	}
	if ev, ok := st[in.Group+"\x0039005"]; ok {
		for _, t := range ev.Tags {
			if len(t) > 1 && (t[0] == "e" || t[0] == "a") {
				g.Pins = append(g.Pins, t[1])
			}
		}
	}
	return g, true, nil
}

// amMember tells membership from the latest kind 9000/9001 naming the
// user in the group itself (nip29/clients.3, .7).
func (c *Reference) amMember(ctx context.Context, in Intent) (bool, bool, error) {
	member, err := c.memberOf(ctx, in, in.Group)
	if err != nil || member || c.Fault != "inherit-membership" {
		return member, true, err
	}
	g, ok, err := c.readGroup(ctx, in)
	if err != nil || !ok || g.Parent == "" {
		return false, true, err
	}
	member, err = c.memberOf(ctx, in, g.Parent) // the fault: parent membership counts
	return member, true, err
}

func (c *Reference) memberOf(ctx context.Context, in Intent, group string) (bool, error) {
	evs, err := c.query(ctx, in.Relay, nostr.Filter{Kinds: []int{9000, 9001}, Tags: nostr.TagMap{"h": {group}, "p": {c.pub}}})
	if err != nil {
		return false, err
	}
	var pick *nostr.Event
	for i, ev := range evs {
		if ev.Tags.FindWithValue("h", group) == nil || !slices.ContainsFunc(ev.Tags, func(t nostr.Tag) bool { return len(t) > 1 && t[0] == "p" && t[1] == c.pub }) {
			continue
		}
		if ok, _ := ev.CheckSignature(); !ok {
			continue
		}
		later := pick == nil || ev.CreatedAt > pick.CreatedAt
		if c.Fault == "membership-first-event" {
			later = pick == nil || ev.CreatedAt < pick.CreatedAt
		}
		if later {
			pick = &evs[i]
		}
	}
	return pick != nil && pick.Kind == 9000, nil
}

// readMessages shows the group's chat messages and flags those whose
// previous references match no event seen from the relay
// (nip29/clients.4).
func (c *Reference) readMessages(ctx context.Context, in Intent) (shown, flagged []string, err error) {
	evs, err := c.query(ctx, in.Relay, nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {in.Group}}, Limit: 50})
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	for _, ev := range evs {
		seen[ev.ID[:min(8, len(ev.ID))]] = true
	}
	for _, ev := range evs {
		if ok, _ := ev.CheckSignature(); !ok {
			continue
		}
		shown = append(shown, ev.ID)
		if c.Fault == "ignore-previous" {
			continue
		}
		for _, t := range ev.Tags {
			if len(t) > 1 && t[0] == "previous" && !seen[t[1]] {
				flagged = append(flagged, ev.ID)
				break
			}
		}
	}
	return shown, flagged, nil
}

// locateGroup says where the group is now. With the primary relay
// reachable that is the primary; when it is not, the client reads the
// admins' kind 10009 on the user's other relays (nip29/clients.5) and
// follows an entry that points elsewhere (nip29/clients.6).
func (c *Reference) locateGroup(ctx context.Context, in Intent) (string, error) {
	if _, err := c.info(ctx, in.Relay); err == nil || c.Fault == "no-10009-check" {
		return in.Relay, nil
	}
	for _, r := range in.Relays {
		evs, err := c.query(ctx, r, nostr.Filter{Kinds: []int{10009}, Authors: in.Admins})
		if err != nil {
			continue
		}
		for _, ev := range evs {
			if !slices.Contains(in.Admins, ev.PubKey) {
				continue
			}
			if ok, _ := ev.CheckSignature(); !ok {
				continue
			}
			for _, t := range ev.Tags {
				if len(t) > 2 && t[0] == "group" && t[1] == in.Group && t[2] != in.Relay && c.Fault != "ignore-moved" {
					return t[2], nil
				}
			}
		}
	}
	return in.Relay, nil
}
