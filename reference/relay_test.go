package reference

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nipcl/nipcl-conform/clause"
)

func httpURL(wsURL string) string { return "http" + strings.TrimPrefix(wsURL, "ws") }

func TestNewValidatesConfig(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		want string // substring of the error; "" = success
	}{
		{"defaults", Config{}, ""},
		{"identity", Config{Profile: "identity"}, ""},
		{"labels", Config{Profile: "labels"}, ""},
		{"unknown profile", Config{Profile: "nope"}, `unknown profile "nope"`},
		{"unknown fault", Config{Faults: []string{"bogus"}}, "limit-before-access"},
		{"bad key", Config{SecretKey: "xyz"}, "SecretKey"},
		{"every core fault", Config{Faults: faultNamesOf(nip29Faults)}, ""},
		{"every identity fault", Config{Profile: "identity", Faults: faultNamesOf(identityFaults)}, ""},
		{"every labels fault", Config{Profile: "labels", Faults: faultNamesOf(labelsFaults)}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := New(tc.cfg)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				r.Close()
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

// faultNamesOf returns the switch names of a fault list.
func faultNamesOf(fs []faultSpec) []string {
	names := make([]string, 0, len(fs))
	for _, f := range fs {
		names = append(names, string(f.Name))
	}
	return names
}

func TestFaultCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Faults() {
		if seen[f.Name] {
			t.Errorf("duplicate fault %s", f.Name)
		}
		seen[f.Name] = true
		if _, ok := clause.Lookup(f.Section); !ok {
			t.Errorf("fault %s cites unknown section %q", f.Name, f.Section)
		}
		if f.Breaks == "" {
			t.Errorf("fault %s has no description", f.Name)
		}
		if f.Profile != "" {
			if _, ok := profiles[f.Profile]; !ok {
				t.Errorf("fault %s names unknown profile %q", f.Name, f.Profile)
			}
		}
	}
	if len(nip29Faults) < 18 {
		t.Errorf("%d core faults, want at least the 18 baseline faults", len(nip29Faults))
	}
}

// TestNIP11ContactPubKey: Config.ContactPubKey (serve --nip11-pubkey)
// publishes another key as NIP-11 pubkey; self stays the relay key.
func TestNIP11ContactPubKey(t *testing.T) {
	pk, _ := nostr.GetPublicKey(nostr.GeneratePrivateKey())
	r, url := startRelay(t, Config{ContactPubKey: pk})
	req, _ := http.NewRequest("GET", httpURL(url), nil)
	req.Header.Set("Accept", "application/nostr+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc Info
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Self != r.PubKey() || doc.PubKey != pk {
		t.Errorf("self=%q pubkey=%q, want self %q (relay key) and pubkey %q (contact)", doc.Self, doc.PubKey, r.PubKey(), pk)
	}
}

func TestNIP11(t *testing.T) {
	for _, tc := range []struct {
		profile string
		ext     []string
	}{{"none", []string{}}, {"identity", []string{"nip-cl"}}, {"labels", []string{"nip-cl"}}} {
		t.Run(tc.profile, func(t *testing.T) {
			r, url := startRelay(t, Config{Profile: tc.profile, Name: "test relay"})
			req, _ := http.NewRequest("GET", httpURL(url), nil)
			req.Header.Set("Accept", "application/nostr+json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			var doc Info
			if err := json.Unmarshal(body, &doc); err != nil {
				t.Fatalf("decode %s: %v", body, err)
			}
			if doc.Self != r.PubKey() || doc.PubKey != r.PubKey() {
				t.Errorf("self=%q pubkey=%q want %q", doc.Self, doc.PubKey, r.PubKey())
			}
			if doc.Name != "test relay" || doc.Software == "" || doc.Version == "" {
				t.Errorf("name/software/version: %+v", doc)
			}
			if !slices.Equal(doc.SupportedExtensions, tc.ext) {
				t.Errorf("supported_extensions = %v, want %v", doc.SupportedExtensions, tc.ext)
			}
			var nips []int
			for _, n := range doc.SupportedNIPs {
				f, ok := n.(float64)
				if !ok {
					t.Errorf("supported_nips has non-number %v", n)
				}
				nips = append(nips, int(f))
			}
			if !slices.Equal(nips, []int{1, 11, 29, 42, 45, 50}) {
				t.Errorf("supported_nips = %v", nips)
			}
			l := doc.Limitation
			if l == nil || !l.AuthRequired || l.MaxLimit != DefaultMaxLimit || l.DefaultLimit != DefaultDefaultLimit || l.MaxFilters != MaxFilters ||
				l.MaxMessageLength != DefaultMaxMessageSize || l.CreatedAtLowerLimit != 900 || l.CreatedAtUpperLimit != 900 ||
				l.MaxSubscriptions != MaxSubscriptions {
				t.Errorf("limitation = %+v", l)
			}
			if !strings.Contains(string(body), `"supported_extensions":[`) {
				t.Errorf("supported_extensions must be an array: %s", body)
			}

			plain, err := http.Get(httpURL(url))
			if err != nil {
				t.Fatal(err)
			}
			text, _ := io.ReadAll(plain.Body)
			plain.Body.Close()
			if !strings.HasPrefix(plain.Header.Get("Content-Type"), "text/plain") || !strings.Contains(string(text), "Nostr relay") {
				t.Errorf("plain GET: %s %q", plain.Header.Get("Content-Type"), text)
			}
		})
	}
}

func TestAuthFlow(t *testing.T) {
	_, url := startRelay(t, Config{})
	alice, bob := newActor(t), newActor(t)
	c := dial(t, url)
	if c.challenge == "" {
		t.Fatal("empty challenge")
	}

	// Writes need AUTH.
	if ok := c.publish(alice.event(t, 1, nil, "hi", 0)); ok.OK || !strings.HasPrefix(ok.Reason, "auth-required:") {
		t.Fatalf("unauthenticated write: %+v", ok)
	}
	// Wrong challenge, stale timestamp, wrong kind.
	if ok := c.authResult(alice, "wrong", 0); ok.OK {
		t.Fatal("AUTH with wrong challenge accepted")
	}
	if ok := c.authResult(alice, c.challenge, -2000); ok.OK {
		t.Fatal("AUTH with stale created_at accepted")
	}
	bad := alice.event(t, 1, nostr.Tags{{"relay", "ws://localhost"}, {"challenge", c.challenge}}, "", 0)
	c.send(&nostr.AuthEnvelope{Event: *bad})
	if ok := c.okFor(bad.ID); ok.OK {
		t.Fatal("AUTH with kind 1 accepted")
	}
	noRelay := alice.event(t, nostr.KindClientAuthentication, nostr.Tags{{"challenge", c.challenge}}, "", 0)
	c.send(&nostr.AuthEnvelope{Event: *noRelay})
	if ok := c.okFor(noRelay.ID); ok.OK {
		t.Fatal("AUTH without relay tag accepted")
	}

	c.auth(alice)
	c.mustPublish(alice.event(t, 1, nil, "hi", 0))
	// Bob is not authed on this connection yet.
	if ok := c.publish(bob.event(t, 1, nil, "hi", 0)); ok.OK || !strings.HasPrefix(ok.Reason, "auth-required:") {
		t.Fatalf("write as other key: %+v", ok)
	}
	// A connection may authenticate several keys.
	c.auth(bob)
	c.mustPublish(bob.event(t, 1, nil, "hi", 0))
	c.mustPublish(alice.event(t, 1, nil, "again", 0))

	// kind 22242 through EVENT is refused.
	if ok := c.publish(alice.event(t, nostr.KindClientAuthentication, nostr.Tags{{"challenge", c.challenge}}, "", 0)); ok.OK {
		t.Fatal("22242 via EVENT accepted")
	}
}

func TestEventValidation(t *testing.T) {
	_, url := startRelay(t, Config{})
	a := newActor(t)
	c := dial(t, url)
	c.auth(a)

	good := a.event(t, 1, nil, "ok", 0)
	c.mustPublish(good)
	if ok := c.publish(good); !ok.OK || !strings.HasPrefix(ok.Reason, "duplicate:") {
		t.Fatalf("resubmission: %+v", ok)
	}

	badID := a.event(t, 1, nil, "x", 0)
	badID.Content = "tampered"
	badSig := a.event(t, 1, nil, "y", 0)
	badSig.Sig = strings.Repeat("0", 128)
	cases := []struct {
		name string
		ev   *nostr.Event
		want string
	}{
		{"bad id", badID, "invalid: bad id"},
		{"bad signature", badSig, "invalid: bad signature"},
		{"too old", a.event(t, 1, nil, "old", -1000), "invalid:"},
		{"too new", a.event(t, 1, nil, "new", 1000), "invalid:"},
		{"relay kind", a.event(t, kindGroupMetadata, nostr.Tags{{"d", newChannelID()}}, "", 0), "restricted:"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ok := c.publish(tc.ev)
			if ok.OK || !strings.HasPrefix(ok.Reason, tc.want) {
				t.Fatalf("got %v %q, want false %q", ok.OK, ok.Reason, tc.want)
			}
		})
	}
	// Within the window is fine.
	c.mustPublish(a.event(t, 1, nil, "edge", -850))
}

func TestChannelLifecycle(t *testing.T) {
	r, url := startRelay(t, Config{})
	owner, admin, member, outsider := newActor(t), newActor(t), newActor(t), newActor(t)
	co, ca, cm, cx := dial(t, url), dial(t, url), dial(t, url), dial(t, url)
	co.auth(owner)
	ca.auth(admin)
	cm.auth(member)
	cx.auth(outsider)

	id := newChannelID()
	co.mustPublish(owner.create(t, id, nostr.Tag{"channel_type", "forum"}, nostr.Tag{"about", "hello"}))

	meta := cx.state(kindGroupMetadata, id)
	if meta == nil {
		t.Fatal("no 39000 after create")
	}
	if meta.PubKey != r.PubKey() {
		t.Errorf("39000 signed by %s, want relay %s", meta.PubKey, r.PubKey())
	}
	if ok, _ := meta.CheckSignature(); !ok {
		t.Error("39000 signature invalid")
	}
	for _, want := range []nostr.Tag{{"d", id}, {"name", "chan-" + id[:8]}, {"about", "hello"}, {"public"}, {"open"}, {"t", "forum"}} {
		if !slices.ContainsFunc(meta.Tags, func(tag nostr.Tag) bool { return slices.Equal(tag, want) }) {
			t.Errorf("39000 lacks %v: %v", want, meta.Tags)
		}
	}
	if adm := cx.state(kindGroupAdmins, id); adm == nil || !hasPTag(adm, owner.pk, roleOwner) {
		t.Errorf("39001 = %v", adm)
	}
	if mem := cx.state(kindGroupMembers, id); mem == nil || !hasPTag(mem, owner.pk, roleOwner) {
		t.Errorf("39002 = %v", mem)
	}

	// Creation errors.
	createCases := []struct {
		name string
		ev   *nostr.Event
		want string
	}{
		{"existing uuid", outsider.create(t, id), "duplicate:"},
		{"no h", outsider.event(t, kindCreateGroup, nostr.Tags{{"name", "x"}}, "", 0), "invalid:"},
		{"two h", outsider.event(t, kindCreateGroup, nostr.Tags{{"h", newChannelID()}, {"h", newChannelID()}}, "", 0), "invalid:"},
		{"empty id", outsider.event(t, kindCreateGroup, nostr.Tags{{"h", ""}}, "", 0), "invalid:"},
		{"unknown type", outsider.create(t, newChannelID(), nostr.Tag{"channel_type", "podcast"}), "invalid:"},
		{"system in none", outsider.create(t, newChannelID(), nostr.Tag{"channel_type", "system"}), "invalid:"},
		{"bad visibility", outsider.create(t, newChannelID(), nostr.Tag{"visibility", "secret"}), "invalid:"},
	}
	for _, tc := range createCases {
		t.Run("create/"+tc.name, func(t *testing.T) {
			ok := cx.publish(tc.ev)
			if ok.OK || !strings.HasPrefix(ok.Reason, tc.want) {
				t.Fatalf("got %v %q, want false %q", ok.OK, ok.Reason, tc.want)
			}
		})
	}

	// Membership.
	co.mustPublish(owner.put(t, id, admin.pk, roleAdmin))
	co.mustPublish(owner.put(t, id, member.pk, ""))
	if adm := cx.state(kindGroupAdmins, id); !hasPTag(adm, admin.pk, roleAdmin) || hasPTag(adm, member.pk, roleMember) {
		t.Errorf("39001 after put: %v", adm.Tags)
	}
	if mem := cx.state(kindGroupMembers, id); !hasPTag(mem, admin.pk, roleAdmin) || !hasPTag(mem, member.pk, roleMember) {
		t.Errorf("39002 after put: %v", mem.Tags)
	}

	steps := []struct {
		name string
		c    *client
		ev   *nostr.Event
		want string // "" = accepted
	}{
		{"member cannot put", cm, member.put(t, id, outsider.pk, ""), "restricted:"},
		{"outsider cannot put", cx, outsider.put(t, id, outsider.pk, ""), "restricted:"},
		{"bad role", co, owner.put(t, id, outsider.pk, "king"), "invalid:"},
		{"admin cannot grant owner", ca, admin.put(t, id, outsider.pk, roleOwner), "restricted:"},
		{"member cannot edit", cm, member.edit(t, id, nostr.Tag{"name", "x"}), "restricted:"},
		{"outsider cannot edit", cx, outsider.edit(t, id, nostr.Tag{"name", "x"}), "restricted:"},
		{"admin edits", ca, admin.edit(t, id, nostr.Tag{"name", "renamed"}, nostr.Tag{"about", "new"}), ""},
		{"bad archived", co, owner.edit(t, id, nostr.Tag{"archived", "maybe"}), "invalid:"},
		{"edit unknown channel", co, owner.edit(t, newChannelID(), nostr.Tag{"name", "x"}), "invalid:"},
		{"cannot remove last owner", co, owner.remove(t, id, owner.pk), "restricted:"},
		{"cannot demote last owner", co, owner.put(t, id, owner.pk, roleMember), "restricted:"},
		{"admin cannot remove owner", ca, admin.remove(t, id, owner.pk), "restricted:"},
		{"admin removes member", ca, admin.remove(t, id, member.pk), ""},
		{"member gone cannot edit", cm, member.edit(t, id, nostr.Tag{"name", "x"}), "restricted:"},
		{"admin cannot delete", ca, admin.event(t, kindDeleteGroup, nostr.Tags{{"h", id}}, "", 0), "restricted:"},
		{"unsupported command", co, owner.event(t, 9005, nostr.Tags{{"h", id}}, "", 0), "invalid:"},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			ok := s.c.publish(s.ev)
			if s.want == "" {
				if !ok.OK {
					t.Fatalf("refused: %s", ok.Reason)
				}
				return
			}
			if ok.OK || !strings.HasPrefix(ok.Reason, s.want) {
				t.Fatalf("got %v %q, want false %q", ok.OK, ok.Reason, s.want)
			}
		})
	}
	meta = cx.state(kindGroupMetadata, id)
	if meta.Tags.Find("name")[1] != "renamed" || meta.Tags.Find("about")[1] != "new" {
		t.Errorf("39000 after edit: %v", meta.Tags)
	}
	if mem := cx.state(kindGroupMembers, id); hasPTag(mem, member.pk, roleMember) {
		t.Errorf("39002 still lists removed member: %v", mem.Tags)
	}

	// Archive: metadata shows it, posts are refused, unarchive restores.
	co.mustPublish(owner.edit(t, id, nostr.Tag{"archived", "true"}))
	if m := cx.state(kindGroupMetadata, id); m.Tags.FindWithValue("archived", "true") == nil {
		t.Errorf("no archived tag: %v", m.Tags)
	}
	if ok := co.publish(owner.msg(t, id, "hi", 0)); ok.OK || !strings.HasPrefix(ok.Reason, "restricted:") {
		t.Errorf("post to archived channel: %+v", ok)
	}
	co.mustPublish(owner.edit(t, id, nostr.Tag{"archived", "false"}))
	if m := cx.state(kindGroupMetadata, id); m.Tags.Find("archived") != nil {
		t.Errorf("archived tag stays: %v", m.Tags)
	}
	co.mustPublish(owner.msg(t, id, "hi", 0))

	// Command events are stored and readable under the channel's rules.
	if cmds := cx.query(nostr.Filter{Kinds: []int{kindPutUser, kindRemoveUser, kindEditMetadata, kindCreateGroup}, Tags: nostr.TagMap{"h": {id}}}); len(cmds) < 5 {
		t.Errorf("stored commands: %d", len(cmds))
	}

	// Delete: owner only; state gone; UUID never reusable.
	co.mustPublish(owner.event(t, kindDeleteGroup, nostr.Tags{{"h", id}}, "", 0))
	for _, k := range []int{kindGroupMetadata, kindGroupAdmins, kindGroupMembers} {
		if ev := cx.state(k, id); ev != nil {
			t.Errorf("kind %d survives deletion", k)
		}
	}
	if evs := co.query(nostr.Filter{Tags: nostr.TagMap{"h": {id}}}); len(evs) != 0 {
		t.Errorf("deleted channel still readable: %d events", len(evs))
	}
	for name, ev := range map[string]*nostr.Event{
		"recreate": owner.create(t, id),
		"post":     owner.msg(t, id, "x", 0),
		"edit":     owner.edit(t, id, nostr.Tag{"name", "zombie"}),
	} {
		ok := co.publish(ev)
		if ok.OK {
			t.Errorf("%s on deleted channel accepted", name)
		}
		if name == "recreate" && !strings.HasPrefix(ok.Reason, "duplicate:") {
			t.Errorf("recreate reason %q, want duplicate:", ok.Reason)
		}
	}
}

