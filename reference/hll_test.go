package reference

import (
	"encoding/hex"
	"math/bits"
	"testing"

	"github.com/google/uuid"
	"github.com/nbd-wtf/go-nostr"
)

// countHLL runs a one-filter COUNT and returns the hll registers go-nostr
// read from the answer (nil unless 512 hex characters came).
func (c *client) countHLL(f nostr.Filter) []byte {
	c.t.Helper()
	id := "h-" + uuid.NewString()[:8]
	b, _ := f.MarshalJSON()
	c.sendRaw(`["COUNT",` + quote(id) + `,` + string(b) + `]`)
	env := c.expect(func(e nostr.Envelope) bool {
		v, ok := e.(*nostr.CountEnvelope)
		return ok && v.SubscriptionID == id
	})
	return env.(*nostr.CountEnvelope).HyperLogLog
}

// hllOfOne is NIP-45's registers for one pubkey at offset.
func hllOfOne(t *testing.T, pk string, offset int) []byte {
	key, err := hex.DecodeString(pk)
	if err != nil {
		t.Fatal(err)
	}
	zeros := 0
	for _, by := range key[offset+1:] {
		zeros += bits.LeadingZeros8(by)
		if by != 0 {
			break
		}
	}
	regs := make([]byte, 256)
	regs[key[offset]] = byte(zeros + 1)
	return regs
}

func init() {
	// hllProbe counts one group's one message: its hll registers.
	hllProbe := func(t *testing.T, url string) (got, want []byte) {
		owner := newActor(t)
		c := dial(t, url)
		c.auth(owner)
		id := newChannelID()
		c.mustPublish(owner.create(t, id))
		c.mustPublish(owner.msg(t, id, "counted", 0))
		got = c.countHLL(nostr.Filter{Kinds: []int{9}, Tags: nostr.TagMap{"h": {id}}})
		return got, hllOfOne(t, owner.pk, hllOffset(id))
	}
	faultProbes[faultHLLShort] = func(t *testing.T, r *Relay, url string) bool {
		got, _ := hllProbe(t, url)
		return len(got) != 256
	}
	faultProbes[faultHLLNoPlusOne] = func(t *testing.T, r *Relay, url string) bool {
		got, want := hllProbe(t, url)
		return string(got) != string(want)
	}
}

// TestHLLOffset: NIP-45's offset for an id, an address and another string.
func TestHLLOffset(t *testing.T) {
	id := "00000000000000000000000000000000f0000000000000000000000000000000"
	for _, tc := range []struct {
		v    string
		want int
	}{
		{id, 8 + 15},
		{"30023:" + id + ":slug", 8 + 15},
		{"0000000000000000000000000000000030000000000000000000000000000000", 8 + 3},
	} {
		if got := hllOffset(tc.v); got != tc.want {
			t.Errorf("hllOffset(%q) = %d, want %d", tc.v, got, tc.want)
		}
	}
	// Anything else: sha256 of the string.
	if got := hllOffset("group"); got < 8 || got > 23 {
		t.Errorf("hllOffset(group) = %d, want 8..23", got)
	}
}
