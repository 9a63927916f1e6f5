package reference

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/clause"
)

// FaultName names a fault switch, as passed in Config.Faults. Every switch
// is a typed constant in the fault table of its profile
// (faults_nip29.go, faults_identity.go, faults_labels.go); the relay
// consults it only through r.fault or faults.on, which take a FaultName.
type FaultName string

// faultSpec is one row of a fault table. The table the row is in gives
// its profile; the clause gives its section (Faults); where the relay
// consults the switch is read from the code (FaultSites).
type faultSpec struct {
	Name   FaultName
	Clause string // clause ID whose sentence Breaks contradicts
	Breaks string // what the relay does wrong while the fault is on
	// install, when set, makes the fault a hook set like a Variant's: it
	// appends to the relay's hook slices (hooks, variants.go) and the
	// conforming code never names the fault. Without it the fault is a
	// point check (r.fault).
	install func(r *Relay)
}

// faultTables are the fault tables, one per profile ("" = every profile).
var faultTables = []struct {
	profile string
	faults  []faultSpec
}{
	{"", nip29Faults},
	{"identity", identityFaults},
	{"labels", labelsFaults},
}

// Fault is one switch that makes the reference relay break exactly one
// clause on purpose. The kill test runs the suite against the relay with
// one fault on and expects a case citing Clause to fail.
type Fault struct {
	Name    string // switch name, as passed in Config.Faults
	Profile string // "" = any profile; otherwise the only profile it applies to
	Section string // clause.Section ID the fault breaks: its clause's section
	Breaks  string // what the relay does wrong while the fault is on
	Clause  string // clause ID the fault breaks
}

