package labels

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// Specs returns the labels-profile cases (nip-cl-labels.md): one builder per
// section file, named by it (<section>.go holds <section>Specs).
func Specs() []framework.Spec {
	specs := slices.Concat(
		addRemoveSpecs(),
		applicationSpecs(),
		authorizationSpecs(),
		capabilitySpecs(),
		communitySpecs(),
		eventsSpecs(),
		findingChannelsSpecs(),
		initialLabelsSpecs(),
		nip01FiltersSpecs(),
		responsesSpecs(),
		retentionSpecs(),
		retryAdmissionSpecs(),
		scopeSpecs(),
		serializationSpecs(),
		snapshotSpecs(),
		valuesAndLimitsSpecs(),
	)
	for i := range specs {
		specs[i].Case.CurrentHead = &currentSnapshot
	}
	return specs
}

// currentSnapshot is the draft's rule that a read serves only a channel's
// current 39000 snapshot (labels/finding-channels.6): every labels case
// fails on more heads (framework.T.JudgeHeads).
var currentSnapshot = framework.HeadRule{Kind: fixtures.KindMetadata, Clause: "labels/finding-channels.6",
	Says: "only the current snapshot is served"}

// NewGroupID mints the group id of a bare 9007 under the labels profile:
// the draft requires a UUID for every h-tagged creation (suites.Define
// sets it as Env.GroupID).
func NewGroupID() string { return fixtures.NewChannelID() }

// Fixed strings of nip-cl-labels.md.
const (
	labelNS        = "nip-cl"
	markRejected   = "nip-cl-rejected"
	markCommitted  = "duplicate: nip-cl-committed"
	markUnknown    = "error: nip-cl-unknown"
	maxLabels      = 32
	maxRawTags     = 64
	maxLabelLength = 64
)

var labelGrammar = regexp.MustCompile(`^[a-z0-9][a-z0-9._:/-]*$`)

// lbl returns a run-unique label value (matches the label grammar): the
// prefix, the run ID, the process's instance and a sequence number.
func lbl(t *framework.T, prefix string) string {
	return t.Env.UniqueToken(prefix)
}

// labelTags returns ["label", v] tags.
func labelTags(vals ...string) nostr.Tags {
	out := make(nostr.Tags, 0, len(vals))
	for _, v := range vals {
		out = append(out, nostr.Tag{"label", v})
	}
	return out
}

// labelOps returns add-label then remove-label tags.
func labelOps(add, remove []string) []nostr.Tag {
	var out []nostr.Tag
	for _, v := range add {
		out = append(out, nostr.Tag{"add-label", v})
	}
	for _, v := range remove {
		out = append(out, nostr.Tag{"remove-label", v})
	}
	return out
}

// mutationEv builds a label-only 9002.
func mutationEv(a *fixtures.Actor, ch string, add, remove []string) *nostr.Event {
	return fixtures.EditChannel(a, ch, labelOps(add, remove)...)
}

// mutationAt builds a label-only 9002 signed at the given time, so a case
// can send several commands with the same tags as distinct events (from
// one base time, never from separate clock readings).
func mutationAt(a *fixtures.Actor, ch string, add, remove []string, at time.Time) *nostr.Event {
	return a.EventAt(at, fixtures.KindEditMetadata, append(nostr.Tags{{"h", ch}}, labelOps(add, remove)...), "")
}

// createEv builds a signed 9007 (stream when typ is empty) with labels.
func createEv(a *fixtures.Actor, typ, vis string, labels ...string) (*nostr.Event, string) {
	if typ == "" {
		typ = fixtures.TypeStream
	}
	spec := &fixtures.ChannelSpec{Type: typ, Visibility: vis, Name: "labels " + typ, Extra: labelTags(labels...)}
	ev := fixtures.CreateChannel(a, spec)
	return ev, spec.ID
}

// createLabeled creates a channel with labels as c's actor and requires the
// exact new-application answer OK true "".
func createLabeled(t *framework.T, c *fixtures.Client, typ, vis string, labels ...string) string {
	GinkgoHelper()
	ev, id := createEv(c.Actor(), typ, vis, labels...)
	acceptNew(t, c, ev, "labeled create")
	return id
}

