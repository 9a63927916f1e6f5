package reports

import (
	"fmt"
	"html"
	"io"
	"regexp"
	"slices"
	"strings"
)

// MustTally counts the MUST cases a badge and `report verify` cite: passed
// is the MUST cases that passed, applicable the MUST cases that apply to
// the target — every outcome but skipped (not run: slow, heavy or filtered),
// unsupported (an optional feature the relay does not offer) and not-run
// (the harness stopped before the case ran to its end). Failed,
// timed-out, blocked and harness-error cases count against passed; a
// --baseline does not change the tally.
func MustTally(cases []CaseResult) (passed, applicable int) {
	for _, c := range cases {
		if c.Level != "MUST" || c.Outcome == Skipped || c.Outcome == Unsupported || c.Outcome == NotRun {
			continue
		}
		applicable++
		if c.Outcome == Pass {
			passed++
		}
	}
	return passed, applicable
}

// pseudoVersion matches a Go pseudo-version (an untagged commit).
var pseudoVersion = regexp.MustCompile(`^v\d+\.\d+\.\d+-(?:[0-9A-Za-z.]+\.)?(?:0\.)?\d{14}-([0-9a-f]{12})(\+dirty)?$`)

// ShortVersion is a harness version for tight spaces: a release tag as is,
// "devel-<commit>" for a pseudo-version or a "(devel)" build with a known
// commit, "devel" otherwise; "+dirty" when built with uncommitted changes.
func ShortVersion(version, commit string, modified bool) string {
	v := strings.TrimSuffix(version, "+dirty")
	dirty := modified || strings.HasSuffix(version, "+dirty")
	switch m := pseudoVersion.FindStringSubmatch(version); {
	case m != nil:
		v = "devel-" + m[1][:7]
	case v == "" || v == "(devel)":
		v = "devel"
		if len(commit) >= 7 && commit != "unknown" {
			v += "-" + commit[:7]
		}
	}
	if dirty {
		v += "+dirty"
	}
	return v
}

// Badge is what badge.svg says.
type Badge struct {
	Label, Message, Color string
}

// Badge colours (shields.io's flat palette).
const (
	badgeGreen = "#4c1"
	badgeRed   = "#e05d44"
	badgeAmber = "#dfb317"
	badgeGrey  = "#9f9f9f"
)

// BadgeOf computes the badge of a run: "nipcl-conform <version>" and
// "<profiles> <passed>/<applicable> MUST" (MustTally), green when every
// applicable MUST case passed, red when one failed or timed out, amber when
// none did but some were blocked, grey after a setup or harness error or
// for a run the harness stopped early ("(incomplete)").
func BadgeOf(r *Results) Badge {
	label := "nipcl-conform"
	if r.Version != "" {
		label += " " + ShortVersion(r.Version, r.Commit, r.Modified)
	}
	var profiles []string
	for _, p := range r.Plans {
		if p.Profile != "" && !slices.Contains(profiles, p.Profile) {
			profiles = append(profiles, p.Profile)
		}
	}
	passed, applicable := MustTally(r.Cases)
	msg := fmt.Sprintf("%d/%d MUST", passed, applicable)
	if len(profiles) > 0 {
		msg = strings.Join(profiles, "+") + " " + msg
	}
	color := badgeGreen
	failed, blocked, broken := false, false, false
	for _, p := range r.Plans {
		broken = broken || p.SetupError != ""
	}
	for _, c := range r.Cases {
		switch {
		case c.Outcome == HarnessError:
			broken = true
		case c.Level == "MUST" && (c.Outcome == Fail || c.Outcome == Timeout):
			failed = true
		case c.Level == "MUST" && c.Outcome == Blocked:
			blocked = true
		}
	}
	switch {
	case broken:
		color, msg = badgeGrey, msg+" (error)"
	case r.Incomplete():
		color, msg = badgeGrey, msg+" (incomplete)"
	case failed:
		color = badgeRed
	case blocked:
		color = badgeAmber
	case applicable == 0:
		color = badgeGrey
	}
	return Badge{Label: label, Message: msg, Color: color}
}

// textWidth estimates the width in pixels of s in 11px Verdana.
func textWidth(s string) int {
	w := 0.0
	for _, r := range s {
		switch {
		case strings.ContainsRune("ijl.,:;|!'", r):
			w += 3.8
		case strings.ContainsRune("ftrI()[]-/ ", r):
			w += 4.9
		case strings.ContainsRune("mwMW", r):
			w += 10.7
		case r == '+':
			w += 9.2
		case r >= 'A' && r <= 'Z':
			w += 7.8
		case r >= '0' && r <= '9':
			w += 7
		default:
			w += 6.8
		}
	}
	return int(w + 0.5)
}

// WriteBadge renders the run's badge (BadgeOf) as a self-contained SVG in
// the flat shields.io style.
func WriteBadge(w io.Writer, r *Results) error {
	b := BadgeOf(r)
	lt, mt := textWidth(b.Label), textWidth(b.Message)
	lw, mw := lt+10, mt+10
	total := lw + mw
	label, msg := html.EscapeString(b.Label), html.EscapeString(b.Message)
	_, err := fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%[1]d" height="20" role="img" aria-label="%[2]s: %[3]s">
<title>%[2]s: %[3]s</title>
<linearGradient id="s" x2="0" y2="100%%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="%[1]d" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="%[4]d" height="20" fill="#555"/><rect x="%[4]d" width="%[5]d" height="20" fill="%[6]s"/><rect width="%[1]d" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="11">
<text x="%[7]d" y="15" fill="#010101" fill-opacity=".3" textLength="%[8]d">%[2]s</text><text x="%[7]d" y="14" textLength="%[8]d">%[2]s</text>
<text x="%[9]d" y="15" fill="#010101" fill-opacity=".3" textLength="%[10]d">%[3]s</text><text x="%[9]d" y="14" textLength="%[10]d">%[3]s</text>
</g>
</svg>
`, total, label, msg, lw, mw, b.Color, lw/2, lt, lw+mw/2, mt)
	return err
}
