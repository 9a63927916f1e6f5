package readmatrix

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
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
	ViewAnon    = "anonymous"      // no AUTH
	ViewMember  = "member"         // a member of the rule's channel
	ViewOutside = "outsider"       // an authenticated key outside the channel
	ViewRemoved = "removed-member" // a member removed by a 9001 before the read
)

// readWant is what a row expects the viewer to observe of the target.
type readWant bool

const (
	WantSeen     readWant = true  // every target the read can match is returned (or counted, or delivered)
	WantWithheld readWant = false // no target is returned, counted or delivered
)

// ReadRow is one matrix row, hence one case.
type ReadRow struct {
	Id     string // case ID, written here in full: <rule prefix>/reads/<n>
	Shape  string
	Viewer string
	Want   readWant
	// Level and clause override the rule's defaults where the row rests on
	// another sentence (e.g. a SHOULD of NIP-45); section follows clause.
	Level  framework.Level
	Clause string
}

// ReadFx is one built fixture of a rule, as one viewer reads it.
type ReadFx struct {
	Owner, Viewer *fixtures.Client
	// Ch is the channel the rule withholds or serves; open a readable
	// control channel ("" when the row's shape does not read one); ev the
	// events the fixture made, by role.
	Ch, Open string
	Ev       map[string]*nostr.Event
	// IsTarget tells the rule's target events (the ones the row's want is
	// about) from everything else a read may return.
	IsTarget func(*nostr.Event) bool
	// Base are readable older matches a limited read must still return
	// when the targets are withheld (they must not hide behind targets).
	Base []string
	// CountBase and countTargets are what the rule's COUNT shapes count:
	// readable matches besides the targets, and the targets themselves.
	CountBase, CountTargets int64
	// Live makes one more target and then one more readable control event
	// (in that order) while a live subscription is open; it returns the
	// control's id, which a withholding viewer waits for.
	Live       func() (target *nostr.Event, control string)
	LiveFilter nostr.Filter
	// T0 is a little before the fixture was built.
	T0 nostr.Timestamp
	// Label is the rule's label or type value; relay the relay's key.
	Label, Relay string
}

// readObs is what one shape observed.
type readObs struct {
	events  []*nostr.Event
	counted *int64
	refused string // CLOSED reason when the relay refused the read
	// must are ids a withholding read still has to return: the older
	// readable match of a limit shape, or the readable control of a shape
	// that matches it (ControlShape), so an empty answer never passes a
	// withheld row. limited marks the limit shapes.
	must    []string
	limited bool
	// exact marks an exact read: its heads per kind and d are counted.
	exact bool
	// order is the filters as asked when they are not in the shape's own
	// order; more are the observations of the shape's other orders
	// (Orders), each judged like the first.
	order string
	more  []readObs
	// countBase, when set, replaces fx.CountBase for a COUNT shape whose
	// filters match fewer readable events than the rule's (CountShapeBase).
	countBase *int64
	// control is what a separate control read returned (WithControl): the
	// ids must is checked against besides events; controlWhat is that read.
	control     []string
	controlWhat string
}

// ReadShape is one way of asking.
type ReadShape struct {
	name string
	what string // the request, for the requirement line
	// reading is the interpretation the shape takes where the text leaves
	// a choice, for the case's Reading.
	reading string
	run     func(t *framework.T, fx *ReadFx) readObs
}

// ReadRule is one rule of the matrix.
type ReadRule struct {
	Name string // short name, in the requirement line
	// Refusal is what a refused read means for the rule's rows (their
	// Case.Refusal): NIP-29 obliges a relay to serve none of the reads a
	// row sets up with (blocks), a NIP-CL draft requires them (fails).
	Refusal framework.Refusal
	Level   framework.Level
	Clause  string                                             // default clause ID the rows rest on
	SeenCl  string                                             // clause of WantSeen rows, when it differs
	Rests   string                                             // the rule in our words
	Build   func(t *framework.T, viewer, shape string) *ReadFx // shape: what the row reads with
	Shapes  []ReadShape
	Rows    []ReadRow
	// LevelReadings, by the clause ID a row rests on, say at which level
	// a sentence without a keyword is judged and why ("Level: …"); it
	// goes before the shape's reading in the case's Reading.
	LevelReadings map[string]string
}

