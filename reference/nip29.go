package reference

import (
	"errors"
	"fmt"
	"github.com/nipcl/nipcl-conform/internal/text"
	"slices"
	"sort"
	"strings"

	"github.com/google/uuid"
	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/clause"
)

// NIP-29 kinds the relay handles.
const (
	kindChatMessage   = 9
	kindPutUser       = 9000
	kindRemoveUser    = 9001
	kindEditMetadata  = 9002
	kindDeleteGroup   = 9008
	kindCreateGroup   = 9007
	kindJoinRequest   = 9021
	kindLeaveRequest  = 9022
	kindGroupMetadata = 39000
	kindGroupAdmins   = 39001
	kindGroupMembers  = 39002
	kindGroupRoles    = 39003

	visibilityOpen    = "open"
	visibilityPrivate = "private"
)

func isGroupState(kind int) bool { return kind >= kindGroupMetadata && kind <= kindGroupRoles }
func isGroupCommand(kind int) bool {
	return kind >= 9000 && kind <= 9020
}
func isReplaceable(kind int) bool { return kind == 0 || kind == 3 || (kind >= 10000 && kind < 20000) }
func isEphemeral(kind int) bool   { return kind >= 20000 && kind < 30000 }
func isAddressable(kind int) bool { return kind >= 30000 && kind < 40000 }

// --- EVENT admission --------------------------------------------------------

func (c *conn) handleEvent(ev *nostr.Event) {
	if err := c.r.validateEvent(ev); err != nil {
		c.ok(ev, false, err.Error())
		return
	}
	if ev.Kind == nostr.KindClientAuthentication {
		c.ok(ev, false, "invalid: kind 22242 is sent with AUTH, not EVENT")
		return
	}
	if err := c.r.checkAuthor(c, ev); err != nil {
		c.ok(ev, false, err.Error())
		return
	}
	if !c.r.rate.allow(ev.PubKey) {
		c.ok(ev, false, c.r.rate.rateLimited())
		return
	}
	for _, h := range c.r.hooks.refuseEvent {
		if reason := h(c, ev); reason != "" {
			c.ok(ev, false, reason)
			return
		}
	}
	accepted, reason := c.r.apply(c.community, ev)
	c.ok(ev, accepted, reason)
}

// validateEvent checks id, signature and the created_at window.
func (r *Relay) validateEvent(ev *nostr.Event) error {
	if !isHex64(ev.PubKey) {
		return reject("invalid", "pubkey must be 64 lowercase hex")
	}
	idOK, sigOK := r.verifier.check(ev)
	if !idOK {
		return reject("invalid", "bad id")
	}
	// Fault no-signature-check: skip the signature.
	if !sigOK && !r.fault(faultNoSignatureCheck) {
		return reject("invalid", "bad signature")
	}
	now := r.now().Unix()
	if d := int64(ev.CreatedAt) - now; d > r.createdAtFuture || d < -r.createdAtPast {
		return reject("invalid", "created_at must lie between %d seconds before and %d seconds after the relay clock (%d)", r.createdAtPast, r.createdAtFuture, now)
	}
	return nil
}

// checkAuthor requires the event's pubkey to be authenticated (NIP-42).
func (r *Relay) checkAuthor(c *conn, ev *nostr.Event) error {
	if r.authorAuthed(c, ev) {
		// Policy listed-keys-only: an authenticated key that is not listed.
		if !r.admitted(ev.PubKey) {
			return reject("restricted", "this relay admits listed keys only")
		}
		return r.tenancyRefusal(c.community, ev)
	}
	return reject("auth-required", "authenticate as the event's pubkey first")
}

