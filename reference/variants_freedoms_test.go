package reference

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// eoseOrder sends n REQs back to back on one connection and returns the
// subscription ids in the order their EOSEs came.
func eoseOrder(t *testing.T, url string, n int) (sent, got []string) {
	t.Helper()
	c := dial(t, url)
	defer c.close()
	for i := range n {
		id := fmt.Sprintf("s%02d", i)
		sent = append(sent, id)
		c.send(&nostr.ReqEnvelope{SubscriptionID: id, Filters: nostr.Filters{{Kinds: []int{1}, Limit: 1}}})
	}
	for range n {
		env := c.expect(func(e nostr.Envelope) bool { _, ok := e.(*nostr.EOSEEnvelope); return ok })
		got = append(got, string(*env.(*nostr.EOSEEnvelope)))
	}
	return sent, got
}

// groupUnder starts a nip29 relay under variant and returns its URL, an
// authenticated owner's connection (closed at test end) and a group the
// owner created.
func groupUnder(t *testing.T, variant string) (url string, owner actor, c *client, group string) {
	t.Helper()
	_, url = startRelay(t, Config{Profile: "nip29", Variants: []string{variant}})
	owner = newActor(t)
	c = dial(t, url)
	t.Cleanup(c.close)
	c.auth(owner)
	group = newChannelID()
	c.mustPublish(owner.create(t, group))
	return url, owner, c, group
}

// TestVariantMessagesHandledConcurrently: under the variant, REQs sent
// back to back are all answered, and not always in the order sent; the
// conforming relay answers them in order.
func TestVariantMessagesHandledConcurrently(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29"})
	if sent, got := eoseOrder(t, url, 30); !slices.Equal(sent, got) {
		t.Fatalf("without the variant the EOSEs came in the order %v, not as sent", got)
	}
	_, url = startRelay(t, Config{Profile: "nip29", Variants: []string{variantConcurrentMessages}})
	for range 5 {
		sent, got := eoseOrder(t, url, 30)
		if !slices.Equal(slices.Sorted(slices.Values(got)), sent) {
			t.Fatalf("EOSEs %v: not one for each REQ sent", got)
		}
		if !slices.Equal(sent, got) {
			return
		}
	}
	t.Fatal("under messages-handled-concurrently 5 rounds of 30 REQs were all answered in the order sent")
}

// TestVariantNoticeOnConnect: a NOTICE comes before the client sent
// anything.
func TestVariantNoticeOnConnect(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29", Variants: []string{variantNoticeOnConnect}})
	c := dial(t, url)
	defer c.close()
	c.expect(func(e nostr.Envelope) bool { _, ok := e.(*nostr.NoticeEnvelope); return ok })
}

// TestVariantClosedAnswersClose: a CLOSE is answered CLOSED with its id,
// after the subscription ended (nothing more comes under it).
func TestVariantClosedAnswersClose(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29", Variants: []string{variantClosedAfterClose}})
	c := dial(t, url)
	defer c.close()
	c.req("x", nostr.Filter{Kinds: []int{1}, Limit: 1})
	closeX := nostr.CloseEnvelope("x")
	c.send(&closeX)
	env := c.expect(func(e nostr.Envelope) bool { _, ok := e.(*nostr.ClosedEnvelope); return ok })
	if got := env.(*nostr.ClosedEnvelope).SubscriptionID; got != "x" {
		t.Fatalf("CLOSED for %q, want x", got)
	}
}

