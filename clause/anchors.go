package clause

// anchors maps each identity and labels clause to the draft sentences it
// derives from. Proposed by spec/internal/anchorgen (the sentences of the
// clause's section sharing most words with its text) and reviewed by hand;
// regenerate with
//
//	go run ./spec/internal/anchorgen -dir ../shared/spec -emit PICKS > clause/anchors.go
//
// where PICKS lists "CLAUSE-ID HASH..." lines. The spec package's tests
// check that every anchor resolves in the bundled drafts.
var anchors = map[string][]Anchor{
	"identity/identity-tags.1": {
		{DocIdentity, "Channel identity tags", "04e75bea9b77fa14"},
		{DocIdentity, "Channel identity tags", "1dc21c9a2f37f96a"},
		{DocIdentity, "Channel identity tags", "abcf041983d29b23"},
	},
	"identity/identity-tags.2": {
		{DocIdentity, "Channel identity tags", "04e75bea9b77fa14"},
		{DocIdentity, "Channel identity tags", "61e699d86b530621"},
		{DocIdentity, "Channel identity tags", "59892a9fd59420d9"},
	},
	"identity/identity-tags.3": {
		{DocIdentity, "Channel identity tags", "04e75bea9b77fa14"},
		{DocIdentity, "Channel identity tags", "56c69845da37f8ce"},
	},
	"identity/identity-tags.4": {
		{DocIdentity, "Channel identity tags", "2e7fbdf21321cad4"},
		{DocIdentity, "Channel identity tags", "8b877c3254e88ab4"},
	},
	"identity/creator.1": {
		{DocIdentity, "Channel identity tags", "8a5a9c105fb7a0c1"},
		{DocIdentity, "Channel identity tags", "5408a9e23791cd0f"},
	},
	"identity/creator.2": {
		{DocIdentity, "Channel identity tags", "0ded85b68121cb56"},
	},
	"identity/creator.3": {
		{DocIdentity, "Channel identity tags", "4097c358b245d446"},
	},
	"identity/creator.4": {
		{DocIdentity, "Channel identity tags", "4097c358b245d446"},
	},
	"identity/creation-time.1": {
		{DocIdentity, "Channel identity tags", "f995dc2e7610f672"},
		{DocIdentity, "Channel identity tags", "e9866a8e97a2df37"},
	},
	"identity/creation-time.2": {
		{DocIdentity, "Channel identity tags", "a571e627f7549056"},
	},
	"identity/creation-time.3": {
		{DocIdentity, "Channel identity tags", "0b292057d0b583f5"},
	},
	"identity/older-events.1": {
		{DocIdentity, "Channel identity tags", "2b022563ff0f1f00"},
		{DocIdentity, "Channel identity tags", "0bddf739bc70976f"},
		{DocIdentity, "Channel identity tags", "5076454a81b79bdf"},
	},
	"identity/older-events.2": {
		{DocIdentity, "Channel identity tags", "624db5976d6f7378"},
		{DocIdentity, "Channel identity tags", "4d513a1d2bee660e"},
	},
	"identity/labels.1": {
		{DocIdentity, "Channel labels", "db40273ba4947c45"},
	},
	"identity/labels.2": {
		{DocIdentity, "Channel labels", "9321d345c68c789d"},
	},
	"identity/labels.3": {
		{DocIdentity, "Channel labels", "217c59f8b79c9635"},
	},
	"identity/labels.4": {
		{DocIdentity, "Channel labels", "843600210cbe9422"},
	},
	"identity/labels.5": {
		{DocIdentity, "Channel labels", "5988304e60800e2d"},
	},
	"identity/labels.6": {
		{DocIdentity, "Channel labels", "7a3fd20fe0e87722"},
	},
	"identity/labels.7": {
		{DocIdentity, "Channel labels", "7a3fd20fe0e87722"},
	},
	"identity/label-rules.1": {
		{DocIdentity, "Channel labels", "6f5030f537d517ac"},
	},
	"identity/label-rules.2": {
		{DocIdentity, "Channel labels", "eddea32fcbc9ac3c"},
		{DocIdentity, "Channel labels", "6f5030f537d517ac"},
	},
	"identity/label-rules.3": {
		{DocIdentity, "Channel labels", "c68f11b17b0610fb"},
		{DocIdentity, "Channel labels", "6f5030f537d517ac"},
	},
	"identity/label-rules.4": {
		{DocIdentity, "Channel labels", "6f5030f537d517ac"},
	},
	"identity/label-rules.5": {
		{DocIdentity, "Channel labels", "6f5030f537d517ac"},
	},
	"identity/label-rules.6": {
		{DocIdentity, "Channel labels", "5214732086b872ff"},
	},
	"identity/label-rules.7": {
		{DocIdentity, "Channel labels", "5214732086b872ff"},
	},
	"identity/finding-channels.1": {
		{DocIdentity, "Finding channels", "e484dab4136b5923"},
	},
	"identity/finding-channels.2": {
		{DocIdentity, "Finding channels", "7ed54f8a2afff5b5"},
	},
	"identity/finding-channels.3": {
		{DocIdentity, "Finding channels", "45e1465c06e239a2"},
		{DocIdentity, "Finding channels", "a2678f120337c7a5"},
	},
	"identity/finding-channels.4": {
		{DocIdentity, "Finding channels", "d272af6f714f4e01"},
	},
	"identity/finding-channels.5": {
		{DocIdentity, "Finding channels", "1db1df804262d3a7"},
	},
	"identity/finding-channels.6": {
		{DocIdentity, "Finding channels", "f52848ddf3e0150b"},
	},
	"identity/match-before-limit.1": {
		{DocIdentity, "Finding channels", "7bc698792d3486dc"},
	},
	"identity/match-before-limit.2": {
		{DocIdentity, "Finding channels", "7bc698792d3486dc"},
	},
	"identity/choosing-one-channel.1": {
		{DocIdentity, "Choosing one channel", "c895ff2436509af8"},
		{DocIdentity, "Choosing one channel", "636d6aa0259a139a"},
	},
	"identity/choosing-one-channel.2": {
		{DocIdentity, "Choosing one channel", "d48dcca59bb86fec"},
	},
	"identity/choosing-one-channel.3": {
		{DocIdentity, "Choosing one channel", "d56294c925a83d20"},
		{DocIdentity, "Choosing one channel", "5fc11d15c3f55eff"},
		{DocIdentity, "Choosing one channel", "3701356e2daf3ca6"},
		{DocIdentity, "Choosing one channel", "aeaee2af61218688"},
	},
	"identity/choosing-one-channel.4": {
		{DocIdentity, "Choosing one channel", "d81602f9e2d208f4"},
		{DocIdentity, "Choosing one channel", "1826cfbcc3b75ef1"},
		{DocIdentity, "Choosing one channel", "c407b09769b3b8c2"},
	},
	"identity/system-channels.1": {
		{DocIdentity, "System channels", "407d616a413e7156"},
		{DocIdentity, "System channels", "f8bf8a5780411f22"},
	},
	"identity/system-channels.2": {
		{DocIdentity, "System channels", "9aa46ba3d7f1453f"},
	},
	"identity/system-channels.3": {
		{DocIdentity, "System channels", "b9c4cd65f87853cf"},
	},
	"identity/system-channels.4": {
		{DocIdentity, "System channels", "7290cda7dbca4bae"},
	},
	"identity/reads-leave-out.1": {
		{DocIdentity, "Reads that leave system channels out", "a1f3e203eb6a985c"},
		{DocIdentity, "Reads that leave system channels out", "f033f8a93b3c4c95"},
	},
	"identity/reads-leave-out.2": {
		{DocIdentity, "Reads that leave system channels out", "a1f3e203eb6a985c"},
		{DocIdentity, "Reads that leave system channels out", "f033f8a93b3c4c95"},
	},
	"identity/reads-leave-out.3": {
		{DocIdentity, "Reads that leave system channels out", "a1f3e203eb6a985c"},
		{DocIdentity, "Reads that leave system channels out", "c67bd70e37304d41"},
	},
	"identity/reads-leave-out.4": {
		{DocIdentity, "Reads that leave system channels out", "a1f3e203eb6a985c"},
		{DocIdentity, "Reads that leave system channels out", "9dfed7efeac2ba04"},
	},
	"identity/reads-leave-out.5": {
		{DocIdentity, "Reads that leave system channels out", "a1f3e203eb6a985c"},
		{DocIdentity, "Reads that leave system channels out", "9dfed7efeac2ba04"},
	},
	"identity/reads-leave-out.6": {
		{DocIdentity, "Reads that leave system channels out", "a1f3e203eb6a985c"},
	},
	"identity/reads-leave-out.7": {
		{DocIdentity, "Reads that leave system channels out", "d22be55d7a7bd27e"},
	},
	"identity/reads-leave-out.8": {
		{DocIdentity, "Reads that leave system channels out", "b8e67d3bca08c331"},
		{DocIdentity, "Reads that leave system channels out", "268a5ee86f66486a"},
		{DocIdentity, "Reads that leave system channels out", "167fbc03e9847064"},
	},
	"identity/reads-leave-out.9": {
		{DocIdentity, "Reads that leave system channels out", "ecac2e64ca9d8e67"},
	},
	"identity/naming.1": {
		{DocIdentity, "Reads that leave system channels out", "c13e1c4068f3c8f9"},
		{DocIdentity, "Reads that leave system channels out", "5bb86bca1c5a4249"},
	},
	"identity/naming.2": {
		{DocIdentity, "Reads that leave system channels out", "c13e1c4068f3c8f9"},
		{DocIdentity, "Reads that leave system channels out", "5bb86bca1c5a4249"},
	},
	"identity/naming.3": {
		{DocIdentity, "Reads that leave system channels out", "c13e1c4068f3c8f9"},
	},
	"identity/naming.4": {
		{DocIdentity, "Reads that leave system channels out", "5bb86bca1c5a4249"},
	},
	"identity/naming.5": {
		{DocIdentity, "Reads that leave system channels out", "a55fc1e0a4eff924"},
		{DocIdentity, "Reads that leave system channels out", "5a952db9c3f039ec"},
	},
	"identity/naming.6": {
		{DocIdentity, "Reads that leave system channels out", "429a40cdb2db74ed"},
		{DocIdentity, "Reads that leave system channels out", "0b975750a60d2441"},
	},
	"identity/notices.1": {
		{DocIdentity, "Membership notices carry the channel type", "22fd7dac8fe036cd"},
		{DocIdentity, "Membership notices carry the channel type", "7754ff4caa008c25"},
	},
	"identity/notices.2": {
		{DocIdentity, "Membership notices carry the channel type", "bcf7f12f1ce09bf9"},
	},
	"identity/notices.3": {
		{DocIdentity, "Membership notices carry the channel type", "181d3c399eb4abc1"},
		{DocIdentity, "Membership notices carry the channel type", "ac9e26b37c1dca5f"},
	},
	"identity/notices.4": {
		{DocIdentity, "Membership notices carry the channel type", "181d3c399eb4abc1"},
		{DocIdentity, "Membership notices carry the channel type", "d8925d008b8d77aa"},
	},
	"identity/notices.5": {
		{DocIdentity, "Membership notices carry the channel type", "181d3c399eb4abc1"},
		{DocIdentity, "Membership notices carry the channel type", "c737edd2df220354"},
		{DocIdentity, "Membership notices carry the channel type", "4df30c34a9e116cf"},
		{DocIdentity, "Membership notices carry the channel type", "e088f34dad4e05e5"},
	},
	"identity/notices.6": {
		{DocIdentity, "Membership notices carry the channel type", "34242b2fc23103b1"},
	},
	"identity/notices.7": {
		{DocIdentity, "Membership notices carry the channel type", "34242b2fc23103b1"},
	},
	"identity/notices.8": {
		{DocIdentity, "Membership notices carry the channel type", "34242b2fc23103b1"},
	},
	"identity/notices.9": {
		{DocIdentity, "Membership notices carry the channel type", "2b95a17e174cae1e"},
		{DocIdentity, "Membership notices carry the channel type", "73a48a47075d0d7e"},
	},
	"identity/notices.10": {
		{DocIdentity, "Membership notices carry the channel type", "73a48a47075d0d7e"},
	},
	"identity/notices.11": {
		{DocIdentity, "Membership notices carry the channel type", "1785d89f93475e0e"},
	},
	"identity/notices.12": {
		{DocIdentity, "Membership notices carry the channel type", "fe56c865d0360352"},
		{DocIdentity, "Membership notices carry the channel type", "7754ff4caa008c25"},
	},
	"identity/asking-for-system.1": {
		{DocIdentity, "Asking for system channels", "d27f5bd2c8db70a2"},
		{DocIdentity, "Asking for system channels", "ad008ba92175e46b"},
	},
	"identity/asking-for-system.2": {
		{DocIdentity, "Asking for system channels", "d27f5bd2c8db70a2"},
		{DocIdentity, "Asking for system channels", "a8bb4538f639f138"},
	},
	"identity/asking-for-system.3": {
		{DocIdentity, "Asking for system channels", "d27f5bd2c8db70a2"},
	},
	"identity/asking-for-system.4": {
		{DocIdentity, "Asking for system channels", "a31efa937ffee6d2"},
	},
	"identity/asking-for-system.5": {
		{DocIdentity, "Asking for system channels", "e46ff08350dd51b7"},
	},
	"identity/asking-for-system.6": {
		{DocIdentity, "Asking for system channels", "20eafd56d46b3d2a"},
		{DocIdentity, "Asking for system channels", "84f11e0b559525f9"},
	},
	"identity/asking-for-system.7": {
		{DocIdentity, "Asking for system channels", "384ccc3acf57fead"},
	},
	"identity/asking-for-system.8": {
		{DocIdentity, "Asking for system channels", "6799f225e2d4aec7"},
		{DocIdentity, "Asking for system channels", "2da95f8d6ebe75a8"},
	},
	"identity/advertising.1": {
		{DocIdentity, "Advertising support", "cd33628113824047"},
	},
	"identity/advertising.2": {
		{DocIdentity, "Advertising support", "fc84139b307489fc"},
	},
	"identity/advertising.3": {
		{DocIdentity, "Advertising support", "ffaccc7b2947161d"},
	},
	"identity/advertising.4": {
		{DocIdentity, "Advertising support", "0b6b0eedca092f34"},
	},
	"identity/trust.1": {
		{DocIdentity, "Trust", "745f048ea48d5a47"},
	},
	"identity/trust.2": {
		{DocIdentity, "Trust", "e97f0faae4588bcc"},
		{DocIdentity, "Trust", "5bc0136b951663cf"},
	},
	"labels/scope.1": {
		{DocLabels, "Abstract", "bbca8eb1041bfebb"},
	},
	"labels/scope.2": {
		{DocLabels, "Scope", "c32406931eba5cc5"},
	},
	"labels/scope.3": {
		{DocLabels, "Scope", "fda468c73252fa4f"},
		{DocLabels, "Scope", "f6c644142a88780d"},
	},
	"labels/scope.4": {
		{DocLabels, "Scope", "99d28d9e018ad9b3"},
		{DocLabels, "Scope", "c657a96bed35727e"},
	},
	"labels/scope.5": {
		{DocLabels, "Scope", "c657a96bed35727e"},
	},
	"labels/scope.6": {
		{DocLabels, "Scope", "e627f7e767981519"},
	},
	"labels/scope.7": {
		{DocLabels, "Scope", "e627f7e767981519"},
	},
	"labels/scope.8": {
		{DocLabels, "Scope", "cbe0bc2ae0033c20"},
	},
	"labels/scope.9": {
		{DocLabels, "Scope", "cbe0bc2ae0033c20"},
	},
	"labels/scope.10": {
		{DocLabels, "Scope", "a3ca4a22fe078633"},
	},
	"labels/scope.11": {
		{DocLabels, "Scope", "c32406931eba5cc5"},
	},
	"labels/capability.1": {
		{DocLabels, "Capability discovery", "9a7dc51a52b38ea4"},
	},
	"labels/capability.2": {
		{DocLabels, "Capability discovery", "9a7dc51a52b38ea4"},
	},
	"labels/capability.3": {
		{DocLabels, "Capability discovery", "7b8c0782297459a3"},
	},
	"labels/capability.4": {
		{DocLabels, "Capability discovery", "db515a7fa409391a"},
		{DocLabels, "Capability discovery", "5314080ff5356c23"},
	},
	"labels/capability.5": {
		{DocLabels, "Capability discovery", "744cba837d9100db"},
	},
	"labels/values-and-limits.1": {
		{DocLabels, "Label values and limits", "3f9aa83cb5f3d58f"},
		{DocLabels, "Label values and limits", "762ae498874375e0"},
	},
	"labels/values-and-limits.2": {
		{DocLabels, "Label values and limits", "8d08212fdc8476af"},
		{DocLabels, "Label values and limits", "cb5343036e3588e2"},
	},
	"labels/values-and-limits.3": {
		{DocLabels, "Label values and limits", "d7effc564064ffda"},
	},
	"labels/values-and-limits.4": {
		{DocLabels, "Label values and limits", "d700cea87bf24d7b"},
	},
	"labels/values-and-limits.5": {
		{DocLabels, "Label values and limits", "7777b8509d79ccb2"},
	},
	"labels/values-and-limits.6": {
		{DocLabels, "Label values and limits", "e5e78f76405ee431"},
		{DocLabels, "Label values and limits", "259fcb951128a4a1"},
	},
	"labels/values-and-limits.7": {
		{DocLabels, "Label values and limits", "e5e78f76405ee431"},
		{DocLabels, "Label values and limits", "ecdb8e895619181d"},
	},
	"labels/values-and-limits.8": {
		{DocLabels, "Label values and limits", "c600d05c515ce4e1"},
	},
	"labels/values-and-limits.9": {
		{DocLabels, "Label values and limits", "aa58b15cc87019a7"},
	},
	"labels/values-and-limits.10": {
		{DocLabels, "Label values and limits", "e852450788470b8f"},
	},
	"labels/events.1": {
		{DocLabels, "Events", "006809c3038afeba"},
		{DocLabels, "Events", "8127667cba2f1ab4"},
	},
	"labels/events.2": {
		{DocLabels, "Events", "39eee48a2a375487"},
	},
	"labels/events.3": {
		{DocLabels, "Events", "a43b767e4250da88"},
	},
	"labels/events.4": {
		{DocLabels, "Events", "a43b767e4250da88"},
	},
	"labels/events.5": {
		{DocLabels, "Events", "a43b767e4250da88"},
		{DocLabels, "Events", "648eadd13d5f1c54"},
	},
	"labels/events.6": {
		{DocLabels, "Events", "648eadd13d5f1c54"},
	},
	"labels/events.7": {
		{DocLabels, "Events", "0695e6cfd3b7a837"},
		{DocLabels, "Events", "52cde76e2ee5d720"},
	},
	"labels/events.8": {
		{DocLabels, "Events", "0695e6cfd3b7a837"},
		{DocLabels, "Events", "52cde76e2ee5d720"},
	},
	"labels/events.9": {
		{DocLabels, "Events", "0695e6cfd3b7a837"},
		{DocLabels, "Events", "52cde76e2ee5d720"},
	},
	"labels/events.10": {
		{DocLabels, "Events", "e6cf138f2ac27ac0"},
	},
	"labels/initial-labels.1": {
		{DocLabels, "Initial labels: kind 9007", "89f8b232cce42d0a"},
	},
	"labels/initial-labels.2": {
		{DocLabels, "Initial labels: kind 9007", "d3bde11328097687"},
	},
	"labels/initial-labels.3": {
		{DocLabels, "Initial labels: kind 9007", "d3bde11328097687"},
	},
	"labels/initial-labels.4": {
		{DocLabels, "Initial labels: kind 9007", "58866578429b26c3"},
	},
	"labels/initial-labels.5": {
		{DocLabels, "Initial labels: kind 9007", "276babf07e07b78e"},
	},
	"labels/initial-labels.6": {
		{DocLabels, "Initial labels: kind 9007", "784f1a0808dbaa16"},
	},
	"labels/initial-labels.7": {
		{DocLabels, "Initial labels: kind 9007", "355c8a327a6c19ff"},
	},
	"labels/initial-labels.8": {
		{DocLabels, "Initial labels: kind 9007", "cfc0461482ed824a"},
	},
	"labels/initial-labels.9": {
		{DocLabels, "Initial labels: kind 9007", "cfc0461482ed824a"},
	},
	"labels/initial-labels.10": {
		{DocLabels, "Initial labels: kind 9007", "b534e0bd5b1b95c6"},
	},
	"labels/add-remove.1": {
		{DocLabels, "Add and remove labels: kind 9002", "e89c961869fde205"},
	},
	"labels/add-remove.2": {
		{DocLabels, "Add and remove labels: kind 9002", "afe6faba39f69022"},
		{DocLabels, "Add and remove labels: kind 9002", "e6c9cb687d6bdb74"},
	},
	"labels/add-remove.3": {
		{DocLabels, "Add and remove labels: kind 9002", "50f8ba32fc4b7a6c"},
	},
	"labels/add-remove.4": {
		{DocLabels, "Add and remove labels: kind 9002", "92d9f5b73bfe65b6"},
	},
	"labels/add-remove.5": {
		{DocLabels, "Add and remove labels: kind 9002", "8df6f0060a71cc8a"},
	},
	"labels/add-remove.6": {
		{DocLabels, "Add and remove labels: kind 9002", "f750b03921ed260e"},
		{DocLabels, "Add and remove labels: kind 9002", "b1b39d8e2e6e0bfe"},
	},
	"labels/add-remove.7": {
		{DocLabels, "Add and remove labels: kind 9002", "3c7b83bf9bd82c78"},
	},
	"labels/add-remove.8": {
		{DocLabels, "Add and remove labels: kind 9002", "3c7b83bf9bd82c78"},
	},
	"labels/add-remove.9": {
		{DocLabels, "Add and remove labels: kind 9002", "e1f4fbe87ff57447"},
	},
	"labels/add-remove.10": {
		{DocLabels, "Add and remove labels: kind 9002", "e1f4fbe87ff57447"},
	},
	"labels/add-remove.11": {
		{DocLabels, "Add and remove labels: kind 9002", "3a69c6e291f12e46"},
	},
	"labels/add-remove.12": {
		{DocLabels, "Add and remove labels: kind 9002", "804ec75b6337c5ec"},
	},
	"labels/add-remove.13": {
		{DocLabels, "Add and remove labels: kind 9002", "23f7e6b69f5bb0ab"},
	},
	"labels/add-remove.14": {
		{DocLabels, "Add and remove labels: kind 9002", "bf2bf3b02363b84d"},
	},
	"labels/add-remove.15": {
		{DocLabels, "Add and remove labels: kind 9002", "0d5e5f1d14d4e8af"},
	},
	"labels/snapshot.1": {
		{DocLabels, "Metadata snapshot: kind 39000", "094b8244d91642a5"},
	},
	"labels/snapshot.2": {
		{DocLabels, "Metadata snapshot: kind 39000", "85807cc73b33fec3"},
	},
	"labels/snapshot.3": {
		{DocLabels, "Metadata snapshot: kind 39000", "85807cc73b33fec3"},
	},
	"labels/snapshot.4": {
		{DocLabels, "Metadata snapshot: kind 39000", "2e29f39174fcfd6b"},
	},
	"labels/snapshot.5": {
		{DocLabels, "Metadata snapshot: kind 39000", "ed0ba812f42dce49"},
	},
	"labels/snapshot.6": {
		{DocLabels, "Metadata snapshot: kind 39000", "f8b0eec92844d17c"},
	},
	"labels/snapshot.7": {
		{DocLabels, "Metadata snapshot: kind 39000", "fb2a4ede71f25a3e"},
	},
	"labels/snapshot.8": {
		{DocLabels, "Metadata snapshot: kind 39000", "d66088e923ac2fde"},
		{DocLabels, "Metadata snapshot: kind 39000", "7d44c6c7603727c2"},
	},
	"labels/snapshot.9": {
		{DocLabels, "Metadata snapshot: kind 39000", "0fef798b820e9ca7"},
	},
	"labels/snapshot.10": {
		{DocLabels, "Metadata snapshot: kind 39000", "6ff2efe5e0bd6dcb"},
	},
	"labels/snapshot.11": {
		{DocLabels, "Metadata snapshot: kind 39000", "551af92fea36dca1"},
	},
	"labels/snapshot.12": {
		{DocLabels, "Metadata snapshot: kind 39000", "c16a7414964d2357"},
		{DocLabels, "Metadata snapshot: kind 39000", "cdd292ccc2ccefe8"},
	},
	"labels/snapshot.13": {
		{DocLabels, "Metadata snapshot: kind 39000", "6ff2efe5e0bd6dcb"},
	},
	"labels/snapshot.14": {
		{DocLabels, "Metadata snapshot: kind 39000", "8149503847b7988d"},
	},
	"labels/snapshot.15": {
		{DocLabels, "Metadata snapshot: kind 39000", "5a2c1c4493a30e83"},
	},
	"labels/snapshot.16": {
		{DocLabels, "Metadata snapshot: kind 39000", "50cb92087ff1abdb"},
		{DocLabels, "Metadata snapshot: kind 39000", "ceff5003f82ef684"},
	},
	"labels/finding-channels.1": {
		{DocLabels, "Finding channels", "c362a48b81650752"},
	},
	"labels/finding-channels.2": {
		{DocLabels, "Finding channels", "42acc6f82b673872"},
	},
	"labels/finding-channels.3": {
		{DocLabels, "Finding channels", "172ff499e0bc2b6d"},
	},
	"labels/finding-channels.4": {
		{DocLabels, "Finding channels", "0bb0cbd950192f75"},
		{DocLabels, "Finding channels", "865030d9555f33b9"},
	},
	"labels/finding-channels.5": {
		{DocLabels, "Finding channels", "c3bebb3fdcac59da"},
	},
	"labels/finding-channels.6": {
		{DocLabels, "Finding channels", "643f2fb9b519d034"},
		{DocLabels, "Finding channels", "48c8d3f01a7cad97"},
	},
	"labels/finding-channels.7": {
		{DocLabels, "Finding channels", "643f2fb9b519d034"},
		{DocLabels, "Finding channels", "48c8d3f01a7cad97"},
	},
	"labels/finding-channels.8": {
		{DocLabels, "Finding channels", "643f2fb9b519d034"},
		{DocLabels, "Finding channels", "1629f490e005e2aa"},
	},
	"labels/finding-channels.9": {
		{DocLabels, "Finding channels", "28a82d6d36a9bad7"},
	},
	"labels/finding-channels.10": {
		{DocLabels, "Finding channels", "987d929fe7ded635"},
	},
	"labels/finding-channels.11": {
		{DocLabels, "Finding channels", "81467545e00a4fba"},
	},
	"labels/finding-channels.12": {
		{DocLabels, "Finding channels", "abcea77b2d57c717"},
	},
	"labels/finding-channels.13": {
		{DocLabels, "Finding channels", "4b4ce0ed0245f8ab"},
	},
	"labels/finding-channels.14": {
		{DocLabels, "Finding channels", "572ceef6a07069a8"},
		{DocLabels, "Finding channels", "34ed075119b0ed74"},
	},
	"labels/authorization.1": {
		{DocLabels, "Authorization and visibility", "c89531c2316a58cf"},
	},
	"labels/authorization.2": {
		{DocLabels, "Authorization and visibility", "f761e98ea9a0044f"},
	},
	"labels/authorization.3": {
		{DocLabels, "Authorization and visibility", "f761e98ea9a0044f"},
		{DocLabels, "Authorization and visibility", "775d016fc99979be"},
	},
	"labels/authorization.4": {
		{DocLabels, "Authorization and visibility", "9cc41a35fe7258d2"},
		{DocLabels, "Authorization and visibility", "f761e98ea9a0044f"},
	},
	"labels/authorization.5": {
		{DocLabels, "Authorization and visibility", "bdb657833b03974d"},
	},
	"labels/authorization.6": {
		{DocLabels, "Authorization and visibility", "f399c36ef88fbbf9"},
	},
	"labels/authorization.7": {
		{DocLabels, "Authorization and visibility", "fe084d8744284d87"},
		{DocLabels, "Authorization and visibility", "e6219a98fdbe438b"},
	},
	"labels/authorization.8": {
		{DocLabels, "Authorization and visibility", "59c50567543e9899"},
	},
	"labels/authorization.9": {
		{DocLabels, "Authorization and visibility", "f1930d946384f67b"},
	},
	"labels/community.1": {
		{DocLabels, "Authorization and visibility", "a8ecb45dd2055cdf"},
	},
	"labels/community.2": {
		{DocLabels, "Authorization and visibility", "9b766b407a6d9235"},
	},
	"labels/application.1": {
		{DocLabels, "Application and publication guarantees", "04bad64ae593d820"},
	},
	"labels/application.2": {
		{DocLabels, "Application and publication guarantees", "204d1a5b490b4385"},
		{DocLabels, "Application and publication guarantees", "9eda891f9e118071"},
	},
	"labels/application.3": {
		{DocLabels, "Application and publication guarantees", "f13a7e9fe5413aef"},
	},
	"labels/application.4": {
		{DocLabels, "Application and publication guarantees", "d88f739a543ee63c"},
		{DocLabels, "Application and publication guarantees", "b246d278bc01b6d3"},
	},
	"labels/application.5": {
		{DocLabels, "Application and publication guarantees", "e131ad357498335e"},
	},
	"labels/serialization.1": {
		{DocLabels, "Application and publication guarantees", "d468bdd8e8a0d68e"},
		{DocLabels, "Application and publication guarantees", "52816c619e17fc8e"},
	},
	"labels/serialization.2": {
		{DocLabels, "Application and publication guarantees", "c61d7d60fdcfcc12"},
	},
	"labels/serialization.3": {
		{DocLabels, "Application and publication guarantees", "fa5d804bbccc5b28"},
	},
	"labels/serialization.4": {
		{DocLabels, "Application and publication guarantees", "c404f154dd866028"},
	},
	"labels/serialization.5": {
		{DocLabels, "Application and publication guarantees", "20382b4eda6cc26e"},
	},
	"labels/serialization.6": {
		{DocLabels, "Application and publication guarantees", "4bae26b1a4da6d71"},
	},
	"labels/serialization.7": {
		{DocLabels, "Application and publication guarantees", "be187134d59acddb"},
	},
	"labels/retry-admission.1": {
		{DocLabels, "Retry admission", "c4a5931d6a91ccf9"},
	},
	"labels/retry-admission.2": {
		{DocLabels, "Retry admission", "c4a5931d6a91ccf9"},
	},
	"labels/retry-admission.3": {
		{DocLabels, "Retry admission", "c4a5931d6a91ccf9"},
	},
	"labels/retry-admission.4": {
		{DocLabels, "Retry admission", "3f92432dfac5bfe2"},
		{DocLabels, "Retry admission", "d474ef6fb281feb7"},
	},
	"labels/retry-admission.5": {
		{DocLabels, "Retry admission", "3f92432dfac5bfe2"},
		{DocLabels, "Retry admission", "d474ef6fb281feb7"},
	},
	"labels/retry-admission.6": {
		{DocLabels, "Retry admission", "3f92432dfac5bfe2"},
	},
	"labels/retry-admission.7": {
		{DocLabels, "Retry admission", "3684f892a6aeceb9"},
	},
	"labels/retry-admission.8": {
		{DocLabels, "Retry admission", "ecacadb16ae84539"},
	},
	"labels/retry-admission.9": {
		{DocLabels, "Retry admission", "ecacadb16ae84539"},
	},
	"labels/retry-admission.10": {
		{DocLabels, "Retry admission", "171365c22bfe207b"},
	},
	"labels/retry-admission.11": {
		{DocLabels, "Retry admission", "1cb882aa02475480"},
		{DocLabels, "Retry admission", "a96038638a5fcafc"},
	},
	"labels/retry-admission.12": {
		{DocLabels, "Retry admission", "d18e25721b22f5cf"},
	},
	"labels/retry-admission.13": {
		{DocLabels, "Retry admission", "e5dc0a501a7898e7"},
	},
	"labels/retry-admission.14": {
		{DocLabels, "Retry admission", "d18e25721b22f5cf"},
	},
	"labels/responses.1": {
		{DocLabels, "Responses and client outcomes", "766162cd50e77a8b"},
		{DocLabels, "Responses and client outcomes", "f779162d339536a8"},
	},
	"labels/responses.2": {
		{DocLabels, "Responses and client outcomes", "3eafbe827a037731"},
	},
	"labels/responses.3": {
		{DocLabels, "Responses and client outcomes", "6730048c1a772c52"},
	},
	"labels/responses.4": {
		{DocLabels, "Responses and client outcomes", "1f4025a2d023f2e9"},
	},
	"labels/responses.5": {
		{DocLabels, "Responses and client outcomes", "5b4b733ace9297c2"},
	},
	"labels/responses.6": {
		{DocLabels, "Responses and client outcomes", "ad88e0604377842c"},
	},
	"labels/responses.7": {
		{DocLabels, "Responses and client outcomes", "622aad6f6d86b4d2"},
	},
	"labels/responses.8": {
		{DocLabels, "Responses and client outcomes", "2c4afed6fe8f266e"},
	},
	"labels/responses.9": {
		{DocLabels, "Responses and client outcomes", "5504ba56058d465b"},
	},
	"labels/responses.10": {
		{DocLabels, "Responses and client outcomes", "46b62567567f6b99"},
		{DocLabels, "Responses and client outcomes", "7ccdbe209cd1a82b"},
	},
	"labels/responses.11": {
		{DocLabels, "Responses and client outcomes", "46b62567567f6b99"},
		{DocLabels, "Responses and client outcomes", "7ccdbe209cd1a82b"},
	},
	"labels/responses.12": {
		{DocLabels, "Responses and client outcomes", "46b62567567f6b99"},
	},
	"labels/responses.13": {
		{DocLabels, "Responses and client outcomes", "46b62567567f6b99"},
	},
	"labels/responses.14": {
		{DocLabels, "Responses and client outcomes", "cbfc6b60fb1e6e75"},
	},
	"labels/responses.15": {
		{DocLabels, "Responses and client outcomes", "cbfc6b60fb1e6e75"},
		{DocLabels, "Responses and client outcomes", "0f0ee58c2c689ad3"},
	},
	"labels/responses.16": {
		{DocLabels, "Responses and client outcomes", "f027f3679ecac72b"},
	},
	"labels/responses.17": {
		{DocLabels, "Responses and client outcomes", "95422e4d7e65c620"},
	},
	"labels/responses.18": {
		{DocLabels, "Responses and client outcomes", "fded74e114866393"},
	},
	"labels/responses.19": {
		{DocLabels, "Responses and client outcomes", "309a52ba1eb7fd98"},
		{DocLabels, "Responses and client outcomes", "4c1f8062de8b5da8"},
		{DocLabels, "Responses and client outcomes", "197b5d5e54866914"},
		{DocLabels, "Responses and client outcomes", "987a2f2c6d8cf63e"},
		{DocLabels, "Responses and client outcomes", "c5bdb74a8b5bc0f2"},
	},
	"labels/responses.20": {
		{DocLabels, "Responses and client outcomes", "9dd542e4709ef89c"},
	},
	"labels/responses.21": {
		{DocLabels, "Responses and client outcomes", "ad800ec699813272"},
		{DocLabels, "Responses and client outcomes", "1918110d8110a706"},
	},
	"labels/retention.1": {
		{DocLabels, "Retention", "69a0ad33faa5509b"},
	},
	"labels/retention.2": {
		{DocLabels, "Retention", "69a0ad33faa5509b"},
	},
	"labels/retention.3": {
		{DocLabels, "Retention", "7720283a068fa23c"},
	},
	"labels/retention.4": {
		{DocLabels, "Retention", "f636f10d499b0ef3"},
	},
	"labels/retention.5": {
		{DocLabels, "Retention", "0f28273daa1ac014"},
	},
	"labels/compatibility.1": {
		{DocLabels, "Compatibility and security considerations", "138541d625a998bd"},
		{DocLabels, "Compatibility and security considerations", "0b482c42f1b4c227"},
	},
	"labels/compatibility.2": {
		{DocLabels, "Compatibility and security considerations", "9df51f99a5605b0c"},
	},
	"labels/compatibility.3": {
		{DocLabels, "Compatibility and security considerations", "c68a4a2d67da4962"},
	},
	"labels/compatibility.4": {
		{DocLabels, "Compatibility and security considerations", "62b07d3e7ad2deba"},
		{DocLabels, "Compatibility and security considerations", "0b2ca36fefb8aadc"},
	},
	"labels/compatibility.5": {
		{DocLabels, "Compatibility and security considerations", "cd66f64770d8e066"},
	},
}
