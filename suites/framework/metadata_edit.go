package framework

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// metadataTagNames are the tags of NIP-29's group-metadata a 9002 carries:
// the fields and the flags. NIP-29's "9002 | edit-metadata | all the fields
// of group-metadata" reads as a put on some relays, so every 9002 the
// harness sends for another purpose carries them all as the group has them.
var metadataTagNames = []string{"name", "picture", "about", "private", "public", "closed", "open",
	"hidden", "visible", "restricted", "unrestricted", "livekit", "no-text"}

// FullEdit builds c's 9002 for group carrying the group's current
// metadata (read from its 39000 as c sees it) with extra in place of the
// metadata tags of the same name, so a relay that reads a 9002 as a put
// (all the fields) and one that reads it as a patch reach the same group.
// Relay-managed tags (d, parent, child, the drafts' identity and label
// tags) are never copied: extra carries what the case changes.
func (t *T) FullEdit(c *fixtures.Client, group string, extra ...nostr.Tag) *nostr.Event {
	GinkgoHelper()
	meta := t.GroupMetadata(c, group)
	replaced := map[string]bool{}
	for _, tg := range extra {
		if len(tg) > 0 {
			replaced[tg[0]] = true
		}
	}
	var tags []nostr.Tag
	for _, tg := range meta.Tags {
		if len(tg) == 0 || !slices.Contains(metadataTagNames, tg[0]) || replaced[tg[0]] {
			continue
		}
		tags = append(tags, tg)
	}
	return fixtures.EditChannel(c.Actor(), group, append(tags, extra...)...)
}
