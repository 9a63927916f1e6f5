package reference

import (
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip13"
)

// TestVariantRoleNames: under role-names-king-moderator the relay's own
// names are on the wire (39001, 39003), a 9000 naming them works, and the
// default names are roles it does not support.
func TestVariantRoleNames(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29", Variants: []string{variantRoleNames}})
	owner, other := newActor(t), newActor(t)
	c := dial(t, url)
	c.auth(owner)
	id := newChannelID()
	c.mustPublish(owner.create(t, id))
	admins := c.query(nostr.Filter{Kinds: []int{kindGroupAdmins}, Tags: nostr.TagMap{"d": {id}}})
	if len(admins) != 1 || !slices.ContainsFunc(admins[0].Tags, func(tg nostr.Tag) bool { return len(tg) >= 3 && tg[1] == owner.pk && tg[2] == "king" }) {
		t.Fatalf("39001 does not name the creator king: %v", admins)
	}
	roles := c.query(nostr.Filter{Kinds: []int{kindGroupRoles}, Tags: nostr.TagMap{"d": {id}}})
	if len(roles) != 1 || roles[0].Tags.FindWithValue("role", "moderator") == nil || roles[0].Tags.FindWithValue("role", "admin") != nil {
		t.Fatalf("39003 does not list the relay's own role names: %v", roles)
	}
	if ok := c.publish(owner.event(t, kindPutUser, nostr.Tags{{"h", id}, {"p", other.pk, "admin"}}, "", 0)); ok.OK {
		t.Error("a 9000 naming a role the relay does not support (admin) was accepted")
	}
	c.mustPublish(owner.event(t, kindPutUser, nostr.Tags{{"h", id}, {"p", other.pk, "moderator"}}, "", 1))
}

// TestVariantRelay29Policies: the kinds allowlist and the tag limits
// refuse what relay29's basic-khatru example refuses, with blocked:.
func TestVariantRelay29Policies(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29", Variants: []string{variantKindsAllowlist, variantTagLimits}})
	owner := newActor(t)
	c := dial(t, url)
	c.auth(owner)
	id := newChannelID()
	c.mustPublish(owner.create(t, id))
	c.mustPublish(owner.msg(t, id, "kind 9 is allowed", 0))
	for what, ev := range map[string]*nostr.Event{
		"kind 9008":                 owner.event(t, 9008, nostr.Tags{{"h", id}}, "", 1),
		"a 65-character value":      owner.event(t, 9, nostr.Tags{{"h", id}, {"x", strings.Repeat("a", 65)}}, "", 2),
		"7 single-letter tags":      owner.event(t, 9, nostr.Tags{{"h", id}, {"t", "1"}, {"t", "2"}, {"t", "3"}, {"t", "4"}, {"t", "5"}, {"t", "6"}}, "", 3),
		"an unlisted kind (1)":      owner.event(t, 1, nostr.Tags{{"h", id}}, "", 4),
		"an addressable kind 30078": owner.event(t, 30078, nostr.Tags{{"d", "x"}}, "", 5),
	} {
		if ok := c.publish(ev); ok.OK || !strings.HasPrefix(ok.Reason, "blocked:") {
			t.Errorf("%s: OK %v %q, want refused blocked:", what, ok.OK, ok.Reason)
		}
	}
}

// TestVariantPoW: pow-10 refuses an unmined event with "pow:", accepts a
// mined one, and publishes the difficulty; pow-10-unpublished does not.
func TestVariantPoW(t *testing.T) {
	for _, v := range []string{variantPoW, variantPoWUnpublished} {
		r, url := startRelay(t, Config{Profile: "nip29", Variants: []string{v}})
		published := r.Info().Limitation.MinPowDifficulty
		if want := map[string]int{variantPoW: powDifficulty}[v]; published != want {
			t.Errorf("%s: limitation.min_pow_difficulty %d, want %d", v, published, want)
		}
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		ev := owner.create(t, id)
		if nip13.Difficulty(ev.ID) >= powDifficulty {
			continue // mined by chance (1 in 1024): nothing to see
		}
		if ok := c.publish(ev); ok.OK || !strings.HasPrefix(ok.Reason, "pow: difficulty") {
			t.Errorf("%s: unmined 9007: OK %v %q, want refused pow:", v, ok.OK, ok.Reason)
		}
	}
}
