package identity

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// identitySpecs returns every identity-profile case (nip-cl-identity.md).
// The cases live in identity_<section>.go files.
func Specs() []framework.Spec {
	var out []framework.Spec
	for _, group := range [][]framework.Spec{
		identityTagSpecs(),
		readsIdentitySpecs(),
		advertisingSpecs(),
		advertisingHostsSpecs(),
		askingForSystemSpecs(),
		choosingOneChannelSpecs(),
		findingChannelsSpecs(),
		labelRulesSpecs(),
		labelsSpecs(),
		matchBeforeLimitSpecs(),
		namingSpecs(),
		noticesSpecs(),
		readsLeaveOutSpecs(),
		systemChannelsSpecs(),
		systemChannelsFlipSpecs(),
		trustSpecs(),
	} {
		out = append(out, group...)
	}
	return out
}

// ic builds the metadata of an identity case; the area is the ID's middle
// part ("identity/labels/3" -> "labels").
func idCase(id string, clauses []string, section string, level framework.Level, requirement string, reading ...string) framework.Case {
	parts := strings.Split(id, "/")
	area := parts[0]
	if len(parts) > 1 {
		area = parts[1]
	}
	return framework.Case{ID: id, Clauses: clauses, Profile: framework.ProfileIdentity, Area: area, Section: section, Level: level,
		Requirement: requirement, Reading: strings.Join(reading, " ")}
}

// Readings shared by several identity cases.
const (
	idReadingStoredOrder = `"Stored order" of labels is not defined further: any order is accepted as long as 39000, 39001 and 39002 list the labels in the same order; the report notes whether it was the order of the command's t tags or sorted.`
	idReadingStateKinds  = "Identity tags are required on 39000-39002 (the tag table); the system-channel section's 39000-39003 is read as the naming range. A 39003, if published, is only noted."
	idReadingCreatedAt   = "The created_at tag may come from the relay clock or from the 9007's created_at (both lie in the admission window); either is accepted and the report notes which one was seen."
	idReadingNoKinds     = "A filter without kinds is never taken as 'all kinds within 39000-39003'; the harness always sends explicit kinds."
	idReadingCreatorNote = "Whether the creator gets a 44100 at creation is not stated; the harness does not count the creator's notices and only notes whether one was seen."
)

// --- labels and tags ----------------------------------------------------------

// idLabel returns a fresh label unique to this run and case (a-z0-9 and '-').
func idLabel(t *framework.T) string {
	slug := strings.ReplaceAll(strings.TrimPrefix(t.Case.ID, "identity/"), "/", "-")
	return t.Unique("lbl-" + slug)
}

// idLabels returns n fresh labels.
func idLabels(t *framework.T, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = idLabel(t)
	}
	return out
}

// tTags returns one ["t", v] tag per value.
func idTTags(vals ...string) nostr.Tags {
	out := make(nostr.Tags, 0, len(vals))
	for _, v := range vals {
		out = append(out, nostr.Tag{"t", v})
	}
	return out
}

// distinct returns vals without repeats, first occurrence first.
func idDistinct(vals []string) []string {
	var out []string
	for _, v := range vals {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// idChanOpts describes a channel an identity case creates.
type idChanOpts struct {
	Type       string // "" = no channel_type tag (stream)
	Visibility string // "" = no visibility tag
	Labels     []string
	Extra      nostr.Tags
}

// mkChannel creates a channel as c's actor and returns its UUID.
func idChannel(t *framework.T, c *fixtures.Client, o idChanOpts) string {
	GinkgoHelper()
	extra := append(idTTags(o.Labels...), o.Extra...)
	return t.CreateChannel(c, fixtures.ChannelSpec{Type: o.Type, Visibility: o.Visibility, Extra: extra})
}

// createEvent builds (does not send) a 9007 for o and returns it with its UUID.
func idCreateEvent(t *framework.T, a *fixtures.Actor, o idChanOpts) (*nostr.Event, string) {
	spec := &fixtures.ChannelSpec{Name: t.Unique("chan"), Type: o.Type, Visibility: o.Visibility,
		Extra: append(idTTags(o.Labels...), o.Extra...)}
	ev := fixtures.CreateChannel(a, spec)
	return ev, spec.ID
}

// identitySeq returns the t and P tags of ev in order, as [name, value].
func identitySeq(ev *nostr.Event) [][2]string {
	var out [][2]string
	for _, tag := range ev.Tags {
		if len(tag) >= 2 && (tag[0] == "t" || tag[0] == "P") {
			out = append(out, [2]string{tag[0], tag[1]})
		}
	}
	return out
}

// identityOf is the leading identity block of a state event.
type identityOf struct {
	Type    string
	Labels  []string // in the order the event lists them
	Creator string
}

// requireIdentity checks that ev's t/P tags start with ["t", typ], one
// ["t", l] per expected label (any order, each once) and ["P", creator],
// and returns the block it saw.
func requireIdentity(t *framework.T, ev *nostr.Event, typ string, labels []string, creator string) identityOf {
	GinkgoHelper()
	seq := identitySeq(ev)
	what := fmt.Sprintf("kind %d of %s: t/P tags in order %v", ev.Kind, framework.TagOf(ev, "d"), seq)
	want := len(labels) + 2
	t.Expect(len(seq)).To(BeNumerically(">=", want), "%s: expected [t type], %d label t tags and [P creator] first", what, len(labels))
	t.Expect(seq[0]).To(Equal([2]string{"t", typ}), "%s: the first t/P tag must be [\"t\", %q] (the channel type)", what, typ)
	got := identityOf{Type: seq[0][1], Creator: seq[want-1][1]}
	for _, p := range seq[1 : want-1] {
		t.Expect(p[0]).To(Equal("t"), "%s: labels come before P", what)
		got.Labels = append(got.Labels, p[1])
	}
	t.Expect(got.Labels).To(ConsistOf(labels), "%s: label t tags", what)
	t.Expect(seq[want-1]).To(Equal([2]string{"P", creator}), "%s: [\"P\", creator] must follow the labels", what)
	return got
}

// stateOf returns the current 39000, 39001 and 39002 of a channel (one
// query by #d), failing when any is missing.
func idStateOf(t *framework.T, c *fixtures.Client, ch string) map[int]*nostr.Event {
	GinkgoHelper()
	evs := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers, fixtures.KindRoles},
		Tags: nostr.TagMap{"d": {ch}}})
	out := map[int]*nostr.Event{}
	for _, ev := range evs {
		if cur := out[ev.Kind]; cur == nil || ev.CreatedAt > cur.CreatedAt {
			out[ev.Kind] = ev
		}
	}
	if out[fixtures.KindMetadata] == nil {
		framework.Failf("expected the channel's 39000 (for #d %s), got none", ch)
	}
	return out
}