func TestPrivateReadAccess(t *testing.T) {
	_, url := startRelay(t, Config{})
	owner, member, outsider := newActor(t), newActor(t), newActor(t)
	co, cm, cx, anon := dial(t, url), dial(t, url), dial(t, url), dial(t, url)
	co.auth(owner)
	cm.auth(member)
	cx.auth(outsider)

	priv, open := newChannelID(), newChannelID()
	co.mustPublish(owner.create(t, priv, nostr.Tag{"visibility", "private"}))
	co.mustPublish(owner.create(t, open))
	co.mustPublish(owner.put(t, priv, member.pk, roleMember))
	cm.mustPublish(member.msg(t, priv, "secret", 0))
	co.mustPublish(owner.msg(t, open, "public", 0))
	if ok := cx.publish(outsider.msg(t, priv, "intrude", 0)); ok.OK || !strings.HasPrefix(ok.Reason, "restricted:") {
		t.Errorf("outsider posted to private channel: %+v", ok)
	}
	cx.mustPublish(outsider.msg(t, open, "anyone may post in open channels", 0))

	byH := nostr.Filter{Tags: nostr.TagMap{"h": {priv}}}
	byD := nostr.Filter{Kinds: []int{kindGroupMetadata, kindGroupAdmins, kindGroupMembers}, Tags: nostr.TagMap{"d": {priv}}}
	for _, tc := range []struct {
		name      string
		c         *client
		canRead   bool
		wantCount int64
	}{
		{"owner", co, true, 3}, // 9007, 9000, kind 9
		{"member", cm, true, 3},
		{"outsider", cx, false, 0},
		{"unauthenticated", anon, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := tc.c.query(byH)
			if int64(len(evs)) != tc.wantCount {
				t.Errorf("#h read: %d events, want %d", len(evs), tc.wantCount)
			}
			if n := tc.c.count(byH); n != tc.wantCount {
				t.Errorf("COUNT #h = %d, want %d", n, tc.wantCount)
			}
			st := tc.c.query(byD)
			if tc.canRead != (len(st) == 3) || (!tc.canRead && len(st) != 0) {
				t.Errorf("state read: %d events (canRead=%v)", len(st), tc.canRead)
			}
			// Open channel: everyone reads.
			if evs := tc.c.query(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {open}}}); len(evs) != 2 {
				t.Errorf("open channel messages: %d", len(evs))
			}
		})
	}
}