// Faults returns the catalogue of every fault switch, sorted by name.
func Faults() []Fault {
	var out []Fault
	for _, tb := range faultTables {
		for _, f := range tb.faults {
			out = append(out, Fault{Name: string(f.Name), Profile: tb.profile, Section: faultSection(f.Clause), Breaks: f.Breaks, Clause: f.Clause})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// faultSection is the section of a fault's clause ("" for an unknown
// clause, which TestFaultClauses reports).
func faultSection(clauseID string) string {
	c, _ := clause.LookupClause(clauseID)
	return c.Section
}

// lookupFault finds a switch by name in the tables: its row and profile.
func lookupFault(name string) (spec faultSpec, profile string, ok bool) {
	for _, tb := range faultTables {
		for _, f := range tb.faults {
			if string(f.Name) == name {
				return f, tb.profile, true
			}
		}
	}
	return faultSpec{}, "", false
}

func faultNames() []string {
	var names []string
	for _, f := range Faults() {
		names = append(names, f.Name)
	}
	return names
}

// parseFaults validates the requested switches against the catalogue and the
// chosen profile.
func parseFaults(names []string, profile string) (faultSet, error) {
	set := make(faultSet, len(names))
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		f, p, ok := lookupFault(n)
		if !ok {
			return nil, fmt.Errorf("reference: unknown fault %q (valid: %s)", n, strings.Join(faultNames(), ", "))
		}
		if p != "" && p != profile {
			return nil, fmt.Errorf("reference: fault %q applies only to profile %q, not %q", n, p, profile)
		}
		set[f.Name] = true
	}
	return set, nil
}

// faultState is the relay's state that only fault switches use, kept
// apart from Relay's own fields.
type faultState struct {
	// nip11First is the community first served a NIP-11 document
	// (identity-nip11-host-no-extension, labels-nip11-host-no-extension).
	nip11Mu    sync.Mutex
	nip11First string

	stale   liveLabels  // labels-live-stale-labels: each channel's last live labels
	removal removalFeed // labels-live-removal-feed: each 39000's predecessor labels

	subMu       sync.Mutex // live-foreign-subid: the subscription last opened on the relay
	lastSubConn *conn
	lastSubID   string
}

// readFaults is what only fault switches keep about one read.
type readFaults struct {
	// named collects channels that earlier filters of the same request
	// named (identity-naming-leaks-across-filters).
	named map[string]bool
	// optedIn is set once a filter of the request opted in to system
	// channels (identity-opt-in-spans-request).
	optedIn bool
	// skipAccess leaves the read-access rule out of a stored read
	// (reads-later-filters-skip-access).
	skipAccess bool
	// raw leaves the access rule and the profile's read rule out of a
	// COUNT (labels-limit-read-refused, identity-limit-read-refused).
	raw bool
}

// faultSet is the set of fault switches that are on; profiles keep it so
// their own faults sit at the place of the behaviour they break.
type faultSet map[FaultName]bool

// on reports whether the named switch is on.
func (f faultSet) on(name FaultName) bool { return f[name] }

// fault reports whether the named switch is on. Most faults are hook sets:
// the row's install func appends to the relay's general hook slices
// (hooks.go, faulthooks.go), as a Variant's does, and the conforming code
// never names them. fault is the point check a fault keeps only where its
// deviation sits inside an algorithm that no general hook slice can express
// without copying the algorithm:
//   - where a check sits in the order of admission (signature, group id
//     form, previous, closed/invite/deleted-group refusals, NIP-42's
//     AUTH verification), so that an earlier hook would change which
//     refusal a faulty event gets;
//   - the steps of a write transaction (what is stored, deleted, rolled
//     back or emitted between two statements: ok-*, same-second-*,
//     join/leave/delete-event/moderation effects, state regeneration
//     rules, NIP-09 deletions, replaceable-event ties, tag indexing, the
//     labels draft's serialisation faults);
//   - the SQL plan of a read (where a LIMIT, the access rule or a tag
//     match goes: limit-before-*, count-*, filter-last-filter-only,
//     reads-later-filters-skip-access, limit-across-filters);
//   - the parsers and validators of labels and metadata (the identity and
//     labels drafts' label rules, NIP-29 metadata fields and flags) and
//     the subgroup tree's rules;
//   - the identity draft's read scope (opt-in, naming, notices).
func (r *Relay) fault(name FaultName) bool {
	return r.faults[name]
}

// dropSubOthers ends the subscription subID on every connection but c
// (fault sub-ids-shared: the relay keys subscriptions by id alone).
func (r *Relay) dropSubOthers(c *conn, subID string) {
	r.connMu.Lock()
	others := make([]*conn, 0, len(r.conns))
	for o := range r.conns {
		if o != c {
			others = append(others, o)
		}
	}
	r.connMu.Unlock()
	for _, o := range others {
		o.mu.Lock()
		delete(o.subs, subID)
		delete(o.subSeq, subID)
		o.mu.Unlock()
	}
}

// dropsTag reports whether next lacks a tag (name and value) of the state
// event whose tags are prevJSON: something was cleared, removed or
// changed (fault state-stale-on-removal). The d tag and the relay's own
// markers of a cleared flag (public, open) are not counted: setting a flag
// drops those, and it is not a removal.
func dropsTag(prevJSON string, next nostr.Tags) bool {
	var prev nostr.Tags
	if err := json.Unmarshal([]byte(prevJSON), &prev); err != nil {
		return false
	}
	have := map[string]bool{}
	for _, tag := range next {
		have[tagKey(tag)] = true
	}
	for _, tag := range prev {
		if len(tag) == 0 || tag[0] == "d" || tag[0] == flagPrivate.clear || tag[0] == flagClosed.clear {
			continue
		}
		if !have[tagKey(tag)] {
			return true
		}
	}
	return false
}

// tagKey is a tag's name and value.
func tagKey(tag nostr.Tag) string {
	if len(tag) < 2 {
		return strings.Join(tag, "\x00")
	}
	return tag[0] + "\x00" + tag[1]
}

// nip11Secondary reports whether community is not the first community
// the relay served a NIP-11 document to (faults *-nip11-host-no-extension).
func (s *faultState) nip11Secondary(community string) bool {
	s.nip11Mu.Lock()
	defer s.nip11Mu.Unlock()
	if s.nip11First == "" {
		s.nip11First = community
	}
	return community != s.nip11First
}