// ReadsSpecs returns the matrix cases of the given rules, one per row.
// The rows are written in the call, in the file of their section: each
// case's Where is the line of the call.
func ReadsSpecs(rules ...ReadRule) []framework.Spec {
	where := framework.CallerAt()
	var out []framework.Spec
	for _, rule := range rules {
		for _, row := range rule.Rows {
			s := rule.spec(row)
			s.Where = where
			out = append(out, s)
		}
	}
	return out
}

func (rule ReadRule) shape(name string) ReadShape {
	for _, s := range rule.Shapes {
		if s.name == name {
			return s
		}
	}
	panic("reads: rule " + rule.Name + " has no shape " + name)
}

// rowClause is the clause ID a row rests on.
func (rule ReadRule) rowClause(row ReadRow) string {
	switch {
	case row.Clause != "":
		return row.Clause
	case row.Want == WantSeen && rule.SeenCl != "":
		return rule.SeenCl
	}
	return rule.Clause
}

func (rule ReadRule) caseID(row ReadRow) string {
	return row.Id
}

func (rule ReadRule) spec(row ReadRow) framework.Spec {
	shape := rule.shape(row.Shape)
	cl := rule.rowClause(row)
	level := rule.Level
	if row.Level != "" {
		level = row.Level
	}
	verb := "is withheld from"
	if row.Want == WantSeen {
		verb = "reaches"
	}
	c := framework.NewCase(rule.caseID(row), level,
		fmt.Sprintf("read matrix [rule %s | shape %s | viewer %s]: %s; the target %s the %s (%s; rests on %s).",
			rule.Name, shape.name, row.Viewer, rule.Rests, verb, row.Viewer, shape.what, cl),
		cl)
	c.Reading = shape.reading
	if lr := rule.LevelReadings[cl]; lr != "" {
		c.Reading = strings.TrimSpace(lr + " " + shape.reading)
	}
	c.Refusal = rule.Refusal
	return framework.Spec{Case: c, Run: func(t *framework.T) { rule.run(t, row, shape, cl) }}
}

// run builds the fixture, reads it through the shape and judges the row.
func (rule ReadRule) run(t *framework.T, row ReadRow, shape ReadShape, cl string) {
	fx := rule.Build(t, row.Viewer, row.Shape)
	obs := shape.run(t, fx)
	for _, o := range append([]readObs{obs}, obs.more...) {
		rule.judge(t, fx, row, shape, cl, o)
	}
}

