package nip29

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/readmatrix"
)

// readAccessSpecs are the cases of nip29/read-access.
func readAccessSpecs() []framework.Spec {
	return append([]framework.Spec{
		{Case: framework.NewCase("base/deleted/3", framework.MUST,
			"Deleting a private group admits no reader: after its accepted 9008, its message (read by the member before) reaches no outsider or anonymous reader, by #h or by id.",
			"nip29/read-access.1").
			WithReading(readingDeletedGroup + " \"private indicates that only members can read group messages\": a group that is gone has no members to add, so its messages reach nobody new; whether its members still read them is noted."),
			Run: func(t *framework.T) {
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Private, "member")
				t.RequireFlags(owner, ch, fixtures.FlagPrivate)
				m := fixtures.Message(owner.Actor(), ch, "secret")
				t.Accept(owner, m, "message in the private group")
				byH := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}}
				// The positive control: the message is served, to a member.
				if r := t.QueryResult(member, byH); r.Closed || !slices.Contains(framework.IDs(r.Events), m.ID) {
					t.Blocked(framework.PreReadServed, fmt.Sprintf("the member's REQ %s did not return the group's message before the delete (got %v, CLOSED %q)", byH, framework.IDs(r.Events), r.ClosedReason))
				}
				deletedGroup(t, owner, ch)
				byID := nostr.Filter{IDs: []string{m.ID}}
				// The anonymous reader needs no key: it is judged before the
				// outsider's key is asked for, so a relay on which every key
				// moderates (no outsider without power) still has the
				// anonymous half judged.
				for _, reader := range []struct {
					who     string
					connect func() *fixtures.Client
				}{{"an anonymous reader", func() *fixtures.Client { return t.Connect(nil) }},
					{"an outsider", func() *fixtures.Client { return t.Connect(t.Actor("outsider")) }}} {
					c := reader.connect()
					for _, f := range []nostr.Filter{byH, byID} {
						r := t.QueryResult(c, f)
						if slices.Contains(framework.IDs(r.Events), m.ID) {
							t.Violates("nip29/read-access.1", "NIP-29 (nip29/read-access.1): only members can read a private group's messages; after the group's accepted 9008, %s got its message %s by %s", reader.who, m.ID, f)
						}
					}
				}
				after := t.QueryResult(member, byID)
				t.Note("after the 9008, the member's REQ by id returned the message: %v", slices.Contains(framework.IDs(after.Events), m.ID))
			}},
		{Case: framework.NewCase("base/read/1", framework.MUST,
			"A private group's messages reach its members and nobody else, by #h or by id, anonymous or not.",
			"nip29/read-access.1", "nip29/read-access.3", "nip01/ok-prefix.2"),
			Run: func(t *framework.T) {
				t.Checking("nip29/read-access.1")
				owner, member, ch := framework.ChannelWithMember(t, fixtures.Private, "member")
				t.RequireFlags(owner, ch, fixtures.FlagPrivate)
				m := fixtures.Message(owner.Actor(), ch, "secret")
				t.Accept(owner, m, "message in the private group")
				f := nostr.Filter{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {ch}}}
				r := t.QueryResult(member, f)
				if r.Closed || !slices.Contains(framework.IDs(r.Events), m.ID) {
					t.Violates("nip29/read-access.3", "NIP-29 (nip29/read-access.3): a member must read the private group's message; got %v (CLOSED %q)", framework.IDs(r.Events), r.ClosedReason)
				}
				outsider := t.Connect(t.Actor("outsider"))
				var how []string
				t.Checking("nip29/read-access.1")
				how = append(how, "outsider by #h: "+t.QueryAbsent(outsider, "NIP-29 (nip29/read-access.1): an outsider reading the private group by #h", f))
				how = append(how, "outsider by id: "+t.QueryAbsent(outsider, "NIP-29 (nip29/read-access.1): an outsider reading the private message by id", nostr.Filter{IDs: []string{m.ID}}))
				how = append(how, "anonymous by #h: "+t.QueryAbsent(t.Connect(nil), "NIP-29 (nip29/read-access.1): an anonymous reader of the private group", f))
				t.Note("withheld: %s", strings.Join(how, "; "))
			}},
		{Case: framework.NewCase("base/read/2", framework.SHOULD,
			"Newer messages of private groups do not use up an outsider's limit: limit 1 returns the readable older message.",
			"nip29/read-access.1", "nip29/read-access.2"),
			Run: func(t *framework.T) {
				t.Checking("nip29/read-access.1")
				owner := t.Connect(t.Actor("owner"))
				open := t.CreateChannel(owner, fixtures.ChannelSpec{})
				old := owner.Actor().EventAt(time.Now().Add(-30*time.Second), fixtures.KindMessage, nostr.Tags{{"h", open}}, "readable")
				t.Accept(owner, old, "older message in the open group")
				priv := t.CreateChannel(owner, fixtures.ChannelSpec{Visibility: fixtures.Private})
				t.RequireFlags(owner, priv, fixtures.FlagPrivate)
				for i := 0; i < 5; i++ {
					t.Accept(owner, fixtures.Message(owner.Actor(), priv, fmt.Sprintf("secret %d", i)), "newer private message")
				}
				outsider := t.Connect(t.Actor("outsider"))
				// The readable group first, then last (NIP-01 matches a list by
				// any of its values: a relay reading only the first must not pass).
				for _, fs := range readmatrix.Orders([]nostr.Filter{{Kinds: []int{fixtures.KindMessage}, Tags: nostr.TagMap{"h": {open, priv}}, Limit: 1}}) {
					r := t.QueryResult(outsider, fs...)
					if r.Closed {
						framework.CheckPrefix("CLOSED", r.ClosedReason)
						t.Note("the relay refused the mixed REQ %s (CLOSED %q): nothing was disclosed, and the limit question does not arise", framework.FilterString(fs), r.ClosedReason)
						continue
					}
					for _, ev := range r.Events {
						if mustH(ev) == priv {
							t.Violates("nip29/read-access.1", "NIP-29 (nip29/read-access.1): an outsider got a private group's message %s from %s", ev.ID, framework.FilterString(fs))
						}
					}
					t.Checking("nip29/read-access.2")
					t.Expect(framework.IDs(r.Events)).To(Equal([]string{old.ID}), "NIP-29 private with NIP-01 limit (nip29/read-access.2): limit 1 returns the one message the outsider may read, for "+framework.FilterString(fs))
				}
			}},
		{Case: framework.NewCase("base/create/4", framework.MUST,
			"After an outsider's bare 9007 on an existing private group (closed too, where the relay shows the flag), the outsider still does not read the group's private message, and a refused 9007 changed nothing (name, flags, admins, members).",
			"nip29/read-access.1", "nip01/ok-prefix.3").
			WithReading("Follow-through: what a 9007 on an existing id did is read back, whatever the OK said, and judged at the sentence the damage breaks: the outsider reading the private message breaks nip29/read-access.1 (MUST); a change after an OK false breaks nip01/ok-prefix.3 (MUST). A change after an OK true is base/create/5's (nip29/create.3, SHOULD)."),
			Run: func(t *framework.T) {
				t.Checking("nip01/ok-prefix.3")
				w := takeOver(t)
				switch {
				case w.reads:
					t.Violates("nip29/read-access.1", "NIP-29 (nip29/read-access.1): after its 9007 on the existing private group (answered %s), the outsider reads the group's private message %s", w.ok, w.secret)
				case len(w.damage) > 0 && !w.ok.Accepted:
					t.Violates("nip01/ok-prefix.3", "NIP-01 (nip01/ok-prefix.3): the outsider's 9007 on the existing group was refused (%s), yet it changed the group: %s", w.ok, strings.Join(w.damage, "; "))
				}
			}},
	}, readmatrix.ReadsSpecs(
		basePrivateRule([]readmatrix.ReadRow{
			{Id: "base/reads/1", Shape: "h", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen},
			{Id: "base/reads/2", Shape: "ids", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen},
			{Id: "base/reads/3", Shape: "authors", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen},
			{Id: "base/reads/4", Shape: "since-until", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen},
			{Id: "base/reads/5", Shape: "multi", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen},
			{Id: "base/reads/6", Shape: "live", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen},
			{Id: "base/reads/7", Shape: "h", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "base/reads/8", Shape: "ids", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "base/reads/9", Shape: "authors", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "base/reads/10", Shape: "kinds", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "base/reads/11", Shape: "since-until", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "base/reads/12", Shape: "multi", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "base/reads/13", Shape: "live", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "base/reads/14", Shape: "h", Viewer: readmatrix.ViewAnon, Want: readmatrix.WantWithheld},
			{Id: "base/reads/15", Shape: "ids", Viewer: readmatrix.ViewAnon, Want: readmatrix.WantWithheld},
			{Id: "base/reads/16", Shape: "kinds", Viewer: readmatrix.ViewAnon, Want: readmatrix.WantWithheld},
			{Id: "base/reads/17", Shape: "since-until", Viewer: readmatrix.ViewAnon, Want: readmatrix.WantWithheld},
			{Id: "base/reads/18", Shape: "multi", Viewer: readmatrix.ViewAnon, Want: readmatrix.WantWithheld},
			{Id: "base/reads/19", Shape: "h", Viewer: readmatrix.ViewRemoved, Want: readmatrix.WantWithheld},
			{Id: "base/reads/20", Shape: "ids", Viewer: readmatrix.ViewRemoved, Want: readmatrix.WantWithheld},
			{Id: "base/reads/21", Shape: "authors", Viewer: readmatrix.ViewRemoved, Want: readmatrix.WantWithheld},
			{Id: "base/reads/22", Shape: "since-until", Viewer: readmatrix.ViewRemoved, Want: readmatrix.WantWithheld},
			{Id: "base/reads/23", Shape: "multi", Viewer: readmatrix.ViewRemoved, Want: readmatrix.WantWithheld},
			{Id: "base/reads/24", Shape: "live", Viewer: readmatrix.ViewRemoved, Want: readmatrix.WantWithheld},
			{Id: "base/reads/25", Shape: "limit", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld, Level: framework.SHOULD, Clause: "nip29/read-access.2"},
			{Id: "base/reads/26", Shape: "limit", Viewer: readmatrix.ViewAnon, Want: readmatrix.WantWithheld, Level: framework.SHOULD, Clause: "nip29/read-access.2"},
			{Id: "base/reads/27", Shape: "limit", Viewer: readmatrix.ViewRemoved, Want: readmatrix.WantWithheld, Level: framework.SHOULD, Clause: "nip29/read-access.2"},
		}),
		baseFlippedRule([]readmatrix.ReadRow{
			{Id: "base/reads/33", Shape: "h", Viewer: readmatrix.ViewMember, Want: readmatrix.WantSeen},
			{Id: "base/reads/34", Shape: "h", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "base/reads/35", Shape: "ids", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
			{Id: "base/reads/36", Shape: "since-until", Viewer: readmatrix.ViewAnon, Want: readmatrix.WantWithheld},
			{Id: "base/reads/37", Shape: "multi", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
		}),
	)...)
}
