package reference

import (
	"github.com/nbd-wtf/go-nostr"
)

// NIP-29 invites: the 9009 create-invite moderation event and the code tag
// of a 9021 join request to a closed group ("If a group is closed, join
// requests are not honored unless they include an invite code").
//
// The reference relay's reading:
//
//   - 9009 from an owner or admin, with one or more ["code", <non-empty
//     value>] tags: accepted and stored; every code admits to the group
//     from then on (codes are reusable and never expire). A 9009 without
//     a code tag, or with an empty code, is "invalid:"; from anyone else
//     it is "restricted:".
//   - 9021 to a closed group with a code some 9009 of that group created:
//     honoured like a join to an open group (the user becomes a member, a
//     relay-signed 9000 follows), whatever the nip29-join-open-group
//     reading says: the code preauthorizes acceptance. Without a code or
//     with any other code: refused, "restricted:", nobody added.
//   - the codes of a deleted group die with it.

// kindCreateInvite is NIP-29's create-invite moderation event.
const kindCreateInvite = 9009

// invitesSchema holds the invite codes each group's 9009 events created.
const invitesSchema = `
CREATE TABLE IF NOT EXISTS group_invites (
	community TEXT NOT NULL,
	uuid      TEXT NOT NULL,
	code      TEXT NOT NULL,
	event_id  TEXT NOT NULL, -- the 9009 that created it
	PRIMARY KEY (community, uuid, code)
);
`

// createInvite applies a 9009 create-invite to ch.
func (r *Relay) createInvite(t *txn, ev *nostr.Event, ch *Channel) error {
	role := ch.roleOf(ev.PubKey)
	if !mayModerate(role) && !r.permits(actCreateInvite, role) {
		return reject("restricted", "only an owner or admin may create invites")
	}
	var codes []string
	for _, tag := range ev.Tags {
		if len(tag) == 0 || tag[0] != "code" {
			continue
		}
		if len(tag) < 2 || tag[1] == "" {
			return reject("invalid", `a code tag needs a non-empty value: ["code", <code>]`)
		}
		codes = append(codes, tag[1])
	}
	if len(codes) == 0 {
		return reject("invalid", `9009 create-invite needs at least one ["code", <code>] tag`)
	}
	for _, code := range codes {
		if _, err := t.tx.Exec(`INSERT OR IGNORE INTO group_invites (community, uuid, code, event_id) VALUES (?, ?, ?, ?)`,
			t.community, ch.UUID, code, ev.ID); err != nil {
			return err
		}
	}
	return t.insert(ev, ch.UUID)
}

// inviteAdmits reports whether the 9021 ev carries a code that a 9009 of
// ch created.
func (r *Relay) inviteAdmits(t *txn, ev *nostr.Event, ch *Channel) (bool, error) {
	code, ok := lastTag(ev, "code")
	if !ok || code == "" {
		return false, nil
	}
	// Fault invite-code-ignored: codes never admit.
	if r.fault(faultInviteCodeIgnored) {
		return false, nil
	}
	if r.permits(actJoinAnyCode, "") {
		return true, nil
	}
	var n int
	if err := t.tx.QueryRow(`SELECT COUNT(*) FROM group_invites WHERE community = ? AND uuid = ? AND code = ?`,
		t.community, ch.UUID, code).Scan(&n); err != nil {
		return false, err
	}
	return n > 0, nil
}