// TestLimitAppliesAfterAccess: an outsider's page is full even when many
// newer private events exist (the limit-before-access fault breaks this).
func TestLimitAppliesAfterAccess(t *testing.T) {
	for _, fault := range []FaultName{"", faultLimitBeforeAccess} {
		t.Run("fault="+string(fault), func(t *testing.T) {
			_, url := startRelay(t, Config{Faults: nonEmpty(fault)})
			owner, outsider := newActor(t), newActor(t)
			co, cx := dial(t, url), dial(t, url)
			co.auth(owner)
			cx.auth(outsider)

			open := newChannelID()
			co.mustPublish(owner.create(t, open))
			for i := 0; i < 5; i++ {
				co.mustPublish(owner.msg(t, open, fmt.Sprint("old ", i), int64(-800+i)))
			}
			for i := 0; i < 12; i++ {
				id := newChannelID()
				co.mustPublish(owner.create(t, id, nostr.Tag{"visibility", "private"}))
				co.mustPublish(owner.msg(t, id, "newer private", int64(-100+i)))
			}
			page := cx.query(nostr.Filter{Kinds: []int{9}, Limit: 5})
			if fault == "" {
				if len(page) != 5 {
					t.Fatalf("page has %d events, want 5", len(page))
				}
				for i := 1; i < len(page); i++ {
					if page[i-1].CreatedAt < page[i].CreatedAt {
						t.Fatal("not newest first")
					}
				}
			} else if len(page) == 5 {
				t.Fatal("fault on, page still full")
			}
			// The owner sees the newest private messages.
			if own := co.query(nostr.Filter{Kinds: []int{9}, Limit: 5}); len(own) != 5 || own[0].Content != "newer private" {
				t.Errorf("owner page: %d", len(own))
			}
		})
	}
}

