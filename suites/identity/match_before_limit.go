package identity

import (
	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// matchBeforeLimitSpecs are the cases of identity/match-before-limit.
func matchBeforeLimitSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("identity/limit/1", framework.MUST,
			"#t is matched before limit: with limit = number of matches, older labeled channels behind Scale newer unlabeled ones are all returned, newest first.",
			"identity/match-before-limit.1").
			WithHeavy(),
			Run: func(t *framework.T) {
				limitCase(t, func(_ *fixtures.Actor, label string) nostr.TagMap { return nostr.TagMap{"t": {label}} },
					func(i int, creator, _ *fixtures.Actor, _ string) distractorChannel {
						return distractorChannel{actor: creator}
					})
			}},
		{Case: framework.NewCase("identity/limit/2", framework.MUST,
			"#P is matched before limit: a creator's older channels behind Scale newer channels of another key are all returned, newest first.",
			"identity/match-before-limit.2").
			WithFreshKeys().
			WithHeavy(),
			Run: func(t *framework.T) {
				limitCase(t, func(creator *fixtures.Actor, _ string) nostr.TagMap { return nostr.TagMap{"P": {creator.PubKey}} },
					func(i int, _, other *fixtures.Actor, label string) distractorChannel {
						return distractorChannel{actor: other, labels: []string{label}}
					})
			}},
		{Case: framework.NewCase("identity/limit/3", framework.MUST,
			"#P with #t is matched before limit: behind Scale newer channels of the creator without the label and of others with it, every match is returned.",
			"identity/match-before-limit.1", "identity/match-before-limit.2").
			WithHeavy(),
			Run: func(t *framework.T) {
				t.Checking("identity/match-before-limit.1")
				limitCase(t, func(creator *fixtures.Actor, label string) nostr.TagMap {
					return nostr.TagMap{"P": {creator.PubKey}, "t": {label}}
				}, func(i int, creator, other *fixtures.Actor, label string) distractorChannel {
					if i%2 == 0 {
						return distractorChannel{actor: creator}
					}
					return distractorChannel{actor: other, labels: []string{label}}
				})
			}},
	}
}