// judge judges one observation of a row: the read in one order.
func (rule ReadRule) judge(t *framework.T, fx *ReadFx, row ReadRow, shape ReadShape, cl string, obs readObs) {
	who := fmt.Sprintf("%s (%s) as %s", rule.caseID(row), cl, row.Viewer)
	if obs.order != "" {
		who += ", asked in the order " + obs.order
	}
	if obs.refused != "" {
		framework.CheckPrefix("CLOSED", obs.refused)
		if row.Want == WantWithheld && obs.limited && len(obs.must) > 0 {
			// A refusal withholds the target, but also the older readable
			// match the row is about: it shows nothing of the limit.
			if t.Case.RefusalBlocks() || row.Viewer == ViewAnon {
				t.Blocked(framework.PreReadServed, fmt.Sprintf("%s: %s refused with CLOSED %q, so whether withheld targets use up the limit cannot be seen", who, shape.what, obs.refused))
			}
			framework.Failf("%s: withheld targets must not use up the limit, and %s must return the older readable match %s to the %s, but the relay refused the read with CLOSED %q", who, shape.what, strings.Join(obs.must, ", "), row.Viewer, obs.refused)
		}
		if row.Want == WantSeen {
			if t.Case.RefusalBlocks() {
				t.Blocked(framework.PreReadServed, fmt.Sprintf("%s: %s refused with CLOSED %q", who, shape.what, obs.refused))
			}
			framework.Failf("%s: the %s must read the target by %s, but the relay refused with CLOSED %q", who, row.Viewer, shape.what, obs.refused)
		}
		t.Note("%s: withheld by a refusal (CLOSED %q), not by an empty answer", who, obs.refused)
		return
	}
	if obs.counted != nil {
		want := fx.CountBase
		if obs.countBase != nil {
			want = *obs.countBase
		}
		if row.Want == WantSeen {
			want += fx.CountTargets
		}
		if *obs.counted != want {
			base := fx.CountBase
			if obs.countBase != nil {
				base = *obs.countBase
			}
			framework.Failf("%s: COUNT %s must count %d (%d readable besides the targets, targets %s), got %d",
				who, shape.what, want, base, map[readWant]string{WantSeen: "counted", WantWithheld: "not counted"}[row.Want], *obs.counted)
		}
		return
	}
	var targets []string
	for _, ev := range obs.events {
		if fx.IsTarget(ev) {
			targets = append(targets, ev.ID)
		}
	}
	if row.Want == WantSeen && len(targets) == 0 && unauthenticatedMember(fx) {
		t.Blocked(framework.PreAuth, fmt.Sprintf("%s: %s returned no target to the member, whose connection never authenticated: the relay sent no NIP-42 challenge, on connect or to the harness's probe event, so it could not know the reader is a member", who, shape.what))
	}
	switch {
	case row.Want == WantSeen && len(targets) == 0:
		framework.Failf("%s: the %s must read the target by %s; got %d event(s) and no target: %s", who, row.Viewer, shape.what, len(obs.events), strings.Join(framework.IDs(obs.events), ", "))
	case row.Want == WantWithheld && len(targets) > 0:
		framework.Failf("%s: the %s must not get the target by %s; got %s", who, row.Viewer, shape.what, strings.Join(targets, ", "))
	}
	if row.Want == WantWithheld {
		got := append(framework.IDs(obs.events), obs.control...)
		for _, id := range obs.must {
			if !slices.Contains(got, id) {
				if obs.controlWhat != "" {
					framework.Failf("%s: positive control: %s, read beside %s by the same %s, must return the readable control %s, but the answer lacks it (got %s); without it the empty answer shows nothing withheld", who, obs.controlWhat, shape.what, row.Viewer, id, strings.Join(obs.control, ", "))
				}
				if obs.limited {
					framework.Failf("%s: withheld targets must not use up the limit: %s must still return the older readable match %s; got %s", who, shape.what, id, strings.Join(got, ", "))
				}
				framework.Failf("%s: positive control: %s matches the readable control %s too, which the %s may read, but the answer lacks it (got %d event(s): %s); an answer without it shows nothing withheld", who, shape.what, id, row.Viewer, len(got), strings.Join(got, ", "))
			}
		}
	}
	if obs.exact {
		type head struct {
			kind int
			d    string
		}
		heads := map[head]int{}
		for _, ev := range obs.events {
			if d, _ := fixtures.TagValue(ev, "d"); ev.Kind >= fixtures.KindMetadata && ev.Kind <= fixtures.KindRoles {
				heads[head{ev.Kind, d}]++
			}
		}
		for h, n := range heads {
			if n > 1 {
				t.JudgeHeads(h.kind, n, fmt.Sprintf("%s (#d %s)", shape.what, h.d))
			}
		}
	}
}

// --- shape builders ---------------------------------------------------------

// ReqShape reads filters as a REQ, in each of their Orders.
func ReqShape(name, what string, filters func(fx *ReadFx) []nostr.Filter) ReadShape {
	return ReadShape{name: name, what: what, run: func(t *framework.T, fx *ReadFx) readObs {
		var obs readObs
		for i, fs := range Orders(filters(fx)) {
			o := reqOnce(t, fx, fs)
			if i == 0 {
				obs = o
				continue
			}
			o.order = framework.FilterString(fs)
			obs.more = append(obs.more, o)
		}
		return obs
	}}
}

