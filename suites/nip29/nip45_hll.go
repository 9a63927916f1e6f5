package nip29

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/internal/text"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// kindReaction is NIP-25's reaction kind, counted by NIP-45's "reaction
// count" filter {"#e": [<id>], "kinds": [7]}.
const kindReaction = 7

// hllOffset is NIP-45's offset for a filter whose first tag attribute's
// first value is v: the character at position 32 of its 64-hex form (v
// itself for an event id or pubkey, the pubkey of an address, else
// sha256(v)) read as base 16, plus 8.
func hllOffset(v string) int {
	h := v
	if parts := strings.SplitN(v, ":", 3); len(parts) == 3 && text.IsHex64(parts[1]) {
		h = parts[1]
	} else if !text.IsHex64(v) {
		sum := sha256.Sum256([]byte(v))
		h = hex.EncodeToString(sum[:])
	}
	n, _ := strconv.ParseUint(strings.ToLower(h[32:33]), 16, 8)
	return int(n) + 8
}

// hllRegisters is NIP-45's algorithm over pubkeys at offset. Each pubkey
// gives its register the leading zero bits after the register byte plus
// one, counted to the pubkey's end (the NIP's words) or over the 56 bits
// that follow (go-nostr's reference code): both are returned, equal for
// any pubkey without 56 zero bits there.
func hllRegisters(pubkeys []string, offset int) (toEnd, over56 []byte) {
	toEnd, over56 = make([]byte, 256), make([]byte, 256)
	for _, pk := range pubkeys {
		key, err := hex.DecodeString(pk)
		if err != nil || len(key) != 32 {
			continue
		}
		zeros := 0
		for _, by := range key[offset+1:] {
			zeros += bits.LeadingZeros8(by)
			if by != 0 {
				break
			}
		}
		ri := key[offset]
		toEnd[ri] = max(toEnd[ri], byte(zeros+1))
		over56[ri] = max(over56[ri], byte(min(zeros, 56)+1))
	}
	return toEnd, over56
}

// hllSeen is one COUNT of the hll cases: the filter, the pubkeys of the
// events it counts, and the answer.
type hllSeen struct {
	what    string
	filter  nostr.Filter
	offset  int
	authors []string
	answer  fixtures.CountResult
}

// hllAnswer writes, in a new open group, a message of the owner and, by
// the owner and two members, a message and a reaction to it each; then
// COUNTs NIP-45's reaction count of that message and the group's
// messages (one tag attribute with one value each: the filters NIP-45
// defines an hll for) until an answer carries hll. None does:
// unsupported, with what was seen.
func hllAnswer(t *framework.T) hllSeen {
	owner, m1, ch := framework.ChannelWithMember(t, fixtures.Open, "member")
	m2 := t.Connect(t.Actor("member2"))
	t.Accept(owner, fixtures.PutUser(owner.Actor(), ch, m2.Actor().PubKey, t.PutRoles(owner, ch, "member")...), "put the second member")
	target := fixtures.Message(owner.Actor(), ch, "react to me")
	t.Accept(owner, target, "the message the reactions name")
	var authors []string
	reactions := true
	var seen []string
	for _, c := range []*fixtures.Client{owner, m1, m2} {
		authors = append(authors, c.Actor().PubKey)
		if c != owner {
			t.Accept(c, fixtures.Message(c.Actor(), ch, t.Unique("counted")), "a member's message")
		}
		if !reactions {
			continue
		}
		r := c.Actor().Event(kindReaction, nostr.Tags{{"h", ch}, {"e", target.ID}, {"p", owner.Actor().PubKey}}, "+")
		if ok := t.Publish(c, r); !ok.Accepted {
			framework.CheckPrefix("OK", ok.Reason)
			reactions = false
			seen = append(seen, "a kind 7 reaction in the group was refused ("+ok.String()+"), so no reaction count")
			continue
		}
		t.Track(r)
	}
	var tries []hllSeen
	if reactions {
		tries = append(tries, hllSeen{what: "NIP-45's reaction count", filter: nostr.Filter{Kinds: []int{kindReaction}, Tags: nostr.TagMap{"e": {target.ID}}}, offset: hllOffset(target.ID), authors: authors})
	}
	tries = append(tries, hllSeen{what: "the group's messages", filter: groupMessages(ch), offset: hllOffset(ch), authors: authors})
	for _, try := range tries {
		try.answer = t.CountAnswer(owner, try.filter)
		if try.answer.HasHLL {
			return try
		}
		seen = append(seen, fmt.Sprintf("COUNT %s (%s) answered {\"count\":%d} without hll", framework.FilterString([]nostr.Filter{try.filter}), try.what, try.answer.Count))
	}
	t.Unsupported("the relay returns no HyperLogLog value (NIP-45: \"Relays may return\" one): " + strings.Join(seen, "; "))
	return hllSeen{}
}

