package framework

import (
	"fmt"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	"github.com/onsi/ginkgo/v2/types"
)

// ClauseSubIDs is NIP-01's sentence on EVENT frames: sent only under the
// id of a subscription the client opened (REQ) on that connection. The
// subscription-id watch reports a frame under any other id against it.
const ClauseSubIDs = "nip01/subscriptions.5"

// checkSubIDs is the subscription-id watch, run when the case body has
// ended (a cleanup node, beside the OK postcondition): every connection of
// the case kept the EVENT frames the relay sent under an id no REQ of that
// connection named (fixtures.Client.StrayEvents), and any such frame breaks
// ClauseSubIDs (MUST) whatever the case cites. As for the OK postcondition,
// a stray fails a case that passed or was skipped; a case that failed or
// was blocked without naming a clause of its own is recorded as failing at
// ClauseSubIDs; one that failed at a clause it named keeps that verdict,
// with the stray as a note. Timed-out and interrupted cases are left alone.
func (t *T) checkSubIDs() {
	report := CurrentSpecReport()
	if report.State.Is(types.SpecStateTimedout | types.SpecStateInterrupted | types.SpecStateAborted | types.SpecStatePanicked) {
		return
	}
	t.mu.Lock()
	clients := slices.Clone(t.clients)
	t.mu.Unlock()
	var strays []string
	for _, c := range clients {
		strays = append(strays, c.StrayEvents()...)
	}
	if len(strays) == 0 {
		return
	}
	const most = 5
	more := ""
	if len(strays) > most {
		more = fmt.Sprintf("; and %d more", len(strays)-most)
		strays = strays[:most]
	}
	msg := fmt.Sprintf("NIP-01 (%s): EVENT messages must be sent only with the id of a subscription the client opened, but %s%s",
		ClauseSubIDs, strings.Join(strays, "; "), more)
	t.tr.Note("subscription-id watch: %s", msg)
	t.reportAfterCase(report, ClauseSubIDs, msg)
}