func nonEmpty(s FaultName) []string {
	if s == "" {
		return nil
	}
	return []string{string(s)}
}

func TestFilters(t *testing.T) {
	_, url := startRelay(t, Config{})
	a, b := newActor(t), newActor(t)
	c := dial(t, url)
	c.auth(a)
	c.auth(b)
	var tagged []*nostr.Event
	for i := 0; i < 4; i++ {
		ev := a.event(t, 1, nostr.Tags{{"t", "match"}, {"e", strings.Repeat("ab", 32)}}, fmt.Sprint("tagged ", i), int64(-700+i))
		c.mustPublish(ev)
		tagged = append(tagged, ev)
	}
	for i := 0; i < 10; i++ {
		c.mustPublish(b.event(t, 7, nostr.Tags{{"t", "other"}}, fmt.Sprint("noise ", i), int64(-100+i)))
	}
	since, until := nostr.Timestamp(tagged[1].CreatedAt), nostr.Timestamp(tagged[2].CreatedAt)
	cases := []struct {
		name string
		f    []nostr.Filter
		want int
	}{
		{"tag before limit", []nostr.Filter{{Tags: nostr.TagMap{"t": {"match"}}, Limit: 3}}, 3},
		{"tag or", []nostr.Filter{{Tags: nostr.TagMap{"t": {"match", "other"}}}}, 14},
		{"two tags and", []nostr.Filter{{Tags: nostr.TagMap{"t": {"match"}, "e": {strings.Repeat("ab", 32)}}}}, 4},
		{"authors", []nostr.Filter{{Authors: []string{b.pk}}}, 10},
		{"kinds", []nostr.Filter{{Kinds: []int{1}}}, 4},
		{"ids", []nostr.Filter{{IDs: []string{tagged[0].ID, tagged[3].ID}}}, 2},
		{"since until", []nostr.Filter{{Kinds: []int{1}, Since: &since, Until: &until}}, 2},
		{"several filters", []nostr.Filter{{Kinds: []int{1}, Limit: 1}, {Kinds: []int{7}, Limit: 2}}, 3},
		{"limit zero", []nostr.Filter{{Kinds: []int{1}, LimitZero: true}}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.query(tc.f...); len(got) != tc.want {
				t.Errorf("REQ: %d events, want %d", len(got), tc.want)
			}
			if got := c.count(tc.f...); tc.name != "tag before limit" && tc.name != "several filters" && tc.name != "limit zero" && got != int64(tc.want) {
				t.Errorf("COUNT = %d, want %d", got, tc.want)
			}
		})
	}
	// An empty list matches nothing (go-nostr drops empty lists, so raw).
	c.sendRaw(`["REQ","empty",{"kinds":[]},{"#t":[]},{"ids":[]}]`)
	if env := c.expect(func(e nostr.Envelope) bool {
		switch v := e.(type) {
		case *nostr.EventEnvelope:
			return *v.SubscriptionID == "empty"
		case *nostr.EOSEEnvelope:
			return string(*v) == "empty"
		}
		return false
	}); env.Label() != "EOSE" {
		t.Errorf("empty lists matched an event")
	}
	// Order: created_at desc, then id asc.
	all := c.query(nostr.Filter{})
	for i := 1; i < len(all); i++ {
		p, q := all[i-1], all[i]
		if p.CreatedAt < q.CreatedAt || (p.CreatedAt == q.CreatedAt && p.ID > q.ID) {
			t.Fatalf("order broken at %d", i)
		}
	}
}

