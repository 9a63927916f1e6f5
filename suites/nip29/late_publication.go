package nip29

import (
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// latePublicationSpecs are the cases of nip29/late-publication.
func latePublicationSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/event/3", framework.SHOULD,
			"A group message stamped three hours in the past is refused (late publication).",
			"nip29/late-publication.1"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("owner"))
				ch := t.CreateChannel(c, fixtures.ChannelSpec{})
				late := c.Actor().EventAt(time.Now().Add(-3*time.Hour), fixtures.KindMessage, nostr.Tags{{"h", ch}}, "late")
				ok := t.Publish(c, late)
				if ok.Accepted {
					t.Violates("nip29/late-publication.1", "NIP-29 (nip29/late-publication.1): relays should prevent late publication; a message stamped 3 h ago was accepted: %s", ok)
				}
				framework.CheckPrefix("OK", ok.Reason)
			}},
	}
}
