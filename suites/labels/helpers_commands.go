package labels

import (
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// creatorRoleNote says where, if anywhere, the creator's role shows: the
// 39001 entry (NIP-29) or the 39002 p tag, as read once now.
func creatorRoleNote(t *framework.T, c *fixtures.Client, ch string) string {
	GinkgoHelper()
	var parts []string
	for _, k := range []int{fixtures.KindAdmins, fixtures.KindMembers} {
		r := t.QueryResult(c, nostr.Filter{Kinds: []int{k}, Tags: nostr.TagMap{"d": {ch}}})
		switch {
		case r.Closed:
			parts = append(parts, fmt.Sprintf("kind %d refused (CLOSED %q)", k, r.ClosedReason))
		case len(r.Events) == 0:
			parts = append(parts, fmt.Sprintf("no kind %d published yet", k))
		default:
			var cur *nostr.Event
			for _, ev := range r.Events {
				if cur == nil || ev.CreatedAt > cur.CreatedAt {
					cur = ev
				}
			}
			found, roles := framework.HasP(cur, c.Actor().PubKey)
			parts = append(parts, fmt.Sprintf("kind %d lists the creator: %v, roles %v", k, found, roles))
		}
	}
	return strings.Join(parts, "; ")
}

// resign appends tags to a signed event and signs it again (new id).
func resign(a *fixtures.Actor, ev *nostr.Event, extra ...nostr.Tag) *nostr.Event {
	tags := append(nostr.Tags{}, ev.Tags...)
	tags = append(tags, extra...)
	return a.Sign(&nostr.Event{Kind: ev.Kind, Tags: tags, Content: ev.Content, CreatedAt: ev.CreatedAt})
}

// mixedLabelOp publishes a label mutation carrying the field tag extra and
// accepts either careful answer: a refusal (invalid: nip-cl-rejected, the
// snapshot unchanged) or OK true "" with the label set next and the field
// unchanged. It reports whether the mutation was applied.
func mixedLabelOp(t *framework.T, c *fixtures.Client, ch, why string, ev *nostr.Event, extra nostr.Tag, next []string) bool {
	GinkgoHelper()
	cur := snapshot(t, c, ch)
	ok := t.Publish(c, ev)
	if !ok.Accepted {
		requireRejected(t, ok, why, "invalid")
		expectUnchanged(t, c, ch, cur, "rejected "+why)
		mixedReading(t, extra[0], "rejected")
		return false
	}
	if ok.Reason != "" {
		framework.Failf(`%s: an accepted label mutation answers ["OK",…,true,""], got %s`, why, ok)
	}
	after := expectLabels(t, c, ch, next...)
	if fieldSet(after, extra) {
		framework.Failf("%s was accepted and also changed that field: the snapshot now carries %v", why, after.Tags)
	}
	mixedReading(t, extra[0], "ignored")
	return true
}

// mixedReading notes how the relay answered a label mutation carrying a
// field tag: the reading labels-mixed-extended-fields for the fields the
// draft names without a tag (topic, purpose, ttl), a plain note otherwise.
func mixedReading(t *framework.T, field, value string) {
	switch field {
	case "topic", "purpose", "ttl":
		t.Reading(clause.ReadingLabelsMixedExtended, value)
	default:
		t.Note("label mutation with [%q]: %s", field, value)
	}
}

// fieldSet reports whether a 39000 shows the field the tag sets: the same
// tag name and value, or the private flag for either spelling of it.
func fieldSet(ev *nostr.Event, tag nostr.Tag) bool {
	if tag[0] == "private" || (tag[0] == "visibility" && len(tag) > 1 && tag[1] == "private") {
		if ev.Tags.Find("private") != nil {
			return true
		}
		v, _ := fixtures.TagValue(ev, "visibility")
		return v == "private"
	}
	v, ok := fixtures.TagValue(ev, tag[0])
	return ok && len(tag) > 1 && v == tag[1]
}