// acceptNew requires OK true with the empty message (new committed application).
func acceptNew(t *framework.T, c *fixtures.Client, ev *nostr.Event, why string) {
	GinkgoHelper()
	ok := t.Publish(c, ev)
	if ok.Accepted && ok.Reason != "" {
		// Applied, answered otherwise: the answer's own sentence.
		defer t.Invariant("labels/responses.8")()
	}
	if !ok.Accepted || ok.Reason != "" {
		framework.Failf(`%s: expected ["OK",…,true,""] (new committed application), got %s`, why, ok)
	}
}

// acceptCommitted requires OK true "duplicate: nip-cl-committed".
func acceptCommitted(t *framework.T, c *fixtures.Client, ev *nostr.Event, why string) {
	GinkgoHelper()
	ok := t.Publish(c, ev)
	if ok.Accepted && !hasFixedPrefix(ok.Reason, markCommitted) {
		// Admitted, answered otherwise: the answer's own sentence.
		defer t.Invariant("labels/responses.9")()
	}
	if !ok.Accepted || !hasFixedPrefix(ok.Reason, markCommitted) {
		framework.Failf(`%s: expected ["OK",…,true,"duplicate: nip-cl-committed"] (exact retry of a committed command), got %s`, why, ok)
	}
}

// hasFixedPrefix: the message is the fixed prefix, optionally followed by a
// space and human-readable detail.
func hasFixedPrefix(reason, prefix string) bool {
	return reason == prefix || strings.HasPrefix(reason, prefix+" ")
}

// rejectCL publishes ev and requires OK false with "<p>: nip-cl-rejected"
// for one of the given NIP-01 prefixes; it returns the answer.
func rejectCL(t *framework.T, c *fixtures.Client, ev *nostr.Event, why string, prefixes ...string) fixtures.OK {
	GinkgoHelper()
	ok := t.Publish(c, ev)
	requireRejected(t, ok, why, prefixes...)
	return ok
}

// requireRejected requires OK false with "<p>: nip-cl-rejected" for one of
// prefixes. An acceptance fails the case's own step; a refusal in other
// words breaks the responses sentence that fixes the words (t.Invariant):
// the fixed outcomes (labels/responses.1) when the marker is missing, the
// prefix the refusal's kind takes otherwise.
func requireRejected(t *framework.T, ok fixtures.OK, why string, prefixes ...string) {
	GinkgoHelper()
	if ok.Accepted {
		framework.Failf("%s: expected a rejection (%s), got %s", why, rejectWant(prefixes), ok)
	}
	for _, p := range prefixes {
		if hasFixedPrefix(ok.Reason, p+": "+markRejected) {
			return
		}
	}
	defer t.Invariant(rejectionClause(ok.Reason, prefixes))()
	framework.Failf("%s: expected the message to start with %s, got %s", why, rejectWant(prefixes), ok)
}

// rejectionClause is the responses sentence a refusal in the wrong words
// breaks: labels/responses.1 without the nip-cl-rejected marker, else the
// sentence of the prefix expected (invalid: responses.10, restricted:
// responses.12, duplicate: responses.13), else responses.6 (exact prefixes).
func rejectionClause(reason string, prefixes []string) string {
	if !strings.Contains(reason, markRejected) || len(prefixes) != 1 {
		return "labels/responses.1"
	}
	switch prefixes[0] {
	case "invalid":
		return "labels/responses.10"
	case "restricted":
		return "labels/responses.12"
	case "duplicate":
		return "labels/responses.13"
	}
	return "labels/responses.6"
}

func rejectWant(prefixes []string) string {
	var w []string
	for _, p := range prefixes {
		w = append(w, fmt.Sprintf("%q", p+": "+markRejected))
	}
	return strings.Join(w, " or ")
}

// prefixOf returns the NIP-01 prefix of a rejection ("invalid", …).
func prefixOf(reason string) string {
	p, _, _ := strings.Cut(reason, ":")
	return p
}

