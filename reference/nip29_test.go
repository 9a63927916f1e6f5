package reference

import (
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// nip29Profiles are the reference profiles every NIP-29 behaviour must
// hold in ("nip29" is "none" by another name).
var nip29Profiles = []string{"none", "nip29", "identity", "labels"}

// --- builders and readers -----------------------------------------------------

// bare builds a NIP-29 9007 with only the h tag.
func (a actor) bare(t *testing.T, id string) *nostr.Event {
	return a.event(t, kindCreateGroup, nostr.Tags{{"h", id}}, "", 0)
}

// join builds a 9021 join request (extra tags after the h tag).
func (a actor) join(t *testing.T, id string, extra ...nostr.Tag) *nostr.Event {
	return a.event(t, kindJoinRequest, append(nostr.Tags{{"h", id}}, extra...), "", 0)
}

// leave builds a 9022 leave request.
func (a actor) leave(t *testing.T, id string) *nostr.Event {
	return a.event(t, kindLeaveRequest, nostr.Tags{{"h", id}}, "", 0)
}

// hasFlag reports whether ev (nil: no) has a tag named flag.
func hasFlag(ev *nostr.Event, flag string) bool {
	return ev != nil && hasTag(ev, flag)
}

// tagValue returns the value of ev's first tag named name ("" if none).
func tagValue(ev *nostr.Event, name string) string {
	if ev == nil {
		return ""
	}
	if tag := ev.Tags.Find(name); tag != nil {
		return tag[1]
	}
	return ""
}

// isMember reports whether the group's 39002, as c reads it, lists pk.
func (c *client) isMember(id, pk string) bool {
	c.t.Helper()
	members := c.state(kindGroupMembers, id)
	if members == nil {
		c.t.Fatalf("no 39002 for %s", id)
	}
	for _, tag := range members.Tags {
		if len(tag) >= 2 && tag[0] == "p" && tag[1] == pk {
			return true
		}
	}
	return false
}

// mustRefuse requires OK false with a reason starting with prefix.
func (c *client) mustRefuse(ev *nostr.Event, prefix string) *nostr.OKEnvelope {
	c.t.Helper()
	ok := c.publish(ev)
	if ok.OK || !strings.HasPrefix(ok.Reason, prefix) {
		c.t.Fatalf("kind %d: OK %v %q, want false %q...", ev.Kind, ok.OK, ok.Reason, prefix)
	}
	return ok
}

// group creates a bare group owned by owner (authenticated on c) and, when
// tags are given, sets them with a 9002.
func group(t *testing.T, c *client, owner actor, tags ...nostr.Tag) string {
	t.Helper()
	id := newChannelID()
	c.mustPublish(owner.bare(t, id))
	if len(tags) > 0 {
		c.mustPublish(owner.edit(t, id, tags...))
	}
	return id
}

// authEventDelivered reports whether a kind 22242 of one client reaches
// another client's subscription for kinds [22242]. Both connections are
// synchronized by round trips, so "not delivered" needs no sleep: the
// authenticating connection answers a REQ only after its AUTH is fully
// handled, and the watcher's frames leave in order.
func authEventDelivered(t *testing.T, url string) bool {
	t.Helper()
	watcher, other := dial(t, url), dial(t, url)
	watcher.auth(newActor(t))
	watcher.send(&nostr.ReqEnvelope{SubscriptionID: "auth", Filters: nostr.Filters{{Kinds: []int{nostr.KindClientAuthentication}}}})
	watcher.expect(func(e nostr.Envelope) bool { v, ok := e.(*nostr.EOSEEnvelope); return ok && string(*v) == "auth" })
	other.auth(newActor(t))
	other.query(nostr.Filter{Kinds: []int{1}, Limit: 1})
	watcher.send(&nostr.ReqEnvelope{SubscriptionID: "sync", Filters: nostr.Filters{{Kinds: []int{1}, Limit: 1}}})
	env := watcher.expect(func(e nostr.Envelope) bool {
		switch v := e.(type) {
		case *nostr.EventEnvelope:
			return v.SubscriptionID != nil && *v.SubscriptionID == "auth"
		case *nostr.EOSEEnvelope:
			return string(*v) == "sync"
		}
		return false
	})
	_, delivered := env.(*nostr.EventEnvelope)
	return delivered
}

// --- profiles -----------------------------------------------------------------

func TestNIP29ProfileIsNone(t *testing.T) {
	r, _ := startRelay(t, Config{Profile: "nip29"})
	if _, ok := r.profile.(noneProfile); !ok {
		t.Fatalf("profile nip29 is %T, want noneProfile", r.profile)
	}
	if _, err := New(Config{Profile: "nip29", Faults: []string{string(faultClosedFlagInverted)}}); err != nil {
		t.Fatalf("a core fault under profile nip29: %v", err)
	}
}

// --- create, metadata, flags --------------------------------------------------

func TestBareCreateMakesPublicOpenGroup(t *testing.T) {
	for _, profile := range nip29Profiles {
		t.Run(profile, func(t *testing.T) {
			r, url := startRelay(t, Config{Profile: profile})
			owner := newActor(t)
			c := dial(t, url)
			c.auth(owner)
			id := group(t, c, owner)
			meta := c.state(kindGroupMetadata, id)
			if meta == nil || tagValue(meta, "d") != id {
				t.Fatalf("39000 of the bare group: %v", meta)
			}
			for _, flag := range []string{"public", "open"} {
				if !hasFlag(meta, flag) {
					t.Errorf("39000 lacks %q: %v", flag, meta.Tags)
				}
			}
			for _, absent := range []string{"name", "private", "closed", "hidden", "restricted", "picture", "banner", "about"} {
				if hasFlag(meta, absent) {
					t.Errorf("39000 of a bare group has %q: %v", absent, meta.Tags)
				}
			}
			if !hasPTag(c.state(kindGroupAdmins, id), owner.pk, roleOwner) {
				t.Errorf("the creator is not an owner in 39001")
			}
			roles := c.state(kindGroupRoles, id)
			if roles == nil {
				t.Fatal("no 39003")
			}
			if ok, _ := roles.CheckSignature(); !ok || roles.PubKey != r.PubKey() {
				t.Errorf("39003 is not signed by the relay key")
			}
			var names []string
			for _, tag := range roles.Tags {
				if tag[0] == "role" {
					if len(tag) != 3 || tag[2] == "" {
						t.Errorf("role tag without a description: %v", tag)
					}
					names = append(names, tag[1])
				}
			}
			if !slices.Equal(names, []string{roleOwner, roleAdmin, roleMember}) {
				t.Errorf("39003 roles %v", names)
			}
		})
	}
}

func TestEditMetadataFieldsAndFlags(t *testing.T) {
	for _, profile := range nip29Profiles {
		t.Run(profile, func(t *testing.T) {
			_, url := startRelay(t, Config{Profile: profile})
			owner := newActor(t)
			c := dial(t, url)
			c.auth(owner)
			id := group(t, c, owner, nostr.Tag{"name", "Pizza Lovers"}, nostr.Tag{"picture", "https://pizza.example/p.png"},
				nostr.Tag{"banner", "https://pizza.example/b.png"}, nostr.Tag{"about", "pizza"},
				nostr.Tag{"private"}, nostr.Tag{"closed"}, nostr.Tag{"hidden"}, nostr.Tag{"restricted"})
			meta := c.state(kindGroupMetadata, id)
			for _, f := range [][2]string{{"name", "Pizza Lovers"}, {"picture", "https://pizza.example/p.png"},
				{"banner", "https://pizza.example/b.png"}, {"about", "pizza"}} {
				if got := tagValue(meta, f[0]); got != f[1] {
					t.Errorf("%s = %q, want %q", f[0], got, f[1])
				}
			}
			for _, flag := range []string{"private", "closed", "hidden", "restricted"} {
				if !hasFlag(meta, flag) {
					t.Errorf("39000 lacks %q: %v", flag, meta.Tags)
				}
				if tag := meta.Tags.FindLast(flag); tag != nil {
					t.Errorf("flag %q is not a one-element tag: %v", flag, tag)
				}
			}
			for _, cleared := range []string{"public", "open"} {
				if hasFlag(meta, cleared) {
					t.Errorf("39000 has %q with the flag set: %v", cleared, meta.Tags)
				}
			}

			// A 9002 without flags keeps them; the fields it leaves out stay.
			c.mustPublish(owner.edit(t, id, nostr.Tag{"name", "Renamed"}))
			meta = c.state(kindGroupMetadata, id)
			if tagValue(meta, "name") != "Renamed" || tagValue(meta, "about") != "pizza" || !hasFlag(meta, "closed") || !hasFlag(meta, "hidden") {
				t.Errorf("a name-only 9002 changed other fields: %v", meta.Tags)
			}

			// relay29's clearing tags.
			c.mustPublish(owner.edit(t, id, nostr.Tag{"public"}, nostr.Tag{"open"}, nostr.Tag{"visible"}, nostr.Tag{"unrestricted"}))
			meta = c.state(kindGroupMetadata, id)
			for _, flag := range []string{"private", "closed", "hidden", "restricted"} {
				if hasFlag(meta, flag) {
					t.Errorf("39000 keeps %q after its clearing tag: %v", flag, meta.Tags)
				}
			}
			if !hasFlag(meta, "public") || !hasFlag(meta, "open") {
				t.Errorf("39000 after clearing: %v", meta.Tags)
			}

			// private is the visibility tag too; closed no longer follows it.
			c.mustPublish(owner.edit(t, id, nostr.Tag{"visibility", "private"}))
			meta = c.state(kindGroupMetadata, id)
			if !hasFlag(meta, "private") || hasFlag(meta, "closed") {
				t.Errorf("visibility private: %v", meta.Tags)
			}
			c.mustPublish(owner.edit(t, id, nostr.Tag{"public"}))
			if meta = c.state(kindGroupMetadata, id); hasFlag(meta, "private") {
				t.Errorf("[\"public\"] after visibility private: %v", meta.Tags)
			}

			// Contradictions are refused and change nothing.
			c.mustRefuse(owner.edit(t, id, nostr.Tag{"closed"}, nostr.Tag{"open"}), "invalid:")
			c.mustRefuse(owner.edit(t, id, nostr.Tag{"visibility", "open"}, nostr.Tag{"private"}), "invalid:")
			if meta = c.state(kindGroupMetadata, id); hasFlag(meta, "closed") || hasFlag(meta, "private") {
				t.Errorf("a refused 9002 changed the flags: %v", meta.Tags)
			}
		})
	}
}

// TestLabelOnlyEditKeepsFlags: the NIP-CL label edits (labels:
// add-label/remove-label; identity: t) leave the NIP-29 fields and flags.
func TestLabelOnlyEditKeepsFlags(t *testing.T) {
	for _, tc := range []struct {
		profile string
		label   nostr.Tag
	}{{"identity", nostr.Tag{"t", "pizza"}}, {"labels", nostr.Tag{"add-label", "pizza"}}} {
		t.Run(tc.profile, func(t *testing.T) {
			_, url := startRelay(t, Config{Profile: tc.profile})
			owner := newActor(t)
			c := dial(t, url)
			c.auth(owner)
			id := group(t, c, owner, nostr.Tag{"name", "n"}, nostr.Tag{"picture", "https://p.example/p.png"},
				nostr.Tag{"closed"}, nostr.Tag{"hidden"}, nostr.Tag{"restricted"})
			before := c.state(kindGroupMetadata, id)
			c.mustPublish(owner.edit(t, id, tc.label))
			after := c.state(kindGroupMetadata, id)
			if after.ID == before.ID {
				t.Fatal("the label edit published no new 39000")
			}
			for _, name := range []string{"name", "picture", "closed", "open", "hidden", "restricted", "public", "private"} {
				if hasFlag(after, name) != hasFlag(before, name) || tagValue(after, name) != tagValue(before, name) {
					t.Errorf("tag %q changed: before %v after %v", name, before.Tags, after.Tags)
				}
			}
		})
	}
	t.Run("labels mutation with a flag is not label-only", func(t *testing.T) {
		_, url := startRelay(t, Config{Profile: "labels"})
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := group(t, c, owner)
		c.mustRefuse(owner.edit(t, id, nostr.Tag{"add-label", "pizza"}, nostr.Tag{"hidden"}), "invalid:")
	})
}

// --- hidden -------------------------------------------------------------------

func TestHiddenGroupStateForMembersOnly(t *testing.T) {
	for _, profile := range nip29Profiles {
		t.Run(profile, func(t *testing.T) {
			_, url := startRelay(t, Config{Profile: profile})
			owner, member, outsider := newActor(t), newActor(t), newActor(t)
			co, cm, cx, anon := dial(t, url), dial(t, url), dial(t, url), dial(t, url)
			co.auth(owner)
			cm.auth(member)
			cx.auth(outsider)
			visible := group(t, co, owner, nostr.Tag{"name", "visible"})
			var hidden []string
			for i := 0; i < 3; i++ {
				hidden = append(hidden, group(t, co, owner, nostr.Tag{"name", "hidden"}, nostr.Tag{"hidden"}))
			}
			h := hidden[0]
			co.mustPublish(owner.put(t, h, member.pk, ""))
			co.mustPublish(owner.msg(t, h, "public words in a hidden group", 0))

			states := []int{kindGroupMetadata, kindGroupAdmins, kindGroupMembers, kindGroupRoles}
			for _, k := range states {
				if cm.state(k, h) == nil {
					t.Errorf("a member gets no kind %d of the hidden group", k)
				}
				for name, c := range map[string]*client{"outsider": cx, "anonymous": anon} {
					if c.state(k, h) != nil {
						t.Errorf("%s got kind %d of the hidden group", name, k)
					}
				}
			}
			// Hidden hides the metadata, not the (public) messages.
			if got := cx.query(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {h}}}); len(got) != 1 {
				t.Errorf("outsider reads %d messages of the public hidden group, want 1", len(got))
			}
			// Hidden groups do not use up a non-member's limit ...
			all := append([]string{visible}, hidden...)
			got := cx.query(nostr.Filter{Kinds: []int{kindGroupMetadata}, Tags: nostr.TagMap{"d": all}, Limit: 1})
			if len(got) != 1 || tagValue(&got[0], "d") != visible {
				t.Errorf("limit 1 over one visible and three hidden groups: %d events", len(got))
			}
			// ... nor count for them.
			if n := anon.count(nostr.Filter{Kinds: states, Tags: nostr.TagMap{"d": hidden}}); n != 0 {
				t.Errorf("COUNT of hidden state for an anonymous reader = %d", n)
			}
			if n := cm.count(nostr.Filter{Kinds: []int{kindGroupMetadata}, Tags: nostr.TagMap{"d": hidden}}); n != 1 {
				t.Errorf("COUNT of hidden 39000 for a member of one = %d, want 1", n)
			}

			// Live: a change of the hidden group reaches the member only.
			f := nostr.Filter{Kinds: []int{kindGroupMetadata}, Tags: nostr.TagMap{"d": {h, visible}}}
			for _, c := range []*client{cm, cx} {
				c.send(&nostr.ReqEnvelope{SubscriptionID: "live", Filters: nostr.Filters{f}})
				c.expect(func(e nostr.Envelope) bool { v, ok := e.(*nostr.EOSEEnvelope); return ok && string(*v) == "live" })
			}
			co.mustPublish(owner.edit(t, h, nostr.Tag{"name", "still hidden"}))
			co.mustPublish(owner.edit(t, visible, nostr.Tag{"name", "still visible"}))
			if _, err := cm.live("live", func(ev *nostr.Event) bool { return tagValue(ev, "name") == "still hidden" }); err != nil {
				t.Errorf("member: the hidden group's new 39000 was not delivered: %v", err)
			}
			ev, err := cx.live("live", func(*nostr.Event) bool { return true })
			if err != nil || tagValue(ev, "d") != visible {
				t.Errorf("outsider: first live 39000 is %v (%v), want the visible group's", ev, err)
			}
		})
	}
}