// apply stores or applies one admitted event in one transaction and returns
// the OK answer.
func (r *Relay) apply(community string, ev *nostr.Event) (bool, string) {
	accepted, reason := true, ""
	var refused error // a refusal the ok-* faults answer for a committed write
	hooks, _ := r.profile.(commandHooks)
	if hooks != nil {
		hooks.prepare(r, community, ev)
	}
	err := r.write(community, func(t *txn) error {
		t.command = ev
		dup, err := t.hasEvent(ev.ID)
		if err != nil {
			return err
		}
		if dup {
			accepted, reason = r.profile.duplicate(t, ev)
			return nil
		}
		refused, err = r.commandFaults(t, ev, func() error {
			if hooks != nil {
				if handled, err := hooks.command(t, ev); handled {
					return err
				}
			}
			return r.dispatch(t, ev)
		})
		return err
	})
	if err == nil && refused != nil {
		return false, refused.Error()
	}
	if err != nil {
		var rj *rejection
		if errors.As(err, &rj) {
			return false, rj.Error()
		}
		r.logf("apply %s: %v", ev.ID, err)
		return false, "error: " + err.Error()
	}
	return accepted, reason
}

func (r *Relay) dispatch(t *txn, ev *nostr.Event) error {
	switch {
	case isGroupState(ev.Kind) && !r.permits(actPublishState, ""): // a permit stores it below
		return reject("restricted", "kinds 39000-39003 are signed by the relay only")
	case ev.Kind == kindGroupPins:
		return reject("restricted", "kind 39005 (pinned events) is signed by the relay only")
	case isNoticeKind(ev.Kind):
		return reject("restricted", "membership notices (44100/44101) are signed by the relay only")
	case isGroupCommand(ev.Kind) || hasTag(ev, "h"):
		return r.groupEvent(t, ev)
	case isEphemeral(ev.Kind):
		t.emitted = append(t.emitted, ev) // delivered, never stored
		return nil
	default:
		if ev.Kind == kindDeletion {
			if err := r.deletionRequest(t, ev); err != nil {
				return err
			}
		}
		stored, err := t.storeUserEvent(ev, "")
		if err != nil {
			return err
		}
		if !stored {
			return reject("duplicate", "a newer version of this replaceable event is stored")
		}
		return nil
	}
}

func hasTag(ev *nostr.Event, name string) bool {
	for _, tag := range ev.Tags {
		if len(tag) > 0 && tag[0] == name {
			return true
		}
	}
	return false
}

// --- NIP-29 -----------------------------------------------------------------

// channelID returns the group id of a group event: the value of its single
// two-element h tag. NIP-29 identifies groups by "a random string of any
// length", so any non-empty string is an id here; the labels profile adds
// its draft's UUID rule for h-tagged creation and label mutations
// (channelUUID).
func channelID(ev *nostr.Event) (string, error) {
	var hs []nostr.Tag
	for _, tag := range ev.Tags {
		if len(tag) > 0 && tag[0] == "h" {
			hs = append(hs, tag)
		}
	}
	if len(hs) != 1 {
		return "", reject("invalid", "a group event needs exactly one h tag, got %d", len(hs))
	}
	if len(hs[0]) != 2 {
		return "", reject("invalid", `the h tag must be ["h", <group id>]`)
	}
	id := hs[0][1]
	if id == "" {
		return "", reject("invalid", "the h tag's group id is empty")
	}
	return id, nil
}

// channelUUID is channelID with the labels draft's rule: the id is a
// canonical lowercase, non-nil UUID.
func channelUUID(ev *nostr.Event) (string, error) {
	id, err := channelID(ev)
	if err != nil {
		return "", err
	}
	u, err := uuid.Parse(id)
	if err != nil || len(id) != 36 || u.String() != id {
		return "", reject("invalid", "h tag %q is not a canonical lowercase UUID", text.Clip(id, 64))
	}
	if u == uuid.Nil {
		return "", reject("invalid", "the nil UUID is not a channel id")
	}
	return id, nil
}

