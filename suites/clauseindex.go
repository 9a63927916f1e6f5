package suites

import "sort"

// ClauseIndex returns the whole clause → cases index (clauseCases with the
// read matrix and every merged table): for each clause ID, the IDs of the
// cases that cite it, sorted. The result is a copy; callers may keep it.
// The fault kill test judges a fault against it: only a case citing the
// fault's clause can kill the fault.
func ClauseIndex() map[string][]string {
	out := make(map[string][]string, len(clauseCases()))
	for id, cases := range clauseCases() {
		c := append([]string(nil), cases...)
		sort.Strings(c)
		out[id] = c
	}
	return out
}
