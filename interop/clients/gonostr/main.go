// Command gonostr is a nipcl-conform client-mode adapter (protocol v3,
// docs/client-mode.md) for github.com/nbd-wtf/go-nostr v0.52.3 and its
// nip29 package. It only translates: go-nostr's Relay publishes and
// queries, nip29.Group merges the state events it is given. Where the
// adapter decides something itself, a comment says so.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip29"
)

type intent struct {
	ID                                int
	Op, Secret, Relay, Channel, Label string
	Group, Code, Content, User        string
}

// groups are the nip29.Group values the app keeps between intents, one
// per relay and group, as an app holding a group view would.
var groups = map[string]*nip29.Group{}

func main() {
	var secret string
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false) // evidence such as "<nil>" stays readable
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		var in intent
		json.Unmarshal(sc.Bytes(), &in)
		a := map[string]any{"id": in.ID}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // the adapter's wait for an OK or an answer
		switch in.Op {
		case "init":
			secret, a["protocol"] = in.Secret, 3
			a["evidence"] = "github.com/nbd-wtf/go-nostr v0.52.3 (nip29)"
		case "add-label", "create", "create-group", "join", "leave", "post", "remove-user":
			a["outcome"], a["evidence"] = publish(ctx, in, secret)
		case "read-group":
			readGroup(ctx, in, a)
		case "am-member":
			amMember(ctx, in, secret, a)
		case "read-messages":
			readMessages(ctx, in, a)
		default: // read-labels, find, ensure, read-channel, locate-group
			a["unsupported"] = "go-nostr v0.52.3 has no API for " + in.Op
		}
		cancel()
		out.Encode(a)
	}
}

// publish signs the command and sends it once with Relay.Publish (go-nostr
// does not resend). The adapter maps the result: nil is committed, an OK
// false ("msg: …") rejected, any other error unknown.
func publish(ctx context.Context, in intent, secret string) (string, string) {
	tags := nostr.Tags{{"h", in.Group}}
	kind := map[string]int{"add-label": 9002, "create": 9007, "create-group": 9007, "join": 9021, "leave": 9022, "post": 9, "remove-user": 9001}[in.Op]
	switch in.Op {
	case "remove-user":
		tags = append(tags, nostr.Tag{"p", in.User})
	case "add-label":
		tags = nostr.Tags{{"h", in.Channel}, {"add-label", in.Label}}
	case "create":
		tags = nostr.Tags{{"h", in.Channel}, {"label", in.Label}}
	case "join":
		if in.Code != "" {
			tags = append(tags, nostr.Tag{"code", in.Code})
		}
	}
	ev := nostr.Event{Kind: kind, CreatedAt: nostr.Now(), Tags: tags, Content: in.Content}
	ev.Sign(secret)
	r, err := nostr.RelayConnect(ctx, in.Relay)
	if err != nil {
		return "unknown", "RelayConnect: " + err.Error()
	}
	defer r.Close()
	switch err := r.Publish(ctx, ev); {
	case err == nil:
		return "committed", "Relay.Publish returned nil"
	case strings.HasPrefix(err.Error(), "msg: "):
		return "rejected", "Relay.Publish: " + err.Error()
	default:
		return "unknown", "Relay.Publish: " + err.Error()
	}
}

// group is the kept nip29.Group of a relay and group, with the state
// events the library was given merged in by its MergeIn* for their kind
// (go-nostr has no reader for 39003).
func group(ctx context.Context, in intent) (*nip29.Group, error) {
	key := in.Relay + " " + in.Group
	g := groups[key]
	if g == nil {
		g = &nip29.Group{Address: nip29.GroupAddress{Relay: in.Relay, ID: in.Group}, Members: map[string][]*nip29.Role{}}
		groups[key] = g
	}
	r, err := nostr.RelayConnect(ctx, in.Relay)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	evs, err := r.QuerySync(ctx, nostr.Filter{Kinds: []int{39000, 39001, 39002}, Tags: nostr.TagMap{"d": {in.Group}}})
	if err != nil {
		return nil, err
	}
	for _, ev := range evs {
		switch ev.Kind {
		case 39000:
			g.MergeInMetadataEvent(ev)
		case 39001:
			g.MergeInAdminsEvent(ev)
		case 39002:
			g.MergeInMembersEvent(ev)
		}
	}
	return g, nil
}

// amMember answers from the kept group's member list, go-nostr's only
// notion of membership (it never reads kinds 9000/9001): unknown until a
// 39002 was merged.
func amMember(ctx context.Context, in intent, secret string, a map[string]any) {
	g, err := group(ctx, in)
	if err != nil {
		a["error"] = err.Error()
		return
	}
	if g.LastMembersUpdate == 0 {
		a["evidence"] = "nip29.Group has merged no 39002: no member list"
		return
	}
	pk, _ := nostr.GetPublicKey(secret)
	_, member := g.Members[pk]
	a["known"], a["member"] = true, member
	a["evidence"] = fmt.Sprintf("nip29.Group.Members has %d entries", len(g.Members))
}

// readMessages shows the group's kind 9 messages as Relay.QuerySync
// returns them: go-nostr has no check of previous references, so none is
// flagged.
func readMessages(ctx context.Context, in intent, a map[string]any) {
	r, err := nostr.RelayConnect(ctx, in.Relay)
	if err != nil {
		a["error"] = err.Error()
		return
	}
	defer r.Close()
	evs, err := r.QuerySync(ctx, nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {in.Group}}})
	if err != nil {
		a["error"] = err.Error()
		return
	}
	ids := []string{}
	for _, ev := range evs {
		ids = append(ids, ev.ID)
	}
	a["messages"] = ids
	a["evidence"] = "go-nostr v0.52.3 has no previous-reference check: every message is shown"
}

// readGroup merges the group's state events into the kept nip29.Group
// and shows what it holds. go-nostr's Group has no restricted, hidden,
// parent, children or pins, and no reader for 39003 roles.
func readGroup(ctx context.Context, in intent, a map[string]any) {
	g, err := group(ctx, in)
	if err != nil {
		a["error"] = err.Error()
		return
	}
	if g.LastMetadataUpdate == 0 {
		return // known false: no metadata merged
	}
	view := map[string]any{"name": g.Name, "private": g.Private, "closed": g.Closed}
	admins := []map[string]any{}
	members := []string{}
	for pk, roles := range g.Members { // admins are the members with roles
		members = append(members, pk)
		if len(roles) > 0 {
			var names []string
			for _, r := range roles {
				names = append(names, r.Name)
			}
			admins = append(admins, map[string]any{"pubkey": pk, "roles": names})
		}
	}
	view["admins"], view["members"] = admins, members
	a["known"], a["group"] = true, view
	a["fields"] = map[string]string{"restricted": "unsupported", "hidden": "unsupported", "parent": "unsupported",
		"children": "unsupported", "pins": "unsupported", "roles": "unsupported"}
	a["evidence"] = fmt.Sprintf("nip29.Group: %s", g)
}
