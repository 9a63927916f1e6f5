package reference

import "github.com/nbd-wtf/go-nostr"

// The identity profile's command hooks exist only for a fault switch: the
// profile's behaviour lives in onCreate and onEdit.
var _ commandHooks = identityProfile{}

func (identityProfile) prepare(*Relay, string, *nostr.Event) {}

// command passes every event on to the core, except under the
// identity-refused-edit-publishes-untyped fault: a 9002 that the label
// rules refuse still republishes the channel's state, with an empty channel
// type, before the refusal is answered.
func (p identityProfile) command(t *txn, ev *nostr.Event) (bool, error) {
	if ev.Kind != kindEditMetadata || !p.faults.on(faultIDRefusedEditUntyped) {
		return false, nil
	}
	_, _, refusal := p.parseLabels(ev)
	if refusal == nil {
		return false, nil
	}
	id, err := channelID(ev)
	if err != nil {
		return false, nil
	}
	ch, err := t.channel(id)
	if err != nil || ch == nil || ch.Deleted || !mayModerate(ch.roleOf(ev.PubKey)) {
		return false, nil
	}
	ch.Type = ""
	if err := t.r.publishState(t, ch); err != nil {
		return true, err
	}
	if err := commitPartial(t); err != nil {
		return true, err
	}
	return true, refusal
}
