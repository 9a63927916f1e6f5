package reference

import (
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/internal/text"
)

// Deployment variants (issue 34): how a deployment answers NIP-11, AUTH,
// roles, `previous` and Host; the lawful relays that were missing from
// the catalogue. Each names the sentence that leaves the freedom, and
// installs hooks the conforming code consults at the place of the
// behaviour (the deployment block at the end of hooks).
const (
	variantNIP11Only426     = "nip11-accept-only-426"
	variantAuthWritesAnyKey = "auth-writes-any-key"
	variantNoAuthForWrites  = "no-auth-for-writes"
	variantSeveralRoles     = "several-roles-per-admin"
	variantPowerlessFirst   = "powerless-role-first"
	variantPreviousMin3     = "previous-min-3"
	variantHostRouting      = "host-routing"
)

// extraRole is the second role several-roles-per-admin lists beside the
// granted one (NIP-29's example lists "secretary", "gardener").
const extraRole = "gardener"

// deploymentVariants are the deployment variants.
var deploymentVariants = []Variant{
	{Name: variantNIP11Only426, Dimension: "http-unknown-path", Kind: "variant", Drawn: true,
		Freedom:   "NIP-11: the document is served \"when a relay receives an HTTP(s) request with an Accept header of application/nostr+json\"; what any other GET at the relay URL gets is the relay's own answer",
		Describes: "the NIP-11 document only for Accept: application/nostr+json; any other plain GET at \"/\" is answered 426 Upgrade Required (\"use a Nostr client\"), and every other path 404 (the AV paths too, where AV is not offered)",
		install: func(r *Relay) {
			r.hooks.answerHTTP = append(r.hooks.answerHTTP, func(w http.ResponseWriter, req *http.Request) bool {
				if req.URL.Path != "/" {
					http.NotFound(w, req)
					return true
				}
				w.Header().Set("Upgrade", "websocket")
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				w.WriteHeader(http.StatusUpgradeRequired)
				fmt.Fprintln(w, "this is a Nostr relay: use a Nostr client (WebSocket), or ask with Accept: application/nostr+json")
				return true
			})
		}},
	// The plain relay requires the event's own key to be authenticated
	// before a write (AUTH for writes, reads open but for members-only
	// groups); these are the dimension's other lawful answers.
	{Name: variantAuthWritesAnyKey, Dimension: "nip42-writes", Kind: "variant", Drawn: true, Profiles: []string{"nip29", "identity"},
		Freedom:   "NIP-42: a relay may require authentication for writes (\"auth-required:\" on OK), and NIP-42 does not tie the event's author to the authenticated key; the labels draft does (\"authenticated-author\" checks), so labels relays are left out",
		Describes: "an EVENT on a connection that has not authenticated is answered \"auth-required: …\" (with the challenge); once any key authenticated, events signed by any key are accepted on their signature; reads stay open (members-only groups aside)",
		install: func(r *Relay) {
			r.hooks.writeAuthed = append(r.hooks.writeAuthed, func(c *conn, _ *nostr.Event) (bool, bool) {
				return c.anyAuthed(), true
			})
		}},
	// Alone it gives a clean run. Beside auth-on-demand no write ever
	// brings the challenge, so a member that never authenticated gets the
	// anonymous view: the read matrix's member rows and the identity
	// system-channel world's control read (requireKnownMember) block on
	// auth, and the AUTH cases are unsupported.
	{Name: variantNoAuthForWrites, Dimension: "nip42-writes", Kind: "variant", Profiles: []string{"nip29", "identity"}, Drawn: true,
		Freedom:   "NIP-42: requiring AUTH is the relay's choice (\"Relays MAY\"); a signed event proves its author (NIP-01), as relay29 takes it; the labels draft requires \"authenticated-author\" checks, so labels relays are left out",
		Describes: "no AUTH for writes: an EVENT is judged by its signature and its author's rights, authenticated or not; reads of members-only groups still need AUTH",
		install: func(r *Relay) {
			r.hooks.writeAuthed = append(r.hooks.writeAuthed, func(*conn, *nostr.Event) (bool, bool) { return true, true })
		}},
	{Name: variantSeveralRoles, Dimension: "roles-per-admin", Kind: "variant", Drawn: true,
		Freedom:   "NIP-29 (39001): \"Each admin is listed along with one or more roles\" (its example: [\"p\", \"<pubkey2>\", \"secretary\", \"gardener\"])",
		Describes: "every owner and admin is listed in 39001 with the granted role followed by a second role the relay keeps, \"gardener\" (no power of its own; 39003 lists it)",
		install: func(r *Relay) {
			r.hooks.extraRoles = append(r.hooks.extraRoles, func(string) []string { return []string{extraRole} })
			r.hooks.stateTags = append(r.hooks.stateTags, func(_ *txn, kind int, _ *Channel) nostr.Tags {
				if kind != kindGroupRoles {
					return nil
				}
				return nostr.Tags{{"role", extraRole, "kept beside an admin's granted role; no power of its own"}}
			})
		}},
	// A moderator's first role is the plain member's: a harness that takes
	// the first role it reads for the moderating one puts plain members
	// and judges moderation by them. The 9000 reading is the set's: a put
	// with several roles grants the most powerful of them. Another answer
	// of several-roles-per-admin's dimension (the form of a 39001 entry's
	// role list; a dimension of its own re-drew the lawful property's fixed
	// sample); the hooks compose, TestVariantPowerlessRoleFirst runs both.
	{Name: variantPowerlessFirst, Dimension: "roles-per-admin", Kind: "variant", Drawn: true,
		Freedom:   "NIP-29 (39001): \"Each admin is listed along with one or more roles\", in no order the text gives; 9000 carries \"p with pubkey hex and optional roles\" (several roles per p tag)",
		Describes: "every owner and admin is listed in 39001 with the plain member's role first (\"member\", as 39003 lists it; it grants nothing of its own), then the granted role; a 9000 p tag with several roles grants the most powerful of them",
		install: func(r *Relay) {
			r.hooks.leadingRoles = append(r.hooks.leadingRoles, func(string) []string { return []string{r.wireRole(roleMember)} })
		}},
	// Drawn: the capability probe sees the refusal of a reference-less
	// 9000 (another key posted first) and the harness then sends, like
	// NIP-29's recommended client, up to 3 references of others' events
	// on every group event without its own (fixtures/timeline.go).
	{Name: variantPreviousMin3, Dimension: "previous-minimum", Kind: "variant", Drawn: true,
		Freedom:   "NIP-29: \"it's recommended that clients include at least 3 and that relays enforce this\" (unknown references are refused by the plain relay already: \"Relays are expected to reject any events that contain timeline references to events not found in their own database\")",
		Describes: "a group event with fewer than 3 previous references (counting only the group's undeleted events by other keys the author could name: none in a deleted group, or in a private one it is not in) is refused \"invalid:\" (serve --min-previous 3)",
		install: func(r *Relay) {
			r.cfg.MinPrevious = max(r.cfg.MinPrevious, 3)
		}},
	{Name: variantHostRouting, Dimension: "host-routing", Kind: "variant", Drawn: true,
		Freedom:   "NIP-11 and NIP-01 say nothing of the Host header: a relay that serves several communities routes them by Host and serves none at a Host it does not know",
		Describes: "communities are served only at the Host names the relay knows (localhost, 127.0.0.1, ::1, its listen address's host, every --host-admit HOST and every Config.RoutedHosts name, e.g. the --host-header of a run); any other Host gets 404 on NIP-11, on the WebSocket upgrade and on every path",
		install: func(r *Relay) {
			known := []string{"localhost", "127.0.0.1", "::1"}
			if h, _, err := net.SplitHostPort(r.cfg.Addr); err == nil && h != "" {
				known = append(known, strings.ToLower(h))
			}
			for h := range r.cfg.HostAdmittedKeys {
				known = append(known, strings.ToLower(h))
			}
			for _, h := range r.cfg.RoutedHosts {
				if name, _, err := net.SplitHostPort(h); err == nil {
					h = name
				}
				known = append(known, strings.Trim(strings.ToLower(h), "[]"))
			}
			r.hooks.unknownHost = append(r.hooks.unknownHost, func(host string) bool { return !slices.Contains(known, host) })
		}},
}

