package nip29

import (
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// nip01OkPrefixSpecs are the cases of nip01/ok-prefix.
func nip01OkPrefixSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.Case{ID: "base/prefix/1", Clauses: []string{"nip01/ok-prefix.1"}, Area: "events", Section: "nip01/ok-prefix", Level: framework.MUST,
			Requirement: "An OK false carries a machine-readable prefix and a colon before its human-readable message."},
			Run: func(t *framework.T) {
				a := t.Actor("owner")
				c := t.Connect(a)
				t.Must(framework.AuthIfNeeded(t, c), "authenticate")
				ev := fixtures.CreateGroup(a, t.NewGroupID())
				ev.Content = "tampered after signing"
				ok := t.Publish(c, ev)
				if ok.Accepted {
					framework.Failf("NIP-01: an event whose id does not match its content must not be accepted, got %s", ok)
				}
				framework.CheckPrefix("OK", ok.Reason)
			}},
	}
}