// TestVariantLiveDeliveryLate: under the variant every message reaches an
// open subscription, in the order published, and a subscription opened
// after a message was stored reads it as history only (the late delivery
// must not bring it again).
func TestVariantLiveDeliveryLate(t *testing.T) {
	url, owner, pub, g := groupUnder(t, variantLiveLate)
	watcher := dial(t, url)
	defer watcher.close()
	watcher.auth(owner)
	watcher.req("w", nostr.Filter{Kinds: []int{kindChatMessage}, Tags: nostr.TagMap{"h": {g}}, Limit: 1})
	var ids []string
	for i := range 20 {
		m := owner.msg(t, g, fmt.Sprintf("m%02d", i), 0)
		pub.mustPublish(m)
		ids = append(ids, m.ID)
	}
	for i, id := range ids {
		ev, err := watcher.live("w", func(*nostr.Event) bool { return true })
		if err != nil {
			t.Fatalf("live message %d: %v", i, err)
		}
		if ev.ID != id {
			t.Fatalf("live message %d is %s, want %s (published order)", i, ev.ID, id)
		}
	}
	// A message stored just before a REQ opens comes as history; the
	// next one, published after EOSE, is the first live one.
	late := dial(t, url)
	defer late.close()
	late.auth(owner)
	for range 10 {
		m := owner.msg(t, g, "", 0)
		pub.mustPublish(m)
		sub := fmt.Sprintf("h-%s", m.ID[:8])
		hist := late.req(sub, nostr.Filter{IDs: []string{m.ID}, Limit: 1})
		if !hasID(hist, m.ID) {
			t.Fatalf("stored message %s not in the REQ's history", m.ID)
		}
		marker := owner.msg(t, g, "", 0)
		mark := nostr.ReqEnvelope{SubscriptionID: sub + "-m", Filters: nostr.Filters{{Kinds: []int{kindChatMessage}, Tags: nostr.TagMap{"h": {g}}, Limit: 0, LimitZero: true}}}
		late.send(&mark)
		late.expect(func(e nostr.Envelope) bool { v, ok := e.(*nostr.EOSEEnvelope); return ok && string(*v) == sub+"-m" })
		pub.mustPublish(marker)
		env := late.expect(func(e nostr.Envelope) bool {
			v, ok := e.(*nostr.EventEnvelope)
			return ok && v.SubscriptionID != nil && (*v.SubscriptionID == sub || v.Event.ID == marker.ID)
		})
		if v := env.(*nostr.EventEnvelope); *v.SubscriptionID == sub {
			t.Fatalf("message %s, read as history by %s, came again live", m.ID, sub)
		}
	}
}

// TestVariantMemberListsByPubkey: the 39002 lists its p tags by pubkey,
// highest first, whatever order the users were added in.
func TestVariantMemberListsByPubkey(t *testing.T) {
	_, owner, c, g := groupUnder(t, variantMembersByPubkey)
	for range 4 {
		c.mustPublish(owner.put(t, g, newActor(t).pk, ""))
	}
	var got []string
	for _, tag := range c.state(kindGroupMembers, g).Tags {
		if len(tag) >= 2 && tag[0] == "p" {
			got = append(got, tag[1])
		}
	}
	if len(got) != 5 {
		t.Fatalf("39002 lists %d members, want 5", len(got))
	}
	if !slices.IsSortedFunc(got, func(a, b string) int { return strings.Compare(b, a) }) {
		t.Fatalf("39002 p tags %v are not by pubkey, highest first", got)
	}
}

// TestLiveDeliveryLateKeepsUnstoredBroadcasts: under live-delivery-late
// the fault auth-event-broadcast still shows: its 22242, never stored,
// reaches a subscription open when it was broadcast, late (the late path
// once skipped every subscription opened since the last commit).
func TestLiveDeliveryLateKeepsUnstoredBroadcasts(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29", Faults: []string{string(faultAuthEventBroadcast)}, Variants: []string{variantLiveLate}})
	watcher, other := dial(t, url), dial(t, url)
	defer watcher.close()
	defer other.close()
	watcher.auth(newActor(t))
	watcher.req("auth", nostr.Filter{Kinds: []int{nostr.KindClientAuthentication}})
	someone := newActor(t)
	other.auth(someone)
	if _, err := watcher.live("auth", func(ev *nostr.Event) bool { return ev.PubKey == someone.pk }); err != nil {
		t.Fatalf("under live-delivery-late the fault auth-event-broadcast's 22242 never came: %v", err)
	}
}

// TestVariantNoticesMidstream: a NOTICE on connect, then one after every
// fifth message.
func TestVariantNoticesMidstream(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29", Variants: []string{variantNoticesMidstream}})
	c := dial(t, url)
	defer c.close()
	c.expect(func(e nostr.Envelope) bool { _, ok := e.(*nostr.NoticeEnvelope); return ok })
	for i := range 5 {
		c.req(fmt.Sprintf("r%d", i), nostr.Filter{Kinds: []int{1}, Limit: 1})
	}
	c.expect(func(e nostr.Envelope) bool {
		v, ok := e.(*nostr.NoticeEnvelope)
		return ok && strings.HasPrefix(string(*v), "maintenance")
	})
}

