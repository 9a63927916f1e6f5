package reference

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// Test-only bulk seeding of channels for the discovery benchmark and the
// query-plan test. It writes exactly what the relay's own create path
// stores (channel row, members, used UUID, the creator-signed 9007 and the
// relay-signed 39000-39002 built by the relay's stateTags), but in big
// transactions and with signatures computed on every core.

const (
	discoveryChannels = 100_000
	seedLabels        = 1_000
	seedCreators      = 2_000
	seedBatch         = 5_000
	// seedVersion changes whenever the generated population changes, so a
	// cached database of an older population is not reused.
	seedVersion = "v1"
	// seedCommunity is the community of a client connecting to 127.0.0.1.
	seedCommunity = "127.0.0.1"
)

// seeded describes a seeded population. labels[0] and creators[0] are the
// most frequent ones (Zipf-distributed).
type seeded struct {
	profile  string
	n        int
	labels   []string
	creators []string // pubkeys
	skeys    []string // creator secret keys
	channel0 string   // the first seeded channel
}

func (s *seeded) anyLabel(rng *rand.Rand) string   { return s.labels[rng.Intn(len(s.labels))] }
func (s *seeded) anyCreator(rng *rand.Rand) string { return s.creators[rng.Intn(len(s.creators))] }

// detKey derives a deterministic secret key, so a cached database and a
// fresh population agree on every key.
func detKey(name string) string {
	sum := sha256.Sum256([]byte("nipcl-bench/" + seedVersion + "/" + name))
	return hex.EncodeToString(sum[:])
}

func newSeeded(profile string, n int) *seeded {
	s := &seeded{profile: profile, n: n}
	for i := 0; i < seedLabels; i++ {
		s.labels = append(s.labels, fmt.Sprintf("topic-%04d", i))
	}
	s.skeys = make([]string, seedCreators)
	s.creators = make([]string, seedCreators)
	var wg sync.WaitGroup
	per := (seedCreators + runtime.NumCPU() - 1) / runtime.NumCPU()
	for lo := 0; lo < seedCreators; lo += per {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			for i := lo; i < hi && i < seedCreators; i++ {
				s.skeys[i] = detKey(fmt.Sprint("creator-", i))
				s.creators[i], _ = nostr.GetPublicKey(s.skeys[i])
			}
		}(lo, lo+per)
	}
	wg.Wait()
	return s
}

// seedChannel is one generated channel with its events.
type seedChannel struct {
	ch     *Channel
	events []*nostr.Event
}

// generate builds channel i (deterministic for a given rng state).
func (s *seeded) generate(r *Relay, rng *rand.Rand, labelZipf, creatorZipf *rand.Zipf, i int, base int64) *seedChannel {
	creator := int(creatorZipf.Uint64())
	typ := "stream"
	switch x := rng.Intn(100); {
	case x < 60:
	case x < 88:
		typ = "forum"
	case x < 93:
		typ = "workflow"
	case x < 98:
		typ = "dm"
	default:
		typ = "forum"
		if s.profile == "identity" {
			typ = typeSystem
		}
	}
	vis := visibilityOpen
	if rng.Intn(10) == 0 || typ == typeSystem {
		vis = visibilityPrivate
	}
	var labels []string
	for k := 1 + rng.Intn(3); k > 0; k-- {
		labels = append(labels, s.labels[labelZipf.Uint64()])
	}
	if s.profile == "labels" && !labelTypeAllowed(typ) {
		labels = nil
	}
	labels = dedupSorted(labels)
	ch := &Channel{
		Community: seedCommunity, UUID: fmt.Sprintf("%08x-0000-4000-8000-%012x", i, rng.Int63()&0xffffffffffff),
		Type: typ, Visibility: vis, Name: fmt.Sprintf("channel %d", i),
		Creator: s.creators[creator], CreatedAt: base + 2*int64(i), Labels: labels,
		Members: map[string]string{s.creators[creator]: roleOwner},
	}
	if rng.Intn(5) == 0 {
		if m := s.creators[rng.Intn(len(s.creators))]; m != ch.Creator {
			ch.Members[m] = roleMember
		}
	}
	create := nostr.Tags{{"h", ch.UUID}, {"name", ch.Name}, {"channel_type", typ}, {"visibility", vis}}
	for _, l := range labels {
		switch s.profile {
		case "identity":
			create = append(create, nostr.Tag{"t", l})
		case "labels":
			create = append(create, nostr.Tag{"label", l})
		}
	}
	sc := &seedChannel{ch: ch}
	sc.events = append(sc.events, &nostr.Event{PubKey: s.skeys[creator], Kind: kindCreateGroup,
		CreatedAt: nostr.Timestamp(ch.CreatedAt), Tags: create, Content: ""})
	for _, kind := range []int{kindGroupMetadata, kindGroupAdmins, kindGroupMembers} {
		sc.events = append(sc.events, &nostr.Event{PubKey: r.stateKey(), Kind: kind,
			CreatedAt: nostr.Timestamp(ch.CreatedAt), Tags: r.stateTags(nil, kind, ch), Content: ""})
	}
	return sc
}

