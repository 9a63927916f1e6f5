package identity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// needSearch makes the case unsupported on a relay that does not list
// NIP-50 (optional) in supported_nips.
func needSearch(t *framework.T) {
	GinkgoHelper()
	if t.Env.Info == nil || !t.Env.Info.Supports(50) {
		t.Unsupported("the relay does not advertise NIP-50 search (optional) in supported_nips")
	}
}

// searchWorld checks that the relay advertises NIP-50, builds a
// sysWorld and posts, as its creator, one message carrying a fresh word
// in each of its channels: the world, the word and the message per
// channel.
func searchWorld(t *framework.T) (*sysWorld, string, map[string]*nostr.Event) {
	GinkgoHelper()
	needSearch(t)
	w := newSysWorld(t)
	word := searchWord(t)
	msg := map[string]*nostr.Event{}
	for _, ch := range w.all() {
		msg[ch] = postWord(t, w.O, ch, word)
	}
	return w, word, msg
}

// searchWord is a fresh word (lowercase letters and digits only, so any
// tokenizer keeps it whole) that only this case's messages carry.
func searchWord(t *framework.T) string {
	tok := strings.ToLower(t.Unique("nipclsearch"))
	return strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			return c
		}
		return -1
	}, tok) + "z"
}

// postWord publishes, as c's actor, a kind 9 message in ch whose
// content carries word.
func postWord(t *framework.T, c *fixtures.Client, ch, word string) *nostr.Event {
	GinkgoHelper()
	m := c.Actor().Event(fixtures.KindMessage, nostr.Tags{{"h", ch}}, "search probe "+word+" in a channel")
	t.Accept(c, m, "message carrying the search word")
	return m
}

// searchREQ runs a NIP-50 search REQ. The relay advertises NIP-50 (the
// caller checked), but NIP-01 lets it refuse any REQ: a CLOSED refusal
// blocks the case (the read must be served to observe the rule), it is
// never "no events".
func searchREQ(t *framework.T, c *fixtures.Client, filters ...nostr.Filter) []*nostr.Event {
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

// searchControl is the positive control of a search case: the search
// without #h found every readable legacy channel's message carrying the
// word. NIP-50 leaves matching to the relay ("to the best of their
// ability"), so a miss makes the case unsupported, not failed: without it
// an empty answer would prove nothing.
func searchControl(t *framework.T, who string, got []*nostr.Event, msg map[string]*nostr.Event, legacy []string) {
	GinkgoHelper()
	ids := framework.IDs(got)
	for _, ch := range legacy {
		if !slices.Contains(ids, msg[ch].ID) {
			t.Unsupported(fmt.Sprintf("%s: the NIP-50 search for a word of a readable stream channel's message did not find it (%d event(s) returned): the relay's search does not match that content, so the case cannot observe the system-channel rule", who, len(got)))
		}
	}
}