func (r *Relay) groupEvent(t *txn, ev *nostr.Event) error {
	id, err := channelID(ev)
	if err != nil {
		return err
	}
	if err := r.checkTimeline(t, ev); err != nil {
		return err
	}
	// Fault group-id-uuid-only: the labels draft's UUID rule for every id.
	if r.fault(faultGroupIDUUIDOnly) {
		if _, err := channelUUID(ev); err != nil {
			return err
		}
	}
	// Variants no-pins and no-invites: a relay without the feature stores
	// a 9010 as an ordinary group event and refuses a 9009 as a command
	// it does not implement.
	if ev.Kind == kindUpdatePins && r.lacks(featurePins) {
		ch, err := r.liveChannel(t, id)
		if err != nil {
			return err
		}
		if !mayModerate(ch.roleOf(ev.PubKey)) {
			return reject("restricted", "only an owner or admin may send moderation events")
		}
		return r.postToChannel(t, ev, id)
	}
	if ev.Kind == kindCreateInvite && r.lacks(featureInvites) {
		return reject("invalid", "group command kind %d is not supported by this relay", ev.Kind)
	}
	switch ev.Kind {
	case kindCreateGroup:
		return r.createChannel(t, ev, id)
	case kindEditMetadata, kindPutUser, kindRemoveUser, kindDeleteEvent, kindDeleteGroup, kindJoinRequest, kindLeaveRequest, kindCreateInvite, kindUpdatePins:
	default:
		if isGroupCommand(ev.Kind) {
			return reject("invalid", "group command kind %d is not supported by this relay", ev.Kind)
		}
		return r.postToChannel(t, ev, id)
	}
	ch, err := r.liveChannel(t, id)
	if err != nil {
		// Fault join-deleted-group-accepted: OK true, nobody added.
		if ev.Kind == kindJoinRequest && r.fault(faultJoinDeletedAccepted) {
			if dead, derr := t.channel(id); derr == nil && dead != nil && dead.Deleted {
				return nil
			}
		}
		return err
	}
	switch ev.Kind {
	case kindEditMetadata:
		return r.editChannel(t, ev, ch)
	case kindPutUser:
		return r.putUser(t, ev, ch)
	case kindRemoveUser:
		return r.removeUser(t, ev, ch)
	case kindJoinRequest:
		return r.joinRequest(t, ev, ch)
	case kindLeaveRequest:
		return r.leaveRequest(t, ev, ch)
	case kindDeleteEvent:
		return r.deleteEvent(t, ev, ch)
	case kindCreateInvite:
		return r.createInvite(t, ev, ch)
	case kindUpdatePins:
		return r.updatePins(t, ev, ch)
	default:
		return r.deleteChannel(t, ev, ch)
	}
}

// liveChannel loads a channel that exists and is not deleted.
func (r *Relay) liveChannel(t *txn, id string) (*Channel, error) {
	ch, err := t.channel(id)
	if err != nil {
		return nil, err
	}
	if ch == nil {
		return nil, reject("invalid", "unknown channel %s", id)
	}
	if ch.Deleted {
		return nil, reject("restricted", "channel %s is deleted", id)
	}
	return ch, nil
}

// lastTag returns the value of the last tag with that name, and whether
// one was present.
func lastTag(ev *nostr.Event, name string) (string, bool) {
	if tag := ev.Tags.FindLast(name); tag != nil {
		return tag[1], true
	}
	return "", false
}

