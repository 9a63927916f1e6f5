package framework

import (
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip11"
	"github.com/nbd-wtf/go-nostr/nip13"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL

	"github.com/nipcl/nipcl-conform/fixtures"
)

// NIP-11 lets a relay publish limits (limitation.*). A case whose own data
// leaves one of them cannot tell a conformance failure from the relay
// enforcing what it published, so it is unsupported, naming the limit —
// never a failure:
//   - a read (Query, Count, Subscribe) outside a limit is not sent;
//   - an event outside a limit is still sent (a case may expect a
//     refusal, which the limit then explains as well); if the relay
//     refuses it and the case fails, the case is unsupported instead.

// Limitation is the relay's published limits, or nil.
func (t *T) Limitation() *nip11.RelayLimitationDocument {
	if t.Env.Info == nil {
		return nil
	}
	return t.Env.Info.Limitation
}

// noteLimitRefusal remembers a refused event that leaves a limit the
// relay publishes.
func (t *T) noteLimitRefusal(ev *nostr.Event, ok fixtures.OK) {
	if why := eventOutsideLimits(t.Limitation(), ev, time.Now()); why != "" {
		t.mu.Lock()
		t.limitRefusals = append(t.limitRefusals, fmt.Sprintf("the relay refused a kind %d event (%s) that leaves a limit it publishes in NIP-11: %s", ev.Kind, ok, why))
		t.mu.Unlock()
	}
}

// LimitRefusals are the refusals noteLimitRefusal saw.
func (t *T) LimitRefusals() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.limitRefusals...)
}

// FiltersWithinLimits makes the case unsupported when a REQ or COUNT with
// filters leaves a limit the relay publishes.
func (t *T) FiltersWithinLimits(filters []nostr.Filter) {
	if why := filtersOutsideLimits(t.Limitation(), filters); why != "" {
		t.Unsupported("this case reads outside a limit the relay publishes in NIP-11: " + why)
	}
}

// ResultWithinLimits makes the case unsupported when a read without a
// limit came back with as many events as the relay says it sends for one
// (limitation.default_limit, else max_limit): the answer may have been cut
// there, so what is missing from it is not observed.
func (t *T) ResultWithinLimits(filters []nostr.Filter, got int) {
	if why := ResultMayBeCut(t.Limitation(), filters, got); why != "" {
		t.Unsupported("this case reads more than the relay publishes it sends: " + why)
	}
}

// ResultMayBeCut names the published limit an answer of got events to
// filters may have been cut at ("" when none).
func ResultMayBeCut(l *nip11.RelayLimitationDocument, filters []nostr.Filter, got int) string {
	if l == nil {
		return ""
	}
	name, most := "default_limit", l.DefaultLimit
	if most <= 0 || (l.MaxLimit > 0 && l.MaxLimit < most) {
		name, most = "max_limit", l.MaxLimit
	}
	if most <= 0 || got < most {
		return ""
	}
	for _, f := range filters {
		if f.Limit == 0 && !f.LimitZero {
			return fmt.Sprintf("a filter without limit got %d events, and limitation.%s is %d", got, name, most)
		}
	}
	return ""
}

