package reference

import (
	"errors"

	"github.com/nbd-wtf/go-nostr"
)

// commandFaults runs one admitted event's application (run) inside the
// write transaction t. With no ok-* fault on it returns run's error. Fault
// ok-refused-but-stored: a group command refused with restricted: or
// blocked: is stored anyway, without its effects, and the refusal is
// returned for the OK while the transaction commits. Fault
// ok-applied-but-refused: a 9000 is applied, and answered with an error:
// refusal.
func (r *Relay) commandFaults(t *txn, ev *nostr.Event, run func() error) (refused, err error) {
	stored, applied := r.fault(faultRefusedButStored), r.fault(faultAppliedButRefused)
	h, _ := channelID(ev)
	if (!stored && !applied) || !isGroupCommand(ev.Kind) || h == "" {
		return nil, run()
	}
	if _, err := t.q.Exec("SAVEPOINT fault_cmd"); err != nil {
		return nil, err
	}
	err = run()
	var rj *rejection
	if stored && errors.As(err, &rj) && (rj.prefix == "restricted" || rj.prefix == "blocked") {
		if _, rerr := t.q.Exec("ROLLBACK TO fault_cmd"); rerr != nil {
			return nil, err
		}
		if ierr := t.insert(ev, h); ierr != nil {
			return nil, err
		}
		return rj, nil
	}
	if applied && err == nil && ev.Kind == kindPutUser {
		return reject("error", "the write could not be confirmed"), nil
	}
	return nil, err
}
