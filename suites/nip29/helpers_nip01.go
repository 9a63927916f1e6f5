package nip29

import (
	"fmt"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// needleChannel makes a group with one older message tagged with a unique
// t value behind 20 newer messages without it.
func needleChannel(t *framework.T) (c *fixtures.Client, ch string, needle *nostr.Event, distractors int) {
	c = t.Connect(t.Actor("owner"))
	ch = t.CreateChannel(c, fixtures.ChannelSpec{})
	// Strictly older than every distractor, so no tie-break can hide a fault.
	needle = c.Actor().EventAt(time.Now().Add(-30*time.Second), fixtures.KindMessage, nostr.Tags{{"h", ch}, {"t", t.Unique("needle")}}, "match")
	t.Accept(c, needle, "message with the needle tag")
	for i := 0; i < 20; i++ {
		t.Accept(c, fixtures.Message(c.Actor(), ch, fmt.Sprintf("distractor %d", i)), "distractor message")
	}
	return c, ch, needle, 20
}

// twoMessages posts two messages a second apart in a fresh group.
func twoMessages(t *framework.T) (c *fixtures.Client, m1, m2 *nostr.Event) {
	c = t.Connect(t.Actor("owner"))
	ch := t.CreateChannel(c, fixtures.ChannelSpec{})
	m1 = c.Actor().EventAt(time.Now().Add(-2*time.Second), fixtures.KindMessage, nostr.Tags{{"h", ch}}, "one")
	t.Accept(c, m1, "first message")
	m2 = c.Actor().EventAt(time.Unix(int64(m1.CreatedAt)+1, 0), fixtures.KindMessage, nostr.Tags{{"h", ch}}, "two")
	t.Accept(c, m2, "second message")
	return c, m1, m2
}

// noteInvalid records which prefix a refused invalid event got (NIP-01
// shows invalid: as the example, but fixes no prefix for it).
func noteInvalid(t *framework.T, ok fixtures.OK) {
	if !strings.HasPrefix(ok.Reason, "invalid:") {
		t.Note("refused with %q rather than the invalid: NIP-01 uses in its example", ok.Reason)
	}
}

func flipHex(b byte) byte {
	if b == '0' {
		return '1'
	}
	return '0'
}

func mustH(ev *nostr.Event) string {
	h, _ := fixtures.TagValue(ev, "h")
	return h
}

// sweepWorld is the NIP-01 filter sweep's fixture: an open group with
// three of the owner's messages two seconds apart, each with its own t
// value; mid is the one the sweep reads, before and after bracket it.
type sweepWorld struct {
	c                  *fixtures.Client
	ch                 string
	before, mid, after *nostr.Event
}

func newSweepWorld(t *framework.T) sweepWorld {
	c := t.Connect(t.Actor("owner"))
	ch := t.CreateChannel(c, fixtures.ChannelSpec{})
	at := time.Now().Add(-20 * time.Second)
	var evs []*nostr.Event
	for i, what := range []string{"before", "mid", "after"} {
		ev := c.Actor().EventAt(at.Add(time.Duration(2*i)*time.Second), fixtures.KindMessage, nostr.Tags{{"h", ch}, {"t", t.Unique("sweep-" + what)}}, "filter sweep: "+what)
		t.Accept(c, ev, "the sweep's "+what+" message")
		evs = append(evs, ev)
	}
	return sweepWorld{c: c, ch: ch, before: evs[0], mid: evs[1], after: evs[2]}
}

// positions puts want first, second and last among decoys (two or more).
func positions[E any](want E, decoys []E) [][]E {
	return [][]E{
		append([]E{want}, decoys...),
		append([]E{decoys[0], want}, decoys[1:]...),
		append(append([]E(nil), decoys...), want),
	}
}

// decoyHex is a 64-character lowercase hex value no event carries.
func decoyHex() string { return nostr.GeneratePrivateKey() }

// decoyKey is a public key that wrote nothing.
func decoyKey() string {
	pk, _ := nostr.GetPublicKey(nostr.GeneratePrivateKey())
	return pk
}

// sweepSound fails the case when an event of the answer to f does not
// match f (nip01/filters.1).
func sweepSound(t *framework.T, f nostr.Filter, got []*nostr.Event) {
	for _, ev := range got {
		if !f.Matches(ev) {
			t.Violates("nip01/filters.1", "NIP-01 (nip01/filters.1): REQ %s returned %s, which does not match it", f, ev.ID)
		}
	}
}