// reqOnce reads fs as one REQ.
func reqOnce(t *framework.T, fx *ReadFx, fs []nostr.Filter) readObs {
	t.FiltersWithinLimits(fs)
	r := t.QueryResult(fx.Viewer, fs...)
	// An answer cut at a limit shows neither presence nor absence: one
	// filter is read whole by paging back with until (PageBack: where a
	// limit is published and reached, or wherever no default_limit is
	// published, a limit the relay may keep without saying); several
	// are not observable past a published limit.
	switch {
	case r.Closed:
	case len(fs) == 1:
		r.Events = t.PageBack(fx.Viewer, fs[0], r.Events)
	case framework.ResultMayBeCut(t.Limitation(), fs, len(r.Events)) != "":
		t.ResultWithinLimits(fs, len(r.Events))
	}
	return readObs{events: r.Events, refused: closedReason(r)}
}

// eachOrder sets what mark sets on o and on each of its other orders.
func eachOrder(o readObs, mark func(*readObs)) readObs {
	mark(&o)
	for i := range o.more {
		mark(&o.more[i])
	}
	return o
}

// LimitShape is ReqShape whose withholding answer must still hold fx.Base.
func LimitShape(name, what string, filters func(fx *ReadFx) []nostr.Filter) ReadShape {
	s := ReqShape(name, what, filters)
	inner := s.run
	s.run = func(t *framework.T, fx *ReadFx) readObs {
		return eachOrder(inner(t, fx), func(o *readObs) { o.must, o.limited = fx.Base, true })
	}
	return s
}

// ControlShape is ReqShape whose filters also match the fixture's readable
// control events (fx.base): a withholding answer must still hold them, so a
// withheld row has a positive control of its own.
func ControlShape(name, what string, filters func(fx *ReadFx) []nostr.Filter) ReadShape {
	s := ReqShape(name, what, filters)
	inner := s.run
	s.run = func(t *framework.T, fx *ReadFx) readObs {
		return eachOrder(inner(t, fx), func(o *readObs) { o.must = fx.Base })
	}
	return s
}

// WithControl gives a shape whose own filters cannot match the fixture's
// readable control events (an exact #d read, an ids read of the target) a
// positive control of its own: after the shape's read, the viewer reads
// control's filters on the same connection, and a withholding row must
// find fx.Base there, so an empty answer never passes a withheld row of a
// relay that serves the viewer nothing. what is the control read.
func WithControl(s ReadShape, what string, control func(fx *ReadFx) []nostr.Filter) ReadShape {
	inner := s.run
	s.run = func(t *framework.T, fx *ReadFx) readObs {
		o := inner(t, fx)
		if len(fx.Base) == 0 || o.counted != nil {
			return o
		}
		// Read as the row's own read is: an answer cut at a limit is paged
		// back, so a control past the cut is not taken as missing.
		c := reqOnce(t, fx, control(fx))
		got := framework.IDs(c.events)
		if c.refused != "" {
			got = nil
		}
		return eachOrder(o, func(o *readObs) { o.must, o.control, o.controlWhat = fx.Base, got, what })
	}
	return s
}

// ExactShape is ReqShape that also counts heads per channel and kind.
func ExactShape(name, what string, filters func(fx *ReadFx) []nostr.Filter) ReadShape {
	s := ReqShape(name, what, filters)
	s.reading = exactReading
	inner := s.run
	s.run = func(t *framework.T, fx *ReadFx) readObs {
		return eachOrder(inner(t, fx), func(o *readObs) { o.exact = true })
	}
	return s
}

// CountShape asks NIP-45 COUNT (optional: a relay without it makes the case
// unsupported, see T.Count).
func CountShape(name, what string, filters func(fx *ReadFx) []nostr.Filter) ReadShape {
	return ReadShape{name: name, what: what, run: func(t *framework.T, fx *ReadFx) readObs {
		n := t.Count(fx.Viewer, filters(fx)...)
		return readObs{counted: &n}
	}}
}

// CountShapeBase is CountShape for filters that match base readable
// events besides the targets, not the rule's CountBase (a COUNT that must
// be 0 to a withholding viewer has base 0).
func CountShapeBase(name, what string, base int64, filters func(fx *ReadFx) []nostr.Filter) ReadShape {
	s := CountShape(name, what, filters)
	inner := s.run
	s.run = func(t *framework.T, fx *ReadFx) readObs {
		o := inner(t, fx)
		o.countBase = &base
		return o
	}
	return s
}