// labelsOf returns the l values of a snapshot, in tag order.
func labelsOf(ev *nostr.Event) []string {
	var out []string
	for _, tag := range ev.Tags {
		if len(tag) >= 2 && tag[0] == "l" {
			out = append(out, tag[1])
		}
	}
	return out
}

// checkCanonical fails unless ev is a relay-signed 39000 in the draft's
// canonical label form: exactly one two-element d; exactly one two-element
// t (the channel type); with labels, exactly one ["L","nip-cl"] and one
// ["l", v, "nip-cl"] per value, valid values, deduplicated and sorted by
// ASCII value, at most 32; without labels, neither L nor l; no legacy label
// tags.
func checkCanonical(t *framework.T, ev *nostr.Event) {
	GinkgoHelper()
	// Each check holds a snapshot sentence whatever the case cites: a
	// failure here breaks it (t.Invariant), not the case's own clause.
	defer t.Invariant("labels/snapshot.1")()
	t.Expect(ev.Kind).To(Equal(fixtures.KindMetadata), "snapshot kind")
	t.RequireRelaySigned(ev)
	var ds, ts, ls, lvals []string
	for _, tag := range ev.Tags {
		switch tag[0] {
		case "d":
			t.Invariant("labels/snapshot.10")
			t.Expect(tag).To(HaveLen(2), "snapshot %s: the d tag has exactly two elements: %v", ev.ID, tag)
			ds = append(ds, tag[1])
		case "t":
			t.Invariant("labels/snapshot.8")
			t.Expect(tag).To(HaveLen(2), "snapshot %s: the t tag has exactly two elements: %v", ev.ID, tag)
			ts = append(ts, tag[1])
		case "L":
			t.Invariant("labels/snapshot.6")
			t.Expect(tag).To(Equal(nostr.Tag{"L", labelNS}), "snapshot %s: the only L tag is [\"L\",\"nip-cl\"]", ev.ID)
			ls = append(ls, tag[1])
		case "l":
			t.Invariant("labels/snapshot.3")
			t.Expect(tag).To(HaveLen(3), "snapshot %s: an l tag is [\"l\", <value>, \"nip-cl\"]: %v", ev.ID, tag)
			t.Invariant("labels/snapshot.6")
			t.Expect(tag[2]).To(Equal(labelNS), "snapshot %s: l tags are marked with the nip-cl namespace: %v", ev.ID, tag)
			t.Invariant("labels/values-and-limits.1")
			t.Expect(labelGrammar.MatchString(tag[1]) && len(tag[1]) <= maxLabelLength).To(BeTrue(),
				"snapshot %s: l value %q is a canonical label", ev.ID, tag[1])
			lvals = append(lvals, tag[1])
		case "label", "add-label", "remove-label":
			t.Invariant("labels/snapshot.6")
			Fail(fmt.Sprintf("snapshot %s carries a command/legacy label tag %v", ev.ID, tag))
		}
	}
	t.Invariant("labels/snapshot.10")
	t.Expect(ds).To(HaveLen(1), "snapshot %s: exactly one d tag", ev.ID)
	t.Invariant("labels/snapshot.8")
	t.Expect(ts).To(HaveLen(1), "snapshot %s: exactly one t tag (the channel type; t never carries labels), got %v", ev.ID, ts)
	if len(lvals) == 0 {
		t.Invariant("labels/snapshot.5")
		t.Expect(ls).To(BeEmpty(), "snapshot %s: an empty label set has no L tag", ev.ID)
		return
	}
	t.Invariant("labels/snapshot.2")
	t.Expect(ls).To(HaveLen(1), "snapshot %s: a labeled snapshot has exactly one L tag", ev.ID)
	t.Invariant("labels/values-and-limits.5")
	t.Expect(len(lvals)).To(BeNumerically("<=", maxLabels), "snapshot %s: at most %d labels", ev.ID, maxLabels)
	t.Invariant("labels/snapshot.4")
	for i := 1; i < len(lvals); i++ {
		t.Expect(lvals[i-1] < lvals[i]).To(BeTrue(),
			"snapshot %s: l tags are deduplicated and sorted by ASCII value, got %q before %q (all: %v)", ev.ID, lvals[i-1], lvals[i], lvals)
	}
}

