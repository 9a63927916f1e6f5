package labels

import (
	"github.com/nipcl/nipcl-conform/suites/framework"
	"github.com/nipcl/nipcl-conform/suites/readmatrix"
)

// nip01FiltersSpecs are the cases of nip01/filters.
func nip01FiltersSpecs() []framework.Spec {
	return readmatrix.ReadsSpecs(
		labelsTagPositionRule([]readmatrix.ReadRow{
			{Id: "labels/reads/37", Shape: "l-namespace", Viewer: readmatrix.ViewOutside, Want: readmatrix.WantWithheld},
		}),
	)
}