// requireIdentityAll checks the identity block on 39000, 39001 and 39002
// (and notes a 39003's), requires one label order across them, and returns
// that order.
func requireIdentityAll(t *framework.T, c *fixtures.Client, ch, typ string, labels []string, creator string) []string {
	GinkgoHelper()
	st := idStateOf(t, c, ch)
	var order []string
	for i, k := range []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers} {
		if st[k] == nil {
			// NIP-29 makes 39001 and 39002 optional: the identity tags go on
			// those the relay publishes.
			t.Note("the relay publishes no kind %d for %s; its identity tags are not checked", k, ch)
			continue
		}
		got := requireIdentity(t, st[k], typ, labels, creator)
		if i == 0 {
			order = got.Labels
			continue
		}
		t.Expect(got.Labels).To(Equal(order), "kind %d lists the labels in another order than 39000 (stored order must be one order)", k)
	}
	if r := st[fixtures.KindRoles]; r != nil {
		seq := identitySeq(r)
		t.Note("39003 of %s is published; its t/P tags: %v", ch, seq)
		if len(seq) > 0 {
			t.Reading(clause.ReadingIdentityStateKinds, "39000-39003")
		} else {
			t.Reading(clause.ReadingIdentityStateKinds, "39000-39002")
		}
	}
	return order
}

// noteOrder records which label order a relay uses.
func idNoteOrder(t *framework.T, sent, got []string) {
	sorted := slices.Clone(sent)
	sort.Strings(sorted)
	switch {
	case slices.Equal(got, sent):
		t.Note("labels are listed in the order of the command's t tags")
		t.Reading(clause.ReadingIdentityLabelOrder, "command")
	case slices.Equal(got, sorted):
		t.Note("labels are listed sorted")
		t.Reading(clause.ReadingIdentityLabelOrder, "sorted")
	default:
		t.Note("labels are listed in another order: sent %v, got %v", sent, got)
	}
}

// labelsOf returns the labels of a state event (the t tags after the first
// up to P), or nil when it has no identity block.
func idLabelsOf(ev *nostr.Event) []string {
	seq := identitySeq(ev)
	if len(seq) == 0 || seq[0][0] != "t" {
		return nil
	}
	var out []string
	for _, p := range seq[1:] {
		if p[0] != "t" {
			break
		}
		out = append(out, p[1])
	}
	return out
}

// channelSet returns the distinct channel IDs (d tags) of state events, sorted.
func idChannelSet(evs []*nostr.Event) []string {
	var out []string
	for _, d := range framework.DTags(evs) {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

// sorted returns a sorted copy.
func idSorted(vals ...string) []string {
	out := slices.Clone(vals)
	sort.Strings(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// only keeps the values of vals that are in set.
func idOnly(vals, set []string) []string {
	out := []string{}
	for _, v := range vals {
		if slices.Contains(set, v) {
			out = append(out, v)
		}
	}
	return out
}

// channelOfEvent returns the channel an event belongs to (d of 39000-39003,
// else h).
func idChannelOf(ev *nostr.Event) string {
	if ev.Kind >= fixtures.KindMetadata && ev.Kind <= fixtures.KindRoles {
		return framework.TagOf(ev, "d")
	}
	return framework.TagOf(ev, "h")
}

// channelsOf returns the distinct channels of events, sorted.
func idChannelsOf(evs []*nostr.Event) []string {
	var out []string
	for _, ev := range evs {
		if id := idChannelOf(ev); id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	if out == nil {
		out = []string{}
	}
	return out
}
