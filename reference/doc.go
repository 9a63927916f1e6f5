// Package reference is the reference relay the nipcl-conform harness drives
// over a real WebSocket: NIP-01/11/42/45 and NIP-29 (everything the nip29
// profile checks, and the target contract of docs/target-contract.md) on
// embedded SQLite, with profile hooks for the two NIP-CL drafts
// (nip29 | identity | labels) and fault switches that each break exactly one
// clause family.
//
// Layout:
//
//	relay.go    Config, New, Start, Close, broadcast
//	conn.go     WebSocket loop, frame parsing, REQ/COUNT/CLOSE/AUTH
//	nip29.go    EVENT admission, NIP-29 commands, relay-signed state events
//	nip29_flags.go  NIP-29 metadata fields and flags (9007/9002 -> 39000), hidden kinds
//	nip29_join.go   9021 join and 9022 leave requests
//	query.go    filters -> SQL, the read-access rule (SQL and Go), COUNT
//	store.go    schema, transactions, event/channel storage
//	stmts.go    prepared statements (write path, read shapes)
//	sign.go     relay signatures (cached key, precomputed nonces)
//	verify.go   client event id and signature checks
//	nip11.go    NIP-11 document and plain HTTP page
//	nip09.go    NIP-09 deletion requests (soft deletion)
//	profile.go  the profile hook interface and the "none" profile ("nip29"
//	            is the same profile by another name)
//	identity.go labels.go  the two NIP-CL profiles
//	faults.go   fault switches (FaultName, r.fault) and fault-only state
//	faults_nip29.go faults_identity.go faults_labels.go
//	            the fault table of each profile: name, section, clause,
//	            where it is consulted, what it breaks
//	readings.go reading switches (Config.Readings): one per point a
//	            specification leaves open, every value conforming
//
// Behaviour choices where the contract leaves room (the defaults; where
// the choice is one of the readings of clause.Readings, Config.Readings
// takes the other careful readings):
//
//   - Kind 22242 is only ever an AUTH message: never stored, never
//     delivered; an EVENT of kind 22242 is "invalid:".
//   - Every EVENT needs its pubkey authenticated (NIP-42) on the connection;
//     a connection may authenticate several keys. Reads need no AUTH; an
//     unauthenticated reader is nobody (sees open channels and non-channel
//     events only).
//   - Any event with an h tag (and every 9000-9020 command) is a group event
//     and needs exactly one ["h", <group id>] naming a live channel. A group
//     id is any non-empty string (NIP-29: "a random string of any length");
//     the labels profile requires a canonical lowercase non-nil UUID for
//     h-tagged 9007s and label mutations (nip-cl-labels.md). Unknown
//     channel -> "invalid: unknown channel", deleted -> "restricted:
//     channel ... is deleted".
//   - NIP-29 invites (nip29_invites.go), subgroups (nip29_subgroups.go),
//     pinned events (nip29_pins.go) and live audio/video endpoints
//     (livekit.go; off under the policy no-livekit) each describe their
//     reading in their own file.
//   - Posting: an open channel accepts posts from any authenticated key; a
//     private or restricted channel only from members ("restricted: only
//     members may post in a private channel" / "... in a restricted group").
//     An archived channel refuses posts ("restricted:") until a 9002 with
//     ["archived","false"].
//   - Reading: a private channel's events (state included) are read by
//     members only; a hidden channel's 39000-39003 are read (and counted
//     and delivered live) by members only, its other events by anyone when
//     it is not private. Withheld events never use up a reader's limit.
//   - Deletion (nip09.go): a kind 5 hides the events its e tags name that
//     its own key signed from every read and COUNT; they stay stored, so an
//     exact resend is still a duplicate (a label command's application
//     evidence survives). The kind 5 itself is stored like any event.
//   - Metadata (nip29_flags.go): 9007 and 9002 carry name, picture, banner,
//     about and the flags ["private"], ["closed"], ["hidden"],
//     ["restricted"]; relay29's ["public"], ["open"], ["visible"],
//     ["unrestricted"] clear them; ["visibility", open|private] is the
//     private flag too. A 9002 is a patch: what it leaves out is kept. A
//     bare 9007 (["h", id] only) makes a public, open group with no name.
//   - Join and leave (nip29_join.go): a non-member's 9021 to a group that
//     is not closed adds the user as a member in the same transaction (plus
//     a relay-signed 9000); to a closed group it is "restricted: the group
//     is closed ..." (no invite codes); a member's is "duplicate: already a
//     member". A member's 9022 removes the member (plus a relay-signed
//     9001); a non-member's is "restricted: not a member", the last owner's
//     "restricted: the last owner cannot leave ...".
//   - Commands: 9007 create (creator = owner), 9002 edit (owner/admin), 9000
//     put-user (owner/admin; only an owner grants or takes the owner role; a
//     9000 without role keeps an existing member's role), 9001 remove-user
//     (owner/admin; only an owner removes an owner), 9008 delete (owner),
//     9005 delete-event (owner/admin; nip29_moderation.go: each e tag must
//     name a stored, non-state event of the group; the events leave every
//     read and COUNT as NIP-09 deletions do). No change may leave a channel
//     without an owner. Other 9000-9020 kinds are "invalid: ... not
//     supported".
//   - Timeline references (nip29_moderation.go): every value of a group
//     event's previous tags must be a lowercase hex prefix (4-64 digits) of
//     a stored event, else "invalid:"; Config.MinPrevious (serve
//     --min-previous) sets a minimum number of references.
//   - 39000 tags: d, name, picture, banner, about (each when non-empty),
//     private or public, closed or open, hidden and restricted when set,
//     ["archived","true"] when archived, then profile tags (none:
//     ["t", type]). 39001: ["p", pk, role] for owners and admins; 39002:
//     ["p", pk, role] for every member; 39003: ["role", name, description]
//     for owner, admin and member.
//     After every command 39000-39003 are rebuilt from the transaction's
//     state; one whose tags would not change is not republished; a
//     replacement has created_at = max(now, previous+1).
//   - Deleting a channel removes its 39000-39003; its other events stay
//     stored but are readable by nobody; the UUID is never reusable.
//   - Duplicate EVENT (same id in the same community): OK true "duplicate:".
//   - Malformed frames get NOTICE "invalid: ..."; a REQ/COUNT with a readable
//     subscription id also gets CLOSED "invalid: ...", an EVENT with a
//     readable id also gets OK false "invalid: ...". The connection stays open.
//   - Tag filters: single letters only (others are invalid); an empty value
//     list matches nothing. NIP-50 "search" (search.go): every term not of
//     the form key:value (extensions, all ignored) must occur in content,
//     ASCII case-insensitively; the same read rules and limit apply.
package reference
