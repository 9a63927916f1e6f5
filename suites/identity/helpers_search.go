package identity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// searchSpecs are the NIP-50 search cases of identity/reads-leave-out
// ("This applies to: ... COUNT and NIP-50 search") together with the
// naming rule a search filter follows like any other filter (identity/naming).
// NIP-50 is optional: a relay that does not list 50 in supported_nips makes
// them unsupported. Each case posts its own messages carrying one fresh
// word in every channel of a sysWorld and searches for that word; a
// search that does not find a readable legacy channel's message (the
// positive control) leaves the case unsupported, since NIP-50 leaves
// matching to the relay.
func searchSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/leave/7", framework.MUST,
			"A NIP-50 search that names a system channel by #h finds its matching message for a member (an open one for anyone, a private one never for an outsider); the same search without #h leaves system channels out and finds the legacy channels' matches (control). Checked only when the relay advertises NIP-50.",
			"identity/reads-leave-out.5", "identity/naming.1", "identity/naming.4"),
			Run: func(t *framework.T) {
				w, word, msg := idSearchWorld(t)
				find := func(tags nostr.TagMap) nostr.Filter {
					return nostr.Filter{Kinds: []int{fixtures.KindMessage}, Search: word, Tags: tags}
				}
				for _, r := range w.readers() {
					got := idSearch(t, r.c, find(nil))
					idSearchControl(t, r.name, got, msg, w.legacyFor(r.c))
					t.Expect(idOnly(w.ours(got), w.system())).To(BeEmpty(),
						"%s: a search without #h must leave the system channels out (identity/reads-leave-out.5)", r.name)
					got = idSearch(t, r.c, find(nostr.TagMap{"h": {w.SysOpen}}))
					t.Expect(framework.IDs(got)).To(ContainElement(msg[w.SysOpen].ID),
						"%s: a search naming the open system channel by #h finds its message (identity/naming.1)", r.name)
				}
				got := idSearch(t, w.M, find(nostr.TagMap{"h": {w.Sys}}))
				t.Expect(framework.IDs(got)).To(ContainElement(msg[w.Sys].ID),
					"member: a search naming the private system channel by #h finds its message (identity/naming.1)")
				t.Note("outsider, search naming the private system channel by #h: %s",
					t.QueryAbsent(w.X, "outsider, search naming the private system channel by #h (identity/naming.4)", find(nostr.TagMap{"h": {w.Sys}})))
			}},
		{Case: framework.NewCase("identity/leave/8", framework.MUST,
			"Naming is per filter for NIP-50 search too: in one REQ, a search naming the private system channel by #h (its creator's messages only) and the same search without #h, in either order, the filter without #h gains nothing of the system channel (the member's own message there stays out). Checked only when the relay advertises NIP-50.",
			"identity/reads-leave-out.5", "identity/naming.1", "identity/naming.5"),
			Run: func(t *framework.T) {
				w, word, msg := idSearchWorld(t)
				// The member's own message in the private system channel: the
				// named filter (authors: creator) never matches it, so only a
				// filter without #h that gained the channel could return it.
				own := idPostWord(t, w.M, w.Sys, word)
				named := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Search: word, Authors: []string{w.O.Actor().PubKey},
					Tags: nostr.TagMap{"h": {w.Sys}}}
				generic := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Search: word}
				idSearchControl(t, "member", idSearch(t, w.M, generic), msg, w.legacyFor(w.M))
				t.Expect(framework.IDs(idSearch(t, w.M, named))).To(ContainElement(msg[w.Sys].ID),
					"member: the search naming the private system channel by #h finds the creator's message there (identity/naming.1)")
				for _, order := range []struct {
					what    string
					filters []nostr.Filter
				}{
					{"[named #h, without #h]", []nostr.Filter{named, generic}},
					{"[without #h, named #h]", []nostr.Filter{generic, named}},
				} {
					got := idSearch(t, w.M, order.filters...)
					ids := framework.IDs(got)
					t.Expect(ids).To(ContainElement(msg[w.Sys].ID), "member: REQ %s returns the named filter's match (identity/naming.1)", order.what)
					for _, ch := range w.legacyFor(w.M) {
						t.Expect(ids).To(ContainElement(msg[ch].ID), "member: REQ %s returns the legacy channels' matches", order.what)
					}
					t.Expect(ids).NotTo(ContainElement(own.ID),
						"member: REQ %s: the filter without #h gained the system channel named by the other filter, returning the member's own message there (identity/naming.5)", order.what)
					t.Expect(ids).NotTo(ContainElement(msg[w.SysOpen].ID),
						"member: REQ %s returned the open system channel, which no filter names (identity/reads-leave-out.5)", order.what)
				}
			}},
	}
}