// LiveShape opens fx.LiveFilter as a subscription, makes one more target
// and then a readable control event, and reports what was delivered: up to
// the target for a viewer who must see it, up to the control otherwise
// (the relay delivers events in the order it committed them).
//
// optional is true where the rule's text promises no live feed (the NIP-CL
// drafts' metadata): a relay that delivers neither event live makes the
// case unsupported; NIP-01's live delivery of stored kinds is not optional.
func LiveShape(what string, optional bool) ReadShape {
	return ReadShape{name: "live", what: what, reading: liveReading, run: func(t *framework.T, fx *ReadFx) readObs {
		sub := t.Subscribe(fx.Viewer, fx.LiveFilter)
		if closed, reason := sub.ClosedReason(); closed {
			return readObs{refused: reason}
		}
		target, control := fx.Live()
		pick := func(ev *nostr.Event) bool { return ev.ID == target.ID || ev.ID == control }
		var seen []*nostr.Event
		var err error
		if optional {
			// Absence by barrier (issue 36): a stored read finds the
			// readable control, then a settle window, not the step timeout.
			w := t.AwaitLive(fx.Viewer, sub, pick, nostr.Filter{IDs: []string{control}})
			if !w.Live && w.Stored != "" {
				t.Unsupported(fmt.Sprintf("no live delivery: neither the target %s nor the readable control %s arrived on %s (%s; the draft promises no live metadata feed)", target.ID, control, fx.LiveFilter.String(), w.Why))
			}
			seen, err = w.Seen, w.Err
		} else {
			seen, err = sub.WaitFor(t.Ctx(), pick)
		}
		if err == nil && seen[len(seen)-1].ID == target.ID {
			// The target came first; a withholding viewer must not get it.
			return readObs{events: seen}
		}
		if err != nil {
			if closed, reason := sub.ClosedReason(); closed {
				return readObs{refused: reason}
			}
			if optional && errors.Is(err, fixtures.ErrTimeout) {
				t.Unsupported(fmt.Sprintf("no live delivery: neither the target %s nor the readable control %s arrived on %s (the draft promises no live metadata feed)", target.ID, control, fx.LiveFilter.String()))
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

func Ts(v nostr.Timestamp) *nostr.Timestamp { return &v }

func One(f ...nostr.Filter) []nostr.Filter { return f }

// ViewerClient opens the row's viewer: member (and removed-member, removed
// by a 9001 from the owner after the fixture is built, see RemoveViewer),
// a fresh outsider key, or an anonymous connection.
func ViewerClient(t *framework.T, viewer string, member *fixtures.Client) *fixtures.Client {
	switch viewer {
	case ViewMember, ViewRemoved:
		return member
	case ViewOutside:
		return t.Connect(t.Actor("outsider"))
	}
	return t.Connect(nil)
}

// MemberKind is the kind of key the rule's member needs for a row's
// viewer: a removed member then reads as an outsider, so it needs a key
// without moderation power over groups it does not administer; a member
// who reads as a member, or who is not the row's viewer, needs only an
// admitted key (which a relay where every key moderates still gives, so
// those rows run there).
func MemberKind(viewer string) framework.ActorKind {
	if viewer == ViewRemoved {
		return framework.KindUnprivileged
	}
	return framework.KindAny
}

// RemoveViewer removes the member from ch with a 9001 when the row's viewer
// is the removed member.
func RemoveViewer(t *framework.T, viewer string, owner, member *fixtures.Client, ch string) {
	if viewer == ViewRemoved {
		t.Accept(owner, fixtures.RemoveUser(owner.Actor(), ch, member.Actor().PubKey), "remove the member (9001) before the read")
	}
}

// RelayKey is the key relay-signed state carries.
func (fx *ReadFx) RelayKey() string { return fx.Relay }

// unauthenticatedMember reports whether the row's viewer, a key the case
// put in the group, never authenticated because the relay never sent a
// challenge (a relay that gates no write on AUTH and challenges only on
// demand accepts the harness's probe event without one): such a relay
// serves it the anonymous view, and what members read is not observed.
func unauthenticatedMember(fx *ReadFx) bool {
	v := fx.Viewer
	return v != nil && v.Actor() != nil && v.Unidentified()
}
