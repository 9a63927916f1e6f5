package reference

import "time"

// Fault switches of the NIP-CL audit of issue 28: each exploits a hole a
// labels or identity case had (a weak case) or breaks a shape no case sent
// before. Each is checked at exactly one place: the behaviour it breaks.
const (
	faultLabelsDeletionDeferred = "labels-deletion-deferred-drops-evidence"
)

// deferredDeletion is how long the labels-deletion-deferred-drops-evidence
// fault waits before it applies a NIP-09 deletion.
const deferredDeletion = 300 * time.Millisecond

// i28Faults are the switches of reference/faults_i28.go.
var i28Faults = []faultSpec{
	{faultLabelsDeletionDeferred, "labels", "labels/retention",
		"a NIP-09 deletion is applied 300 ms after the kind 5 is acknowledged, and then removes the deleted command outright, and with it the application evidence: an exact retry after that is applied as new"},
}

// deleteLater is the labels-deletion-deferred-drops-evidence fault: the
// event id is removed outright from the community a little later.
func (r *Relay) deleteLater(community, id string) {
	time.AfterFunc(deferredDeletion, func() {
		select {
		case <-r.closed:
			return
		default:
		}
		_ = r.write(community, func(t *txn) error { return t.deleteWhere("id = ?", id) })
	})
}
