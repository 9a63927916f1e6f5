package reference

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/clause"
)

// NIP-29 user-related group management: join (9021) and leave (9022)
// requests. Both are applied in the request's own write transaction, so a
// read after the OK sees the new membership.
//
// The reference relay's reading:
//
//   - 9021 from a non-member to a group that is not closed: accepted; the
//     user becomes a member (role member), the relay stores the 9021 and a
//     relay-signed 9000 ["h", id], ["p", user] ("the relay may then generate
//     a kind:9000 event immediately") and republishes 39000-39003. Under
//     the reading nip29-join-open-group=review every such request is
//     refused, "restricted: ... review", and nobody is added ("or defer
//     that decision to an administrator").
//   - 9021 to a closed group: refused, "restricted: the group is closed ...",
//     unless it carries an invite code a 9009 of the group created
//     (nip29_invites.go): then it is honoured like a join to an open group.
//   - 9021 from a current member: refused, "duplicate: already a member".
//   - 9022 from a member: accepted; the member is removed, the relay stores
//     the 9022 and a relay-signed 9001 ["h", id], ["p", user] ("the relay
//     will automatically issue a kind:9001 in response removing this user")
//     and republishes 39000-39003.
//   - 9022 from the group's last owner: refused, "restricted: ..." (a group
//     always keeps an owner, as for 9000/9001).
//   - 9022 from a non-member: refused, "restricted: not a member".
//   - Both work on archived groups (they change membership, they post
//     nothing); a deleted or unknown group refuses them like any command.

// joinRequest applies a 9021 join request to ch.
func (r *Relay) joinRequest(t *txn, ev *nostr.Event, ch *Channel) error {
	if ch.roleOf(ev.PubKey) != "" {
		return reject("duplicate", "already a member")
	}
	invited, err := r.inviteAdmits(t, ev, ch)
	if err != nil {
		return err
	}
	if ch.Closed && !invited {
		// Fault join-accepted-not-admitted: say yes, add nobody.
		if r.fault(faultJoinAcceptedNotAdmitted) {
			return t.insert(ev, ch.UUID)
		}
		if _, ok := lastTag(ev, "code"); ok {
			return reject("restricted", "the group is closed and this invite code is not one of its invites: you were not added (final unless an admin creates that code with a 9009)")
		}
		return reject("restricted", "the group is closed: join requests are honoured only with an invite code (a 9009 create-invite's code); you were not added")
	}
	// Reading nip29-join-open-group: admit at once, or leave every request
	// to an administrator's review (refused: the user is not added). An
	// invite code preauthorizes acceptance.
	if !invited && r.reading(clause.ReadingNIP29JoinOpen, "review") {
		return reject("restricted", "join requests wait for an administrator's review; you were not added (an admin may add you with a 9000)")
	}
	next := ch.clone()
	next.Members[ev.PubKey] = roleMember
	if err := r.commitCommand(t, ev, next); err != nil {
		return err
	}
	put := &nostr.Event{Kind: kindPutUser, Tags: nostr.Tags{{"h", ch.UUID}, {"p", ev.PubKey}}}
	if err := t.storeRelayCommand(put, ch.UUID); err != nil {
		return err
	}
	return r.profile.onMembership(t, next, ev.PubKey, true)
}

// leaveRequest applies a 9022 leave request to ch.
func (r *Relay) leaveRequest(t *txn, ev *nostr.Event, ch *Channel) error {
	if ch.roleOf(ev.PubKey) == "" {
		return reject("restricted", "not a member")
	}
	// Fault leave-ignored: say yes, keep the member.
	if r.fault(faultLeaveIgnored) {
		return t.insert(ev, ch.UUID)
	}
	// Fault same-second-leave-lost: a same-second 9000 with a higher id wins.
	if lost, err := r.lostToSameSecond(t, r.fault(faultSameSecondLeaveLost), ev, ch.UUID, kindPutUser, ev.PubKey); lost || err != nil {
		return err
	}
	next := ch.clone()
	delete(next.Members, ev.PubKey)
	if err := r.checkOwnerRemains(next); err != nil {
		return reject("restricted", "the last owner cannot leave the group; give another member the owner role first")
	}
	if err := r.commitCommand(t, ev, next); err != nil {
		return err
	}
	remove := &nostr.Event{Kind: kindRemoveUser, Tags: nostr.Tags{{"h", ch.UUID}, {"p", ev.PubKey}}}
	if err := t.storeRelayCommand(remove, ch.UUID); err != nil {
		return err
	}
	return r.profile.onMembership(t, next, ev.PubKey, false)
}

// storeRelayCommand signs a moderation event the relay issues itself (the
// 9000 answering a join, the 9001 answering a leave) with the relay key,
// created now, and stores it under channel. The same command twice in one
// second (join, leave, join) would repeat an id; the later one moves to the
// next free second.
func (t *txn) storeRelayCommand(ev *nostr.Event, channel string) error {
	ev.CreatedAt = nostr.Timestamp(t.r.now().Unix())
	for {
		if err := t.r.signer.sign(ev, t.r.secretKey); err != nil {
			return fmt.Errorf("sign relay command: %w", err)
		}
		dup, err := t.hasEvent(ev.ID)
		if err != nil {
			return err
		}
		if !dup {
			break
		}
		ev.CreatedAt++
	}
	return t.insert(ev, channel)
}