// authorAuthed reports whether an EVENT passes the relay's NIP-42 write
// gate: the first writeAuthed hook that decides answers; without one the
// event's own key must have authenticated on the connection.
func (r *Relay) authorAuthed(c *conn, ev *nostr.Event) bool {
	for _, h := range r.hooks.writeAuthed {
		if authed, decided := h(c, ev); decided {
			return authed
		}
	}
	return c.isAuthed(ev.PubKey)
}

// roleTag is the p tag of a 39001 entry: the key, any roles a variant
// lists before the granted one, the wire name of its role, then any roles
// a variant lists after it.
func (r *Relay) roleTag(pk, role string) nostr.Tag {
	tag := nostr.Tag{"p", pk}
	for _, h := range r.hooks.leadingRoles {
		tag = append(tag, h(role)...)
	}
	tag = append(tag, r.wireRole(role))
	for _, h := range r.hooks.extraRoles {
		tag = append(tag, h(role)...)
	}
	return tag
}

// keptRole reports whether name is a role a variant lists in 39001 beside
// a moderator's granted one: a 9000 may carry it back, and it grants
// nothing.
func (r *Relay) keptRole(name string) bool {
	for _, role := range []string{roleOwner, roleAdmin} {
		for _, hs := range [][]func(string) []string{r.hooks.leadingRoles, r.hooks.extraRoles} {
			for _, h := range hs {
				if slices.Contains(h(role), name) {
					return true
				}
			}
		}
	}
	return false
}

// putRole reads the roles of a 9000 p tag (NIP-29: "p with pubkey hex and
// optional roles"): the most powerful role the relay supports among them;
// a role a variant keeps beside a granted one grants nothing, and any
// other name is one the relay does not support. ok is false when the tag
// names no role at all.
func (r *Relay) putRole(names []string) (role string, ok bool, err error) {
	for _, name := range names {
		if name == "" {
			continue
		}
		ok = true
		in := r.internalRole(name)
		if roleRank(in) == 0 {
			if r.keptRole(name) {
				continue
			}
			return "", true, reject("invalid", "role %q is not one this relay supports (see its 39003)", text.Clip(name, 32))
		}
		if roleRank(in) > roleRank(role) {
			role = in
		}
	}
	if ok && role == "" {
		role = roleMember
	}
	return role, ok, nil
}

// hostUnknown reports whether a variant keeps the relay from serving any
// community at host (the Host header without its port).
func (r *Relay) hostUnknown(host string) bool {
	for _, h := range r.hooks.unknownHost {
		if h(host) {
			return true
		}
	}
	return false
}