// TestVariantChallengeRenewedAfterAuth: after an accepted AUTH a fresh
// challenge comes, the old one no longer authenticates, the new one does.
func TestVariantChallengeRenewedAfterAuth(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29", Variants: []string{variantChallengeRenewed}})
	c := dial(t, url)
	defer c.close()
	first := c.challenge
	c.auth(newActor(t))
	env := c.expect(func(e nostr.Envelope) bool { _, ok := e.(*nostr.AuthEnvelope); return ok })
	fresh := *env.(*nostr.AuthEnvelope).Challenge
	if fresh == first {
		t.Fatalf("the challenge after the AUTH is the first one, %q", first)
	}
	if ok := c.authResult(newActor(t), first, 0); ok.OK {
		t.Fatal("an AUTH with the superseded challenge was accepted")
	}
	if ok := c.authResult(newActor(t), fresh, 0); !ok.OK {
		t.Fatalf("an AUTH with the fresh challenge was refused: %s", ok.Reason)
	}
}

// TestVariantDefaultLimitUnpublished: NIP-11 names no default_limit, and a
// read without a limit gets the newest 100 of 120 matches (one with limit
// 120 gets them all).
func TestVariantDefaultLimitUnpublished(t *testing.T) {
	url, owner, c, g := groupUnder(t, variantDefaultLimitHidden)
	if _, body := httpGet(t, url, "", "application/nostr+json"); strings.Contains(body, `"default_limit"`) {
		t.Fatalf("NIP-11 publishes default_limit: %s", body)
	}
	for i := range 120 {
		c.mustPublish(owner.msg(t, g, fmt.Sprintf("m%03d", i), 0))
	}
	f := nostr.Filter{Kinds: []int{kindChatMessage}, Tags: nostr.TagMap{"h": {g}}}
	if got := len(c.query(f)); got != 100 {
		t.Fatalf("a read without a limit got %d messages, want the newest 100", got)
	}
	f.Limit = 120
	if got := len(c.query(f)); got != 120 {
		t.Fatalf("a read with limit 120 got %d messages, want 120", got)
	}
}

// TestVariantCountApproximate: under the variant every COUNT answer says
// "approximate": true and a count of one or more is sometimes one off
// (never more); a count of none stays 0. Without it the answer is exact
// and unflagged.
func TestVariantCountApproximate(t *testing.T) {
	if b, _ := (countAnswer{id: "x", n: 2, approximate: true}).MarshalJSON(); string(b) != `["COUNT","x",{"count":2,"approximate":true}]` {
		t.Fatalf("an approximate answer is written %s", b)
	}
	if b, _ := (countAnswer{id: "x", n: 2}).MarshalJSON(); strings.Contains(string(b), "approximate") {
		t.Fatalf("an exact answer is written %s", b)
	}
	count := func(c *client, f nostr.Filter) int64 {
		id := "n-" + newChannelID()[:8]
		b, _ := f.MarshalJSON()
		c.sendRaw(`["COUNT",` + quote(id) + `,` + string(b) + `]`)
		env := c.expect(func(e nostr.Envelope) bool {
			v, ok := e.(*nostr.CountEnvelope)
			return ok && v.SubscriptionID == id
		})
		return *env.(*nostr.CountEnvelope).Count
	}
	_, owner, c, group := groupUnder(t, variantCountApproximate)
	for i := range 3 {
		c.mustPublish(owner.msg(t, group, "counted", int64(i)))
	}
	f := nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {group}}}
	off := false
	for range 20 {
		switch n := count(c, f); n {
		case 3:
		case 2, 4:
			off = true
		default:
			t.Fatalf("an estimate of 3 messages answered %d", n)
		}
	}
	if !off {
		t.Fatal("20 estimates of 3 messages were all exact")
	}
	if n := count(c, nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {newChannelID()}}}); n != 0 {
		t.Fatalf("an estimate of no events answered %d", n)
	}
}
