package suites

// commandsClauseCases maps clauses to the sweep and command-semantics cases
// (labels_grammar_sweep.go, labels_commands_semantics.go); init merges it
// into clauseCases so these mappings live beside their cases.
var commandsClauseCases = map[string][]string{
	"labels/values-and-limits.1":  {"labels/grammar/18"},
	"labels/values-and-limits.2":  {"labels/grammar/18"},
	"labels/values-and-limits.3":  {"labels/grammar/18"},
	"labels/values-and-limits.5":  {"labels/limits/10"},
	"labels/values-and-limits.7":  {"labels/limits/9"},
	"labels/values-and-limits.10": {"labels/limits/10"},
	"labels/values-and-limits.8":  {"labels/commands/17"},
	"labels/events.5":             {"labels/commands/17"},
	"labels/events.8":             {"labels/commands/17"},
	"labels/add-remove.2":         {"labels/add-remove/13"},
	"labels/add-remove.7":         {"labels/add-remove/14", "labels/limits/9"},
	"labels/add-remove.9":         {"labels/add-remove/14"},
	"labels/add-remove.10":        {"labels/add-remove/14", "labels/limits/9"},
	"labels/add-remove.13":        {"labels/limits/9"},
	"labels/initial-labels.7":     {"labels/initial/8"},
	"labels/initial-labels.8":     {"labels/initial/9"},
	"labels/responses.2":          {"labels/initial/9"},
	"labels/responses.9":          {"labels/initial/8", "labels/add-remove/14", "labels/retry/12"},
	"labels/retry-admission.9":    {"labels/retry/12"},
	"labels/retention.1":          {"labels/retention/3"},
	"labels/retry-admission.14":   {"labels/retention/3"},
	"identity/label-rules.2":      {"identity/label-sweep/1"},
	"identity/label-rules.5":      {"identity/label-sweep/1"},
	"identity/labels.2":           {"identity/label-sweep/2"},
	"identity/labels.3":           {"identity/label-sweep/2"},
	"labels/community.2":          {"labels/community/4"},
}

func init() {
	for clauseID, ids := range commandsClauseCases {
		clauseCases[clauseID] = append(clauseCases[clauseID], ids...)
	}
}
