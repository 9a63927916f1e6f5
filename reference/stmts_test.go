package reference

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// TestWritePathUsesPreparedStatements drives every kind of write a
// conformance run makes (create, label and metadata edits, membership, join
// and leave requests, messages, replaceable events, delete) through each profile and requires
// that none of it ran SQL outside the prepared statements (a statement
// added to the write path without being prepared would be parsed again on
// every command) and that no tag row outlives its event.
func TestWritePathUsesPreparedStatements(t *testing.T) {
	cases := []struct {
		profile string
		label   func(add bool) nostr.Tag
	}{
		{"none", nil},
		{"identity", func(add bool) nostr.Tag {
			if add {
				return nostr.Tag{"t", "bench-a"}
			}
			return nostr.Tag{"t", ""}
		}},
		{"labels", func(add bool) nostr.Tag {
			if add {
				return nostr.Tag{"add-label", "bench-a"}
			}
			return nostr.Tag{"remove-label", "bench-a"}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.profile, func(t *testing.T) {
			r, url := startRelay(t, Config{Profile: tc.profile})
			owner, member := newActor(t), newActor(t)
			c := dial(t, url)
			c.auth(owner)
			watch := dial(t, url)
			watch.auth(member)
			watch.send(&nostr.ReqEnvelope{SubscriptionID: "live", Filters: nostr.Filters{{Kinds: []int{9, 39000}}}})
			watch.expect(func(e nostr.Envelope) bool { _, ok := e.(*nostr.EOSEEnvelope); return ok })

			id := newChannelID()
			c.mustPublish(owner.create(t, id, nostr.Tag{"channel_type", "stream"}, nostr.Tag{"visibility", "open"}))
			if tc.label != nil {
				c.mustPublish(owner.edit(t, id, tc.label(true)))
				c.mustPublish(owner.edit(t, id, tc.label(false)))
			}
			c.mustPublish(owner.edit(t, id, nostr.Tag{"name", "renamed"}))
			c.mustPublish(owner.put(t, id, member.pk, "member"))
			c.mustPublish(owner.msg(t, id, "hello", 0))
			c.mustPublish(owner.remove(t, id, member.pk))
			watch.mustPublish(member.join(t, id))
			watch.mustPublish(member.leave(t, id))
			c.mustPublish(owner.edit(t, id, nostr.Tag{"closed"}, nostr.Tag{"hidden"}, nostr.Tag{"restricted"}, nostr.Tag{"picture", "https://p.example/p.png"}))
			c.mustPublish(owner.event(t, 0, nil, `{"name":"owner"}`, 0))
			c.mustPublish(owner.event(t, 0, nil, `{"name":"owner again"}`, 1))
			if ok := c.publish(owner.create(t, id)); ok.OK {
				t.Fatalf("a second create on the same UUID was accepted: %q", ok.Reason)
			}
			c.mustPublish(owner.event(t, kindDeleteGroup, nostr.Tags{{"h", id}}, "", 0))
			if n := r.stmts.misses.Load(); n != 0 {
				t.Fatalf("%d write-path statements ran unprepared", n)
			}
			// Replaced state and replaceable events took their tag rows
			// with them (events_delete_tags).
			var orphans, tagRows int
			if err := r.db.QueryRow(`SELECT COUNT(*) FROM event_tags WHERE event_seq NOT IN (SELECT seq FROM events)`).Scan(&orphans); err != nil || orphans != 0 {
				t.Fatalf("%d tag rows of deleted events (%v)", orphans, err)
			}
			if err := r.db.QueryRow(`SELECT COUNT(*) FROM event_tags`).Scan(&tagRows); err != nil || tagRows == 0 {
				t.Fatalf("no tag rows at all (%v)", err)
			}
		})
	}
}
