package reference

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// httpGet answers a GET of url with Host host ("" = the URL's) and the
// Accept header accept ("" = none): status and body.
func httpGet(t *testing.T, url, host, accept string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, strings.Replace(url, "ws://", "http://", 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestVariantNIP11Only426: the document for its Accept header only; 426
// at "/" without it, 404 elsewhere.
func TestVariantNIP11Only426(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29", Variants: []string{variantNIP11Only426}})
	if code, body := httpGet(t, url, "", "application/nostr+json"); code != http.StatusOK || !strings.Contains(body, `"supported_nips"`) {
		t.Errorf("NIP-11 with its Accept header: %d %q", code, body)
	}
	if code, _ := httpGet(t, url, "", "text/html"); code != http.StatusUpgradeRequired {
		t.Errorf(`GET "/" for text/html: %d, want 426`, code)
	}
	if code, _ := httpGet(t, url+"/elsewhere", "", ""); code != http.StatusNotFound {
		t.Errorf("GET /elsewhere: %d, want 404", code)
	}
}

// TestVariantWriteGates: auth-writes-any-key refuses a write before any
// AUTH and accepts another key's event after one; no-auth-for-writes
// accepts a signed event without AUTH.
func TestVariantWriteGates(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29", Variants: []string{variantAuthWritesAnyKey}})
	owner, other := newActor(t), newActor(t)
	c := dial(t, url)
	ev := owner.create(t, newChannelID())
	if ok := c.publish(ev); ok.OK || !strings.HasPrefix(ok.Reason, "auth-required:") {
		t.Errorf("auth-writes-any-key, before AUTH: OK %v %q, want auth-required:", ok.OK, ok.Reason)
	}
	c.auth(other)
	c.mustPublish(ev)

	_, url = startRelay(t, Config{Profile: "identity", Variants: []string{variantNoAuthForWrites}})
	c = dial(t, url)
	c.mustPublish(owner.create(t, newChannelID()))
	if _, err := New(Config{Profile: "labels", Variants: []string{variantNoAuthForWrites}}); err == nil {
		t.Error("no-auth-for-writes was accepted for the labels profile, whose draft requires authenticated authors")
	}
}

// TestVariantSeveralRoles: every admin is listed with its granted role and
// the kept one, which 39003 lists.
func TestVariantSeveralRoles(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29", Variants: []string{variantSeveralRoles}})
	owner, admin := newActor(t), newActor(t)
	c := dial(t, url)
	c.auth(owner)
	id := newChannelID()
	c.mustPublish(owner.create(t, id))
	c.mustPublish(owner.put(t, id, admin.pk, roleAdmin))
	admins := c.state(kindGroupAdmins, id)
	for _, pk := range []string{owner.pk, admin.pk} {
		tag := admins.Tags.FindWithValue("p", pk)
		if len(tag) != 4 || tag[3] != extraRole || (tag[2] != roleOwner && tag[2] != roleAdmin) {
			t.Errorf("39001 entry of %s: %v, want the granted role then %q", pk[:8], tag, extraRole)
		}
	}
	if roles := c.state(kindGroupRoles, id); roles.Tags.FindWithValue("role", extraRole) == nil {
		t.Errorf("39003 does not list %q: %v", extraRole, roles.Tags)
	}
}

// TestVariantPowerlessRoleFirst: every moderator is listed with the
// plain member's role first; a 9000 carrying several roles grants the most
// powerful of them, and a role the relay does not know is refused. Beside
// several-roles-per-admin's hook (one dimension, so installed by hand
// here), a kept role grants nothing.
func TestVariantPowerlessRoleFirst(t *testing.T) {
	for _, kept := range []bool{false, true} {
		r, err := New(Config{Profile: "nip29", Variants: []string{variantPowerlessFirst}, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		var extra []string
		if kept {
			several, _ := LookupVariant(variantSeveralRoles)
			several.install(r)
			extra = []string{extraRole}
		}
		url, err := r.Start()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = r.Close() })
		owner, admin, plain := newActor(t), newActor(t), newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		put := func(pk string, roles ...string) *nostr.Event {
			return owner.event(t, kindPutUser, nostr.Tags{{"h", id}, append(nostr.Tag{"p", pk}, roles...)}, "", 0)
		}
		c.mustPublish(put(admin.pk, append([]string{roleMember, roleAdmin}, extra...)...))
		c.mustPublish(put(plain.pk, append([]string{roleMember}, extra...)...))
		admins := c.state(kindGroupAdmins, id)
		for pk, granted := range map[string]string{owner.pk: roleOwner, admin.pk: roleAdmin} {
			tag := admins.Tags.FindWithValue("p", pk)
			if want := append(nostr.Tag{"p", pk, roleMember, granted}, extra...); !slices.Equal(tag, want) {
				t.Errorf("kept %v: 39001 entry of %s: %v, want %v", kept, pk[:8], tag, want)
			}
		}
		if tag := admins.Tags.FindWithValue("p", plain.pk); tag != nil {
			t.Errorf("kept %v: a user put with the member role (and kept ones) is listed as a moderator: %v", kept, tag)
		}
		if ok := c.publish(put(plain.pk, roleMember, "founder")); ok.OK || !strings.HasPrefix(ok.Reason, "invalid:") {
			t.Errorf("kept %v: a 9000 naming an unknown role: OK %v %q, want invalid:", kept, ok.OK, ok.Reason)
		}
	}
}

// TestVariantHostRouting: a Host the relay does not know gets 404 on
// NIP-11 and on the upgrade; the loopback names and RoutedHosts are served.
func TestVariantHostRouting(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29", Variants: []string{variantHostRouting}, RoutedHosts: []string{"relay.example:443"}})
	for host, want := range map[string]int{"": http.StatusOK, "localhost": http.StatusOK, "relay.example": http.StatusOK, "elsewhere.example": http.StatusNotFound} {
		if code, _ := httpGet(t, url, host, "application/nostr+json"); code != want {
			t.Errorf("NIP-11 at Host %q: %d, want %d", host, code, want)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, strings.Replace(url, "ws://", "http://", 1), nil)
	req.Host = "elsewhere.example"
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Connection", "Upgrade")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("upgrade at an unknown Host: %d, want 404", resp.StatusCode)
	}
}

// TestVariantPreviousMin3: a member's message without references is
// refused once three events by others exist in the group.
func TestVariantPreviousMin3(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29", Variants: []string{variantPreviousMin3}})
	owner, member := newActor(t), newActor(t)
	c := dial(t, url)
	c.auth(owner)
	c.auth(member)
	id := newChannelID()
	c.mustPublish(owner.create(t, id))
	c.mustPublish(owner.put(t, id, member.pk, ""))
	var refs []string
	for i := int64(0); i < 3; i++ {
		m := owner.msg(t, id, "context", i)
		c.mustPublish(m)
		refs = append(refs, m.ID[:8])
	}
	if ok := c.publish(member.msg(t, id, "no references", 4)); ok.OK || !strings.HasPrefix(ok.Reason, "invalid:") {
		t.Errorf("a message without previous references: OK %v %q, want invalid:", ok.OK, ok.Reason)
	}
	ev := member.event(t, kindChatMessage, nostr.Tags{{"h", id}, append(nostr.Tag{"previous"}, refs...)}, "in context", 5)
	c.mustPublish(ev)
}
