package identity

import (
	"strconv"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// creationTimeSpecs are the cases of identity/creation-time.
func creationTimeSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/choose/3", framework.MUST,
			"created_at tags follow creation order: of channels created one after the other, a later one never has a lower created_at tag.",
			"identity/creation-time.1").
			WithReading("Tags have second resolution: equal values are allowed (the d tag then breaks the tie) and noted."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				label := freshLabel(t)
				var ids []string
				for i := 0; i < 4; i++ {
					ids = append(ids, mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: []string{label}}))
				}
				byID := map[string]*nostr.Event{}
				for _, ev := range t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": ids}}) {
					byID[framework.TagOf(ev, "d")] = ev
				}
				var prev int64
				ties := 0
				for i, id := range ids {
					t.Expect(byID).To(HaveKey(id))
					at, ok := createdAtOf(byID[id])
					t.Expect(ok).To(BeTrue(), "39000 of %s needs a decimal created_at tag", id)
					if i > 0 {
						t.Expect(at).To(BeNumerically(">=", prev), "channel %d was created after channel %d", i, i-1)
						if at == prev {
							ties++
						}
					}
					prev = at
				}
				if ties > 0 {
					t.Note("%d of 3 consecutive creates share a created_at second (the d tag breaks ties)", ties)
				}
			}},
		{Case: framework.NewCase("identity/choose/4", framework.MUST,
			"The oldest rule (lowest created_at tag, then lowest d) picks the same channel before and after both channels are edited.",
			"identity/creation-time.2").
			WithReading("The oldest channel is edited last, with the latest created_at, so a relay whose tag follows edits flips the choice."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				label := freshLabel(t)
				a := mkChannel(t, c, chanOpts{Visibility: fixtures.Open, Labels: []string{label}})
				b := mkChannel(t, c, chanOpts{Type: fixtures.TypeForum, Visibility: fixtures.Open, Labels: []string{label}})
				f := nostr.TagMap{"P": {c.Actor().PubKey}, "t": {label}}
				before := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: f})
				t.Expect(channelSet(before)).To(Equal(sortedCopy(a, b)))
				first := oldestOf(before)
				other := a
				if first == a {
					other = b
				}
				now := time.Now()
				t.Accept(c, editAt(c.Actor(), other, now.Add(30*time.Second), nostr.Tag{"name", t.Unique("edited")}), "edit the younger channel")
				t.Accept(c, editAt(c.Actor(), first, now.Add(60*time.Second), nostr.Tag{"name", t.Unique("edited")}, nostr.Tag{"t", label}), "edit the older channel")
				after := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: f})
				t.Expect(channelSet(after)).To(Equal(sortedCopy(a, b)))
				t.Expect(oldestOf(after)).To(Equal(first), "the oldest channel after both were edited")
			}},
		{Case: framework.NewCase("identity/tags/5", framework.MUST,
			`39000 carries exactly one ["created_at", <unix seconds>] tag, a decimal string, at the channel's creation time.`,
			"identity/creation-time.1").
			WithReading(readingCreatedAt),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				// The 9007 is dated 2 minutes back, so the two readings differ.
				ev, ch := createEvent(t, c.Actor(), chanOpts{Visibility: fixtures.Open})
				ev.CreatedAt = nostr.Timestamp(time.Now().Add(-2 * time.Minute).Unix())
				ev.ID, ev.Sig = "", ""
				c.Actor().Sign(ev)
				before := time.Now().Unix()
				t.Accept(c, ev, "create")
				after := time.Now().Unix()
				meta := t.MustStateEvent(c, fixtures.KindMetadata, ch)
				v, n := createdAtTag(meta)
				t.Expect(n).To(Equal(1), "39000 must carry exactly one created_at tag, tags %v", meta.Tags)
				t.Expect(v).To(MatchRegexp(decimalSeconds.String()), "created_at tag must be unix seconds as a decimal string")
				at, _ := strconv.ParseInt(v, 10, 64)
				switch {
				case at == int64(ev.CreatedAt):
					t.Note("created_at tag = the 9007's created_at (%d)", at)
					t.Reading(clause.ReadingIdentityCreatedAt, "command")
				default:
					// The relay clock at creation: the harness saw the create
					// between before and after; a relay whose clock is off
					// from the harness's stamps the 39000 it published at
					// creation with that same clock, so either agrees within
					// a second or two. Anything else is not the creation time.
					nearHarness := at >= before-2 && at <= after+2
					nearState := at >= int64(meta.CreatedAt)-2 && at <= int64(meta.CreatedAt)+2
					if !nearHarness && !nearState {
						t.Violates("identity/creation-time.1", "identity/creation-time.1: the created_at tag %d is not the channel's creation time: neither the 9007's created_at (%d) nor the relay clock at the create (harness %d..%d, the creation 39000 dated %d)", at, ev.CreatedAt, before, after, meta.CreatedAt)
					}
					t.Note("created_at tag = the relay clock at creation (%d; harness %d..%d, 39000 dated %d)", at, before, after, meta.CreatedAt)
					t.Reading(clause.ReadingIdentityCreatedAt, "relay-clock")
				}
			}},
		{Case: framework.NewCase("identity/tags/6", framework.MUST,
			"The created_at tag never changes (edits, label changes, membership and ownership changes) while 39000's own created_at grows.",
			"identity/creation-time.2").
			WithReading("Edits are signed with created_at in the future (within the window) so a relay that copies a command's created_at into the tag is caught."),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("creator"))
				heir := t.Connect(t.Actor("heir"))
				ch := mkChannel(t, owner, chanOpts{Visibility: fixtures.Open, Labels: freshLabels(t, 1)})
				meta := t.MustStateEvent(owner, fixtures.KindMetadata, ch)
				want, n := createdAtTag(meta)
				t.Expect(n).To(Equal(1), "39000 must carry one created_at tag")
				prev := meta.CreatedAt
				check := func(c *fixtures.Client, why string) {
					cur := t.MustStateEvent(c, fixtures.KindMetadata, ch)
					got, _ := createdAtTag(cur)
					t.Expect(got).To(Equal(want), "created_at tag after %s", why)
					t.Expect(cur.CreatedAt).To(BeNumerically(">=", prev), "39000 created_at after %s", why)
					prev = cur.CreatedAt
				}
				now := time.Now()
				t.Accept(owner, editAt(owner.Actor(), ch, now.Add(40*time.Second), nostr.Tag{"name", t.Unique("renamed")}), "rename")
				check(owner, "a rename")
				t.Expect(prev).To(BeNumerically(">", meta.CreatedAt), "39000 created_at must grow on an edit")
				t.Accept(owner, editAt(owner.Actor(), ch, now.Add(80*time.Second), tTags(freshLabel(t))...), "replace the labels")
				check(owner, "a label change")
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, heir.Actor().PubKey, t.PutRoles(owner, ch, "owner")...), "add a second owner")
				t.Accept(heir, fixtures.RemoveUser(heir.Actor(), ch, owner.Actor().PubKey), "the heir removes the creator")
				t.Accept(heir, editAt(heir.Actor(), ch, now.Add(120*time.Second), nostr.Tag{"about", t.Unique("about")}), "the heir edits")
				check(heir, "an ownership transfer and an edit by the new owner")
			}},
		{Case: framework.NewCase("identity/tags/10", framework.MUST,
			`A client ["created_at", <seconds>] tag sets nothing: after a 9007 carrying one, the 39000's created_at tag is the channel's creation time; after a 9002 carrying one, the tag keeps its value.`,
			"identity/creation-time.1", "identity/creation-time.2").
			WithReading("The draft gives the created_at tag no client form. A 9007 or 9002 carrying one may be refused (any NIP-01 prefix) or accepted with the tag ignored; both are accepted and noted. " + readingCreatedAt),
			Run: func(t *framework.T) {
				t.Checking("identity/creation-time.1")
				c := t.Connect(t.Actor("creator"))
				// A month back: far from the relay clock and from the 9007's
				// own created_at, so neither reading can produce it.
				forged := strconv.FormatInt(time.Now().Add(-30*24*time.Hour).Unix(), 10)
				ev, ch := createEvent(t, c.Actor(), chanOpts{Visibility: fixtures.Open, Extra: nostr.Tags{{"created_at", forged}}})
				before := time.Now().Unix()
				ok := t.Publish(c, ev)
				after := time.Now().Unix()
				if ok.Accepted {
					meta := t.MustStateEvent(c, fixtures.KindMetadata, ch)
					v, n := createdAtTag(meta)
					t.Checking("identity/creation-time.1")
					t.Expect(n).To(Equal(1), "identity/creation-time.1: 39000 after a 9007 with a client created_at tag must carry one created_at tag, tags %v", meta.Tags)
					t.Expect(v).NotTo(Equal(forged), "identity/creation-time.1: the created_at tag is the client's %s, not the channel's creation time", forged)
					at, err := strconv.ParseInt(v, 10, 64)
					t.Must(err, "identity/creation-time.1: created_at tag "+v+" is not decimal unix seconds")
					near := func(x, y int64) bool { return x >= y-2 && x <= y+2 }
					creation := at == int64(ev.CreatedAt) || (at >= before-2 && at <= after+2) || near(at, int64(meta.CreatedAt))
					t.Expect(creation).To(BeTrue(), "identity/creation-time.1: created_at tag %d is not the creation time: neither the 9007's created_at (%d) nor the relay clock at the create (harness %d..%d, 39000 dated %d)", at, ev.CreatedAt, before, after, meta.CreatedAt)
					t.Note("9007 with a client created_at tag accepted; the tag was ignored (%s)", v)
				} else {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("9007 with a client created_at tag refused: %s", ok)
					ch = mkChannel(t, c, chanOpts{Visibility: fixtures.Open})
				}
				want, n := createdAtTag(t.MustStateEvent(c, fixtures.KindMetadata, ch))
				t.Expect(n).To(Equal(1), "39000 must carry one created_at tag")
				ok = t.Publish(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"name", t.Unique("renamed")}, nostr.Tag{"created_at", forged}))
				if ok.Accepted {
					t.Note("9002 with a client created_at tag accepted")
				} else {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("9002 with a client created_at tag refused: %s", ok)
				}
				got, _ := createdAtTag(t.MustStateEvent(c, fixtures.KindMetadata, ch))
				t.Checking("identity/creation-time.2")
				t.Expect(got).To(Equal(want), "identity/creation-time.2: created_at tag after a 9002 carrying [\"created_at\", %s]", forged)
			}},
	}
}
