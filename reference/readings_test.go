package reference

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/clause"
)

// readingProbe observes which value of a reading a running relay takes.
type readingProbe func(t *testing.T, r *Relay, url string) string

// prefixOf is the machine-readable prefix of an OK message.
func prefixOf(reason string) string {
	p, _, _ := strings.Cut(reason, ":")
	return p
}

var readingProbes = map[string]readingProbe{
	clause.ReadingIdentityCreatedAt: func(t *testing.T, r *Relay, url string) string {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		id := newChannelID()
		ev := a.event(t, kindCreateGroup, nostr.Tags{{"h", id}}, "", -120)
		c.mustPublish(ev)
		if tag := c.state(kindGroupMetadata, id).Tags.Find("created_at"); tag != nil && tag[1] == strconv.FormatInt(int64(ev.CreatedAt), 10) {
			return "command"
		}
		return "relay-clock"
	},
	clause.ReadingIdentityCreatorNotice: func(t *testing.T, r *Relay, url string) string {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		c.mustPublish(a.create(t, newChannelID()))
		if len(c.query(nostr.Filter{Kinds: []int{kindMemberAdded}, Tags: nostr.TagMap{"p": {a.pk}}})) > 0 {
			return "sent"
		}
		return "not-sent"
	},
	clause.ReadingIdentitySystemNotices: func(t *testing.T, r *Relay, url string) string {
		o, m := newActor(t), newActor(t)
		co, cm := dial(t, url), dial(t, url)
		co.auth(o)
		cm.auth(m)
		id := newChannelID()
		co.mustPublish(o.create(t, id, nostr.Tag{"channel_type", "system"}))
		co.mustPublish(o.put(t, id, m.pk, "member"))
		if len(cm.query(nostr.Filter{Kinds: []int{kindMemberAdded}, Tags: nostr.TagMap{"p": {m.pk}, "t": {"system"}}})) > 0 {
			return "sent"
		}
		return "not-sent"
	},
	clause.ReadingIdentityLabelOrder: func(t *testing.T, r *Relay, url string) string {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		id := newChannelID()
		c.mustPublish(a.create(t, id, nostr.Tag{"t", "b"}, nostr.Tag{"t", "a"}))
		var ts []string
		for _, tag := range c.state(kindGroupMetadata, id).Tags {
			if len(tag) >= 2 && tag[0] == "t" {
				ts = append(ts, tag[1])
			}
		}
		if strings.Join(ts, ",") == "stream,a,b" {
			return "sorted"
		}
		return "command"
	},
	clause.ReadingIdentityStateKinds: func(t *testing.T, r *Relay, url string) string {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		id := newChannelID()
		c.mustPublish(a.create(t, id))
		if c.state(kindGroupRoles, id).Tags.Find("P") != nil {
			return "39000-39003"
		}
		return "39000-39002"
	},
	clause.ReadingLabelsCreatePrefix: func(t *testing.T, r *Relay, url string) string {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		ok := c.publish(a.create(t, newChannelID(), nostr.Tag{"channel_type", "dm"}, nostr.Tag{"label", "x"}))
		if ok.OK || !strings.Contains(ok.Reason, "nip-cl-rejected") {
			t.Fatalf("labeled dm create: %v %q", ok.OK, ok.Reason)
		}
		return prefixOf(ok.Reason)
	},
	clause.ReadingLabelsMutationPrefix: func(t *testing.T, r *Relay, url string) string {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		id := newChannelID()
		c.mustPublish(a.create(t, id, nostr.Tag{"channel_type", "dm"}))
		ok := c.publish(a.edit(t, id, nostr.Tag{"add-label", "x"}))
		if ok.OK || !strings.Contains(ok.Reason, "nip-cl-rejected") {
			t.Fatalf("label mutation on dm: %v %q", ok.OK, ok.Reason)
		}
		return prefixOf(ok.Reason)
	},
	clause.ReadingLabelsDeletedPrefix: func(t *testing.T, r *Relay, url string) string {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		id := newChannelID()
		c.mustPublish(a.create(t, id))
		add := a.edit(t, id, nostr.Tag{"add-label", "x"})
		c.mustPublish(add)
		c.mustPublish(a.event(t, kindDeleteGroup, nostr.Tags{{"h", id}}, "", 0))
		mut, retry := c.publish(a.edit(t, id, nostr.Tag{"add-label", "y"})), c.publish(add)
		if mut.OK || retry.OK || prefixOf(mut.Reason) != prefixOf(retry.Reason) || !strings.Contains(retry.Reason, "nip-cl-rejected") {
			t.Fatalf("mutation %v %q and retry %v %q on a deleted channel", mut.OK, mut.Reason, retry.OK, retry.Reason)
		}
		return prefixOf(mut.Reason)
	},
	clause.ReadingLabelsLimitPrefix: func(t *testing.T, r *Relay, url string) string {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		id := newChannelID()
		tags := []nostr.Tag{}
		for i := 0; i < maxStoredLabels; i++ {
			tags = append(tags, nostr.Tag{"label", "l" + strconv.Itoa(i)})
		}
		c.mustPublish(a.create(t, id, tags...))
		ok := c.publish(a.edit(t, id, nostr.Tag{"add-label", "one-more"}))
		if ok.OK || !strings.Contains(ok.Reason, "nip-cl-rejected") {
			t.Fatalf("33rd label: %v %q", ok.OK, ok.Reason)
		}
		return prefixOf(ok.Reason)
	},
	clause.ReadingLabelsUUIDAcross: func(t *testing.T, r *Relay, url string) string {
		a := newActor(t)
		ca, cb := dial(t, url), dial(t, strings.Replace(url, "127.0.0.1", "localhost", 1))
		ca.auth(a)
		cb.auth(a)
		id := newChannelID()
		ca.mustPublish(a.create(t, id, nostr.Tag{"label", "x"}))
		ok := cb.publish(a.create(t, id))
		if ok.OK {
			return "separate"
		}
		if prefixOf(ok.Reason) != "duplicate" || strings.Contains(ok.Reason, "chan-") {
			t.Fatalf("the other community's refusal: %q", ok.Reason)
		}
		return "refused"
	},
	clause.ReadingLabelsLive: func(t *testing.T, r *Relay, url string) string {
		a := newActor(t)
		c, w := dial(t, url), dial(t, url)
		c.auth(a)
		id := newChannelID()
		c.mustPublish(a.create(t, id))
		w.req("live", nostr.Filter{Kinds: []int{kindGroupMetadata}, Tags: nostr.TagMap{"d": {id}}})
		for _, v := range []string{"a", "b", "c"} {
			c.mustPublish(a.edit(t, id, nostr.Tag{"add-label", v}))
		}
		final := c.state(kindGroupMetadata, id)
		got := 0
		for {
			ev, err := w.live("live", func(*nostr.Event) bool { return true })
			if err != nil {
				t.Fatalf("the final snapshot was not delivered live: %v", err)
			}
			got++
			if ev.ID == final.ID {
				break
			}
		}
		time.Sleep(2 * coalesceWindow)
		if got == 3 {
			return "every"
		}
		return "latest"
	},
	clause.ReadingNIP29RolelessPut: func(t *testing.T, r *Relay, url string) string {
		o, m := newActor(t), newActor(t)
		c := dial(t, url)
		c.auth(o)
		id := newChannelID()
		c.mustPublish(o.create(t, id))
		c.mustPublish(o.put(t, id, m.pk, roleAdmin))
		c.mustPublish(o.put(t, id, m.pk, ""))
		if hasPTag(c.state(kindGroupMembers, id), m.pk, roleAdmin) {
			return "keep"
		}
		return "reset"
	},
	clause.ReadingLabelsMixedExtended: func(t *testing.T, r *Relay, url string) string {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		id := newChannelID()
		c.mustPublish(a.create(t, id))
		ok := c.publish(a.edit(t, id, nostr.Tag{"add-label", "x"}, nostr.Tag{"topic", "mixed"}))
		if !ok.OK {
			return "rejected"
		}
		if tagValue(c.state(kindGroupMetadata, id), "topic") == "mixed" {
			t.Fatalf("the topic tag beside add-label was applied")
		}
		return "ignored"
	},
	clause.ReadingLabelsDeletedCreate: func(t *testing.T, r *Relay, url string) string {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		id := newChannelID()
		create := a.create(t, id, nostr.Tag{"label", "a"})
		c.mustPublish(create)
		c.mustPublish(a.event(t, kindDeleteGroup, nostr.Tags{{"h", id}}, "", 0))
		ok := c.publish(create)
		if ok.OK {
			t.Fatalf("retried create of a deleted channel accepted: %q", ok.Reason)
		}
		if prefixOf(ok.Reason) == "duplicate" {
			return "conflict"
		}
		return "lifecycle"
	},
	clause.ReadingLabelsMalformedUsedH: func(t *testing.T, r *Relay, url string) string {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		id := newChannelID()
		c.mustPublish(a.create(t, id))
		ok := c.publish(a.event(t, kindCreateGroup, nostr.Tags{{"h", id, "extra"}, {"label", "a"}}, "", 0))
		if ok.OK {
			t.Fatalf("9007 with a malformed h tag accepted")
		}
		return prefixOf(ok.Reason)
	},
	clause.ReadingNIP29EditMetadata: func(t *testing.T, r *Relay, url string) string {
		a := newActor(t)
		c := dial(t, url)
		c.auth(a)
		id := newChannelID()
		c.mustPublish(a.create(t, id, nostr.Tag{"about", "kept?"}, nostr.Tag{"closed"}))
		c.mustPublish(a.edit(t, id, nostr.Tag{"name", "renamed"}))
		meta := c.state(kindGroupMetadata, id)
		about, closed := meta.Tags.Find("about") != nil, hasTag(meta, "closed")
		switch {
		case about && closed:
			return "patch"
		case !about && !closed:
			return "replace"
		}
		t.Fatalf("half a patch: about kept %v, closed kept %v", about, closed)
		return ""
	},
	clause.ReadingNIP29JoinOpen: func(t *testing.T, r *Relay, url string) string {
		o, j := newActor(t), newActor(t)
		co, cj := dial(t, url), dial(t, url)
		co.auth(o)
		cj.auth(j)
		id := newChannelID()
		co.mustPublish(o.create(t, id))
		ok := cj.publish(j.event(t, kindJoinRequest, nostr.Tags{{"h", id}}, "", 0))
		member := hasPTag(co.state(kindGroupMembers, id), j.pk, roleMember)
		switch {
		case ok.OK && member:
			return "admit"
		case !ok.OK && !member && prefixOf(ok.Reason) == "restricted":
			return "review"
		}
		t.Fatalf("join: OK %v %q, member %v", ok.OK, ok.Reason, member)
		return ""
	},
}

