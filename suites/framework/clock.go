package framework

import (
	"fmt"
	"time"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/gomega" //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// Clocks under control: every actor of a baseline case shares the case's
// fixtures.Clock, so the dependent group commands of a case (a 9000 then a
// 9001, a 9000 then a 9022, two 9002s) carry strictly increasing
// created_at without sleeping, and no verdict rests on how a relay orders
// equal timestamps. Cases that study equal timestamps build them on
// purpose (SameSecond); cases that need the relay's own clock to have
// moved on wait for it as a condition (RelayClockPast).

// caseClockLocked returns the case's clock, made on first use, bounded by
// the relay's published created_at_upper_limit (half of it, so a relay
// clock a little behind ours still admits the stamp). Callers hold t.mu.
func (t *T) caseClockLocked() *fixtures.Clock {
	if t.clock == nil {
		t.clock = &fixtures.Clock{}
		if l := t.Limitation(); l != nil && l.CreatedAtUpperLimit > 0 {
			ahead := time.Duration(l.CreatedAtUpperLimit) * time.Second / 2
			if ahead < time.Second {
				ahead = time.Second
			}
			if ahead < fixtures.DefaultClockAhead {
				t.clock.Ahead = ahead
			}
		}
	}
	return t.clock
}

// actorClockLocked is the clock a case's actors sign with: the case's
// clock in baseline cases (NIP-29's membership and metadata commands,
// where a relay may order by created_at), none in the NIP-CL cases, whose
// drafts' command sequences (label sweeps, races) are judged by arrival
// and would otherwise run far ahead of the wall clock. Callers hold t.mu.
func (t *T) actorClockLocked() *fixtures.Clock {
	if !t.nip29Way() {
		return nil
	}
	return t.caseClockLocked()
}

// Clock returns the case's clock (shared by all its actors).
func (t *T) Clock() *fixtures.Clock {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.caseClockLocked()
}

// GroupClockScope is the clock scope of a group's commands.
func GroupClockScope(ch string) string { return "h:" + ch }

// SameSecond returns one created_at after every command the case has sent
// to group ch so far, for two or more commands that must share a second
// (the same-second cases): the scope's clock moves past it, so later steps
// stay strictly after.
func (t *T) SameSecond(ch string) nostr.Timestamp {
	return t.Clock().Stamp(GroupClockScope(ch))
}

// RelayClockPast waits until the wall clock is past `at` (a created_at the
// relay stamped), so that what the relay stamps next is likely newer; the
// case then observes that it is (NewerMetadata). It is a condition with the
// step deadline, never a fixed sleep.
func (t *T) RelayClockPast(at nostr.Timestamp, what string) {
	t.Eventually(func(g Gomega) {
		g.Expect(time.Now().Unix()).To(BeNumerically(">", int64(at)), fmt.Sprintf("the clock is still at %d", at))
	}, what)
}

// After is a time to sign an event at that is newer than `at` (a
// created_at the relay stamped): now, or the second after `at` when the
// relay's stamp is not yet past (a relay may stamp a replacement a second
// ahead of its clock). It is at most a second or two ahead of the wall
// clock, well inside the harness's usual clock allowance
// (fixtures.DefaultClockAhead).
func After(at nostr.Timestamp) time.Time {
	if now := time.Now(); now.Unix() > int64(at) {
		return now
	}
	return time.Unix(int64(at)+1, 0)
}

// maxBumpRenames bounds the renames NewerMetadata sends before it waits
// for the relay's clock.
const maxBumpRenames = 4

// NewerMetadata makes group ch's relay-signed 39000 (read as c) newer than
// `than`: when the relay stamped it at or before `than`, the group is
// renamed while each rename moves the 39000 on (a relay that stamps a
// replacement one second past the event it replaces is past `than` after
// a rename or two); when a rename does not, the wall clock is waited past
// `than` (RelayClockPast) and the group renamed until the relay's next
// 39000 is newer, within the step deadline. It returns the 39000 it
// observed.
func (t *T) NewerMetadata(c *fixtures.Client, ch string, than nostr.Timestamp) *nostr.Event {
	meta := t.GroupMetadata(c, ch)
	if meta.CreatedAt > than {
		return meta
	}
	m := fixtures.GroupMetadata{About: "nipcl-conform test group"}
	for _, f := range []string{fixtures.FlagPrivate, fixtures.FlagClosed, fixtures.FlagHidden, fixtures.FlagRestricted} {
		if fixtures.HasFlag(meta, f) {
			m.Flags = append(m.Flags, f)
		}
	}
	rename := func(g Gomega) {
		m.Name = t.Unique("renamed")
		if t.Env.Pace != nil { // paced like every write (--rate)
			g.Expect(t.Env.Pace(t.Ctx())).To(Succeed(), "pacing writes")
		}
		ok, err := c.Publish(t.Ctx(), fixtures.EditGroup(c.Actor(), ch, m))
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(ok.Accepted).To(BeTrue(), "the rename was refused: %s", ok)
		r, err := c.Query(t.Ctx(), nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
		g.Expect(err).NotTo(HaveOccurred())
		meta = NewestHead(r.Events)
		g.Expect(meta).NotTo(BeNil(), "no 39000 for %s", ch)
		g.Expect(int64(meta.CreatedAt)).To(BeNumerically(">", int64(than)), "the 39000 of %s has created_at %d", ch, meta.CreatedAt)
	}
	// A relay that stamps each replacement a second past the one before
	// is renamed until past `than` (a few seconds at most); a rename that
	// does not move the 39000 on leaves it to the relay's clock.
	for tries := 0; tries < maxBumpRenames; tries++ {
		before := meta.CreatedAt
		if attempt(rename) == "" {
			return meta
		}
		if meta == nil || meta.CreatedAt <= before {
			break
		}
	}
	t.RelayClockPast(than, fmt.Sprintf("the relay's clock past %d", than))
	t.Eventually(rename, fmt.Sprintf("a 39000 of %s newer than %d", ch, than))
	return meta
}