func (r *Relay) createChannel(t *txn, ev *nostr.Event, id string) error {
	// Policy listed-creators: only listed keys create groups.
	if !r.mayCreate(ev.PubKey) {
		return reject("restricted", "only listed keys may create groups on this relay")
	}
	used, err := t.uuidUsed(id)
	if err != nil {
		return err
	}
	if used {
		prev, err := t.channel(id)
		if err != nil {
			return err
		}
		if prev != nil && !prev.Deleted {
			// Fault create-takes-over-existing.
			if r.fault(faultCreateTakesOver) {
				return r.takeOver(t, ev, prev)
			}
			return reject("duplicate", "channel %s already exists", id)
		}
		return reject("duplicate", "channel id %s was used by a deleted channel and is never reused", id)
	}
	ch := &Channel{
		Community: t.community,
		UUID:      id,
		Type:      "stream",
		Creator:   ev.PubKey,
		CreatedAt: r.now().Unix(),
		Members:   map[string]string{ev.PubKey: roleOwner},
	}
	if typ, ok := lastTag(ev, "channel_type"); ok {
		if !slices.Contains(r.profile.channelTypes(), typ) {
			return reject("invalid", "channel_type %q is not one of %s", text.Clip(typ, 32), strings.Join(r.profile.channelTypes(), ", "))
		}
		ch.Type = typ
	}
	// A bare 9007 (["h", id] only) makes a public, open group without a
	// name; the metadata fields and flags may ride along (nip29_flags.go).
	if err := r.applyMetadata(ev, ch); err != nil {
		return err
	}
	if err := r.profile.onCreate(ev, ch); err != nil {
		return err
	}
	r.editedChannel(ev, nil, ch)
	if ch.Visibility == "" {
		ch.Visibility = visibilityOpen
	}
	if err := t.saveChannel(ch); err != nil {
		return err
	}
	if err := t.markUUIDUsed(id, ev.ID); err != nil {
		return err
	}
	if err := t.insert(ev, id); err != nil {
		return err
	}
	if err := r.profile.onMembership(t, ch, ev.PubKey, true); err != nil {
		return err
	}
	return r.publishState(t, ch)
}

// mayModerate: owners and admins moderate (put/remove users).
func mayModerate(role string) bool { return role == roleOwner || role == roleAdmin }

// mayEditMetadata: owners and admins edit metadata.
func (r *Relay) mayEditMetadata(role string) bool {
	return mayModerate(role) || r.permits(actEditMetadata, role)
}

func (r *Relay) editChannel(t *txn, ev *nostr.Event, ch *Channel) error {
	if !r.mayEditMetadata(r.actorRole(ch, ev.PubKey)) && !r.profile.admitEdit(ev, ch) {
		return reject("restricted", "only an owner or admin may edit channel metadata")
	}
	// Fault same-second-edit-lost: an earlier same-second 9002 with a higher id wins.
	if lost, err := r.lostToSameSecond(t, r.fault(faultSameSecondEditLost), ev, ch.UUID, kindEditMetadata, ""); lost || err != nil {
		return err
	}
	next := ch.clone()
	if err := r.applyMetadata(ev, next); err != nil {
		return err
	}
	if v, ok := lastTag(ev, "archived"); ok {
		switch v {
		case "true":
			next.Archived = true
		case "false":
			next.Archived = false
		default:
			return reject("invalid", `archived must be "true" or "false"`)
		}
	}
	if err := r.profile.onEdit(ev, ch, next); err != nil {
		return err
	}
	r.editedChannel(ev, ch, next)
	// Subgroups: the 9002's parent and child tags (nip29_subgroups.go).
	if err := r.editTree(t, ev, ch); err != nil {
		return err
	}
	return r.commitCommand(t, ev, next)
}

