package suites

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// The read-path matrix: each read rule (a profile's sentence about what a
// read returns) is read through many shapes of request, by several kinds of
// reader. One table row is one case: (rule, shape, viewer) with what the
// viewer must observe of the rule's target, and the clause the expectation
// rests on. A rule's fixture is built per case; a shape is a function of the
// fixture; adding a shape or a row is one line. Row numbers are the stable
// case IDs (<prefix>/reads/<n>): append, never renumber.

// Viewers: who reads.
const (
	viewAnon    = "anonymous"      // no AUTH
	viewMember  = "member"         // a member of the rule's channel
	viewOutside = "outsider"       // an authenticated key outside the channel
	viewRemoved = "removed-member" // a member removed by a 9001 before the read
)

// readWant is what a row expects the viewer to observe of the target.
type readWant bool

const (
	wantSeen     readWant = true  // every target the read can match is returned (or counted, or delivered)
	wantWithheld readWant = false // no target is returned, counted or delivered
)

// readRow is one matrix row, hence one case.
type readRow struct {
	id     string // case ID, written here in full: <rule prefix>/reads/<n>
	shape  string
	viewer string
	want   readWant
	// level and clause override the rule's defaults where the row rests on
	// another sentence (e.g. a SHOULD of NIP-45); section follows clause.
	level  Level
	clause string
}

// readFx is one built fixture of a rule, as one viewer reads it.
type readFx struct {
	owner, viewer *fixtures.Client
	// ch is the channel the rule withholds or serves; open a readable
	// control channel ("" when the row's shape does not read one); ev the
	// events the fixture made, by role.
	ch, open string
	ev       map[string]*nostr.Event
	// isTarget tells the rule's target events (the ones the row's want is
	// about) from everything else a read may return.
	isTarget func(*nostr.Event) bool
	// base are readable older matches a limited read must still return
	// when the targets are withheld (they must not hide behind targets).
	base []string
	// countBase and countTargets are what the rule's COUNT shapes count:
	// readable matches besides the targets, and the targets themselves.
	countBase, countTargets int64
	// live makes one more target and then one more readable control event
	// (in that order) while a live subscription is open; it returns the
	// control's id, which a withholding viewer waits for.
	live       func() (target *nostr.Event, control string)
	liveFilter nostr.Filter
	// t0 is a little before the fixture was built.
	t0 nostr.Timestamp
	// label is the rule's label or type value; relay the relay's key.
	label, relay string
}

// readObs is what one shape observed.
type readObs struct {
	events  []*nostr.Event
	counted *int64
	refused string // CLOSED reason when the relay refused the read
	// must are ids a withholding read still has to return: the older
	// readable match of a limit shape, or the readable control of a shape
	// that matches it (controlShape), so an empty answer never passes a
	// withheld row. limited marks the limit shapes.
	must    []string
	limited bool
	// exact marks an exact read: its heads per kind and d are counted.
	exact bool
}

// readShape is one way of asking.
type readShape struct {
	name string
	what string // the request, for the requirement line
	// reading is the interpretation the shape takes where the text leaves
	// a choice, for the case's Reading.
	reading string
	run     func(t *T, fx *readFx) readObs
}

// readRule is one rule of the matrix.
type readRule struct {
	name    string // short name, in the requirement line
	profile string
	section string // default section (of clause)
	level   Level
	clause  string                                   // default clause ID the rows rest on
	seenCl  string                                   // clause of wantSeen rows, when it differs
	rests   string                                   // the rule in our words
	build   func(t *T, viewer, shape string) *readFx // shape: what the row reads with
	shapes  []readShape
	rows    []readRow
}

// readsSpecs returns the matrix cases of the given rules, one per row.
func readsSpecs(rules ...readRule) []Spec {
	var out []Spec
	for _, rule := range rules {
		for _, row := range rule.rows {
			out = append(out, rule.spec(row))
		}
	}
	return out
}

func (rule readRule) shape(name string) readShape {
	for _, s := range rule.shapes {
		if s.name == name {
			return s
		}
	}
	panic("reads: rule " + rule.name + " has no shape " + name)
}

// rowClause is the clause ID a row rests on.
func (rule readRule) rowClause(row readRow) string {
	switch {
	case row.clause != "":
		return row.clause
	case row.want == wantSeen && rule.seenCl != "":
		return rule.seenCl
	}
	return rule.clause
}

func (rule readRule) caseID(row readRow) string {
	return row.id
}

func (rule readRule) spec(row readRow) Spec {
	shape := rule.shape(row.shape)
	cl := rule.rowClause(row)
	section := cl[:strings.LastIndex(cl, ".")]
	level := rule.level
	if row.level != "" {
		level = row.level
	}
	verb := "is withheld from"
	if row.want == wantSeen {
		verb = "reaches"
	}
	c := Case{ID: rule.caseID(row), Clauses: []string{cl}, Profile: rule.profile, Area: "reads", Section: section, Level: level,
		Requirement: fmt.Sprintf("read matrix [rule %s | shape %s | viewer %s]: %s; the target %s the %s (%s; rests on %s).",
			rule.name, shape.name, row.viewer, rule.rests, verb, row.viewer, shape.what, cl),
		Reading: shape.reading}
	c.Where = definedAt(rule.build) // the rule's table: the row is in it
	return Spec{Case: c, Run: func(t *T) { rule.run(t, row, shape, cl) }}
}

