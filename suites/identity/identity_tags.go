package identity

import (
	"regexp"
	"slices"
	"sort"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

var decimalSeconds = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)

// editAt builds a signed 9002 with an explicit created_at.
func editAt(a *fixtures.Actor, ch string, at time.Time, tags ...nostr.Tag) *nostr.Event {
	return a.EventAt(at, fixtures.KindEditMetadata, append(nostr.Tags{{"h", ch}}, tags...), "")
}

// createdAtTag returns the value of 39000's created_at tag and how many it has.
func createdAtTag(ev *nostr.Event) (string, int) {
	vals := fixtures.TagValues(ev, "created_at")
	if len(vals) == 0 {
		return "", 0
	}
	return vals[0], len(vals)
}

// reverseSorted returns the values sorted descending (never the order a
// sorting relay would produce, unless there is one value).
func reverseSorted(vals []string) []string {
	out := slices.Clone(vals)
	sort.Sort(sort.Reverse(sort.StringSlice(out)))
	return out
}

// identityTagsSpecs: "Channel identity tags" (type, labels, P, created_at).
func identityTagsSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/tags/1", framework.MUST,
			`For every channel type, 39000, 39001 and 39002 start their t/P tags with ["t", type], the labels, then ["P", creator].`,
			"identity/identity-tags.1", "identity/identity-tags.2", "identity/identity-tags.3").
			WithReading(readingStateKinds + " " + readingStoredOrder),
			Run: func(t *framework.T) {
				t.Checking("identity/identity-tags.1")
				c := t.Connect(t.Actor("creator"))
				accepted := 0
				for _, typ := range []string{fixtures.TypeStream, fixtures.TypeForum, fixtures.TypeDM, fixtures.TypeWorkflow, fixtures.TypeSystem} {
					labels := reverseSorted(freshLabels(t, 2))
					ev, ch := createEvent(t, c.Actor(), chanOpts{Type: typ, Visibility: fixtures.Open, Labels: labels})
					ok := t.Publish(c, ev)
					if !ok.Accepted {
						// The draft defines how stream and system channels are
						// created; forum, dm and workflow are examples a relay
						// may not offer.
						t.Expect(typ).NotTo(BeElementOf(fixtures.TypeStream, fixtures.TypeSystem), "a %s channel with labels must be accepted: %s", typ, ok)
						framework.CheckPrefix("OK", ok.Reason)
						t.Note("channel_type %s refused on 9007 (%s); not checked", typ, ok)
						continue
					}
					accepted++
					order := requireIdentityAll(t, c, ch, typ, labels, c.Actor().PubKey)
					if typ == fixtures.TypeStream {
						noteOrder(t, labels, order)
					}
				}
				t.Expect(accepted).To(BeNumerically(">=", 2), "stream and system channels must both be created and tagged")
			}},
		{Case: framework.NewCase("identity/tags/2", framework.MUST,
			"39000, 39001 and 39002 list a channel's labels in one and the same order, after creation, after a label change and after a membership change.",
			"identity/identity-tags.2").
			WithReading(readingStoredOrder),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := reverseSorted(freshLabels(t, 3))
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: labels})
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
				next := reverseSorted(freshLabels(t, 3))
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, tTags(next...)...), "replace the labels")
				requireIdentityAll(t, c, ch, fixtures.TypeStream, next, c.Actor().PubKey)
				t.Accept(c, fixtures.PutUser(c.Actor(), ch, t.Actor("member").PubKey, "member"), "add a member")
				requireIdentityAll(t, c, ch, fixtures.TypeStream, next, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/tags/3", framework.MUST,
			`A channel without labels carries ["t", type] directly followed by ["P", creator] on 39000, 39001 and 39002.`,
			"identity/identity-tags.1", "identity/identity-tags.3"),
			Run: func(t *framework.T) {
				t.Checking("identity/identity-tags.1")
				c := t.Connect(t.Actor("creator"))
				ch := mkChannel(t, c, chanOpts{Type: fixtures.TypeForum, Visibility: fixtures.Open})
				requireIdentityAll(t, c, ch, fixtures.TypeForum, nil, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/tags/4", framework.MUST,
			"A label change republishes 39001 and 39002 as well as 39000 with the new labels (every channel-state event carries them).",
			"identity/identity-tags.1", "identity/identity-tags.2"),
			Run: func(t *framework.T) {
				t.Checking("identity/identity-tags.1")
				c := t.Connect(t.Actor("creator"))
				first := freshLabels(t, 1)
				ch := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: first})
				before := stateOf(t, c, ch)
				next := freshLabels(t, 2)
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, tTags(next...)...), "replace the labels")
				after := stateOf(t, c, ch)
				for _, k := range []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers} {
					if before[k] == nil || after[k] == nil {
						t.Note("the relay publishes no kind %d for the channel (optional in NIP-29); not checked", k)
						continue
					}
					t.Expect(after[k].ID).NotTo(Equal(before[k].ID), "kind %d must be republished after a label change", k)
					requireIdentity(t, after[k], fixtures.TypeStream, next, c.Actor().PubKey)
				}
			}},
	}
}

// noForgedP fails when any state event c can read for ch carries a P tag
// naming forged (a key the client tried to pass off as the creator).
func noForgedP(t *framework.T, c *fixtures.Client, ch, forged, when string) {
	GinkgoHelper()
	r := t.QueryResult(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers, fixtures.KindRoles}, Tags: nostr.TagMap{"d": {ch}}})
	for _, st := range r.Events {
		t.Expect(fixtures.TagValues(st, "P")).NotTo(ContainElement(forged), "%s: kind %d of %s carries the client's forged P", when, st.Kind, ch)
	}
}