// eventOutsideLimits names the first published limit ev leaves ("" when
// none). min_pow_difficulty is one when the event was not mined to it
// (the harness mines to --pow, or to the published difficulty up to
// fixtures.AutoPoW).
func eventOutsideLimits(l *nip11.RelayLimitationDocument, ev *nostr.Event, now time.Time) string {
	if l == nil {
		return ""
	}
	switch {
	case l.MinPowDifficulty > 0 && idDifficulty(ev.ID) < l.MinPowDifficulty:
		return fmt.Sprintf("limitation.min_pow_difficulty is %d and the event's id has %d leading zero bits (run with --pow %d)", l.MinPowDifficulty, idDifficulty(ev.ID), l.MinPowDifficulty)
	case l.MaxEventTags > 0 && len(ev.Tags) > l.MaxEventTags:
		return fmt.Sprintf("it has %d tags, limitation.max_event_tags is %d", len(ev.Tags), l.MaxEventTags)
	case l.MaxContentLength > 0 && utf8.RuneCountInString(ev.Content) > l.MaxContentLength:
		return fmt.Sprintf("its content has %d characters, limitation.max_content_length is %d", utf8.RuneCountInString(ev.Content), l.MaxContentLength)
	case l.CreatedAtLowerLimit > 0 && int64(ev.CreatedAt) < now.Unix()-l.CreatedAtLowerLimit:
		return fmt.Sprintf("its created_at is %d s in the past, limitation.created_at_lower_limit is %d", now.Unix()-int64(ev.CreatedAt), l.CreatedAtLowerLimit)
	case l.CreatedAtUpperLimit > 0 && int64(ev.CreatedAt) > now.Unix()+l.CreatedAtUpperLimit:
		return fmt.Sprintf("its created_at is %d s in the future, limitation.created_at_upper_limit is %d", int64(ev.CreatedAt)-now.Unix(), l.CreatedAtUpperLimit)
	}
	if l.MaxMessageLength > 0 {
		frame, _ := json.Marshal([]any{"EVENT", ev})
		if len(frame) > l.MaxMessageLength {
			return fmt.Sprintf("its EVENT message is %d bytes, limitation.max_message_length is %d", len(frame), l.MaxMessageLength)
		}
	}
	return ""
}

// filtersOutsideLimits names the first published limit a REQ with filters
// leaves ("" when none): a limit above max_limit may lawfully be cut to
// it, and max_message_length bounds the REQ message too.
func filtersOutsideLimits(l *nip11.RelayLimitationDocument, filters []nostr.Filter) string {
	if l == nil {
		return ""
	}
	for _, f := range filters {
		if l.MaxLimit > 0 && f.Limit > l.MaxLimit {
			return fmt.Sprintf("a filter asks for limit %d, limitation.max_limit is %d", f.Limit, l.MaxLimit)
		}
	}
	if l.MaxMessageLength > 0 {
		frame, _ := json.Marshal(append([]any{"REQ", "sub:0000000000"}, anySlice(filters)...))
		if len(frame) > l.MaxMessageLength {
			return fmt.Sprintf("the REQ message is %d bytes, limitation.max_message_length is %d", len(frame), l.MaxMessageLength)
		}
	}
	return ""
}

func anySlice(filters []nostr.Filter) []any {
	out := make([]any, len(filters))
	for i, f := range filters {
		out[i] = f
	}
	return out
}

// QueryEvery reads every event matching f (a filter without limit), also
// when the relay cuts answers at its published default_limit or max_limit:
// it pages back with until, as NIP-01 clients do, until a page comes back
// short. A CLOSED refusal is handled as by Query. A page that holds
// nothing new (more events share one second than one answer holds) makes
// the case unsupported, naming the limit. Where the relay publishes no
// default_limit, it may still cut an answer without a limit at one it
// keeps to itself (NIP-11 makes publishing it optional): the read pages
// back until a page brings nothing new, one more round trip where nothing
// was cut.
func (t *T) QueryEvery(c *fixtures.Client, f nostr.Filter) []*nostr.Event {
	GinkgoHelper()
	return t.PageBack(c, f, t.queryServed(c, f))
}

// PageBack completes page, the answer to f, when it may have been cut at
// a published limit, or at one the relay does not publish (see
// QueryEvery).
func (t *T) PageBack(c *fixtures.Client, f nostr.Filter, page []*nostr.Event) []*nostr.Event {
	GinkgoHelper()
	l := t.Limitation()
	if (l == nil || l.DefaultLimit <= 0) && f.Limit == 0 && !f.LimitZero && len(page) > 0 {
		return t.pageBackUnpublished(c, f, page)
	}
	if l == nil || ResultMayBeCut(l, []nostr.Filter{f}, len(page)) == "" {
		return page
	}
	var pages pagedRead
	for {
		fresh, oldest := pages.add(page)
		if why := ResultMayBeCut(l, []nostr.Filter{f}, len(page)); why == "" {
			return pages.out
		} else if fresh == 0 {
			t.Unsupported("this case reads more than the relay publishes it sends, and paging back with until found nothing new: " + why)
		}
		next := f
		next.Until = &oldest
		page = t.queryServed(c, next)
		if len(page) == 0 {
			return pages.out
		}
	}
}