func (r *Relay) putUser(t *txn, ev *nostr.Event, ch *Channel) error {
	actor := r.actorRole(ch, ev.PubKey)
	// Fault subgroup-admin-inherited: a parent's admin moderates children.
	if !mayModerate(actor) && r.fault(faultSubgroupAdminInherited) {
		role, err := r.inheritedRole(t, ch, ev.PubKey)
		if err != nil {
			return err
		}
		actor = role
	}
	if !mayModerate(actor) {
		return reject("restricted", "only an owner or admin may add users")
	}
	next := ch.clone()
	var added []string
	roleChanged := false
	n := 0
	for _, tag := range ev.Tags {
		if len(tag) == 0 || tag[0] != "p" {
			continue
		}
		n++
		if len(tag) < 2 || !isHex64(tag[1]) {
			return reject("invalid", "p tag needs a 64-hex pubkey")
		}
		pk, prev := tag[1], next.Members[tag[1]]
		role := prev
		// Reading nip29-roleless-put-user: a 9000 without roles on an
		// existing member keeps its role or resets it to a plain member.
		if r.reading(clause.ReadingNIP29RolelessPut, "reset") {
			role = ""
		}
		if put, named, err := r.putRole(tag[2:]); err != nil {
			return err
		} else if named {
			role = put
		}
		if role == "" {
			role = roleMember
		}
		if roleRank(role) == 0 {
			return reject("invalid", "role %q is not %s, %s or %s", text.Clip(role, 32), r.wireRole(roleOwner), r.wireRole(roleAdmin), r.wireRole(roleMember))
		}
		if (role == roleOwner || prev == roleOwner) && actor != roleOwner && role != prev {
			return reject("restricted", "only an owner may grant or take the owner role")
		}
		if prev == "" {
			added = append(added, pk)
		}
		if prev != "" && prev != role {
			roleChanged = true
		}
		next.Members[pk] = role
	}
	if n == 0 {
		return reject("invalid", `9000 needs at least one ["p", <pubkey>, <role>] tag`)
	}
	if err := r.checkOwnerRemains(next); err != nil {
		return err
	}
	// Fault state-stale-on-role-change: the role change is applied and the
	// 9000 stored, but no state event is republished.
	if roleChanged && len(added) == 0 && r.fault(faultStateStaleOnRoleChange) {
		if err := t.saveChannel(next); err != nil {
			return err
		}
		return t.insert(ev, next.UUID)
	}
	if err := r.commitCommand(t, ev, next); err != nil {
		return err
	}
	for _, pk := range added {
		if err := r.profile.onMembership(t, next, pk, true); err != nil {
			return err
		}
	}
	return nil
}

func (r *Relay) removeUser(t *txn, ev *nostr.Event, ch *Channel) error {
	actor := r.actorRole(ch, ev.PubKey)
	if !mayModerate(actor) && !r.permits(actRemoveUser, actor) {
		return reject("restricted", "only an owner or admin may remove users")
	}
	// Fault same-second-removal-lost: a same-second 9000 with a higher id wins.
	if pk, ok := lastTag(ev, "p"); ok {
		if lost, err := r.lostToSameSecond(t, r.fault(faultSameSecondRemovalLost), ev, ch.UUID, kindPutUser, pk); lost || err != nil {
			return err
		}
	}
	next := ch.clone()
	var removed []string
	n := 0
	for _, tag := range ev.Tags {
		if len(tag) == 0 || tag[0] != "p" {
			continue
		}
		n++
		if len(tag) < 2 || !isHex64(tag[1]) {
			return reject("invalid", "p tag needs a 64-hex pubkey")
		}
		pk := tag[1]
		prev, ok := next.Members[pk]
		if !ok {
			continue
		}
		if prev == roleOwner && actor != roleOwner {
			return reject("restricted", "only an owner may remove an owner")
		}
		delete(next.Members, pk)
		removed = append(removed, pk)
	}
	if n == 0 {
		return reject("invalid", `9001 needs at least one ["p", <pubkey>] tag`)
	}
	if err := r.checkOwnerRemains(next); err != nil {
		return err
	}
	if err := r.commitCommand(t, ev, next); err != nil {
		return err
	}
	for _, pk := range removed {
		if err := r.profile.onMembership(t, next, pk, false); err != nil {
			return err
		}
	}
	return nil
}

// checkOwnerRemains refuses a membership change that leaves no owner.
func (r *Relay) checkOwnerRemains(next *Channel) error {
	for _, role := range next.Members {
		if role == roleOwner {
			return nil
		}
	}
	return reject("restricted", "a channel must keep at least one owner")
}

