package reference

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// NIP-45 HyperLogLog: a COUNT of one filter with one tag attribute is
// answered with the hll of the counted events' pubkeys beside the count
// ("Relays may return an HyperLogLog value together with the count").
// NIP-45 leaves other filters' hll undefined ("For cases not covered above
// ... behavior isn't yet defined"): those are answered with the count
// alone.

// hllOffset is NIP-45's offset of a filter whose first tag attribute's
// first value is v: its 64-hex form (v itself for an id or pubkey, the
// pubkey of an address, else sha256(v)), character 32 read as base 16,
// plus 8.
func hllOffset(v string) int {
	h := v
	if parts := strings.SplitN(v, ":", 3); len(parts) == 3 && isHex64(parts[1]) {
		h = parts[1]
	} else if !isHex64(v) {
		sum := sha256.Sum256([]byte(v))
		h = hex.EncodeToString(sum[:])
	}
	n, _ := strconv.ParseUint(strings.ToLower(h[32:33]), 16, 8)
	return int(n) + 8
}

// hll returns the hex hll of the events filters count for rd, "" when
// NIP-45 defines none for them (not one filter with one tag attribute).
func (r *Relay) hll(rd *reader, filters []nostr.Filter) (string, error) {
	if len(filters) != 1 || len(filters[0].Tags) != 1 {
		return "", nil
	}
	var first string
	for _, vs := range filters[0].Tags {
		if len(vs) == 0 {
			return "", nil
		}
		first = vs[0]
	}
	offset := hllOffset(first)
	crd := *rd
	crd.count = true
	b := r.filterSQL(r.readFilter(&filters[0], readCOUNT), &crd, true, true, true, "")
	rows, err := r.readQuery(`SELECT e.pubkey`+fromEvents+`WHERE `+b.where(), b.args...)
	if err != nil {
		return "", fmt.Errorf("hll: %w", err)
	}
	defer rows.Close()
	regs := make([]byte, 256)
	for rows.Next() {
		var pk string
		if err := rows.Scan(&pk); err != nil {
			return "", fmt.Errorf("hll: %w", err)
		}
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
		v := byte(zeros + 1)
		// Fault hll-no-plus-one: the register holds the zero bits alone.
		if r.fault(faultHLLNoPlusOne) {
			v--
		}
		if ri := key[offset]; v > regs[ri] {
			regs[ri] = v
		}
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("hll: %w", err)
	}
	// Fault hll-short: 255 registers (510 hex characters).
	if r.fault(faultHLLShort) {
		regs = regs[:255]
	}
	return hex.EncodeToString(regs), nil
}

// countAnswer is a COUNT answer with an optional hll and approximate flag.
type countAnswer struct {
	id          string
	n           int64
	hll         string
	approximate bool
}

// MarshalJSON writes ["COUNT", id, {"count": n, "hll": hex, "approximate": true}]
// (hll and approximate only when set).
func (a countAnswer) MarshalJSON() ([]byte, error) {
	if a.hll == "" && !a.approximate {
		return nostr.CountEnvelope{SubscriptionID: a.id, Count: &a.n}.MarshalJSON()
	}
	id, err := json.Marshal(a.id)
	if err != nil {
		return nil, fmt.Errorf("encode COUNT id: %w", err)
	}
	body := `{"count":` + strconv.FormatInt(a.n, 10)
	if a.hll != "" {
		body += `,"hll":"` + a.hll + `"`
	}
	if a.approximate {
		body += `,"approximate":true`
	}
	return []byte(`["COUNT",` + string(id) + `,` + body + `}]`), nil
}
