package clause

// NIP-29 references of the client clauses (nip29/clients): the heading of
// nostr-protocol/nips 29.md (db5fe3de) the sentence stands under, then the
// sentence's first words in quotes so that `spec check 29.md` can anchor
// the clause to it.
const (
	refNIP29ClientsSelf       = `NIP-29 § Event definitions / Group metadata events: "They MUST be created by the relay master key only (as stated by the NIP-11 "self" pubkey)"`
	refNIP29ClientsFlags      = `NIP-29 § Group metadata events / group metadata (kind:39000): "Omitting this tag indicates …" (private, restricted, hidden, closed)`
	refNIP29ClientsMembership = `NIP-29 § Implementation quirks / Checking your own membership in a group: "The latest of either kind:9000 or kind:9001 events present in a group should tell a user …"`
	refNIP29ClientsPrevious   = `NIP-29 § Timeline references: "Clients should also check these to keep relays honest about them."`
	refNIP29ClientsMigration  = `NIP-29 § Group identity, migration and forking / Detecting migrations and forks: "clients SHOULD periodically -- and MUST, if their primary relay for a group is offline or unreachable -- look at the kind:10009 event of the group's admins"`
	refNIP29ClientsMoved      = `NIP-29 § Group identity, migration and forking / Detecting migrations and forks: "If a kind:10009 entry for a group now points to a different relay hint … the client SHOULD notify the user"`
	refNIP29ClientsInherit    = `NIP-29 § Subgroups / Membership: "clients MUST NOT assume it: the absence of a kind:9000 in a child means the user is not a member of that child"`
	refNIP29ClientsTree       = `NIP-29 § Subgroups: "To build the tree, clients fetch {"kinds":[39000]} and assemble it locally"`
	refNIP29ClientsLatest     = `NIP-29 § Event definitions / Group metadata events: "a single instance of each (or none) should exist at all times for each group. They are merely informative but should reflect the latest group state"`
	refNIP29ClientsRoles      = `NIP-29 § Group metadata events / group admins (kind:39001): "Each admin is listed along with one or more roles" and group roles (kind:39003): "the exact role name is not relevant"`
	refNIP29ClientsOK         = `NIP-01 § From relay to client: "OK messages MUST be sent in response to EVENT messages received from clients, they must have the 3rd parameter set to true when an event has been accepted by the relay, false otherwise" (the acknowledgement of NIP-29's commands)`
	refNIP29ClientsCode       = `NIP-29 § Group referencing: "Clients should use this code in the code tag of the kind:9021 join request."`
)

// reasonNIP29Client: NIP-29 client clauses are judged by client mode only.
const reasonNIP29Client = "client obligation: judged by client mode (nipcl-conform client --profile nip29), not by the relay suites"