func (r *Relay) deleteChannel(t *txn, ev *nostr.Event, ch *Channel) error {
	if ch.roleOf(ev.PubKey) != roleOwner {
		return reject("restricted", "only an owner may delete the channel")
	}
	next := ch.clone()
	next.Deleted = true
	// Subgroups: the children become roots (nip29_subgroups.go).
	if err := r.treeOnDelete(t, ch); err != nil {
		return err
	}
	if err := t.saveChannel(next); err != nil {
		return err
	}
	if err := t.insert(ev, ch.UUID); err != nil {
		return err
	}
	// The channel is gone: its state events leave storage; the UUID stays
	// in used_uuids forever.
	if err := t.deleteWhere(condStateOfKind, kindGroupPins, ch.UUID); err != nil {
		return err
	}
	// Fault delete-keeps-member-lists: only the 39000 leaves; the deleted
	// channel's 39001 and 39002 stay served.
	if r.fault(faultDeleteKeepsMemberLists) {
		return t.deleteWhere(condStateOfKind, kindGroupMetadata, ch.UUID)
	}
	return t.deleteWhere(condAllState, ch.UUID, kindGroupMetadata, kindGroupRoles)
}

// commitCommand stores the changed channel, the command event and the state
// events it produces (all in the caller's transaction).
func (r *Relay) commitCommand(t *txn, ev *nostr.Event, next *Channel) error {
	if err := t.saveChannel(next); err != nil {
		return err
	}
	if err := t.insert(ev, next.UUID); err != nil {
		return err
	}
	if err := r.unserveModeration(t, ev); err != nil {
		return err
	}
	return r.publishState(t, next)
}

func (r *Relay) postToChannel(t *txn, ev *nostr.Event, id string) error {
	ch, err := r.liveChannel(t, id)
	if err != nil {
		return err
	}
	if ch.Archived {
		return reject("restricted", "channel %s is archived", id)
	}
	// Open channels: any authenticated key may post. Private or
	// restricted: members only.
	if ch.roleOf(ev.PubKey) == "" {
		if ch.Visibility != visibilityOpen {
			return reject("restricted", "only members may post in a private channel")
		}
		if ch.Restricted && !r.permits(actPostRestricted, "") {
			return reject("restricted", "only members may post in a restricted group")
		}
		// Fault closed-restricts-writes: closed read as restricted.
		if ch.Closed && r.fault(faultClosedRestrictsWrites) {
			return reject("restricted", "only members may post in a closed group")
		}
	}
	if isEphemeral(ev.Kind) {
		t.emitted = append(t.emitted, ev)
		return nil
	}
	stored, err := t.storeUserEvent(ev, id)
	if err != nil {
		return err
	}
	if !stored {
		return reject("duplicate", "a newer version of this replaceable event is stored")
	}
	return nil
}

// --- relay-signed state -----------------------------------------------------

// stateTags builds the tags of a state event: the core NIP-29 tags, then the
// profile's.
func (r *Relay) stateTags(t *txn, kind int, ch *Channel) nostr.Tags {
	tags := nostr.Tags{{"d", ch.UUID}}
	switch kind {
	case kindGroupMetadata:
		tags = append(tags, metadataStateTags(ch)...)
		if ch.Archived {
			tags = append(tags, nostr.Tag{"archived", "true"})
		}
	case kindGroupAdmins:
		for _, pk := range sortedMembers(ch) {
			if role := ch.Members[pk]; mayModerate(role) {
				tags = append(tags, r.roleTag(pk, role))
			}
		}
	case kindGroupMembers:
		for _, pk := range sortedMembers(ch) {
			tags = append(tags, nostr.Tag{"p", pk, r.wireRole(ch.Members[pk])})
		}
	case kindGroupRoles:
		for _, rd := range roleDescriptions {
			tags = append(tags, nostr.Tag{"role", r.wireRole(rd[0]), rd[1]})
		}
	}
	tags = r.editedStateTags(kind, ch, append(tags, r.profile.stateTags(kind, ch)...))
	for _, h := range r.hooks.stateTags {
		tags = append(tags, h(t, kind, ch)...)
	}
	return tags
}