// pageBackUnpublished is PageBack where no default_limit is published:
// each page's oldest second starts the next (until), until a page brings
// nothing new. When a page after the first brought events the first
// lacked, and a later page of exactly the first's length brings nothing
// new, the relay seems to cut answers at that length, with more events in
// one second than it sends at once: no NIP-01 read gets them all, and the
// case is unsupported (saying what was seen); so is a read whose page
// reaches a published max_limit when paging brings nothing new.
func (t *T) pageBackUnpublished(c *fixtures.Client, f nostr.Filter, page []*nostr.Event) []*nostr.Event {
	GinkgoHelper()
	var pages pagedRead
	first, cut := len(page), false
	for n := 0; len(page) > 0; n++ {
		fresh, oldest := pages.add(page)
		if fresh == 0 {
			// A page as long as a published max_limit that paging does not
			// get past: more events share its oldest second than the relay
			// sends at once.
			if why := ResultMayBeCut(t.Limitation(), []nostr.Filter{f}, len(page)); why != "" {
				t.Unsupported("this case reads more than the relay publishes it sends, and paging back with until found nothing new: " + why)
			}
			if cut && len(page) == first {
				t.Unsupported(fmt.Sprintf("a read without a limit got %d events, paging back with until found more, and a page of %d events all in or after the second %d brought nothing new: the relay seems to cut answers at %d without publishing default_limit, with more events in one second than that, so no read with until gets them all", first, len(page), oldest, first))
			}
			// The first page back brought nothing new: nothing was cut,
			// unless the first page lies in one second and the relay
			// holds older matches, which it would have sent first had it
			// not cut inside that second.
			if !cut && inOneSecond(pages.out) {
				older := f
				before := oldest - 1
				older.Until = &before
				if n := len(t.queryServed(c, older)); n > 0 {
					t.Unsupported(fmt.Sprintf("a read without a limit got %d events, all in the second %d, and paging back to that second brought nothing new, while %d older events match: the relay seems to cut answers at %d without publishing default_limit, with more events in one second than that, so no read with until gets them all", first, oldest, n, first))
				}
			}
			break
		}
		cut = cut || n > 0
		next := f
		next.Until = &oldest
		page = t.queryServed(c, next)
	}
	return pages.out
}

// inOneSecond reports whether evs all share one created_at.
func inOneSecond(evs []*nostr.Event) bool {
	for _, ev := range evs {
		if ev.CreatedAt != evs[0].CreatedAt {
			return false
		}
	}
	return true
}

// pagedRead gathers the pages of a read paged back with until: each event
// once, in the order first seen.
type pagedRead struct {
	seen map[string]bool
	out  []*nostr.Event
}

// add takes a non-empty page: how many of its events are new, and its
// oldest created_at (the next page's until).
func (p *pagedRead) add(page []*nostr.Event) (fresh int, oldest nostr.Timestamp) {
	if p.seen == nil {
		p.seen, p.out = map[string]bool{}, []*nostr.Event{}
	}
	oldest = page[0].CreatedAt
	for _, ev := range page {
		if !p.seen[ev.ID] {
			p.seen[ev.ID] = true
			p.out = append(p.out, ev)
			fresh++
		}
		oldest = min(oldest, ev.CreatedAt)
	}
	return fresh, oldest
}

// idDifficulty is the NIP-13 difficulty of an event id: its leading zero
// bits, 0 for an id that is not 64 hex characters (nip13.Difficulty
// panics on one shorter than two).
func idDifficulty(id string) int {
	if len(id) != 64 {
		return 0
	}
	return nip13.Difficulty(id)
}