// nip29ClientClauses are the sentences of NIP-29 that bind clients
// (Subject client, section nip29/clients), each at the level of its own
// sentence. Reading of nip29/clients.1: the sentence is written about who
// creates the state events; a client is bound by it at MUST in that an
// event of kinds 39000-39003 not signed by the NIP-11 self key is, by the
// text, not a state event of the group, so a client that presents it as
// the group's state contradicts the MUST. The key is `self`, not the
// operator contact `pubkey`.
var nip29ClientClauses = []Clause{
	nip29("nip29/clients.1", LevelMust, refNIP29ClientsSelf,
		"A client relies on group state events (kinds 39000-39003) only when they are signed by the relay's NIP-11 self key (not its pubkey contact, not the user, not a stranger).").client(reasonNIP29Client),
	nip29("nip29/clients.2", LevelRule, refNIP29ClientsFlags,
		"A flag tag absent from the group's current 39000 means its opposite: no private tag is public, no closed tag is open (and restricted, hidden likewise).").client(reasonNIP29Client),
	nip29("nip29/clients.3", LevelShould, refNIP29ClientsMembership,
		"A client tells whether the user is a member from the latest kind 9000 or 9001 naming them; with neither, the user is not a member.").client(reasonNIP29Client),
	nip29("nip29/clients.4", LevelShould, refNIP29ClientsPrevious,
		"A client checks the previous references of the group's messages against the events it has seen from the relay and does not present a message whose references the relay never had as ordinary.").client(reasonNIP29Client),
	nip29("nip29/clients.5", LevelMust, refNIP29ClientsMigration,
		"When the group's primary relay is offline or unreachable, the client looks at the kind 10009 lists of the group's admins.").client(reasonNIP29Client),
	nip29("nip29/clients.6", LevelShould, refNIP29ClientsMoved,
		"When an admin's kind 10009 entry for the group points to another relay than the one the client used, the client tells the user the group may have moved.").client(reasonNIP29Client),
	nip29("nip29/clients.7", LevelMustNot, refNIP29ClientsInherit,
		"A client does not assume membership of a subgroup from membership of its parent: without a kind 9000 in the child the user is not a member of it.").client(reasonNIP29Client),
	nip29("nip29/clients.8", LevelRule, refNIP29ClientsTree,
		"A client assembles the subgroup tree from the parent tags of the relay's 39000 events: no parent tag is a root, the others sit under the group their parent tag names.").client(reasonNIP29Client),
	nip29("nip29/clients.9", LevelShould, refNIP29ClientsCode,
		"A client joining with an invite code sends it in the code tag of its kind 9021 join request.").client(reasonNIP29Client),
	nip29("nip29/clients.10", LevelShould, `NIP-29 § Group identity, migration and forking / Detecting migrations and forks: "The pubkeys of the admins of the groups the user is in SHOULD be cached locally"`,
		"A client keeps the pubkeys of the admins of the user's groups in a local cache, so it can look at their kind 10009 lists while the group's relay is down.").
		client("client-side: a local cache is client storage; no relay behaviour and no wire exchange shows it"),
	nip29("nip29/clients.11", LevelShould, `NIP-29 § Group identity, migration and forking / Replicating a group for resilience: "Groups that do not want to lose history … SHOULD set up a live backup/replica"`,
		"The admins of a group that must not lose its history keep a live replica of all its events on a second relay, which need not enforce the group's rules.").
		client("needs a human: a duty of the group's admins and operators (which second relay, kept live how), neither the relay under test nor one client's wire traffic shows it"),
	nip29("nip29/clients.12", LevelRule, `NIP-29 § Group referencing: "A group may be identified by a naddr1... code to its kind:39000 metadata event"`,
		"A client that refers to a group by naddr points at its 39000: pubkey the relay's self key, d the group id, kind 39000, and a relay hint to the hosting relay.").
		client("client-side: the shape of a reference clients exchange (a permission, 'may'); relays neither issue nor read naddr codes"),
	nip29("nip29/clients.13", LevelShould, refNIP29AV+`: "Upon seeing a livekit tag in a group, clients … should call the token endpoint" and "The Authorization event should be of kind 27235"`,
		"A client joining a group's AV space calls /.well-known/nip29/livekit/<group-id> with a NIP-98 Authorization header whose kind 27235 event carries [\"u\", that URL].").
		client("client-side: an HTTP call the client makes to the relay's token endpoint; the relay's side is checked by nip29/livekit.2 and nip29/livekit.3"),
	nip29("nip29/clients.14", LevelShouldNot, `NIP-29 § Group metadata events / group members (kind:39002): "Clients should not assume this will always be present or that it will contain a full list of members."`,
		"A client does not take the 39002 as always present or as the full member list.").
		client("client-side: what a client concludes from the relay's 39002; the relay may omit or shorten it"),
	nip29("nip29/clients.15", LevelMay, `NIP-29 § Group metadata events / group pinned events (kind:39005): "Clients may display these events at the top of the group view."`,
		"A client may show the group's pinned events at the top of the group view.").
		client("client-side: presentation, and a permission every client satisfies"),
	nip29("nip29/clients.16", LevelMay, refNIP29Sub+`: "The tree is scoped to a single relay. When aggregating across relays a client MAY see conflicting parent values"`,
		"The subgroup tree belongs to one relay: a client aggregating relays that sees conflicting parent values for one d takes the 39000 of the relay now serving the group's events.").
		client("client-side: aggregation across relays happens in the client; each relay's own tree is checked by the nip29/subgroups clauses"),
	nip29("nip29/clients.17", LevelRule, `NIP-29 § Implementation quirks / Storing your list of groups: "A definition for kind:10009 was included in NIP-51"`,
		"A client stores the list of groups the user wants to remember in a kind 10009 list (NIP-51).").
		client("client-side: the user's list lives in the user's own events on any relay; no group relay behaviour depends on it"),
	nip29("nip29/clients.18", LevelShould, refNIP29ClientsLatest,
		"A client shows the group's state from the newest relay-signed event of each kind 39000-39003 alone, not merged with older versions: a member or admin the newest 39002 or 39001 no longer lists is no longer shown.").client(reasonNIP29Client),
	nip29("nip29/clients.19", LevelRule, refNIP29ClientsRoles,
		"A client reads every role on an admin's p tag of the 39001 (one or more, named as the relay chooses) and the roles of the 39003 as the relay names them: several roles on one p tag, or a role name the client never heard of, do not make the event unreadable.").client(reasonNIP29Client),
	nip29("nip29/clients.20", LevelRule, refNIP29ClientsOK,
		"A client reports a NIP-29 command (create-group, join, leave, a message, a moderation command) accepted only on an OK true for its event and refused on an OK false; a connection that closes, or stays silent, before any OK leaves it unknown, and a later OK for the same event does not replace the first.").client(reasonNIP29Client),
}