func TestMalformedFrames(t *testing.T) {
	frames := []string{
		`hello`, `{}`, `[]`, `[1,2]`, `["NOPE"]`, `["EVENT"]`, `["EVENT", 5]`, `["EVENT", {"id": 1}]`,
		`["EVENT", {"kind": "x"}]`, `["REQ"]`, `["REQ", 5, {}]`, `["REQ", "s"]`, `["REQ", "s", 5]`,
		`["REQ", "s", {"kinds": "x"}]`, `["REQ", "s", {"ids": ["zz"]}]`, `["REQ", "s", {"#long": ["x"]}]`,
		`["REQ", "s", {"limit": -1}]`, `["COUNT", "c", {"authors": [1]}]`, `["CLOSE"]`, `["CLOSE", 1]`,
		`["AUTH"]`, `["AUTH", "challenge-as-string"]`, `["EVENT", "sub", {}]`, "\x00\xff", `["REQ", "", {}]`,
		`[null]`, `["EVENT", {"id":"a","pubkey":"b","created_at":1,"kind":1,"tags":[[1]],"content":"","sig":"c"}]`,
	}
	_, url := startRelay(t, Config{})
	a := newActor(t)
	c := dial(t, url)
	c.auth(a)
	for _, f := range frames {
		c.sendRaw(f)
		env := c.expect(func(e nostr.Envelope) bool { _, ok := e.(*nostr.NoticeEnvelope); return ok })
		if n := string(*env.(*nostr.NoticeEnvelope)); !strings.HasPrefix(n, "invalid:") {
			t.Errorf("frame %q: NOTICE %q", f, n)
		}
	}
	// Still usable.
	c.mustPublish(a.event(t, 1, nil, "still here", 0))
	if evs := c.query(nostr.Filter{Authors: []string{a.pk}}); len(evs) != 1 {
		t.Errorf("after garbage: %d events", len(evs))
	}
	if c.count(nostr.Filter{Authors: []string{a.pk}}) != 1 {
		t.Error("COUNT after garbage")
	}
}