// --- restricted ---------------------------------------------------------------

func TestRestrictedGroupMembersWrite(t *testing.T) {
	for _, profile := range nip29Profiles {
		t.Run(profile, func(t *testing.T) {
			_, url := startRelay(t, Config{Profile: profile})
			owner, member, outsider := newActor(t), newActor(t), newActor(t)
			co, cm, cx := dial(t, url), dial(t, url), dial(t, url)
			co.auth(owner)
			cm.auth(member)
			cx.auth(outsider)
			id := group(t, co, owner, nostr.Tag{"restricted"})
			co.mustPublish(owner.put(t, id, member.pk, ""))
			cm.mustPublish(member.msg(t, id, "member", 0))
			cx.mustRefuse(outsider.msg(t, id, "outsider", 0), "restricted:")
			// Restricted limits writing, not reading.
			if got := cx.query(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {id}}}); len(got) != 1 {
				t.Errorf("outsider reads %d messages of the restricted group, want 1", len(got))
			}
			// Join requests are how a non-member gets in.
			cx.mustPublish(outsider.join(t, id))
			cx.mustPublish(outsider.msg(t, id, "joined", 0))
			co.mustPublish(owner.edit(t, id, nostr.Tag{"unrestricted"}))
			cx.mustPublish(outsider.leave(t, id))
			cx.mustPublish(outsider.msg(t, id, "left, unrestricted", 0))
		})
	}
}

