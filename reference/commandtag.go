package reference

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
)

// Command-tag switch (Config.RequireCommandTag, `serve
// --require-command-tag K=V`): a deployment that requires a tag of its own
// on every group command (kinds 9000-9022), outside NIP-29 and NIP-CL. It
// breaks no NIP sentence; it lets the tests check that the harness adds
// the tag when told (--command-tag) and says so in one line when not.

// commandTagRefusal is the refusal of a group command without
// Config.RequireCommandTag's tag (nil: the command may proceed).
func (r *Relay) commandTagRefusal(ev *nostr.Event) error {
	if r.cfg.RequireCommandTag == "" || !fixtures.IsCommandKind(ev.Kind) {
		return nil
	}
	want, _ := fixtures.ParseCommandTag(r.cfg.RequireCommandTag) // checked by New
	if slices.ContainsFunc(ev.Tags, func(t nostr.Tag) bool { return slices.Equal(t, want) }) {
		return nil
	}
	return reject("restricted", "this relay requires the tag [%q, …] on every group command (9000-9022)", want[0])
}