func TestGarbageNeverPanics(t *testing.T) {
	var panicked atomic.Bool
	_, url := startRelay(t, Config{Logf: func(format string, args ...any) {
		if strings.HasPrefix(format, "panic") {
			panicked.Store(true)
		}
	}})
	a := newActor(t)
	c := dial(t, url)
	c.auth(a)
	seeds := []string{`["EVENT",{}]`, `["REQ","x",{"#e":null,"kinds":[1]}]`, `["COUNT","x",{}]`, `["AUTH",{}]`,
		`["CLOSE","x"]`, `["REQ","x",{"since":99999999999999999999}]`}
	n := 0
	for _, s := range seeds {
		for cut := 0; cut <= len(s); cut++ {
			c.sendRaw(s[:cut] + `"]}`)
			n++
		}
	}
	// A well-formed round trip after all that.
	c.mustPublish(a.event(t, 1, nil, "alive", 0))
	if panicked.Load() {
		t.Fatal("relay recovered from a panic")
	}
	_ = n
}

func TestLiveDelivery(t *testing.T) {
	_, url := startRelay(t, Config{})
	owner, outsider := newActor(t), newActor(t)
	co, cx, pub := dial(t, url), dial(t, url), dial(t, url)
	co.auth(owner)
	cx.auth(outsider)
	pub.auth(owner)

	priv, open := newChannelID(), newChannelID()
	pub.mustPublish(owner.create(t, priv, nostr.Tag{"visibility", "private"}))
	pub.mustPublish(owner.create(t, open))

	co.req("live", nostr.Filter{Kinds: []int{9, kindGroupMetadata}})
	cx.req("live", nostr.Filter{Kinds: []int{9, kindGroupMetadata}})

	secret := owner.msg(t, priv, "secret", 0)
	pub.mustPublish(secret)
	hello := owner.msg(t, open, "hello", 0)
	pub.mustPublish(hello)
	pub.mustPublish(owner.edit(t, open, nostr.Tag{"name", "renamed"}))

	for _, want := range []string{secret.ID, hello.ID} {
		if _, err := co.live("live", func(e *nostr.Event) bool { return e.ID == want }); err != nil {
			t.Fatalf("owner live %s: %v", want[:8], err)
		}
	}
	if _, err := co.live("live", func(e *nostr.Event) bool {
		return e.Kind == kindGroupMetadata && e.Tags.GetD() == open && e.Tags.Find("name")[1] == "renamed"
	}); err != nil {
		t.Fatalf("replacement 39000 not delivered: %v", err)
	}
	// The outsider gets the open message and the replacement, never the secret;
	// events arrive in commit order, so the secret would come before hello.
	got, err := cx.live("live", func(e *nostr.Event) bool { return e.Kind == 9 })
	if err != nil || got.ID != hello.ID {
		t.Fatalf("outsider first live kind 9 = %v, %v; want hello", got, err)
	}

	// CLOSE stops delivery.
	cx.send(ptr(nostr.CloseEnvelope("live")))
	cx.req("marker", nostr.Filter{IDs: []string{hello.ID}}) // round trip after CLOSE
	later := owner.msg(t, open, "later", 0)
	pub.mustPublish(later)
	if _, err := co.live("live", func(e *nostr.Event) bool { return e.ID == later.ID }); err != nil {
		t.Fatal(err)
	}
	cx.req("marker2", nostr.Filter{IDs: []string{hello.ID}})
	select {
	case env := <-cx.envs:
		if ev, ok := env.(*nostr.EventEnvelope); ok && ev.ID == later.ID {
			t.Fatal("delivered after CLOSE")
		}
	default:
	}
}