// TestReadingSwitches runs each reading's probe under every value: the
// relay must take exactly the value it was given (the default when none).
func TestReadingSwitches(t *testing.T) {
	for _, rd := range Readings() {
		probe, ok := readingProbes[rd.ID]
		if !ok {
			t.Errorf("reading %s has no probe", rd.ID)
			continue
		}
		profile := rd.Profile
		if profile == "" {
			profile = "none"
		}
		t.Run(rd.ID, func(t *testing.T) {
			for _, v := range append([]string{""}, rd.ValueNames()...) {
				cfg := Config{Profile: profile}
				want := rd.Default()
				if v != "" {
					cfg.Readings, want = map[string]string{rd.ID: v}, v
				}
				r, url := startRelay(t, cfg)
				if got := probe(t, r, url); got != want {
					t.Errorf("reading %s=%q: the relay took %q", rd.ID, v, got)
				}
			}
		})
	}
}

// TestReadingValidation: unknown readings, unknown values and readings of
// another profile are refused by New.
func TestReadingValidation(t *testing.T) {
	for _, tc := range []struct {
		profile  string
		readings map[string]string
		err      string
	}{
		{"labels", map[string]string{"no-such-reading": "x"}, "unknown reading"},
		{"labels", map[string]string{clause.ReadingLabelsLive: "sometimes"}, "has no value"},
		{"labels", map[string]string{clause.ReadingIdentityCreatedAt: "command"}, "applies only to profile"},
		{"labels", map[string]string{clause.ReadingNIP29EditMetadata: "replace"}, ""},
		{"none", map[string]string{clause.ReadingNIP29EditMetadata: "replace"}, ""},
		{"nip29", map[string]string{clause.ReadingNIP29RolelessPut: "reset"}, ""},
		{"identity", map[string]string{clause.ReadingNIP29RolelessPut: "keep", clause.ReadingIdentityLabelOrder: "sorted"}, ""},
	} {
		r, err := New(Config{Profile: tc.profile, Readings: tc.readings})
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s %v: %v", tc.profile, tc.readings, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s %v: error %v, want %q", tc.profile, tc.readings, err, tc.err)
		}
		if r != nil {
			_ = r.Close()
		}
	}
}
