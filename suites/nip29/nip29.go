package nip29

import (
	"slices"

	"github.com/nipcl/nipcl-conform/suites/framework"
)

// nip29Specs returns the NIP-29 cases (base/...), which run in every
// profile, in catalogue order.
func Specs() []framework.Spec {
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
