package runner

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/suites"
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/onsi/ginkgo/v2/types"
)

// CheckSelection says when --focus, --skip and --label-filter together
// leave no case of the catalogue (whatever the profile): such a run would
// check nothing and must not claim conformance. The error names the
// selection and, for a --focus that is a prefix of existing case IDs
// without the trailing '/*', the form that selects them. nil when there
// is no selection or it leaves a case.
func CheckSelection(focus, skip []string, labelFilter string) error {
	if len(focus) == 0 && len(skip) == 0 && labelFilter == "" {
		return nil
	}
	var labels types.LabelFilter
	if labelFilter != "" {
		var err error
		if labels, err = types.ParseLabelFilter(labelFilter); err != nil {
			return fmt.Errorf("label filter %q: %w", labelFilter, err)
		}
	}
	cases := suites.Catalogue()
	for _, c := range cases {
		if selected(c, focus, skip, labels) {
			return nil
		}
	}
	msg := "no case is selected by " + selectionFlags(focus, skip, labelFilter) + ": the run would check nothing"
	for _, p := range focus {
		if strings.HasSuffix(p, "/") || strings.HasSuffix(p, "*") {
			continue
		}
		n := 0
		for _, c := range cases {
			if strings.HasPrefix(c.ID, p+"/") {
				n++
			}
		}
		if n > 0 {
			msg += fmt.Sprintf("; %d case IDs start with %q: pass --focus '%s/*' to run them", n, p, p)
		}
	}
	return fmt.Errorf("%s (nipcl-conform list shows the case IDs, areas and sections)", msg)
}

// CheckProfileSelection says when --focus, --skip and --label-filter
// select cases of the catalogue but none of the profiles the run checks
// (--profile identity --focus 'labels/*'): every plan would run no case
// and the run would report as if the relay conformed. The error names the
// selection, the profiles it was meant for and those whose cases it
// matched. profiles are the plans' profiles; an unknown one ("auto", not
// yet detected) or none at all is not judged, nor is an invalid label
// filter (CheckSelection's to refuse). nil when there is no selection or
// it leaves a case of one of the profiles.
func CheckProfileSelection(profiles []string, focus, skip []string, labelFilter string) error {
	if len(focus) == 0 && len(skip) == 0 && labelFilter == "" || len(profiles) == 0 {
		return nil
	}
	want := map[string]bool{framework.ProfileBaseline: true}
	var names []string
	for _, p := range profiles {
		p = clause.CanonicalProfile(p)
		if p == "" || p == clause.ProfileAuto {
			return nil
		}
		if !slices.Contains(names, p) {
			names = append(names, p)
		}
		want[p] = true
	}
	var labels types.LabelFilter
	if labelFilter != "" {
		var err error
		if labels, err = types.ParseLabelFilter(labelFilter); err != nil {
			return nil
		}
	}
	matched := map[string]int{} // profile → cases of it the selection matched
	for _, c := range suites.Catalogue() {
		if !selected(c, focus, skip, labels) {
			continue
		}
		if want[c.Profile] {
			return nil
		}
		matched[c.Profile]++
	}
	if len(matched) == 0 {
		return nil // no case at all: CheckSelection's to say
	}
	var others []string
	for _, p := range slices.Sorted(maps.Keys(matched)) {
		others = append(others, fmt.Sprintf("%d of the %s profile", matched[p], p))
	}
	noun := "profile"
	if len(names) > 1 {
		noun = "profiles"
	}
	return fmt.Errorf("no case of the %s %s is selected by %s: it matches cases of other profiles only (%s), so the run would check nothing; pass --profile %s to run them (nipcl-conform list shows each case's profile)",
		strings.Join(names, ", "), noun, selectionFlags(focus, skip, labelFilter), strings.Join(others, ", "), strings.Join(slices.Sorted(maps.Keys(matched)), ","))
}

// selected reports whether a case is in the --focus/--skip/--label-filter
// selection (labels nil: no label filter).
func selected(c framework.Case, focus, skip []string, labels types.LabelFilter) bool {
	return (len(focus) == 0 || matchAny(c, focus)) && !matchAny(c, skip) &&
		(labels == nil || labels(framework.CaseLabels(c)))
}

// selectionFlags spells a selection as the flags that made it.
func selectionFlags(focus, skip []string, labelFilter string) string {
	var sel []string
	for _, p := range focus {
		sel = append(sel, "--focus "+p)
	}
	for _, p := range skip {
		sel = append(sel, "--skip "+p)
	}
	if labelFilter != "" {
		sel = append(sel, fmt.Sprintf("--label-filter %q", labelFilter))
	}
	return strings.Join(sel, " ")
}