// sortedMembers orders members by role (owner, admin, member) then pubkey.
func sortedMembers(ch *Channel) []string {
	pks := make([]string, 0, len(ch.Members))
	for pk := range ch.Members {
		pks = append(pks, pk)
	}
	sort.Slice(pks, func(i, j int) bool {
		ri, rj := roleRank(ch.Members[pks[i]]), roleRank(ch.Members[pks[j]])
		if ri != rj {
			return ri > rj
		}
		return pks[i] < pks[j]
	})
	return pks
}

// publishState (re)publishes 39000-39003 for ch from the transaction's fresh
// state. An event whose tags would not change is left as it is; a
// replacement always has a strictly greater created_at than the one it
// replaces.
func (r *Relay) publishState(t *txn, ch *Channel) error {
	heads, err := t.stateHeads(ch.UUID)
	if err != nil {
		return err
	}
	for _, kind := range []int{kindGroupMetadata, kindGroupAdmins, kindGroupMembers, kindGroupRoles} {
		if r.stateOmitted(kind) {
			continue
		}
		tags := r.stateTags(t, kind, ch)
		if kind == kindGroupMetadata {
			// Subgroups: parent and child tags (nip29_subgroups.go).
			tree, err := t.treeTags(ch.UUID)
			if err != nil {
				return err
			}
			tags = append(tags, tree...)
		}
		prev, found := heads[kind]
		prevAt := prev.createdAt
		// The stored tags are tagsJSON of the event's tags: equal JSON,
		// equal tags.
		if found && prev.tags == tagsJSON(tags) && r.dropsIdenticalState(kind, prevAt) {
			// Variant state-lost-on-regeneration: the relay deletes the old
			// instance to write an identical one, and loses both.
			if err := t.deleteWhere(condStateOfKind, kind, ch.UUID); err != nil {
				return err
			}
			continue
		}
		// Fault state-stale-on-removal: a state event that would drop a
		// tag of the current one is left as it is.
		if found && r.fault(faultStateStaleOnRemoval) && dropsTag(prev.tags, tags) {
			continue
		}
		if found && prev.tags == tagsJSON(tags) {
			// Fault identical-state-duplicated: store another instance
			// beside the current one.
			if r.fault(faultIdenticalStateDuplicated) {
				dup := &nostr.Event{Kind: kind, CreatedAt: nostr.Timestamp(max(r.now().Unix(), prevAt+1)), Tags: tags}
				if err := r.signer.sign(dup, r.stateKey()); err != nil {
					return fmt.Errorf("sign state: %w", err)
				}
				if err := t.insert(dup, ch.UUID); err != nil {
					return err
				}
			}
			continue
		}
		ts := nostr.Timestamp(r.now().Unix())
		if found {
			if r.fault(faultStaleReplacementTimestmp) {
				// Fault stale-replacement-timestamp: reuse the old created_at.
				ts = nostr.Timestamp(prevAt)
			} else if int64(ts) <= prevAt {
				ts = nostr.Timestamp(prevAt + 1)
			}
		}
		ev := &nostr.Event{Kind: kind, CreatedAt: ts, Tags: tags, Content: ""}
		if err := r.signer.sign(ev, r.stateKeyOf(kind)); err != nil {
			return fmt.Errorf("sign state: %w", err)
		}
		if err := t.deleteWhere(condStateOfKind, kind, ch.UUID); err != nil {
			return err
		}
		if err := t.insert(ev, ch.UUID); err != nil {
			return err
		}
	}
	return nil
}

// storeRelayEvent signs ev with the relay key (created_at = relay clock when
// zero) and stores it in the transaction under channel; profiles use it for
// relay-signed notices (e.g. 44100/44101). It is delivered live after commit.
func (t *txn) storeRelayEvent(ev *nostr.Event, channel string) error {
	if ev.CreatedAt == 0 {
		ev.CreatedAt = nostr.Timestamp(t.r.now().Unix())
	}
	if ev.Tags == nil {
		ev.Tags = nostr.Tags{}
	}
	if err := t.r.signer.sign(ev, t.r.secretKey); err != nil {
		return fmt.Errorf("sign relay event: %w", err)
	}
	return t.insert(ev, channel)
}