// nip45HllSpecs are the cases of nip45/hll.
func nip45HllSpecs() []framework.Spec {
	return []framework.Spec{
		{Case: framework.NewCase("base/hll/1", framework.MUST,
			"When a COUNT answer carries hll (over a reaction count or a group's messages), it is 512 hex characters: 256 one-byte registers.",
			"nip45/hll.1").
			WithReading("NIP-45's hll is optional (\"Relays may return\"); its encoding is a lower-case must stating a rule (\"The value hll value must be the concatenation of the 256 registers\"): MUST. No hll on either COUNT: unsupported."),
			Run: func(t *framework.T) {
				s := hllAnswer(t)
				hll := s.answer.HLL
				if _, err := hex.DecodeString(hll); len(hll) != 512 || err != nil {
					t.Violates("nip45/hll.1", "NIP-45 (nip45/hll.1): the hll value must be the 256 registers hex-encoded, a 512-character hex string; COUNT %s answered hll of %d characters: %q", framework.FilterString([]nostr.Filter{s.filter}), len(hll), text.Clip(hll, 80))
				}
			}},
		{Case: framework.NewCase("base/hll/2", framework.SHOULD,
			"A COUNT answer's hll over three events by three keys is NIP-45's registers: the offset from the filter's tag value, each key's register holding its leading zero bits plus one, every other register 0.",
			"nip45/hll.2").
			WithReading("NIP-45 § Algorithm: \"the steps a relay should take in order to return HLL values\" (SHOULD). The zero bits are counted to the pubkey's end or over the 56 bits after the register byte (go-nostr's code): both pass. A count other than the events written leaves the registers unknown (unsupported); an hll that is not 256 registers is base/hll/1's."),
			Run: func(t *framework.T) {
				s := hllAnswer(t)
				got, err := hex.DecodeString(s.answer.HLL)
				if err != nil || len(got) != 256 {
					t.Unsupported(fmt.Sprintf("the hll is not 256 hex-encoded registers (%d characters): base/hll/1 judges its encoding", len(s.answer.HLL)))
				}
				if s.answer.Count != int64(len(s.authors)) {
					t.Unsupported(fmt.Sprintf("COUNT %s answered %d for the %d events written (probabilistic or otherwise): the registers of the counted events are not known", framework.FilterString([]nostr.Filter{s.filter}), s.answer.Count, len(s.authors)))
				}
				toEnd, over56 := hllRegisters(s.authors, s.offset)
				var wrong []string
				for i := range got {
					if got[i] != toEnd[i] && got[i] != over56[i] {
						wrong = append(wrong, fmt.Sprintf("register %d is %d, want %d", i, got[i], toEnd[i]))
					}
				}
				if len(wrong) > 0 {
					t.Violates("nip45/hll.2", "NIP-45 (nip45/hll.2): COUNT %s (%s) counted the %d events of keys %s; at offset %d their hll registers are NIP-45's, but %s", framework.FilterString([]nostr.Filter{s.filter}), s.what, len(s.authors), strings.Join(s.authors, ", "), s.offset, strings.Join(wrong, "; "))
				}
			}},
	}
}