func TestReplacementCreatedAtStrictlyIncreases(t *testing.T) {
	for _, fault := range []FaultName{"", faultStaleReplacementTimestmp} {
		t.Run("fault="+string(fault), func(t *testing.T) {
			frozen := time.Now()
			_, url := startRelay(t, Config{Now: func() time.Time { return frozen }, Faults: nonEmpty(fault)})
			owner := newActor(t)
			c := dial(t, url)
			c.auth(owner)
			id := newChannelID()
			c.mustPublish(owner.create(t, id))
			prev := c.state(kindGroupMetadata, id).CreatedAt
			for i := 0; i < 3; i++ {
				c.mustPublish(owner.edit(t, id, nostr.Tag{"name", fmt.Sprint("n", i)}))
				cur := c.state(kindGroupMetadata, id).CreatedAt
				if fault == "" && cur <= prev {
					t.Fatalf("edit %d: created_at %d not > %d", i, cur, prev)
				}
				if fault != "" && cur != prev {
					t.Fatalf("fault on: created_at %d, want reused %d", cur, prev)
				}
				prev = cur
			}
			// No-op edit keeps the snapshot.
			c.mustPublish(owner.edit(t, id, nostr.Tag{"name", "n2"}))
			if cur := c.state(kindGroupMetadata, id).CreatedAt; cur != prev {
				t.Errorf("no-op edit republished 39000")
			}
		})
	}
}

