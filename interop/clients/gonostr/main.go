// Command gonostr is a nipcl-conform client-mode adapter (protocol v2,
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
	Group, Code, Content              string
}

// groups are the nip29.Group values the app keeps between intents, one
// per relay and group, as an app holding a group view would.
var groups = map[string]*nip29.Group{}

func main() {
	var secret string
	out := json.NewEncoder(os.Stdout)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		var in intent
		json.Unmarshal(sc.Bytes(), &in)
		a := map[string]any{"id": in.ID}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // the adapter's wait for an OK or an answer
		switch in.Op {
		case "init":
			secret, a["protocol"] = in.Secret, 2
			a["evidence"] = "github.com/nbd-wtf/go-nostr v0.52.3 (nip29)"
		case "add-label", "create", "create-group", "join", "leave", "post":
			a["outcome"] = publish(ctx, in, secret)
		case "read-group":
			readGroup(ctx, in, a)
		default: // read-labels, find, ensure, read-channel, am-member, read-messages, locate-group
			a["unsupported"] = "go-nostr v0.52.3 has no API for " + in.Op
		}
		cancel()
		out.Encode(a)
	}
}

// publish signs the command and sends it once with Relay.Publish (go-nostr
// does not resend). The adapter maps the result: nil is committed, an OK
// false ("msg: …") rejected, any other error unknown.
func publish(ctx context.Context, in intent, secret string) string {
	tags := nostr.Tags{{"h", in.Group}}
	kind := map[string]int{"add-label": 9002, "create": 9007, "create-group": 9007, "join": 9021, "leave": 9022, "post": 9}[in.Op]
	switch in.Op {
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
		return "unknown"
	}
	defer r.Close()
	switch err := r.Publish(ctx, ev); {
	case err == nil:
		return "committed"
	case strings.HasPrefix(err.Error(), "msg: "):
		return "rejected"
	}
	return "unknown"
}

// readGroup queries the group's state events and merges each into the
// kept nip29.Group with the library's MergeIn* for its kind.
func readGroup(ctx context.Context, in intent, a map[string]any) {
	key := in.Relay + " " + in.Group
	g := groups[key]
	if g == nil {
		g = &nip29.Group{Address: nip29.GroupAddress{Relay: in.Relay, ID: in.Group}, Members: map[string][]*nip29.Role{}}
		groups[key] = g
	}
	r, err := nostr.RelayConnect(ctx, in.Relay)
	if err != nil {
		a["error"] = err.Error()
		return
	}
	defer r.Close()
	evs, err := r.QuerySync(ctx, nostr.Filter{Kinds: []int{39000, 39001, 39002, 39003}, Tags: nostr.TagMap{"d": {in.Group}}})
	if err != nil {
		a["error"] = err.Error()
		return
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
	if g.LastMetadataUpdate == 0 {
		return // known false: no metadata merged
	}
	view := map[string]any{"name": g.Name, "private": g.Private, "closed": g.Closed}
	var admins []map[string]any
	var members []string
	for pk, roles := range g.Members { // admins are the members with roles
		members = append(members, pk)
		if len(roles) > 0 {
			admins = append(admins, map[string]any{"pubkey": pk})
		}
	}
	view["admins"], view["members"] = admins, members
	a["known"], a["group"] = true, view
	a["evidence"] = fmt.Sprintf("nip29.Group: %s", g)
}
