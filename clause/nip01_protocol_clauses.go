package clause

// refNIP42Verify: the list of checks NIP-42 gives relays for an AUTH event.
const refNIP42Verify = "NIP-42 § Signed Event Verification"

// refNIP45HLL: the HyperLogLog sections of NIP-45.
const refNIP45HLL = "NIP-45 § HyperLogLog: Algorithm, offset computation, hll encoding"

// protocolClauses are the NIP-01 subscription and limit sentences, the
// NIP-42 AUTH verification list and the NIP-45 multi-filter sentence that a
// NIP-29 relay keeps (issue 37), each at the level of its own sentence; a
// declarative definition ("EOSE, used to indicate the end of stored events")
// counts as MUST for the behaviour it defines (see baselineClauses).
var protocolClauses = []Clause{
	// NIP-01 subscriptions.
	nip01("nip01/subscriptions.1", LevelShould, refNIP01Filters,
		"A REQ with the id of a subscription still open replaces it: events matching only the old filters no longer come under that id, events matching the new ones do."),
	nip01("nip01/subscriptions.2", LevelShould, refNIP01Filters,
		"After a CLOSE, the relay sends no more events under that subscription's id."),
	nip01("nip01/subscriptions.3", LevelMust, refNIP01Filters,
		"Subscription ids belong to their connection: the same id open on two connections is two subscriptions, and a REQ under that id on one leaves the other's running."),
	nip01("nip01/subscriptions.4", LevelMust, refNIP01FromRel,
		"EOSE ends the stored events: the stored events a REQ matches come before its EOSE, never after it as if newly received."),
	nip01("nip01/subscriptions.5", LevelMust, refNIP01FromRel,
		"EVENT frames come only under the id of a subscription the client opened on that connection (with REQ): never under an id it never opened there, such as another connection's, and each under the subscription whose filters it matches."),

	// NIP-01 replaceable kinds.
	nip01("nip01/replaceable-kinds.1", LevelMust, refNIP01Kinds,
		"Of a pubkey's replaceable events of one kind (0, 3, 10000-19999), the latest version is stored: after a newer version is accepted, a REQ by kind and author returns it."),
	nip01("nip01/replaceable-kinds.2", LevelShould, refNIP01Kinds,
		"A REQ for a replaceable kind and author returns just the latest version, even if the relay keeps older ones."),

	// NIP-01 limit.
	nip01("nip01/limit.1", LevelMust, refNIP01Filters,
		"limit bounds the initial answer only: a subscription whose filter has a limit still receives every matching event stored after its EOSE."),
	nip01("nip01/limit.2", LevelShould, refNIP01Filters,
		"Each filter of a REQ carries its own limit: with several filters, each returns its own newest matches up to its limit, and one filter's limit does not cut another's."),

	// NIP-42 AUTH verification.
	nip42("nip42/verify.1", LevelMust, refNIP42Verify,
		"An AUTH event whose challenge tag is not the challenge the relay sent on this connection is refused (OK false)."),
	nip42("nip42/verify.2", LevelMust, refNIP42Verify,
		"An AUTH event whose created_at is hours away from the current time is refused (OK false)."),
	nip42("nip42/verify.3", LevelMust, refNIP42Verify,
		"An AUTH message carrying an event of a kind other than 22242 is refused (OK false)."),
	nip42("nip42/verify.4", LevelMust, "NIP-42 § New client-relay protocol messages",
		"After AUTH messages for several pubkeys on one connection, every one of them counts as authenticated, not only the last."),
	nip42("nip42/verify.5", LevelMust, refNIP42Verify,
		"An AUTH event whose relay tag names another relay (another host) is refused (OK false); the relay may normalise its URL or compare only the host."),

	// NIP-45 several filters.
	nip45("nip45/filters.1", LevelMust, refNIP45,
		"A COUNT's filters are OR'd into one count: an event two of its filters match is counted once."),

	// NIP-45 HyperLogLog (optional: "Relays may return an HyperLogLog value").
	nip45("nip45/hll.1", LevelMust, refNIP45HLL,
		"A COUNT answer that carries hll carries 256 one-byte registers, hex-encoded: a string of 512 hex characters."),
	nip45("nip45/hll.2", LevelShould, refNIP45HLL,
		"The hll registers are NIP-45's algorithm over the counted events: for a filter whose first tag attribute's first value gives the offset (its 64-hex form's character 32, plus 8), each register a counted event's pubkey byte at offset names holds the largest count, among those events, of leading zero bits after that byte plus one; every other register is 0."),

	// NIP-29 state events after every command that changes them.
	nip29("nip29/state-follow.1", LevelShould, refNIP29Meta,
		"Each state event, read again after every accepted command that changes it, shows the change both ways: a flag set and cleared (39000), a member added and removed (39002), an admin added and removed (39001), a join and a leave, an invited join, a parent set and detached (both groups' 39000), a pin added and removed (39005)."),

	// NIP-29 a group after its accepted 9008.
	nip29("nip29/deleted-group.1", LevelShould, refNIP29Meta+", with § Group state -- or moderation: delete-group (9008)",
		"After an accepted 9008 (delete-group), the group's state events no longer list its admins (39001) or members (39002): they reflect the latest group state, a group that is gone (\"or none\")."),
}