func TestCommunitiesAreIsolated(t *testing.T) {
	_, url := startRelay(t, Config{})
	other := strings.Replace(url, "127.0.0.1", "localhost", 1)
	owner := newActor(t)
	c1, c2 := dial(t, url), dial(t, other)
	c1.auth(owner)
	c2.auth(owner)
	id := newChannelID()
	c1.mustPublish(owner.create(t, id))
	if evs := c2.query(nostr.Filter{Tags: nostr.TagMap{"d": {id}}}); len(evs) != 0 {
		t.Fatalf("channel visible in another community: %d", len(evs))
	}
	// The same UUID is free in the other community.
	c2.mustPublish(owner.create(t, id))
}

func TestFileDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "relay.db")
	key := nostr.GeneratePrivateKey()
	owner := newActor(t)
	id := newChannelID()
	{
		r, url := startRelay(t, Config{DBPath: path, SecretKey: key})
		c := dial(t, url)
		c.auth(owner)
		c.mustPublish(owner.create(t, id))
		c.close()
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
	r, url := startRelay(t, Config{DBPath: path, SecretKey: key})
	c := dial(t, url)
	if ev := c.state(kindGroupMetadata, id); ev == nil || ev.PubKey != r.PubKey() {
		t.Fatalf("state after restart: %v", ev)
	}
}

func TestCloseIdempotent(t *testing.T) {
	r, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	url, err := r.Start()
	if err != nil {
		t.Fatal(err)
	}
	if r.URL() != url || !strings.HasPrefix(url, "ws://127.0.0.1:") {
		t.Fatalf("URL %q / %q", r.URL(), url)
	}
	c := dial(t, url)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
	select {
	case <-c.done:
	case <-time.After(waitTimeout):
		t.Fatal("client connection not closed by Close")
	}
	if _, err := r.Start(); err == nil {
		t.Fatal("Start after Close succeeded")
	}
	// Close without Start.
	r2, _ := New(Config{})
	if err := r2.Close(); err != nil {
		t.Fatal(err)
	}
}