// run builds the fixture, reads it through the shape and judges the row.
func (rule readRule) run(t *T, row readRow, shape readShape, cl string) {
	fx := rule.build(t, row.viewer, row.shape)
	obs := shape.run(t, fx)
	who := fmt.Sprintf("%s (%s) as %s", rule.caseID(row), cl, row.viewer)
	if obs.refused != "" {
		checkPrefix("CLOSED", obs.refused)
		if row.want == wantWithheld && obs.limited && len(obs.must) > 0 {
			// A refusal withholds the target, but also the older readable
			// match the row is about: it shows nothing of the limit.
			if t.Case.Profile == ProfileBaseline || row.viewer == viewAnon {
				t.Blocked(PreReadServed, fmt.Sprintf("%s: %s refused with CLOSED %q, so whether withheld targets use up the limit cannot be seen", who, shape.what, obs.refused))
			}
			failf("%s: withheld targets must not use up the limit, and %s must return the older readable match %s to the %s, but the relay refused the read with CLOSED %q", who, shape.what, strings.Join(obs.must, ", "), row.viewer, obs.refused)
		}
		if row.want == wantSeen {
			if t.Case.Profile == ProfileBaseline {
				t.Blocked(PreReadServed, fmt.Sprintf("%s: %s refused with CLOSED %q", who, shape.what, obs.refused))
			}
			failf("%s: the %s must read the target by %s, but the relay refused with CLOSED %q", who, row.viewer, shape.what, obs.refused)
		}
		t.Note("%s: withheld by a refusal (CLOSED %q), not by an empty answer", who, obs.refused)
		return
	}
	if obs.counted != nil {
		want := fx.countBase
		if row.want == wantSeen {
			want += fx.countTargets
		}
		if *obs.counted != want {
			failf("%s: COUNT %s must count %d (%d readable besides the targets, targets %s), got %d",
				who, shape.what, want, fx.countBase, map[readWant]string{wantSeen: "counted", wantWithheld: "not counted"}[row.want], *obs.counted)
		}
		return
	}
	var targets []string
	for _, ev := range obs.events {
		if fx.isTarget(ev) {
			targets = append(targets, ev.ID)
		}
	}
	switch {
	case row.want == wantSeen && len(targets) == 0:
		failf("%s: the %s must read the target by %s; got %d event(s) and no target: %s", who, row.viewer, shape.what, len(obs.events), strings.Join(IDs(obs.events), ", "))
	case row.want == wantWithheld && len(targets) > 0:
		failf("%s: the %s must not get the target by %s; got %s", who, row.viewer, shape.what, strings.Join(targets, ", "))
	}
	if row.want == wantWithheld {
		got := IDs(obs.events)
		for _, id := range obs.must {
			if !slices.Contains(got, id) {
				if obs.limited {
					failf("%s: withheld targets must not use up the limit: %s must still return the older readable match %s; got %s", who, shape.what, id, strings.Join(got, ", "))
				}
				failf("%s: positive control: %s matches the readable control %s too, which the %s may read, but the answer lacks it (got %d event(s): %s); an answer without it shows nothing withheld", who, shape.what, id, row.viewer, len(got), strings.Join(got, ", "))
			}
		}
	}
	if obs.exact {
		byD := map[string]int{}
		for _, ev := range obs.events {
			if d, _ := fixtures.TagValue(ev, "d"); ev.Kind >= fixtures.KindMetadata && ev.Kind <= fixtures.KindRoles {
				byD[fmt.Sprintf("%d/%s", ev.Kind, d)]++
			}
		}
		for k, n := range byD {
			if n > 1 {
				if t.Case.Profile == ProfileLabels && strings.HasPrefix(k, fmt.Sprint(fixtures.KindMetadata)) {
					failf("labels draft (labels/finding-channels.6): only current snapshots are served, but %s returned %d heads of %s", shape.what, n, k)
				}
				t.Note("%s returned %d heads of %s (NIP-01 lets a relay keep older versions; NIP-29 asks for one: base/state/3)", shape.what, n, k)
			}
		}
	}
}

// --- shape builders ---------------------------------------------------------

// reqShape reads filters as a REQ.
func reqShape(name, what string, filters func(fx *readFx) []nostr.Filter) readShape {
	return readShape{name: name, what: what, run: func(t *T, fx *readFx) readObs {
		fs := filters(fx)
		t.filtersWithinLimits(fs)
		r := t.QueryResult(fx.viewer, fs...)
		if !r.Closed && resultMayBeCut(t.limitation(), fs, len(r.Events)) != "" {
			// An answer cut at a published limit shows neither presence
			// nor absence: one filter is read whole by paging back with
			// until; several are not observable.
			if len(fs) == 1 {
				r.Events = t.pageBack(fx.viewer, fs[0], r.Events)
			} else {
				t.resultWithinLimits(fs, len(r.Events))
			}
		}
		return readObs{events: r.Events, refused: closedReason(r)}
	}}
}

