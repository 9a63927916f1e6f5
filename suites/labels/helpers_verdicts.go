package labels

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// Verdict helpers of the labels profile: each accepts exactly the answers
// the draft allows for the situation and reports which one it saw.

// readingAdmission is the reading of every case whose refusal may be decided
// before command-specific handling.
const readingAdmission = "The draft lets a failure decided before command handling (authentication admission, and by the same token the shared timestamp check) use an ordinary NIP-01 refusal or close the connection instead of a nip-cl-rejected answer. Both forms are accepted and noted; an acceptance, a nip-cl-rejected marker behind a prefix other than the cause's, a refusal without a NIP-01 prefix or no answer at all fails."

// admissionRefusal sends ev on c and requires a refusal of one of the
// forms the draft allows when the failure may be decided at admission:
//   - OK false with "<p>: nip-cl-rejected", p one of cl (the prefix the
//     draft fixes for the cause inside command handling);
//   - OK false with an ordinary NIP-01 prefix and no NIP-CL marker, the
//     prefix one of plain (any NIP-01 prefix when plain is empty);
//   - the relay closing the connection.
//
// It returns the form seen, for the report.
func admissionRefusal(t *framework.T, c *fixtures.Client, ev *nostr.Event, why string, cl, plain []string) string {
	GinkgoHelper()
	ok, err := t.Send(c, ev)
	if err != nil {
		if !errors.Is(err, fixtures.ErrTimeout) && c.Err() != nil {
			return "the relay closed the connection (" + c.Err().Error() + ")"
		}
		t.Must(err, why)
	}
	if ok.Accepted {
		framework.Failf("%s: expected a refusal, got %s", why, ok)
	}
	t.TimelineRefused(c, ev, ok)
	framework.CheckPrefix("OK", ok.Reason)
	p := prefixOf(ok.Reason)
	rest := strings.TrimSpace(strings.TrimPrefix(ok.Reason, p+":"))
	switch {
	case strings.Contains(ok.Reason, markRejected):
		if !slices.Contains(cl, p) || !hasFixedPrefix(ok.Reason, p+": "+markRejected) {
			framework.Failf("%s: a nip-cl-rejected answer must read %s for this cause, got %s", why, rejectWant(cl), ok)
		}
		return fmt.Sprintf("NIP-CL answer %q", p+": "+markRejected)
	case strings.Contains(ok.Reason, "nip-cl-"):
		framework.Failf("%s: expected %s or an ordinary NIP-01 refusal, got another NIP-CL marker: %s", why, rejectWant(cl), ok)
	case len(plain) > 0 && !slices.Contains(plain, p):
		framework.Failf("%s: an ordinary NIP-01 refusal for this cause starts with %s, got %s", why, strings.Join(quoteAll(plain, ":"), " or "), ok)
	}
	return fmt.Sprintf("ordinary NIP-01 refusal %q (no NIP-CL marker: %q)", p+":", rest)
}

// writesNeedAuth probes whether the relay refuses an ordinary write (a kind
// 9 message in the open channel ch, signed by a) sent on c, a connection
// that is not authenticated as a. Gating writes on NIP-42 is a convention
// of the target contract, not a draft rule: the labels draft only keeps
// the relay's existing authentication requirements for label commands. It
// returns whether the write was refused, and the answer seen.
func writesNeedAuth(t *framework.T, c *fixtures.Client, a *fixtures.Actor, ch string) (bool, string) {
	GinkgoHelper()
	ok, err := t.Send(c, fixtures.Message(a, ch, t.Unique("auth-probe")))
	if err != nil {
		if !errors.Is(err, fixtures.ErrTimeout) && c.Err() != nil {
			return true, "the relay closed the connection"
		}
		t.Must(err, "probe: an ordinary message without authentication")
	}
	if !ok.Accepted {
		framework.CheckPrefix("OK", ok.Reason)
	}
	return !ok.Accepted, ok.String()
}

func quoteAll(vals []string, suffix string) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = fmt.Sprintf("%q", v+suffix)
	}
	return out
}

// goneChannel requires that c reads no 39000-39003 of ch (a channel that
// was never created, or was deleted). Nothing obliges a relay to serve a
// read of a channel that does not exist, so a CLOSED refusal withholds as
// surely as an empty answer; the form is noted.
func goneChannel(t *framework.T, c *fixtures.Client, ch, why string) {
	GinkgoHelper()
	how := t.QueryAbsent(c, why, nostr.Filter{Kinds: []int{fixtures.KindMetadata, fixtures.KindAdmins, fixtures.KindMembers, fixtures.KindRoles},
		Tags: nostr.TagMap{"d": {ch}}})
	if how != "EOSE with no events" {
		t.Note("%s: the #d read of %s was %s", why, ch, how)
	}
}

// absentL requires that c finds nothing by #L nip-cl and #l (plus extra
// tag filters) where the draft does not oblige the relay to serve the
// reader (another community, an anonymous reader): an empty answer or a
// CLOSED refusal; the form is returned for a note.
func absentL(t *framework.T, c *fixtures.Client, labels []string, extra nostr.TagMap, why string) string {
	GinkgoHelper()
	tm := nostr.TagMap{"L": {labelNS}, "l": labels}
	for k, v := range extra {
		tm[k] = v
	}
	return t.QueryAbsent(c, why, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: tm, Limit: 50})
}

// archivedState reads the archive state a snapshot shows: the target
// contract's ["archived","true"] means archived, ["archived","false"] or no
// archived tag means not archived. known is false for another value (the
// labels draft does not define how a snapshot shows archive state).
func archivedState(ev *nostr.Event) (archived, known bool) {
	vals := fixtures.TagValues(ev, "archived")
	if fixtures.HasTag(ev, "archived") && len(vals) == 0 {
		return false, false
	}
	switch {
	case len(vals) == 0:
		return false, true
	case len(vals) == 1 && vals[0] == "true":
		return true, true
	case len(vals) == 1 && vals[0] == "false":
		return false, true
	}
	return false, false
}