// --- join ---------------------------------------------------------------------

func TestJoinRequest(t *testing.T) {
	for _, profile := range nip29Profiles {
		t.Run(profile, func(t *testing.T) {
			r, url := startRelay(t, Config{Profile: profile})
			owner, joiner := newActor(t), newActor(t)
			co, cj := dial(t, url), dial(t, url)
			co.auth(owner)
			cj.auth(joiner)

			// Open group: accepted, and admitted in the same step.
			id := group(t, co, owner, nostr.Tag{"name", "open"})
			before := co.state(kindGroupMembers, id)
			req := joiner.join(t, id, nostr.Tag{"code", "whatever"})
			cj.mustPublish(req)
			after := co.state(kindGroupMembers, id)
			if !hasPTag(after, joiner.pk, roleMember) {
				t.Fatalf("39002 right after the accepted 9021: %v", after.Tags)
			}
			if after.CreatedAt <= before.CreatedAt {
				t.Errorf("39002 created_at %d not after %d", after.CreatedAt, before.CreatedAt)
			}
			if got := co.query(nostr.Filter{IDs: []string{req.ID}}); len(got) != 1 {
				t.Errorf("the 9021 is not stored")
			}
			puts := co.query(nostr.Filter{Kinds: []int{kindPutUser}, Authors: []string{r.PubKey()}, Tags: nostr.TagMap{"h": {id}, "p": {joiner.pk}}})
			if len(puts) != 1 {
				t.Errorf("%d relay-signed 9000 for the joiner, want 1", len(puts))
			}

			// A member's join request: duplicate:.
			cj.mustRefuse(joiner.join(t, id), "duplicate: ")
			co.mustRefuse(owner.join(t, id), "duplicate: ")

			// Closed group: refused, nobody added.
			closed := group(t, co, owner, nostr.Tag{"closed"})
			ok := cj.mustRefuse(joiner.join(t, closed), "restricted:")
			if !strings.Contains(ok.Reason, "closed") {
				t.Errorf("the refusal does not say the group is closed: %q", ok.Reason)
			}
			cj.mustRefuse(joiner.join(t, closed, nostr.Tag{"code", "guess"}), "restricted:")
			if co.isMember(closed, joiner.pk) {
				t.Error("the refused join request added the user")
			}

			// Private (not closed) group: accepted; the new member reads it.
			priv := group(t, co, owner, nostr.Tag{"private"})
			co.mustPublish(owner.msg(t, priv, "secret", 0))
			if got := cj.query(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {priv}}}); len(got) != 0 {
				t.Fatalf("a non-member reads the private group")
			}
			cj.mustPublish(joiner.join(t, priv))
			if got := cj.query(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {priv}}}); len(got) != 1 {
				t.Errorf("the joined member reads %d messages, want 1", len(got))
			}

			// Unknown and deleted groups.
			cj.mustRefuse(joiner.join(t, newChannelID()), "invalid:")
			gone := group(t, co, owner)
			co.mustPublish(owner.event(t, kindDeleteGroup, nostr.Tags{{"h", gone}}, "", 0))
			cj.mustRefuse(joiner.join(t, gone), "restricted:")
		})
	}
}