// idNeedSearch makes the case unsupported on a relay that does not list
// NIP-50 (optional) in supported_nips.
func idNeedSearch(t *framework.T) {
	GinkgoHelper()
	if t.Env.Info == nil || !t.Env.Info.Supports(50) {
		t.Unsupported("the relay does not advertise NIP-50 search (optional) in supported_nips")
	}
}

// idSearchWorld checks that the relay advertises NIP-50, builds a
// sysWorld and posts, as its creator, one message carrying a fresh word
// in each of its channels: the world, the word and the message per
// channel.
func idSearchWorld(t *framework.T) (*sysWorld, string, map[string]*nostr.Event) {
	GinkgoHelper()
	idNeedSearch(t)
	w := newSysWorld(t)
	word := idSearchWord(t)
	msg := map[string]*nostr.Event{}
	for _, ch := range w.all() {
		msg[ch] = idPostWord(t, w.O, ch, word)
	}
	return w, word, msg
}

// idSearchWord is a fresh word (lowercase letters and digits only, so any
// tokenizer keeps it whole) that only this case's messages carry.
func idSearchWord(t *framework.T) string {
	tok := strings.ToLower(t.Unique("nipclsearch"))
	return strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			return c
		}
		return -1
	}, tok) + "z"
}

// idPostWord publishes, as c's actor, a kind 9 message in ch whose
// content carries word.
func idPostWord(t *framework.T, c *fixtures.Client, ch, word string) *nostr.Event {
	GinkgoHelper()
	m := c.Actor().Event(fixtures.KindMessage, nostr.Tags{{"h", ch}}, "search probe "+word+" in a channel")
	t.Accept(c, m, "message carrying the search word")
	return m
}

// idSearch runs a NIP-50 search REQ. The relay advertises NIP-50 (the
// caller checked), but NIP-01 lets it refuse any REQ: a CLOSED refusal
// blocks the case (the read must be served to observe the rule), it is
// never "no events".
func idSearch(t *framework.T, c *fixtures.Client, filters ...nostr.Filter) []*nostr.Event {
	GinkgoHelper()
	t.FiltersWithinLimits(filters)
	r := t.QueryResult(c, filters...)
	if r.Closed {
		framework.CheckPrefix("CLOSED", r.ClosedReason)
		t.Blocked(framework.PreReadServed, fmt.Sprintf("NIP-50 search REQ %s as %s answered CLOSED %q",
			framework.FilterString(filters), framework.ActorName(c), r.ClosedReason))
	}
	t.ResultWithinLimits(filters, len(r.Events))
	return r.Events
}

// idSearchControl is the positive control of a search case: the search
// without #h found every readable legacy channel's message carrying the
// word. NIP-50 leaves matching to the relay ("to the best of their
// ability"), so a miss makes the case unsupported, not failed: without it
// an empty answer would prove nothing.
func idSearchControl(t *framework.T, who string, got []*nostr.Event, msg map[string]*nostr.Event, legacy []string) {
	GinkgoHelper()
	ids := framework.IDs(got)
	for _, ch := range legacy {
		if !slices.Contains(ids, msg[ch].ID) {
			t.Unsupported(fmt.Sprintf("%s: the NIP-50 search for a word of a readable stream channel's message did not find it (%d event(s) returned): the relay's search does not match that content, so the case cannot observe the system-channel rule", who, len(got)))
		}
	}
}
