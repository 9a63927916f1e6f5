package reports

import (
	"fmt"

	"github.com/nipcl/nipcl-conform/clause"
)

// Broken is the clause a failed case broke, as the case recorded it
// (CaseResult.Violates), with its level, where its sentence stands and
// our one-line wording of it. ok is false when the case recorded none or
// the clause is not in this build's catalogue (a file from another build).
func Broken(c CaseResult) (cl clause.Clause, ok bool) {
	if c.Violates == "" {
		return clause.Clause{}, false
	}
	return clause.LookupClause(c.Violates)
}

// BrokenLine says in one line which clause a failed case broke: "breaks
// labels/snapshot.4 (MUST, nip-cl-labels.md § Metadata snapshot): <our
// wording>"; "" when it recorded none.
func BrokenLine(c CaseResult) string {
	if c.Violates == "" {
		return ""
	}
	cl, ok := Broken(c)
	if !ok {
		return "breaks " + c.Violates
	}
	return fmt.Sprintf("breaks %s (%s, %s): %s", cl.ID, cl.Level, cl.Ref, cl.Text)
}