// snapshot returns the channel's current 39000 as c reads it (checked for
// canonical form), or fails when there is none.
func snapshot(t *framework.T, c *fixtures.Client, ch string) *nostr.Event {
	GinkgoHelper()
	ev := t.MustStateEvent(c, fixtures.KindMetadata, ch)
	checkCanonical(t, ev)
	return ev
}

// expectLabels requires the channel's current label set to be exactly want.
func expectLabels(t *framework.T, c *fixtures.Client, ch string, want ...string) *nostr.Event {
	GinkgoHelper()
	ev := snapshot(t, c, ch)
	w := slices.Clone(want)
	sort.Strings(w)
	w = slices.Compact(w)
	got := labelsOf(ev)
	if len(w) == 0 {
		t.Expect(got).To(BeEmpty(), "channel %s: expected no labels", ch)
	} else {
		t.Expect(got).To(Equal(w), "channel %s: current label set", ch)
	}
	return ev
}

// expectUnchanged requires the current snapshot to be exactly before (same
// id, hence same created_at and tags): nothing was published.
func expectUnchanged(t *framework.T, c *fixtures.Client, ch string, before *nostr.Event, why string) {
	GinkgoHelper()
	cur := snapshot(t, c, ch)
	t.Expect(cur.ID).To(Equal(before.ID), "%s: the snapshot must stay the same event (created_at %d→%d)", why, before.CreatedAt, cur.CreatedAt)
}

// typeOf returns the snapshot's t value.
func typeOf(ev *nostr.Event) string { v, _ := fixtures.TagValue(ev, "t"); return v }

// findL queries 39000 snapshots by #L nip-cl and #l (plus extra tag filters).
func findL(t *framework.T, c *fixtures.Client, labels []string, extra nostr.TagMap, limit int) []*nostr.Event {
	GinkgoHelper()
	tm := nostr.TagMap{"L": {labelNS}, "l": labels}
	for k, v := range extra {
		tm[k] = v
	}
	evs := t.Query(c, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: tm, Limit: limit})
	for _, ev := range evs {
		checkCanonical(t, ev)
	}
	return evs
}

// owned returns an owner connection and, for each role, a connection of a
// fresh actor put into the channel with that role.
func withRoles(t *framework.T, owner *fixtures.Client, ch string, roles ...string) []*fixtures.Client {
	GinkgoHelper()
	var out []*fixtures.Client
	for _, role := range roles {
		// The labels cases give a plain member a role to see its label
		// mutations refused, or remove it to see what it no longer reads:
		// both rest on the key's lack of power.
		kind := framework.ActorKindOf(role)
		if role == "member" {
			kind = framework.KindUnprivileged
		}
		c := t.Connect(t.ActorAs(kind, role))
		t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, c.Actor().PubKey, t.PutRoles(owner, ch, role)...), "put user as "+role)
		out = append(out, c)
	}
	return out
}

// parallelCreate creates n channels over a few connections at once (for
// distractors), each from mk(i); it returns their UUIDs.
func parallelCreate(t *framework.T, n int, mk func(a *fixtures.Actor, i int) (*nostr.Event, string)) []string {
	GinkgoHelper()
	const workers = 4
	ids := make([]string, n)
	conns := make([]*fixtures.Client, workers)
	for w := range conns {
		conns[w] = t.Connect(t.Actor(fmt.Sprintf("distractor%d", w)))
	}
	var mu sync.Mutex
	var errs []string
	t.Go(workers, func(w int) {
		for i := w; i < n; i += workers {
			ev, id := mk(conns[w].Actor(), i)
			ok, err := t.Send(conns[w], ev)
			mu.Lock()
			switch {
			case err != nil:
				errs = append(errs, err.Error())
			case !ok.Accepted:
				errs = append(errs, ok.String())
			default:
				ids[i] = id
			}
			mu.Unlock()
			if err != nil {
				return
			}
		}
	})
	t.Expect(errs).To(BeEmpty(), "distractor creates")
	return ids
}
