package nip29

import (
	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// nip01ReplaceableSpecs are the cases of nip01/replaceable.
func nip01ReplaceableSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/ties/4", framework.SHOULD,
			"Of two versions of an addressable event with the same created_at, the relay keeps the one with the lowest id, whichever came first.",
			"nip01/replaceable.1").
			WithReading("NIP-01: \"In case of replaceable events with the same timestamp, the event with the lowest id (first in lexical order) should be retained, and the other discarded\", read as covering addressable events (same kind, pubkey and d). The harness's own kind 30078 events in its group; a relay may refuse the discarded version or accept and drop it."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				a := c.Actor()
				at := nostr.Now()
				version := func(d string) *nostr.Event {
					return &nostr.Event{Kind: kindAppData, Tags: nostr.Tags{{"d", d}, {"h", ch}}}
				}
				for _, lowerSecond := range []bool{true, false} {
					d := t.Unique("tie")
					v1 := signTie(a, t.Timeline(c, version(d)), at, "", false)
					v2 := signTie(a, t.Timeline(c, version(d)), at, v1.ID, lowerSecond)
					keep, drop := v2, v1
					if !lowerSecond {
						keep, drop = v1, v2
					}
					t.Accept(c, v1, "the first version of an addressable event")
					t.Note("%s", tieNote("two versions of "+d, v1, v2))
					ok := t.Publish(c, v2)
					if !ok.Accepted {
						framework.CheckPrefix("OK", ok.Reason)
						if keep == v2 {
							t.Violates("nip01/replaceable.1", "NIP-01 (nip01/replaceable.1): the same-second version with the lower id should be retained; it was refused: %s", ok)
						}
						t.Note("the same-second version with the higher id was refused: %s", ok)
					}
					// #h too: a NIP-29 relay may serve group events only to
					// reads that name the group.
					got := t.Query(c, nostr.Filter{Kinds: []int{kindAppData}, Authors: []string{a.PubKey}, Tags: nostr.TagMap{"d": {d}, "h": {ch}}})
					ids := framework.IDs(got)
					if !containsID(got, keep.ID) || containsID(got, drop.ID) {
						t.Violates("nip01/replaceable.1", "NIP-01 (nip01/replaceable.1): of two versions with created_at %d the lowest id %s should be retained and %s discarded; the relay serves %v", at, keep.ID, drop.ID, ids)
					}
				}
			}},
	}
}
