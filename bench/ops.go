package bench

import (
	"fmt"
	"strconv"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// ops is what one profile sends and how its snapshots are recognised.
type ops struct {
	// mutation names the command in reports.
	mutation string
	// discovery names the read in reports.
	discovery string
	// create builds the command that creates channel id.
	create func(a *fixtures.Actor, id string) *nostr.Event
	// mutate builds mutation number n (0, 1, …) of channel id; it makes
	// token(n) visible on the channel's 39000.
	mutate func(a *fixtures.Actor, id string, n int) *nostr.Event
	// tokens lists the values of a 39000 that may be a mutation's token.
	tokens func(ev *nostr.Event) []string
	// query is the discovery filter over the run's channels.
	query func(ids []string) nostr.Filter
}

// token is the value mutation n of a channel makes visible on its 39000;
// unique per channel, so a snapshot names the mutation it follows.
func token(n int) string { return "bench-m" + strconv.Itoa(n) }

// opsFor returns the mutations of a profile. runID namespaces the shared
// label and the channel names.
func opsFor(profile, runID string) (ops, error) {
	base := "bench-" + runID
	name := "nipcl-bench " + runID
	switch profile {
	case framework.ProfileLabels:
		// Labels draft: 9007 label tags, 9002 add-label/remove-label, the
		// 39000 lists the set as l tags; discovery by #L/#l.
		return ops{
			mutation:  "9002 add-label + remove-label",
			discovery: `{"kinds":[39000],"#L":["nip-cl"],"#l":[run label]}`,
			create: func(a *fixtures.Actor, id string) *nostr.Event {
				return fixtures.CreateChannel(a, &fixtures.ChannelSpec{ID: id, Name: name, Type: fixtures.TypeStream,
					Visibility: fixtures.Open, Extra: nostr.Tags{{"label", base}}})
			},
			mutate: func(a *fixtures.Actor, id string, n int) *nostr.Event {
				tags := []nostr.Tag{{"add-label", token(n)}}
				if n > 0 {
					tags = append(tags, nostr.Tag{"remove-label", token(n - 1)})
				}
				return fixtures.EditChannel(a, id, tags...)
			},
			tokens: func(ev *nostr.Event) []string { return fixtures.TagValues(ev, "l") },
			query: func([]string) nostr.Filter {
				return nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"L": {"nip-cl"}, "l": {base}}}
			},
		}, nil
	case framework.ProfileIdentity:
		// Identity draft: labels are the t tags after the first (the type);
		// t tags on a 9002 replace the whole set; discovery by #t.
		return ops{
			mutation:  `9002 ["t", …] (replace the label set)`,
			discovery: `{"kinds":[39000],"#t":[run label]}`,
			create: func(a *fixtures.Actor, id string) *nostr.Event {
				return fixtures.CreateChannel(a, &fixtures.ChannelSpec{ID: id, Name: name, Type: fixtures.TypeStream,
					Visibility: fixtures.Open, Extra: nostr.Tags{{"t", base}}})
			},
			mutate: func(a *fixtures.Actor, id string, n int) *nostr.Event {
				return fixtures.EditChannel(a, id, nostr.Tag{"t", base}, nostr.Tag{"t", token(n)})
			},
			tokens: func(ev *nostr.Event) []string { return fixtures.TagValues(ev, "t") },
			query: func([]string) nostr.Filter {
				return nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"t": {base}}}
			},
		}, nil
	case framework.ProfileNIP29:
		// Plain NIP-29: a bare 9007, 9002 metadata edits (a new name each
		// time); there are no labels, so the read is the channels' 39000
		// by #d.
		return ops{
			mutation:  "9002 metadata edit (name)",
			discovery: `{"kinds":[39000],"#d":[the run's channels]}`,
			create: func(a *fixtures.Actor, id string) *nostr.Event {
				return fixtures.CreateGroup(a, id)
			},
			mutate: func(a *fixtures.Actor, id string, n int) *nostr.Event {
				return fixtures.EditGroup(a, id, fixtures.GroupMetadata{Name: name + " " + token(n)})
			},
			tokens: func(ev *nostr.Event) []string {
				var out []string
				for _, v := range fixtures.TagValues(ev, "name") {
					if len(v) > len(name)+1 && v[:len(name)+1] == name+" " {
						out = append(out, v[len(name)+1:])
					}
				}
				return out
			},
			query: func(ids []string) nostr.Filter {
				return nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": ids}}
			},
		}, nil
	}
	return ops{}, fmt.Errorf("unknown profile %q (want nip29, identity or labels)", profile)
}
