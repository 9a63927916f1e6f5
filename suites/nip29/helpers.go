package nip29

import (
	"slices"

	"github.com/nipcl/nipcl-conform/suites/framework"
)

// Specs returns the NIP-29 cases (base/...), which run in every profile: one builder per
// section file, named by it (<section>.go holds <section>Specs).
func Specs() []framework.Spec {
	return slices.Concat(
		adminsSpecs(),
		createSpecs(),
		deleteSpecs(),
		deleteEventSpecs(),
		groupIdsSpecs(),
		hiddenSpecs(),
		invitesSpecs(),
		joinSpecs(),
		latePublicationSpecs(),
		leaveSpecs(),
		livekitSpecs(),
		membershipSpecs(),
		metadataSpecs(),
		moderationSpecs(),
		nip01EventValidationSpecs(),
		nip01FiltersSpecs(),
		nip01LiveSpecs(),
		nip01OkPrefixSpecs(),
		nip01ReplaceableSpecs(),
		nip11DocumentSpecs(),
		nip42AuthSpecs(),
		nip45CountSpecs(),
		permissionsSpecs(),
		pinsSpecs(),
		readAccessSpecs(),
		restrictedSpecs(),
		rolesSpecs(),
		stateEventsSpecs(),
		subgroupsSpecs(),
		timelineSpecs(),
		nip01SubscriptionsSpecs(),
		nip01LimitSpecs(),
		nip42VerifySpecs(),
		nip45FiltersSpecs(),
		nip45HllSpecs(),
		stateFollowSpecs(),
		deletedGroupSpecs(),
		nip01ReplaceableKindsSpecs(),
	)
}
