package identity

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

var idDecimalSeconds = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)

// editAt builds a signed 9002 with an explicit created_at.
func idEditAt(a *fixtures.Actor, ch string, at time.Time, tags ...nostr.Tag) *nostr.Event {
	return a.EventAt(at, fixtures.KindEditMetadata, append(nostr.Tags{{"h", ch}}, tags...), "")
}

// createdAtTag returns the value of 39000's created_at tag and how many it has.
func idCreatedAtTag(ev *nostr.Event) (string, int) {
	vals := fixtures.TagValues(ev, "created_at")
	if len(vals) == 0 {
		return "", 0
	}
	return vals[0], len(vals)
}

// reverseSorted returns the values sorted descending (never the order a
// sorting relay would produce, unless there is one value).
func idReverseSorted(vals []string) []string {
	out := slices.Clone(vals)
	sort.Sort(sort.Reverse(sort.StringSlice(out)))
	return out
}

// identityTagSpecs: "Channel identity tags" (type, labels, P, created_at).
func identityTagSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/tags/1", framework.MUST,
			`For every channel type, 39000, 39001 and 39002 start their t/P tags with ["t", type], the labels, then ["P", creator].`,
			"identity/identity-tags.1", "identity/identity-tags.2", "identity/identity-tags.3").
			WithReading(idReadingStateKinds + " " + idReadingStoredOrder),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				accepted := 0
				for _, typ := range []string{fixtures.TypeStream, fixtures.TypeForum, fixtures.TypeDM, fixtures.TypeWorkflow, fixtures.TypeSystem} {
					labels := idReverseSorted(idLabels(t, 2))
					ev, ch := idCreateEvent(t, c.Actor(), idChanOpts{Type: typ, Visibility: fixtures.Open, Labels: labels})
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
						idNoteOrder(t, labels, order)
					}
				}
				t.Expect(accepted).To(BeNumerically(">=", 2), "stream and system channels must both be created and tagged")
			}},
		{Case: framework.NewCase("identity/tags/2", framework.MUST,
			"39000, 39001 and 39002 list a channel's labels in one and the same order, after creation, after a label change and after a membership change.",
			"identity/identity-tags.2").
			WithReading(idReadingStoredOrder),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				labels := idReverseSorted(idLabels(t, 3))
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: labels})
				requireIdentityAll(t, c, ch, fixtures.TypeStream, labels, c.Actor().PubKey)
				next := idReverseSorted(idLabels(t, 3))
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, idTTags(next...)...), "replace the labels")
				requireIdentityAll(t, c, ch, fixtures.TypeStream, next, c.Actor().PubKey)
				t.Accept(c, fixtures.PutUser(c.Actor(), ch, t.Actor("member").PubKey, "member"), "add a member")
				requireIdentityAll(t, c, ch, fixtures.TypeStream, next, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/tags/3", framework.MUST,
			`A channel without labels carries ["t", type] directly followed by ["P", creator] on 39000, 39001 and 39002.`,
			"identity/identity-tags.1", "identity/identity-tags.3"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				ch := idChannel(t, c, idChanOpts{Type: fixtures.TypeForum, Visibility: fixtures.Open})
				requireIdentityAll(t, c, ch, fixtures.TypeForum, nil, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/tags/4", framework.MUST,
			"A label change republishes 39001 and 39002 as well as 39000 with the new labels (every channel-state event carries them).",
			"identity/identity-tags.1", "identity/identity-tags.2"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				first := idLabels(t, 1)
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open, Labels: first})
				before := idStateOf(t, c, ch)
				next := idLabels(t, 2)
				t.Accept(c, fixtures.EditChannel(c.Actor(), ch, idTTags(next...)...), "replace the labels")
				after := idStateOf(t, c, ch)
				for _, k := range []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers} {
					if before[k] == nil || after[k] == nil {
						t.Note("the relay publishes no kind %d for the channel (optional in NIP-29); not checked", k)
						continue
					}
					t.Expect(after[k].ID).NotTo(Equal(before[k].ID), "kind %d must be republished after a label change", k)
					requireIdentity(t, after[k], fixtures.TypeStream, next, c.Actor().PubKey)
				}
			}},
		{Case: framework.NewCase("identity/tags/5", framework.MUST,
			`39000 carries exactly one ["created_at", <unix seconds>] tag, a decimal string, at the channel's creation time.`,
			"identity/creation-time.1").
			WithReading(idReadingCreatedAt),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				// The 9007 is dated 2 minutes back, so the two readings differ.
				ev, ch := idCreateEvent(t, c.Actor(), idChanOpts{Visibility: fixtures.Open})
				ev.CreatedAt = nostr.Timestamp(time.Now().Add(-2 * time.Minute).Unix())
				ev.ID, ev.Sig = "", ""
				c.Actor().Sign(ev)
				before := time.Now().Unix()
				t.Accept(c, ev, "create")
				after := time.Now().Unix()
				meta := t.MustStateEvent(c, fixtures.KindMetadata, ch)
				v, n := idCreatedAtTag(meta)
				t.Expect(n).To(Equal(1), "39000 must carry exactly one created_at tag, tags %v", meta.Tags)
				t.Expect(v).To(MatchRegexp(idDecimalSeconds.String()), "created_at tag must be unix seconds as a decimal string")
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
						framework.Failf("identity/creation-time.1: the created_at tag %d is not the channel's creation time: neither the 9007's created_at (%d) nor the relay clock at the create (harness %d..%d, the creation 39000 dated %d)", at, ev.CreatedAt, before, after, meta.CreatedAt)
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
				ch := idChannel(t, owner, idChanOpts{Visibility: fixtures.Open, Labels: idLabels(t, 1)})
				meta := t.MustStateEvent(owner, fixtures.KindMetadata, ch)
				want, n := idCreatedAtTag(meta)
				t.Expect(n).To(Equal(1), "39000 must carry one created_at tag")
				prev := meta.CreatedAt
				check := func(c *fixtures.Client, why string) {
					cur := t.MustStateEvent(c, fixtures.KindMetadata, ch)
					got, _ := idCreatedAtTag(cur)
					t.Expect(got).To(Equal(want), "created_at tag after %s", why)
					t.Expect(cur.CreatedAt).To(BeNumerically(">=", prev), "39000 created_at after %s", why)
					prev = cur.CreatedAt
				}
				now := time.Now()
				t.Accept(owner, idEditAt(owner.Actor(), ch, now.Add(40*time.Second), nostr.Tag{"name", t.Unique("renamed")}), "rename")
				check(owner, "a rename")
				t.Expect(prev).To(BeNumerically(">", meta.CreatedAt), "39000 created_at must grow on an edit")
				t.Accept(owner, idEditAt(owner.Actor(), ch, now.Add(80*time.Second), idTTags(idLabel(t))...), "replace the labels")
				check(owner, "a label change")
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, heir.Actor().PubKey, "owner"), "add a second owner")
				t.Accept(heir, fixtures.RemoveUser(heir.Actor(), ch, owner.Actor().PubKey), "the heir removes the creator")
				t.Accept(heir, idEditAt(heir.Actor(), ch, now.Add(120*time.Second), nostr.Tag{"about", t.Unique("about")}), "the heir edits")
				check(heir, "an ownership transfer and an edit by the new owner")
			}},
		{Case: framework.NewCase("identity/tags/7", framework.MUST,
			`["P", <key that signed the 9007>] is on 39000, 39001 and 39002, also after admins and members are added.`,
			"identity/creator.1", "identity/identity-tags.3"),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				ch := idChannel(t, c, idChanOpts{Visibility: fixtures.Open})
				t.Accept(c, fixtures.PutUser(c.Actor(), ch, t.Actor("admin").PubKey, "admin"), "add an admin")
				t.Accept(c, fixtures.PutUser(c.Actor(), ch, t.Actor("member").PubKey, "member"), "add a member")
				requireIdentityAll(t, c, ch, fixtures.TypeStream, nil, c.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/tags/8", framework.MUST,
			"P stays the creator after ownership moves (a new owner is added, the creator removed) and the new owner edits the channel.",
			"identity/creator.3", "identity/creator.4"),
			Run: func(t *framework.T) {
				owner := t.Connect(t.Actor("creator"))
				heir := t.Connect(t.Actor("heir"))
				labels := idLabels(t, 1)
				ch := idChannel(t, owner, idChanOpts{Type: fixtures.TypeWorkflow, Visibility: fixtures.Open, Labels: labels})
				t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, heir.Actor().PubKey, "owner"), "add a second owner")
				t.Accept(heir, fixtures.RemoveUser(heir.Actor(), ch, owner.Actor().PubKey), "the heir removes the creator")
				next := idLabels(t, 1)
				t.Accept(heir, fixtures.EditChannel(heir.Actor(), ch, append(nostr.Tags{{"name", t.Unique("heir")}}, idTTags(next...)...)...), "the heir renames and relabels")
				requireIdentityAll(t, heir, ch, fixtures.TypeWorkflow, next, owner.Actor().PubKey)
			}},
		{Case: framework.NewCase("identity/tags/9", framework.MUST,
			"A client P tag on 9007 or 9002 cannot set the creator: whether the relay refuses such a command or accepts it and ignores the tag, P stays the 9007 signer.",
			"identity/creator.2", "identity/creator.4").
			WithReading("The draft says only that no client can set P; it neither requires nor forbids refusing a command that carries one. Refusal (any NIP-01 prefix) and acceptance with the client's P ignored are both accepted and noted; a P naming the client's forged key fails either way."),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				impostor := t.Actor("impostor")
				forged := nostr.Tags{{"P", impostor.PubKey}}
				ev, ch := idCreateEvent(t, c.Actor(), idChanOpts{Visibility: fixtures.Open, Extra: forged})
				ok := t.Publish(c, ev)
				if ok.Accepted {
					t.Note("9007 with a client P tag accepted (tag ignored?)")
					requireIdentityAll(t, c, ch, fixtures.TypeStream, nil, c.Actor().PubKey)
					idNoForgedP(t, c, ch, impostor.PubKey, "after the 9007")
				} else {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("9007 with a client P tag refused: %s", ok)
					idNoForgedP(t, c, ch, impostor.PubKey, "after the refused 9007")
					ch = idChannel(t, c, idChanOpts{Visibility: fixtures.Open})
				}
				ok = t.Publish(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"name", t.Unique("renamed")}, nostr.Tag{"P", impostor.PubKey}))
				if ok.Accepted {
					t.Note("9002 with a client P tag accepted")
				} else {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("9002 with a client P tag refused: %s", ok)
				}
				requireIdentityAll(t, c, ch, fixtures.TypeStream, nil, c.Actor().PubKey)
				idNoForgedP(t, c, ch, impostor.PubKey, "after the 9002")
			}},
		{Case: framework.NewCase("identity/tags/10", framework.MUST,
			`A client ["created_at", <seconds>] tag sets nothing: after a 9007 carrying one, the 39000's created_at tag is the channel's creation time; after a 9002 carrying one, the tag keeps its value.`,
			"identity/creation-time.1", "identity/creation-time.2").
			WithReading("The draft gives the created_at tag no client form. A 9007 or 9002 carrying one may be refused (any NIP-01 prefix) or accepted with the tag ignored; both are accepted and noted. " + idReadingCreatedAt),
			Run: func(t *framework.T) {
				c := t.Connect(t.Actor("creator"))
				// A month back: far from the relay clock and from the 9007's
				// own created_at, so neither reading can produce it.
				forged := strconv.FormatInt(time.Now().Add(-30*24*time.Hour).Unix(), 10)
				ev, ch := idCreateEvent(t, c.Actor(), idChanOpts{Visibility: fixtures.Open, Extra: nostr.Tags{{"created_at", forged}}})
				before := time.Now().Unix()
				ok := t.Publish(c, ev)
				after := time.Now().Unix()
				if ok.Accepted {
					meta := t.MustStateEvent(c, fixtures.KindMetadata, ch)
					v, n := idCreatedAtTag(meta)
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
					ch = idChannel(t, c, idChanOpts{Visibility: fixtures.Open})
				}
				want, n := idCreatedAtTag(t.MustStateEvent(c, fixtures.KindMetadata, ch))
				t.Expect(n).To(Equal(1), "39000 must carry one created_at tag")
				ok = t.Publish(c, fixtures.EditChannel(c.Actor(), ch, nostr.Tag{"name", t.Unique("renamed")}, nostr.Tag{"created_at", forged}))
				if ok.Accepted {
					t.Note("9002 with a client created_at tag accepted")
				} else {
					framework.CheckPrefix("OK", ok.Reason)
					t.Note("9002 with a client created_at tag refused: %s", ok)
				}
				got, _ := idCreatedAtTag(t.MustStateEvent(c, fixtures.KindMetadata, ch))
				t.Expect(got).To(Equal(want), "identity/creation-time.2: created_at tag after a 9002 carrying [\"created_at\", %s]", forged)
			}},
	}
}

// idNoForgedP fails when any state event c can read for ch carries a P tag
// naming forged (a key the client tried to pass off as the creator).
func idNoForgedP(t *framework.T, c *fixtures.Client, ch, forged, when string) {
	GinkgoHelper()
	r := t.QueryResult(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers, fixtures.KindRoles}, Tags: nostr.TagMap{"d": {ch}}})
	for _, st := range r.Events {
		t.Expect(fixtures.TagValues(st, "P")).NotTo(ContainElement(forged), "%s: kind %d of %s carries the client's forged P", when, st.Kind, ch)
	}
}
