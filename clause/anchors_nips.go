package clause

// nipAnchors maps each baseline clause with Source nip to the sentences of
// the NIP texts (at version.NIPsCommit) it derives from. Proposed by
// spec/internal/anchorgen and reviewed by hand; add anchors with
//
//	go run ./spec/internal/anchorgen -profile nip29 -unanchored   # proposals
//	go run ./spec/internal/anchorgen -emit PICKS > /tmp/a.go && mv /tmp/a.go clause/anchors_nips.go
//
// where PICKS lists "CLAUSE-ID HASH..." lines (merged with the anchors
// already here). The spec package's tests
// check that every anchor resolves in the bundled NIP texts.
var nipAnchors = map[string][]Anchor{
	"nip01/event-validation.1": {
		{DocNIP01, "Events and signatures", "a9f6b124313407d9"},
	},
	"nip01/event-validation.2": {
		{DocNIP01, "Events and signatures", "b6cb1c94b6b8bd9c"},
	},
	"nip01/filters.1": {
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "fc75e024d143ff86"},
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "970fe2575699504a"},
	},
	"nip01/filters.2": {
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "5e87b2022bc326df"},
	},
	"nip01/filters.3": {
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "10b6fbe975848e7c"},
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "d895898b80cdc583"},
	},
	"nip01/filters.4": {
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "3ffe2e504fb57185"},
	},
	"nip01/filters.5": {
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "970fe2575699504a"},
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "bc53d3d52e0a9448"},
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "515bc7267469109c"},
	},
	"nip01/filters.6": {
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "970fe2575699504a"},
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "d24c7c76352c47b3"},
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "b36bc3a769b8cdb8"},
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "868c593dc4a9d1a3"},
	},
	"nip01/limit.1": {
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "157a212f05ca214b"},
	},
	"nip01/limit.2": {
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "b77e09b687ac50d1"},
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "d895898b80cdc583"},
	},
	"nip01/live.1": {
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "50f0ee4f1f7e2bb0"},
		{DocNIP01, "From relay to client: sending events and notices", "0fe0f5d9e8e25842"},
	},
	"nip01/ok-prefix.1": {
		{DocNIP01, "From relay to client: sending events and notices", "448dd246a44fc3cb"},
		{DocNIP01, "From relay to client: sending events and notices", "4c9ba4a4ce52dc16"},
	},
	"nip01/ok-prefix.2": {
		{DocNIP01, "From relay to client: sending events and notices", "bf338b37556633ac"},
		{DocNIP01, "From relay to client: sending events and notices", "d4ec078e2d38d901"},
	},
	"nip01/ok-prefix.3": {
		{DocNIP01, "From relay to client: sending events and notices", "0ce97c9f54f3e4dd"},
		{DocNIP01, "From relay to client: sending events and notices", "6ec594ab4aeca390"},
	},
	"nip01/replaceable.1": {
		{DocNIP01, "Kinds", "d1d21b2828e0a14f"},
		{DocNIP01, "Kinds", "5a6ea8d2f2922ba6"},
	},
	"nip01/replaceable-kinds.1": {
		{DocNIP01, "Kinds", "499c14a771abcb86"},
	},
	"nip01/replaceable-kinds.2": {
		{DocNIP01, "Kinds", "e66ebcca56dacbeb"},
	},
	"nip01/subscriptions.1": {
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "50f0ee4f1f7e2bb0"},
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "ce456d2af2073146"},
	},
	"nip01/subscriptions.2": {
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "50f0ee4f1f7e2bb0"},
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "3b74087d3eb946f6"},
	},
	"nip01/subscriptions.3": {
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "627f61af3c4b83bd"},
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "36df8e5e792ae879"},
		{DocNIP01, "From client to relay: sending events and creating subscriptions", "61b29b8a37e5cb16"},
	},
	"nip01/subscriptions.4": {
		{DocNIP01, "From relay to client: sending events and notices", "0fe0f5d9e8e25842"},
	},
	"nip11/document.1": {
		{DocNIP11, "Relay Information Document", "64ede4f53c2d95e2"},
	},
	"nip11/document.2": {
		{DocNIP11, "Self", "4881a8ef7793538a"},
	},
	"nip29/admins.1": {
		{DocNIP29, "Group metadata events", "8cf1abdeef353231"},
	},
	"nip29/clients.1": {
		{DocNIP29, "Group metadata events", "85e1c462afaaa563"},
	},
	"nip29/clients.2": {
		{DocNIP29, "Group metadata events", "679c875fce1c510b"},
		{DocNIP29, "Group metadata events", "dbd159c77afebf7c"},
		{DocNIP29, "Group metadata events", "c3a345ca004fc6c7"},
		{DocNIP29, "Group metadata events", "65cb472f6a0ada7e"},
	},
	"nip29/clients.3": {
		{DocNIP29, "Checking your own membership in a group", "d237bf71a7d1f33e"},
		{DocNIP29, "Checking your own membership in a group", "aa01e1ac72eca16b"},
	},
	"nip29/clients.4": {
		{DocNIP29, "Timeline references", "5f5d06664abd3c6c"},
	},
	"nip29/clients.5": {
		{DocNIP29, "Detecting migrations and forks", "5cf589519c12ef83"},
	},
	"nip29/clients.6": {
		{DocNIP29, "Detecting migrations and forks", "500e1ae671b80f3c"},
	},
	"nip29/clients.7": {
		{DocNIP29, "Membership", "7d57df611bffb0f7"},
	},
	"nip29/clients.8": {
		{DocNIP29, "Subgroups", "b8af3fba2da0a707"},
		{DocNIP29, "Subgroups", "ef46d8b4a30ada44"},
	},
	"nip29/clients.9": {
		{DocNIP29, "Group referencing", "35f58fe2c477aa9a"},
		{DocNIP29, "Group referencing", "009f00d4d1ed3274"},
	},
	"nip29/clients.10": {
		{DocNIP29, "Detecting migrations and forks", "516d2f801c20b931"},
	},
	"nip29/clients.11": {
		{DocNIP29, "Replicating a group for resilience", "f89b9cf453246b9e"},
		{DocNIP29, "Replicating a group for resilience", "00a12a1e614d0adc"},
	},
	"nip29/clients.12": {
		{DocNIP29, "Group referencing", "6ac5f96d582e66df"},
	},
	"nip29/clients.13": {
		{DocNIP29, "Live audio/video (AV) spaces", "8d24d0f7f3dd65d1"},
		{DocNIP29, "Live audio/video (AV) spaces", "08532eabdcd9ee7f"},
	},
	"nip29/clients.14": {
		{DocNIP29, "Group metadata events", "0146774080566c62"},
	},
	"nip29/clients.15": {
		{DocNIP29, "Group metadata events", "69285cf1e0f7d73a"},
	},
	"nip29/clients.16": {
		{DocNIP29, "Subgroups", "9aeb1b10f20400b4"},
		{DocNIP29, "Subgroups", "ea4e64e221020484"},
	},
	"nip29/clients.17": {
		{DocNIP29, "Storing your list of groups", "9cdbfe9257986117"},
	},
	"nip29/clients.18": {
		{DocNIP29, "Group metadata events", "85e1c462afaaa563"},
		{DocNIP29, "Group metadata events", "af0d1844dcc0fa10"},
	},
	"nip29/clients.19": {
		{DocNIP29, "Group metadata events", "8cf1abdeef353231"},
		{DocNIP29, "Group metadata events", "206d6c064f3d0c47"},
	},
	"nip29/create.3": {
		{DocNIP29, "Group state -- or moderation", "8cd65503b1606274"},
		{DocNIP29, "Group state -- or moderation", "5af3b7019ff1e3e7"},
		{DocNIP29, "Group state -- or moderation", "fac282260513402d"},
	},
	"nip29/delete.2": {
		{DocNIP29, "Group state -- or moderation", "ede332e7ff05af18"},
		{DocNIP29, "Group state -- or moderation", "5af3b7019ff1e3e7"},
		{DocNIP29, "Group state -- or moderation", "fac282260513402d"},
	},
	"nip29/delete-event.1": {
		{DocNIP29, "Group state -- or moderation", "260d6bbb43063dfb"},
	},
	"nip29/deleted-group.1": {
		{DocNIP29, "Group metadata events", "af0d1844dcc0fa10"},
		{DocNIP29, "Group state -- or moderation", "ede332e7ff05af18"},
	},
	"nip29/group-ids.1": {
		{DocNIP29, "Relay-based Groups", "86c3bf62256a82d4"},
	},
	"nip29/hidden.1": {
		{DocNIP29, "Group metadata events", "6a8e3c896bd74b20"},
	},
	"nip29/hidden.2": {
		{DocNIP29, "Group metadata events", "6a8e3c896bd74b20"},
	},
	"nip29/invites.1": {
		{DocNIP29, "User-related group management events", "7991b50511738717"},
		{DocNIP29, "Adding yourself to a group", "1bff3d2ab94d805f"},
		{DocNIP29, "Group state -- or moderation", "fddca53048a6b08f"},
	},
	"nip29/invites.2": {
		{DocNIP29, "Adding yourself to a group", "1bff3d2ab94d805f"},
		{DocNIP29, "Group metadata events", "8b7f7d0ae8f043ee"},
		{DocNIP29, "User-related group management events", "fb2ec5051a4a8fc1"},
	},
	"nip29/invites.3": {
		{DocNIP29, "Group state -- or moderation", "fddca53048a6b08f"},
		{DocNIP29, "Group state -- or moderation", "5af3b7019ff1e3e7"},
		{DocNIP29, "Group state -- or moderation", "fac282260513402d"},
	},
	"nip29/join.1": {
		{DocNIP29, "User-related group management events", "fb2ec5051a4a8fc1"},
		{DocNIP29, "User-related group management events", "7d03215a719b55a8"},
		{DocNIP29, "Adding yourself to a group", "3ebf3d5de790a792"},
	},
	"nip29/join.2": {
		{DocNIP29, "User-related group management events", "0db876b1168ebf8e"},
	},
	"nip29/join.3": {
		{DocNIP29, "Adding yourself to a group", "1bff3d2ab94d805f"},
		{DocNIP29, "Group metadata events", "8b7f7d0ae8f043ee"},
	},
	"nip29/join.4": {
		{DocNIP29, "User-related group management events", "ffd5c27786cbfd30"},
	},
	"nip29/join.5": {
		{DocNIP29, "Adding yourself to a group", "6dead6dcf3d8490b"},
	},
	"nip29/late-publication.1": {
		{DocNIP29, "Late publication", "8bdbb69c3805129e"},
	},
	"nip29/late-publication.2": {
		{DocNIP29, "Group identity, migration and forking", "c5bdd5ae0169f468"},
		{DocNIP29, "Moving a group to another relay", "19d4c5e39e4ece08"},
		{DocNIP29, "Forking a group", "94f9d03281f95c93"},
		{DocNIP29, "Forking a group", "b8b057cb626c1016"},
		{DocNIP29, "Forking a group", "509bbfd598b9ac8b"},
	},
	"nip29/leave.1": {
		{DocNIP29, "User-related group management events", "10bdd1804bc72222"},
	},
	"nip29/leave.2": {
		{DocNIP29, "User-related group management events", "bdc7b774f2547a1e"},
	},
	"nip29/leave.3": {
		{DocNIP29, "User-related group management events", "10bdd1804bc72222"},
		{DocNIP29, "Checking your own membership in a group", "d237bf71a7d1f33e"},
	},
	"nip29/livekit.1": {
		{DocNIP29, "Live audio/video (AV) spaces", "b98558baf34f1d12"},
	},
	"nip29/livekit.2": {
		{DocNIP29, "Live audio/video (AV) spaces", "c821b4eea24c7da9"},
	},
	"nip29/livekit.3": {
		{DocNIP29, "Live audio/video (AV) spaces", "084a7132956b59a4"},
		{DocNIP29, "Group metadata events", "d074079796b7a9fd"},
	},
	"nip29/livekit.4": {
		{DocNIP29, "Live audio/video (AV) spaces", "8b9fdd78a460727d"},
	},
	"nip29/livekit.5": {
		{DocNIP29, "Live audio/video (AV) spaces", "b01bcaf0a4ea0b98"},
		{DocNIP29, "Live audio/video (AV) spaces", "545fb5eefc71a9c0"},
		{DocNIP29, "Live audio/video (AV) spaces", "3f50fae293576379"},
		{DocNIP29, "Group metadata events", "5899c064e52ac125"},
	},
	"nip29/membership.1": {
		{DocNIP29, "Group metadata events", "7fabb6306217a0e1"},
		{DocNIP29, "Group metadata events", "af0d1844dcc0fa10"},
	},
	"nip29/membership.2": {
		{DocNIP29, "Group metadata events", "7fabb6306217a0e1"},
		{DocNIP29, "Group metadata events", "af0d1844dcc0fa10"},
	},
	"nip29/membership.3": {
		{DocNIP29, "Group management", "2e160113ce2e8acb"},
	},
	"nip29/membership.4": {
		{DocNIP29, "Group management", "f69cb8303818be75"},
		{DocNIP29, "Group management", "2e160113ce2e8acb"},
	},
	"nip29/membership.5": {
		{DocNIP29, "Group management", "2e160113ce2e8acb"},
		{DocNIP29, "Group state -- or moderation", "a3b2fb7cf1c00569"},
	},
	"nip29/membership.6": {
		{DocNIP29, "Checking your own membership in a group", "d237bf71a7d1f33e"},
	},
	"nip29/metadata.1": {
		{DocNIP29, "Group metadata events", "74c79691a9938a45"},
		{DocNIP29, "Group metadata events", "af0d1844dcc0fa10"},
		{DocNIP29, "Group state -- or moderation", "5055f160bda381d5"},
	},
	"nip29/metadata.2": {
		{DocNIP29, "Group metadata events", "af0d1844dcc0fa10"},
		{DocNIP29, "Group state -- or moderation", "5055f160bda381d5"},
	},
	"nip29/metadata.3": {
		{DocNIP29, "Group metadata events", "af0d1844dcc0fa10"},
		{DocNIP29, "Group state -- or moderation", "5055f160bda381d5"},
	},
	"nip29/moderation.1": {
		{DocNIP29, "Group state -- or moderation", "fac282260513402d"},
		{DocNIP29, "Group state -- or moderation", "5af3b7019ff1e3e7"},
		{DocNIP29, "Group state -- or moderation", "39383fd2f969652a"},
		{DocNIP29, "Group state -- or moderation", "5055f160bda381d5"},
		{DocNIP29, "Group state -- or moderation", "260d6bbb43063dfb"},
		{DocNIP29, "Group state -- or moderation", "ede332e7ff05af18"},
		{DocNIP29, "Group state -- or moderation", "fddca53048a6b08f"},
		{DocNIP29, "Group state -- or moderation", "4d3d6d3928840f75"},
	},
	"nip29/moderation.2": {
		{DocNIP29, "Group state -- or moderation", "bb9f08581996686f"},
	},
	"nip29/moderation.3": {
		{DocNIP29, "Group state -- or moderation", "9c4f20aa87aa6314"},
		{DocNIP29, "Group state -- or moderation", "a3b2fb7cf1c00569"},
		{DocNIP29, "Group state -- or moderation", "8cd65503b1606274"},
	},
	"nip29/moderation.4": {
		{DocNIP29, "Group state -- or moderation", "7b4ea2ece0a6df62"},
		{DocNIP29, "Group state -- or moderation", "f065ef6d4f3d4090"},
		{DocNIP29, "Group management", "fb5baca78f876823"},
		{DocNIP29, "Group metadata events", "f53e9e0ab731c402"},
		{DocNIP29, "Group management", "3ec6a909343e6dc1"},
		{DocNIP29, "Group management", "0bbdca8ab4e59436"},
	},
	"nip29/moderation.5": {
		{DocNIP29, "The h tag", "2738163e97646de4"},
		{DocNIP29, "Group state -- or moderation", "1f88f506d0c23a8b"},
		{DocNIP29, "Normal user-created events", "40a12fe850fffc39"},
	},
	"nip29/permissions.1": {
		{DocNIP29, "Group state -- or moderation", "fac282260513402d"},
		{DocNIP29, "Group state -- or moderation", "5af3b7019ff1e3e7"},
		{DocNIP29, "Group state -- or moderation", "a3b2fb7cf1c00569"},
	},
	"nip29/permissions.2": {
		{DocNIP29, "Group state -- or moderation", "fac282260513402d"},
		{DocNIP29, "Group state -- or moderation", "5055f160bda381d5"},
	},
	"nip29/pins.1": {
		{DocNIP29, "Group metadata events", "98deef5d34a9cbde"},
		{DocNIP29, "Group metadata events", "f4bc34a68b9d7521"},
		{DocNIP29, "Group metadata events", "b75b508bad8d5036"},
	},
	"nip29/pins.2": {
		{DocNIP29, "Group metadata events", "f4bc34a68b9d7521"},
		{DocNIP29, "Group metadata events", "b75b508bad8d5036"},
		{DocNIP29, "Group state -- or moderation", "4d3d6d3928840f75"},
	},
	"nip29/pins.3": {
		{DocNIP29, "Group state -- or moderation", "4d3d6d3928840f75"},
		{DocNIP29, "Group state -- or moderation", "5af3b7019ff1e3e7"},
		{DocNIP29, "Group state -- or moderation", "fac282260513402d"},
	},
	"nip29/pins.4": {
		{DocNIP29, "Group metadata events", "b072301ee30e0d11"},
	},
	"nip29/read-access.1": {
		{DocNIP29, "Group metadata events", "d074079796b7a9fd"},
	},
	"nip29/read-access.2": {
		{DocNIP29, "Group metadata events", "d074079796b7a9fd"},
	},
	"nip29/read-access.3": {
		{DocNIP29, "Group metadata events", "d074079796b7a9fd"},
	},
	"nip29/restricted.1": {
		{DocNIP29, "Group metadata events", "c5f295d82bab54fb"},
	},
	"nip29/restricted.2": {
		{DocNIP29, "Group metadata events", "dbd159c77afebf7c"},
		{DocNIP29, "Group metadata events", "8b7f7d0ae8f043ee"},
	},
	"nip29/roles.1": {
		{DocNIP29, "Group metadata events", "f055e6b161c7b9f1"},
		{DocNIP29, "Group management", "ee26c8af3bb63df9"},
	},
	"nip29/state-events.1": {
		{DocNIP29, "Group metadata events", "85e1c462afaaa563"},
		{DocNIP29, "Group metadata events", "7e6d60d394126188"},
		{DocNIP29, "Relay-generated events", "9f1faa918005f603"},
		{DocNIP29, "Group metadata events", "572e494d393264ed"},
	},
	"nip29/state-events.2": {
		{DocNIP29, "Group metadata events", "af0d1844dcc0fa10"},
	},
	"nip29/state-events.3": {
		{DocNIP29, "Group metadata events", "85e1c462afaaa563"},
	},
	"nip29/state-events.5": {
		{DocNIP29, "Group metadata events", "74c79691a9938a45"},
		{DocNIP29, "Group metadata events", "af0d1844dcc0fa10"},
	},
	"nip29/state-events.6": {
		{DocNIP29, "Group metadata events", "8fd6892b3d020fc0"},
	},
	"nip29/state-events.7": {
		{DocNIP29, "Group metadata events", "aa94ea7792e567fd"},
	},
	"nip29/state-events.8": {
		{DocNIP29, "Group metadata events", "a749213f5bd1701b"},
		{DocNIP29, "Group metadata events", "638112c1dc327880"},
	},
	"nip29/state-events.9": {
		{DocNIP29, "Group metadata events", "fd7cec1aa7d1c357"},
		{DocNIP29, "Group metadata events", "2532e7e28b3513bd"},
		{DocNIP29, "Group metadata events", "3271f51e8577b28f"},
		{DocNIP29, "Group metadata events", "1bb26854d8b89aeb"},
		{DocNIP29, "Group metadata events", "8785019ef10aee78"},
	},
	"nip29/state-events.10": {
		{DocNIP29, "Normal user-created events", "8cd7b47a5defa9be"},
		{DocNIP29, "Group metadata events", "225b7e82d41b5238"},
		{DocNIP29, "Group metadata events", "3d939e629c44b961"},
		{DocNIP29, "Group metadata events", "87212e92deaf1bd4"},
	},
	"nip29/state-events.11": {
		{DocNIP29, "Group metadata events", "074e6e7ec17a2261"},
	},
	"nip29/state-follow.1": {
		{DocNIP29, "Group metadata events", "af0d1844dcc0fa10"},
	},
	"nip29/subgroups.1": {
		{DocNIP29, "Relay support detection", "05f5c076295ab094"},
	},
	"nip29/subgroups.2": {
		{DocNIP29, "Rules", "a9a969ba7834c119"},
		{DocNIP29, "Rules", "48f94bf29bdf17e8"},
		{DocNIP29, "Rules", "901100c99f765393"},
		{DocNIP29, "Subgroups", "ef46d8b4a30ada44"},
	},
	"nip29/subgroups.3": {
		{DocNIP29, "Rules", "a53d359d8e479f33"},
		{DocNIP29, "Rules", "9aac1dfa0532116e"},
		{DocNIP29, "Rules", "030e07af4cc48760"},
	},
	"nip29/subgroups.4": {
		{DocNIP29, "Rules", "030e07af4cc48760"},
	},
	"nip29/subgroups.5": {
		{DocNIP29, "Rules", "c7f2434b0e89c2de"},
	},
	"nip29/subgroups.6": {
		{DocNIP29, "Rules", "e5a5edf0a7d128d8"},
	},
	"nip29/subgroups.7": {
		{DocNIP29, "Rules", "a5739c47a94daea1"},
	},
	"nip29/subgroups.8": {
		{DocNIP29, "Rules", "8a9fe10958809a47"},
	},
	"nip29/subgroups.9": {
		{DocNIP29, "Rules", "a9a969ba7834c119"},
		{DocNIP29, "Rules", "dc6e8d143b53f917"},
		{DocNIP29, "Subgroups", "c3ac90ecc0a49eac"},
		{DocNIP29, "Rules", "a53d359d8e479f33"},
		{DocNIP29, "Rules", "f33da7e381e29ad1"},
	},
	"nip29/subgroups.10": {
		{DocNIP29, "Rules", "47cce6550fb34b10"},
		{DocNIP29, "Subgroups", "c3ac90ecc0a49eac"},
	},
	"nip29/subgroups.11": {
		{DocNIP29, "Membership", "8a88c4c4ba39e0c4"},
		{DocNIP29, "Membership", "d29c6cebaf3152f7"},
		{DocNIP29, "Membership", "2b1a6f6cea64f971"},
		{DocNIP29, "Membership", "beff0268114f81df"},
	},
	"nip29/subgroups.12": {
		{DocNIP29, "Subgroups", "b5fdf6b1318e0c1c"},
	},
	"nip29/subgroups.13": {
		{DocNIP29, "Rules", "ae2795295cc0ae50"},
	},
	"nip29/timeline.1": {
		{DocNIP29, "Timeline references", "cf3b0b9dbacf34e6"},
	},
	"nip29/timeline.2": {
		{DocNIP29, "Timeline references", "2d26e9dcc0aeaa84"},
	},
	"nip29/timeline.3": {
		{DocNIP29, "Timeline references", "5410e71ee938f27c"},
	},
	"nip29/timeline.4": {
		{DocNIP29, "Timeline references", "d02fec82b71e174f"},
		{DocNIP29, "Timeline references", "57b45aa6ec756c45"},
	},
	"nip42/auth.1": {
		{DocNIP42, "New client-relay protocol messages", "695e04f20521b7cb"},
	},
	"nip42/auth.2": {
		{DocNIP42, "Canonical authentication event", "6ce604aea7da269c"},
	},
	"nip42/auth.3": {
		{DocNIP42, "OK and CLOSED machine-readable prefixes", "766174ba9c545765"},
		{DocNIP42, "OK and CLOSED machine-readable prefixes", "035c53c4561251cf"},
	},
	"nip42/auth.4": {
		{DocNIP42, "Canonical authentication event", "9a26d16cb4a2c890"},
		{DocNIP42, "Protocol flow", "ffe1108c520bb868"},
	},
	"nip42/verify.1": {
		{DocNIP42, "Signed Event Verification", "8641911e5458a2a7"},
		{DocNIP42, "Signed Event Verification", "9568b1f1a52ebfdc"},
		{DocNIP42, "Protocol flow", "ffe1108c520bb868"},
	},
	"nip42/verify.2": {
		{DocNIP42, "Signed Event Verification", "8641911e5458a2a7"},
		{DocNIP42, "Signed Event Verification", "11579a09170280bd"},
	},
	"nip42/verify.3": {
		{DocNIP42, "Signed Event Verification", "8641911e5458a2a7"},
		{DocNIP42, "Signed Event Verification", "708f3ef93894b497"},
	},
	"nip42/verify.4": {
		{DocNIP42, "New client-relay protocol messages", "b1f5783396bbabf0"},
		{DocNIP42, "New client-relay protocol messages", "a446dad80a664cd6"},
	},
	"nip45/count.1": {
		{DocNIP45, "Filters and return values", "e667e960fad8b875"},
		{DocNIP45, "Filters and return values", "4b2f7906a2174313"},
		{DocNIP45, "Filters and return values", "d2fcfd59a1e9e151"},
	},
	"nip45/count.2": {
		{DocNIP45, "Filters and return values", "b4fea997171c65b6"},
	},
	"nip45/count.3": {
		{DocNIP45, "Filters and return values", "4b2f7906a2174313"},
	},
	"nip45/filters.1": {
		{DocNIP45, "Filters and return values", "d2fcfd59a1e9e151"},
	},
}