// --- leave --------------------------------------------------------------------

func TestLeaveRequest(t *testing.T) {
	for _, profile := range nip29Profiles {
		t.Run(profile, func(t *testing.T) {
			r, url := startRelay(t, Config{Profile: profile})
			owner, member := newActor(t), newActor(t)
			co, cm := dial(t, url), dial(t, url)
			co.auth(owner)
			cm.auth(member)
			id := group(t, co, owner)
			co.mustPublish(owner.put(t, id, member.pk, roleAdmin))

			req := member.leave(t, id)
			cm.mustPublish(req)
			if co.isMember(id, member.pk) {
				t.Fatal("39002 still lists the member right after the accepted 9022")
			}
			if hasPTag(co.state(kindGroupAdmins, id), member.pk, roleAdmin) {
				t.Error("39001 still lists the admin who left")
			}
			if got := co.query(nostr.Filter{IDs: []string{req.ID}}); len(got) != 1 {
				t.Errorf("the 9022 is not stored")
			}
			removes := co.query(nostr.Filter{Kinds: []int{kindRemoveUser}, Tags: nostr.TagMap{"h": {id}, "p": {member.pk}}})
			if len(removes) != 1 {
				t.Fatalf("%d 9001 removing the member, want 1", len(removes))
			}
			if ok, _ := removes[0].CheckSignature(); !ok || removes[0].PubKey != r.PubKey() {
				t.Errorf("the 9001 is not signed by the relay key")
			}

			// Not a member (any more).
			cm.mustRefuse(member.leave(t, id), "restricted: not a member")
			// The last owner stays.
			co.mustRefuse(owner.leave(t, id), "restricted:")
			if !co.isMember(id, owner.pk) {
				t.Error("the refused leave removed the last owner")
			}

			// Join, leave, join and leave again within a second: every
			// relay-signed 9000/9001 is a distinct event.
			for i := 0; i < 2; i++ {
				cm.mustPublish(member.join(t, id))
				cm.mustPublish(member.leave(t, id))
			}
			if got := co.query(nostr.Filter{Kinds: []int{kindRemoveUser}, Authors: []string{r.PubKey()}, Tags: nostr.TagMap{"h": {id}}}); len(got) != 3 {
				t.Errorf("%d relay-signed 9001, want 3", len(got))
			}
		})
	}
}

