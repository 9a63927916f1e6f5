package nip29

import (
	"slices"

	"github.com/nipcl/nipcl-conform/suites/framework"
)

// Specs returns the NIP-29 cases (base/...), which run in every
// profile, in catalogue order.
func Specs() []framework.Spec {
	return slices.Concat(
		createSpecs(),
		adminsSpecs(),
		stateEventsSpecs(),
		permissionsSpecs(),
		rolesSpecs(),
		deleteSpecs(),
		flagSpecs(),
		moderationSpecs(),
		deleteEventSpecs(),
		timelineSpecs(),
		baselineLiveKitSpecs(),
		readsBaselineSpecs(),
		nip01EventValidationSpecs(),
		nip01FiltersSpecs(),
		nip01LiveSpecs(),
		nip01OkPrefixSpecs(),
		nip01ReplaceableSpecs(),
		nip11DocumentSpecs(),
		groupIdsSpecs(),
		hiddenSpecs(),
		invitesSpecs(),
		joinSpecs(),
		latePublicationSpecs(),
		leaveSpecs(),
		membershipSpecs(),
		metadataSpecs(),
		pinsSpecs(),
		readAccessSpecs(),
		restrictedSpecs(),
		subgroupsSpecs(),
		nip42AuthSpecs(),
		nip45CountSpecs(),
		nip01SubscriptionsSpecs(),
		nip01LimitSpecs(),
		nip42VerifySpecs(),
		nip45FiltersSpecs(),
		nip45CountRecallSpecs(),
		stateFollowSpecs(),
		deletedGroupSpecs(),
		nip01ReplaceableKindsSpecs(),
	)
}
