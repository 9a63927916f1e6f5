package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/clientmode"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/suites"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

func cmdFaults(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("faults", "faults [--where]", stderr)
	where := fs.Bool("where", false, "list only the fault switches, each with the places of the reference relay's code that consult it (file:line and function)")
	if code, done := parse(fs, args); done {
		return code
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	if *where {
		sites, err := reference.FaultSites()
		if err != nil {
			fmt.Fprintf(stderr, "nipcl-conform faults: reading the relay's code: %v\n", err)
			return 2
		}
		fmt.Fprintln(tw, "FAULT\tPROFILE\tCLAUSE\tCONSULTED AT")
		for _, f := range reference.Faults() {
			p := f.Profile
			if p == "" {
				p = "any"
			}
			ss := sites[f.Name]
			if len(ss) == 0 {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Name, p, f.Clause, "nowhere")
			}
			for i, s := range ss {
				if i == 0 {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s (%s)\n", f.Name, p, f.Clause, s.Pos, siteFunc(s))
				} else {
					fmt.Fprintf(tw, "\t\t\t%s (%s)\n", s.Pos, siteFunc(s))
				}
			}
		}
		return flushCode(tw, stderr)
	}
	fmt.Fprintln(tw, "FAULT\tPROFILE\tCLAUSE\tBREAKS")
	for _, f := range reference.Faults() {
		p := f.Profile
		if p == "" {
			p = "any"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Name, p, f.Clause, f.Breaks)
	}
	// Policies are configurations real relays run that break no NIP
	// sentence: a conformant relay passes under each (run/serve --policy).
	fmt.Fprintln(tw, "\nPOLICY\tPROFILE\tSECTION\tREPRODUCES (no NIP sentence broken; run/serve --policy NAME)")
	for _, p := range reference.Policies() {
		fmt.Fprintf(tw, "%s\tany\t-\t%s\n", p.Name, p.Describes)
	}
	// Variants: every freedom the NIP texts give a relay, as a switch of
	// the reference relay (policies and readings included); a conformant
	// relay passes under every combination (serve/run --variant, --lawful).
	fmt.Fprintln(tw, "\nVARIANT\tKIND\tDIMENSION\tDOES (lawful; serve/run --variant NAME, --lawful SEED draws a combination)")
	for _, v := range reference.Variants() {
		if v.Kind == "reading" {
			continue // listed by `list --readings`
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", v.Name, v.Kind, v.Dimension, v.Describes)
	}
	return flushCode(tw, stderr)
}

func cmdList(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("list", "list [--profile P] [--clauses | --readings]", stderr)
	profile := fs.String("profile", "", "only cases of this profile (nip29, identity, labels; baseline cases are NIP-29's and always listed); with --clauses only that profile's clauses (nip29 or baseline, identity, labels)")
	clauses := fs.Bool("clauses", false, "list the spec clauses (normative statements) and the cases that cover them instead of the cases")
	readings := fs.Bool("readings", false, "list the points the specs leave open, their careful readings (the default first) and the cases that note them, instead of the cases")
	if code, done := parse(fs, args); done {
		return code
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	if *clauses && *readings {
		return usageError(stderr, "--clauses and --readings are exclusive")
	}
	if *clauses {
		return listClauses(tw, *profile, stderr)
	}
	if *readings {
		return listReadings(tw, *profile, stderr)
	}
	if *profile != "" {
		p, err := framework.ParseProfile(*profile)
		if err != nil {
			return usageError(stderr, "--profile: %v", err)
		}
		*profile = p
	}
	fmt.Fprintln(tw, "ID\tLEVEL\tSOURCE\tSECTION\tREQUIREMENT")
	for _, c := range suites.Catalogue() {
		if *profile != "" && c.Profile != "" && c.Profile != *profile {
			continue
		}
		source, _, _ := suites.CaseSource(c.ID)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.ID, c.Level, source, c.Section, c.Requirement)
	}
	// Client-mode cases (nipcl-conform client) cite the client clauses of
	// NIP-29 (profile nip29) and of the drafts.
	for _, k := range clientmode.Selected("") {
		if *profile != "" && k.Profile != *profile {
			continue
		}
		section, source := k.Clause, clause.SourceDraft
		if cl, ok := clause.LookupClause(k.Clause); ok {
			section, source = cl.Section, cl.Source
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.ID, k.Level, source, section, k.Requirement)
	}
	return flushCode(tw, stderr)
}

func cmdExplain(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("explain", "explain ID", stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		return usageError(stderr, "explain takes one case, clause or section ID")
	}
	id := fs.Arg(0)
	if c, ok := suites.Lookup(id); ok {
		s, _ := clause.Lookup(c.Section)
		profile := c.Profile
		if profile == "" {
			profile = "baseline (every profile)"
		}
		fmt.Fprintf(stdout, "%s\n  requirement: %s\n  level:       %s\n  profile:     %s\n  area:        %s\n  section:     %s — %s, %q\n",
			c.ID, c.Requirement, c.Level, profile, c.Area, c.Section, s.Doc, s.Title)
		if c.Where != "" {
			fmt.Fprintf(stdout, "  defined at:  %s\n", c.Where)
		}
		if c.Reading != "" {
			fmt.Fprintf(stdout, "  reading:     %s\n", c.Reading)
		}
		for _, rd := range clause.Readings() {
			if slices.Contains(rd.Cases, c.ID) {
				fmt.Fprintf(stdout, "  notes:       reading %s (%s), as \"reading: %s=<value>\"\n", rd.ID, strings.Join(rd.ValueNames(), " | "), rd.ID)
			}
		}
		if source, ref, cl := suites.CaseSource(c.ID); len(cl) > 0 {
			fmt.Fprintf(stdout, "  source:      %s — %s\n", source, ref)
			fmt.Fprintf(stdout, "  clauses:     %s\n", strings.Join(cl, ", "))
		}
		if source, _, _ := suites.CaseSource(c.ID); source == clause.SourceContract {
			fmt.Fprintf(stdout, "  note:        a harness precondition, required by no NIP: a relay that does not meet it is reported blocked (incompatible), never failed\n")
		}
		return 0
	}
	if k, ok := clientmode.Lookup(id); ok {
		cl, _ := clause.LookupClause(k.Clause)
		fmt.Fprintf(stdout, "%s\n  requirement: %s\n  level:       %s\n  profile:     %s (client mode: nipcl-conform client --profile %s)\n  clause:      %s — %s\n  source:      %s — %s\n",
			k.ID, k.Requirement, k.Level, k.Profile, k.Profile, k.Clause, cl.Text, cl.Source, cl.Ref)
		return 0
	}
	if cl, ok := clause.LookupClause(id); ok {
		explainClause(stdout, cl)
		return 0
	}
	if rd, ok := clause.LookupReading(id); ok {
		explainReading(stdout, rd)
		return 0
	}
	if s, ok := clause.Lookup(id); ok {
		fmt.Fprintf(stdout, "%s — %s, %q\n", s.ID, s.Doc, s.Title)
		if cls := clause.SectionClauses(id); len(cls) > 0 {
			fmt.Fprintf(stdout, "  clauses:\n")
			for _, cl := range cls {
				fmt.Fprintf(stdout, "    %-30s %-10s %-6s %s [%s]\n", cl.ID, cl.Level, cl.Subject, cl.Text, clauseStatus(cl))
			}
		}
		fmt.Fprintf(stdout, "  cases:\n")
		for _, c := range suites.Catalogue() {
			if c.Section == id {
				fmt.Fprintf(stdout, "    %-24s %-6s %s\n", c.ID, c.Level, c.Requirement)
			}
		}
		for _, f := range reference.Faults() {
			if f.Section == id {
				fmt.Fprintf(stdout, "  fault %s: %s\n", f.Name, f.Breaks)
			}
		}
		for _, rd := range clause.Readings() {
			if rd.Section == id {
				fmt.Fprintf(stdout, "  reading %s: %s\n", rd.ID, strings.Join(rd.ValueNames(), " | "))
			}
		}
		return 0
	}
	fmt.Fprintf(stderr, "nipcl-conform explain: no case or section %q, nor a clause or reading by that ID (see `nipcl-conform list [--clauses | --readings]`)\n", id)
	return 2
}

// listReadings prints the readings catalogue, optionally those that apply
// to one profile (nip29, identity, labels).
func listReadings(tw *tabwriter.Writer, profile string, stderr io.Writer) int {
	if profile != "" {
		p, err := framework.ParseProfile(profile)
		if err != nil {
			return usageError(stderr, "--profile: %v", err)
		}
		profile = p
	}
	fmt.Fprintln(tw, "READING\tPROFILE\tSECTION\tVALUES (DEFAULT FIRST)\tCASES")
	for _, rd := range clause.Readings() {
		if profile != "" && !rd.AppliesTo(profile) {
			continue
		}
		p := rd.Profile
		if p == "" {
			p = "any"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", rd.ID, p, rd.Section, strings.Join(rd.ValueNames(), " | "), strings.Join(rd.Cases, ","))
	}
	return flushCode(tw, stderr)
}

// explainReading prints one reading: the open sentence, its values and the
// cases that note which one a target took.
func explainReading(w io.Writer, rd clause.Reading) {
	s, _ := clause.Lookup(rd.Section)
	p := rd.Profile
	if p == "" {
		p = "any (NIP-29, every profile)"
	}
	fmt.Fprintf(w, "%s\n  open point:  %s\n  source:      %s\n  section:     %s — %s, %q\n  profile:     %s\n  values:\n",
		rd.ID, rd.Open, rd.Ref, s.ID, s.Doc, s.Title, p)
	for i, v := range rd.Values {
		def := ""
		if i == 0 {
			def = " (default)"
		}
		fmt.Fprintf(w, "    %-12s %s%s\n", v.Name, v.Meaning, def)
	}
	fmt.Fprintf(w, "  cases:       %s (each notes \"reading: %s=<value>\")\n", strings.Join(rd.Cases, ", "), rd.ID)
	fmt.Fprintf(w, "  reference:   serve --reading %s=VALUE, or run --reading %s=VALUE (built-in relay)\n", rd.ID, rd.ID)
}

// listClauses prints the clause catalogue, optionally one profile's
// ("baseline" for the NIP-01/11/29/42/45 clauses).
func listClauses(tw *tabwriter.Writer, profile string, stderr io.Writer) int {
	switch profile {
	case "", framework.ProfileIdentity, framework.ProfileLabels, "baseline":
	case framework.ProfileNIP29, "none":
		profile = "baseline"
	default:
		return usageError(stderr, "--profile with --clauses must be nip29 (or baseline), identity or labels, not %q", profile)
	}
	fmt.Fprintln(tw, "ID\tLEVEL\tSOURCE\tSUBJECT\tTESTABLE\tCASES\tSTATEMENT\tREF")
	for _, c := range clause.Clauses() {
		p := c.Profile()
		if p == "" {
			p = "baseline"
		}
		if profile != "" && p != profile {
			continue
		}
		testable, cases := "yes", strings.Join(suites.ClauseCases(c.ID), ",")
		switch {
		case c.Subject == clause.SubjectClient && len(clientCases(c.ID)) > 0:
			testable, cases = "client mode", strings.Join(clientCases(c.ID), ",")
		case !c.Testable:
			testable, cases = "no", "not testable: "+c.Reason
		case cases == "":
			cases = "(none yet)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.ID, c.Level, c.Source, c.Subject, testable, cases, c.Text, c.Ref)
	}
	return flushCode(tw, stderr)
}

// explainClause prints one clause, its section and its cases (or why it
// has none).
func explainClause(w io.Writer, c clause.Clause) {
	s, _ := clause.Lookup(c.Section)
	fmt.Fprintf(w, "%s\n  statement:   %s\n  level:       %s\n  source:      %s — %s\n  subject:     %s\n  section:     %s — %s, %q\n",
		c.ID, c.Text, c.Level, c.Source, c.Ref, c.Subject, s.ID, s.Doc, s.Title)
	if cc := clientCases(c.ID); c.Subject == clause.SubjectClient && len(cc) > 0 {
		fmt.Fprintf(w, "  testable:    in client mode (nipcl-conform client)\n  cases:\n")
		for _, id := range cc {
			k, _ := clientmode.Lookup(id)
			fmt.Fprintf(w, "    %-36s %-6s %s\n", k.ID, k.Level, k.Requirement)
		}
		return
	}
	if !c.Testable {
		fmt.Fprintf(w, "  testable:    no — %s\n", c.Reason)
		return
	}
	ids := suites.ClauseCases(c.ID)
	if len(ids) == 0 {
		fmt.Fprintf(w, "  testable:    yes\n  cases:       none yet\n")
	} else {
		fmt.Fprintf(w, "  testable:    yes\n  cases:\n")
	}
	for _, id := range ids {
		if cs, ok := suites.Lookup(id); ok {
			fmt.Fprintf(w, "    %-24s %-6s %s\n", cs.ID, cs.Level, cs.Requirement)
		} else {
			fmt.Fprintf(w, "    %s\n", id)
		}
	}
	explainClauseFaults(w, c.ID)
}

// explainClauseFaults lists the reference relay's fault switches that
// break a clause, each with the places of the relay's code that consult
// it: where to look, or where to add one (CONTRIBUTING, Add a fault).
func explainClauseFaults(w io.Writer, clauseID string) {
	var faults []reference.Fault
	for _, f := range reference.Faults() {
		if f.Clause == clauseID {
			faults = append(faults, f)
		}
	}
	if len(faults) == 0 {
		fmt.Fprintf(w, "  faults:      none (no switch of the reference relay breaks it yet)\n")
		return
	}
	sites, err := reference.FaultSites()
	fmt.Fprintf(w, "  faults:      (watch one caught: nipcl-conform run [--profile P] --fault NAME)\n")
	for _, f := range faults {
		p := f.Profile
		if p == "" {
			p = "any"
		}
		fmt.Fprintf(w, "    %s (profile %s): %s\n", f.Name, p, f.Breaks)
		if err != nil {
			fmt.Fprintf(w, "      consulted at: unknown (%v)\n", err)
			continue
		}
		for _, s := range sites[f.Name] {
			verb := "consulted"
			if s.Hook != "" {
				verb = "installed"
			}
			fmt.Fprintf(w, "      %s at %s (%s)\n", verb, s.Pos, siteFunc(s))
		}
	}
}

// siteFunc names the function of a fault site; for a fault installed as a
// hook set, with the hook slice (or relay state) its install func sets.
func siteFunc(s reference.FaultSite) string {
	if s.Hook == "" {
		return s.Func
	}
	return s.Func + " -> " + s.Hook
}

// clauseStatus is the one-word coverage state of a clause.
func clauseStatus(c clause.Clause) string {
	switch {
	case !c.Testable:
		return "not testable"
	case len(suites.ClauseCases(c.ID)) == 0:
		return "no case yet"
	}
	return strings.Join(suites.ClauseCases(c.ID), ", ")
}

func flushCode(tw *tabwriter.Writer, stderr io.Writer) int {
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(stderr, "nipcl-conform: %v\n", err)
		return 1
	}
	return 0
}

// clientCases lists the client-mode cases that cite a client clause.
func clientCases(clauseID string) []string {
	var out []string
	for _, k := range clientmode.Selected("") {
		if k.Clause == clauseID {
			out = append(out, k.ID)
		}
	}
	return out
}