// limitShape is reqShape whose withholding answer must still hold fx.base.
func limitShape(name, what string, filters func(fx *readFx) []nostr.Filter) readShape {
	s := reqShape(name, what, filters)
	inner := s.run
	s.run = func(t *T, fx *readFx) readObs {
		o := inner(t, fx)
		o.must, o.limited = fx.base, true
		return o
	}
	return s
}

// controlShape is reqShape whose filters also match the fixture's readable
// control events (fx.base): a withholding answer must still hold them, so a
// withheld row has a positive control of its own.
func controlShape(name, what string, filters func(fx *readFx) []nostr.Filter) readShape {
	s := reqShape(name, what, filters)
	inner := s.run
	s.run = func(t *T, fx *readFx) readObs {
		o := inner(t, fx)
		o.must = fx.base
		return o
	}
	return s
}

// exactShape is reqShape that also counts heads per channel and kind.
func exactShape(name, what string, filters func(fx *readFx) []nostr.Filter) readShape {
	s := reqShape(name, what, filters)
	s.reading = exactReading
	inner := s.run
	s.run = func(t *T, fx *readFx) readObs {
		o := inner(t, fx)
		o.exact = true
		return o
	}
	return s
}

// countShape asks NIP-45 COUNT (optional: a relay without it makes the case
// unsupported, see T.Count).
func countShape(name, what string, filters func(fx *readFx) []nostr.Filter) readShape {
	return readShape{name: name, what: what, run: func(t *T, fx *readFx) readObs {
		n := t.Count(fx.viewer, filters(fx)...)
		return readObs{counted: &n}
	}}
}

// liveShape opens fx.liveFilter as a subscription, makes one more target
// and then a readable control event, and reports what was delivered: up to
// the target for a viewer who must see it, up to the control otherwise
// (the relay delivers events in the order it committed them).
//
// optional is true where the rule's text promises no live feed (the NIP-CL
// drafts' metadata): a relay that delivers neither event live makes the
// case unsupported; NIP-01's live delivery of stored kinds is not optional.
func liveShape(what string, optional bool) readShape {
	return readShape{name: "live", what: what, reading: liveReading, run: func(t *T, fx *readFx) readObs {
		sub := t.Subscribe(fx.viewer, fx.liveFilter)
		if closed, reason := sub.ClosedReason(); closed {
			return readObs{refused: reason}
		}
		target, control := fx.live()
		seen, err := sub.WaitFor(t.Ctx(), func(ev *nostr.Event) bool { return ev.ID == target.ID || ev.ID == control })
		if err == nil && seen[len(seen)-1].ID == target.ID {
			// The target came first; a withholding viewer must not get it.
			return readObs{events: seen}
		}
		if err != nil {
			if closed, reason := sub.ClosedReason(); closed {
				return readObs{refused: reason}
			}
			if optional && errors.Is(err, fixtures.ErrTimeout) {
				t.Unsupported(fmt.Sprintf("no live delivery: neither the target %s nor the readable control %s arrived on %s (the draft promises no live metadata feed)", target.ID, control, fx.liveFilter.String()))
			}
			t.Must(err, "live delivery of the readable control event "+control)
		}
		return readObs{events: append(seen, sub.Drain()...)}
	}}
}

// liveReading is the live shape's interpretation.
const liveReading = "A live absence is judged when a readable control event, committed after the target, arrives: the relay is taken to deliver one subscription's events in commit order. A subscription refused with CLOSED withholds as surely (noted)."

// exactReading is the exact-read shape's interpretation.
const exactReading = "NIP-01 lets a relay keep older versions of an addressable event and NIP-29 asks for one instance per group (SHOULD, checked by base/state/3); the labels draft makes relays select current snapshots, read here as covering exact #d reads of 39000 too (the heads are counted: several fail only there, and are noted elsewhere)."

func closedReason(r fixtures.QueryResult) string {
	if r.Closed {
		if r.ClosedReason == "" {
			return "(empty reason)"
		}
		return r.ClosedReason
	}
	return ""
}

func ts(v nostr.Timestamp) *nostr.Timestamp { return &v }

func one(f ...nostr.Filter) []nostr.Filter { return f }

// viewerClient opens the row's viewer: member (and removed-member, removed
// by a 9001 from the owner after the fixture is built, see removeViewer),
// a fresh outsider key, or an anonymous connection.
func viewerClient(t *T, viewer string, member *fixtures.Client) *fixtures.Client {
	switch viewer {
	case viewMember, viewRemoved:
		return member
	case viewOutside:
		return t.Connect(t.Actor("outsider"))
	}
	return t.Connect(nil)
}

// removeViewer removes the member from ch with a 9001 when the row's viewer
// is the removed member.
func removeViewer(t *T, viewer string, owner, member *fixtures.Client, ch string) {
	if viewer == viewRemoved {
		t.Accept(owner, fixtures.RemoveUser(owner.Actor(), ch, member.Actor().PubKey), "remove the member (9001) before the read")
	}
}