// --- NIP-42 -------------------------------------------------------------------

func TestAuthEventsNeverDeliveredOrStored(t *testing.T) {
	for _, profile := range nip29Profiles {
		t.Run(profile, func(t *testing.T) {
			_, url := startRelay(t, Config{Profile: profile})
			if authEventDelivered(t, url) {
				t.Fatal("a kind 22242 was delivered to a subscription")
			}
			a := newActor(t)
			c := dial(t, url)
			c.auth(a)
			c.mustRefuse(a.event(t, nostr.KindClientAuthentication, nostr.Tags{{"relay", "ws://localhost"}, {"challenge", c.challenge}}, "", 0), "invalid:")
			if got := c.query(nostr.Filter{Kinds: []int{nostr.KindClientAuthentication}}); len(got) != 0 {
				t.Fatalf("%d kind 22242 stored", len(got))
			}
		})
	}
}

// --- storage ------------------------------------------------------------------

// TestMigrateOldChannels opens a database file whose channels table
// predates the NIP-29 metadata columns: the relay adds them on open, old
// groups read as having no picture and no flag, and flags can be set.
func TestMigrateOldChannels(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	key := nostr.GeneratePrivateKey()
	r, url := startRelay(t, Config{DBPath: path, SecretKey: key})
	owner := newActor(t)
	c := dial(t, url)
	c.auth(owner)
	id := group(t, c, owner, nostr.Tag{"name", "old"})
	c.close()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}

	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range channelColumnsAdded {
		if _, err := db.Exec(`ALTER TABLE channels DROP COLUMN ` + col[0]); err != nil {
			t.Fatalf("drop %s: %v", col[0], err)
		}
	}
	db.Close()

	_, url2 := startRelay(t, Config{DBPath: path, SecretKey: key})
	c2 := dial(t, url2)
	c2.auth(owner)
	c2.mustPublish(owner.edit(t, id, nostr.Tag{"closed"}, nostr.Tag{"picture", "https://p.example/p.png"}))
	meta := c2.state(kindGroupMetadata, id)
	if tagValue(meta, "name") != "old" || !hasFlag(meta, "closed") || tagValue(meta, "picture") != "https://p.example/p.png" {
		t.Fatalf("39000 after migration and edit: %v", meta.Tags)
	}
}
