package suites

import "slices"

// nip29Specs returns the NIP-29 cases (base/...), which run in every
// profile, in catalogue order.
func nip29Specs() []Spec {
	return slices.Concat(
		baselineRelaySpecs(),
		baselineGroupSpecs(),
		baselineModerationSpecs(),
		baselineAccessSpecs(),
		baselineGroupIDInviteSpecs(),
		baselineSubgroupSpecs(),
		baselinePinSpecs(),
		baselineLiveKitSpecs(),
		baselineTiesSpecs(),
		readsBaselineSpecs(),
	)
}
