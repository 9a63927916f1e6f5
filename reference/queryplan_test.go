package reference

import (
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// TestQueryPlansUseIndexes checks the SQL of discovery reads (#l, #L+#l,
// #t, #P, #t+#P, #d with a limit): every step of EXPLAIN QUERY PLAN is an
// index SEARCH (or a scan of a covering index), never a full table scan, and
// single-value reads come out of the index newest first (no full sort, so
// LIMIT stops the walk). The plan does not depend on the table sizes (the
// relay never runs ANALYZE), so a small seeded database is enough; the
// figures at 100,000 channels are BenchmarkDiscovery's.
func TestQueryPlansUseIndexes(t *testing.T) {
	type planCase struct {
		name   string
		filter func(s *seeded) nostr.Filter
		sorted bool // one value, one kind: no full sort allowed
		empty  bool // the reader may see no match
	}
	d := func(s *seeded) nostr.Filter {
		return nostr.Filter{Kinds: []int{kindGroupMetadata}, Tags: nostr.TagMap{"d": {s.channel0}}, Limit: 50}
	}
	cases := map[string][]planCase{
		"labels": {
			{"#l", func(s *seeded) nostr.Filter { return labelFilter("l", []string{s.labels[0]}, nil) }, true, false},
			{"#l two values", func(s *seeded) nostr.Filter { return labelFilter("l", s.labels[:2], nil) }, false, false},
			{"#L+#l", func(s *seeded) nostr.Filter {
				return labelFilter("l", []string{s.labels[0]}, nostr.TagMap{"L": {labelNamespace}})
			}, true, false},
			{"#t+#l", func(s *seeded) nostr.Filter {
				return labelFilter("l", []string{s.labels[0]}, nostr.TagMap{"t": {"stream"}})
			}, true, false},
			{"#d", d, true, false},
		},
		"identity": {
			{"#t", func(s *seeded) nostr.Filter { return labelFilter("t", []string{s.labels[0]}, nil) }, true, false},
			{"#P", func(s *seeded) nostr.Filter { return labelFilter("P", []string{s.creators[0]}, nil) }, true, false},
			{"#t+#P", func(s *seeded) nostr.Filter {
				return labelFilter("t", []string{s.labels[0]}, nostr.TagMap{"P": {s.creators[0]}})
			}, true, false},
			{"#t system", func(s *seeded) nostr.Filter { return labelFilter("t", []string{typeSystem}, nil) }, true, true},
			{"#d", d, true, false},
		},
	}
	for _, profile := range []string{"labels", "identity"} {
		t.Run(profile, func(t *testing.T) {
			start := time.Now()
			r, s := smallSeededRelay(t, profile, 200)
			t.Logf("seeded 200 channels in %v", time.Since(start).Round(time.Millisecond))
			// A reader with a key, so the member clause of the access rule is in the plan.
			rd := &reader{community: seedCommunity, pubkeys: []string{s.creators[1]}}
			for _, pc := range cases[profile] {
				f := pc.filter(s)
				query, args := r.selectSQL(rd, &f, false, false, r.effectiveLimit(&f))
				rows, err := r.db.Query("EXPLAIN QUERY PLAN "+query, args...)
				if err != nil {
					t.Fatalf("%s: %v\n%s", pc.name, err, query)
				}
				var plan []string
				for rows.Next() {
					var id, parent, unused int
					var detail string
					if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
						t.Fatal(err)
					}
					plan = append(plan, detail)
				}
				rows.Close()
				t.Logf("%s %s\n  %s\n  plan:\n    %s", profile, pc.name, query, strings.Join(plan, "\n    "))
				for _, step := range plan {
					if strings.HasPrefix(step, "SCAN ") && !strings.Contains(step, "COVERING INDEX") {
						t.Errorf("%s: full scan %q", pc.name, step)
					}
					if pc.sorted && strings.Contains(step, "USE TEMP B-TREE FOR ORDER BY") {
						t.Errorf("%s: sorts every match (%q); LIMIT cannot stop early", pc.name, step)
					}
				}
				// The read itself: matches only, newest first.
				evs, err := r.queryFilter(rd, &f)
				if err != nil {
					t.Fatal(err)
				}
				if len(evs) == 0 && !pc.empty {
					t.Errorf("%s: no events", pc.name)
				}
				for i, ev := range evs {
					if !f.Matches(ev) {
						t.Errorf("%s: %s does not match", pc.name, ev.ID)
					}
					if i > 0 && ev.CreatedAt > evs[i-1].CreatedAt {
						t.Errorf("%s: not newest first", pc.name)
					}
				}
			}
		})
	}
}
