package nip29

import (
	"fmt"
	"slices"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/suites/framework"
)

// kindSimpleGroups is NIP-51's simple groups list (kind 10009), which
// NIP-29 names for the groups a user is in: a replaceable kind a NIP-29
// relay has reason to keep.
const kindSimpleGroups = 10009

// nip01ReplaceableKindsSpecs are the cases of nip01/replaceable-kinds.
func nip01ReplaceableKindsSpecs() []framework.Spec {
	run := func(t *framework.T, judge func(got []*nostr.Event, older, newer *nostr.Event, f nostr.Filter)) {
		c := t.Connect(t.Actor("owner"))
		a := c.Actor()
		older := a.EventAt(time.Now().Add(-2*time.Second), kindSimpleGroups, nostr.Tags{{"group", t.NewGroupID()}}, "")
		if ok := t.Publish(c, older); !ok.Accepted {
			t.Unsupported(fmt.Sprintf("the relay refused a kind %d (simple groups list) event (%s): it keeps no replaceable events outside its groups", kindSimpleGroups, ok))
		}
		t.Track(older)
		newer := a.EventAt(time.Unix(int64(older.CreatedAt)+1, 0), kindSimpleGroups, nostr.Tags{{"group", t.NewGroupID()}}, "")
		t.Accept(c, newer, "the newer version of the kind 10009")
		f := nostr.Filter{Kinds: []int{kindSimpleGroups}, Authors: []string{a.PubKey}}
		judge(t.Query(c, f), older, newer, f)
	}
	return []framework.Spec{
		{Case: framework.NewCase("base/replaceable/1", framework.MUST,
			"After a newer version of a replaceable event (kind 10009) is accepted, a REQ by kind and author returns the newer version.",
			"nip01/replaceable-kinds.1"),
			Run: func(t *framework.T) {
				run(t, func(got []*nostr.Event, older, newer *nostr.Event, f nostr.Filter) {
					if !slices.Contains(framework.IDs(got), newer.ID) {
						t.Violates("nip01/replaceable-kinds.1", "NIP-01 (nip01/replaceable-kinds.1): for each pubkey and replaceable kind the latest event MUST be stored; after the newer version %s was accepted, REQ %s returned %v", newer.ID, f, framework.IDs(got))
					}
				})
			}},
		{Case: framework.NewCase("base/replaceable/2", framework.SHOULD,
			"A REQ by kind and author for a replaceable event (kind 10009) with two versions returns just the latest one.",
			"nip01/replaceable-kinds.2"),
			Run: func(t *framework.T) {
				run(t, func(got []*nostr.Event, older, newer *nostr.Event, f nostr.Filter) {
					if !slices.Contains(framework.IDs(got), newer.ID) {
						t.Note("REQ %s did not return the newer version %s (base/replaceable/1 judges that): got %v", f, newer.ID, framework.IDs(got))
						return
					}
					if slices.Contains(framework.IDs(got), older.ID) {
						t.Violates("nip01/replaceable-kinds.2", "NIP-01 (nip01/replaceable-kinds.2): a REQ for replaceable events should return just the latest version; REQ %s returned the older %s beside %v", f, older.ID, framework.IDs(got))
					}
				})
			}},
	}
}