// seed writes n generated channels into r's database. Events are built with
// their signer's secret key in PubKey and signed here.
func (s *seeded) seed(tb testing.TB, r *Relay) {
	tb.Helper()
	rng := rand.New(rand.NewSource(42))
	labelZipf := rand.NewZipf(rng, 1.1, 2, seedLabels-1)
	creatorZipf := rand.NewZipf(rng, 1.1, 5, seedCreators-1)
	base := time.Now().Unix() - 2*int64(s.n) - 3600
	for lo := 0; lo < s.n; lo += seedBatch {
		hi := min(lo+seedBatch, s.n)
		batch := make([]*seedChannel, 0, hi-lo)
		for i := lo; i < hi; i++ {
			batch = append(batch, s.generate(r, rng, labelZipf, creatorZipf, i, base))
		}
		if lo == 0 {
			s.channel0 = batch[0].ch.UUID
		}
		// Sign on every core.
		var wg sync.WaitGroup
		workers := runtime.NumCPU()
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for j := w; j < len(batch); j += workers {
					for _, ev := range batch[j].events {
						if err := ev.Sign(ev.PubKey); err != nil {
							panic(err)
						}
					}
				}
			}(w)
		}
		wg.Wait()
		tx, err := r.db.BeginTx(context.Background(), nil)
		if err != nil {
			tb.Fatal(err)
		}
		t := r.newTxn(tx, seedCommunity)
		for _, sc := range batch {
			if err := t.saveChannel(sc.ch); err != nil {
				tb.Fatal(err)
			}
			if err := t.markUUIDUsed(sc.ch.UUID, sc.events[0].ID); err != nil {
				tb.Fatal(err)
			}
			for _, ev := range sc.events {
				if err := t.insert(ev, sc.ch.UUID); err != nil {
					tb.Fatal(err)
				}
			}
			t.emitted = t.emitted[:0]
		}
		if err := tx.Commit(); err != nil {
			tb.Fatal(err)
		}
	}
}

// schemaTag identifies the schema and the population of a cached database.
func schemaTag() string {
	sum := sha256.Sum256([]byte(schema + "\x00" + seedVersion))
	return hex.EncodeToString(sum[:6])
}

// seededRelay returns a relay (not started) over n seeded channels of the
// profile. The database is cached under os.TempDir, keyed by profile, size,
// schema and population, so only the first run pays for seeding.
func seededRelay(tb testing.TB, profile string, n int) (*Relay, *seeded) {
	tb.Helper()
	s := newSeeded(profile, n)
	relayKey := detKey("relay-" + profile)
	path := filepath.Join(os.TempDir(), fmt.Sprintf("nipcl-bench-%s-%d-%s.db", profile, n, schemaTag()))
	if _, err := os.Stat(path); err != nil {
		// Databases of an older schema or population are never read again.
		stale, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("nipcl-bench-%s-%d-*.db", profile, n)))
		for _, f := range stale {
			_ = os.Remove(f)
		}
		tmp := fmt.Sprintf("%s.tmp-%d", path, os.Getpid())
		start := time.Now()
		r, err := New(Config{Profile: profile, DBPath: tmp, SecretKey: relayKey})
		if err != nil {
			tb.Fatal(err)
		}
		s.seed(tb, r)
		if err := r.Close(); err != nil {
			tb.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			tb.Fatal(err)
		}
		tb.Logf("seeded %d %s channels in %v into %s", n, profile, time.Since(start).Round(time.Millisecond), path)
	}
	r, err := New(Config{Profile: profile, DBPath: path, SecretKey: relayKey})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = r.Close() })
	return r, s
}

// smallSeededRelay is an in-memory relay over n seeded channels (no cache).
func smallSeededRelay(tb testing.TB, profile string, n int) (*Relay, *seeded) {
	tb.Helper()
	s := newSeeded(profile, n)
	r, err := New(Config{Profile: profile, SecretKey: detKey("relay-" + profile)})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = r.Close() })
	s.seed(tb, r)
	return r, s
}
