package runner

import (
	"fmt"
	"strings"

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
		if (len(focus) == 0 || matchAny(c, focus)) && !matchAny(c, skip) &&
			(labels == nil || labels(framework.CaseLabels(c))) {
			return nil
		}
	}
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
	msg := "no case is selected by " + strings.Join(sel, " ") + ": the run would check nothing"
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
