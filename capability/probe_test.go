package capability

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/reference"
)

func startRelay(t *testing.T, cfg reference.Config) string {
	t.Helper()
	r, err := reference.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	url, err := r.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return url
}

func probe(t *testing.T, cfg reference.Config, keys []*Key) *Findings {
	t.Helper()
	url := startRelay(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return Probe(ctx, Target{URL: url, AuthOnConnect: true, StepTimeout: 5 * time.Second}, keys)
}

func key(t *testing.T, label string, role Role) *Key {
	t.Helper()
	return &Key{Actor: fixtures.NewActor(label), Label: label, Declared: role}
}

// TestProbeFindings checks each policy's finding for one key of each kind.
func TestProbeFindings(t *testing.T) {
	creator, plain := fixtures.NewActor("c"), fixtures.NewActor("p")
	for _, tc := range []struct {
		name                    string
		cfg                     reference.Config
		keys                    []*Key
		admitted, create, moder []Answer // per key
		fitsCreator, fitsUnpriv []bool
	}{
		{"generated, clean", reference.Config{}, nil,
			[]Answer{Yes}, []Answer{Yes}, []Answer{No}, []bool{true}, []bool{true}},
		{"generated, every key moderates", reference.Config{Policies: []string{"every-key-moderates"}}, nil,
			[]Answer{Yes}, []Answer{Yes}, []Answer{Yes}, []bool{true}, []bool{false}},
		{"generated, listed keys only", reference.Config{Policies: []string{"listed-keys-only"}}, nil,
			[]Answer{No}, []Answer{No}, []Answer{Unknown}, []bool{false}, []bool{false}},
		{"configured, one creator passed last", reference.Config{Policies: []string{"listed-creators"}, CreatorKeys: []string{creator.PubKey}},
			[]*Key{{Actor: plain, Label: "key1"}, {Actor: creator, Label: "key2"}},
			[]Answer{Yes, Yes}, []Answer{No, Yes}, []Answer{No, Unknown}, []bool{false, true}, []bool{true, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := probe(t, tc.cfg, tc.keys)
			if len(f.Keys) != len(tc.admitted) {
				t.Fatalf("%d keys probed, want %d", len(f.Keys), len(tc.admitted))
			}
			for i, k := range f.Keys {
				got := []Answer{k.Admitted, k.MayCreate, k.ModeratesForeign}
				want := []Answer{tc.admitted[i], tc.create[i], tc.moder[i]}
				if got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
					t.Errorf("%s: admitted/create/moderates = %q, want %q (evidence: %q)", k.Label, got, want, k.Evidence)
				}
				if k.FitsCreator() != tc.fitsCreator[i] || k.FitsUnprivileged() != tc.fitsUnpriv[i] {
					t.Errorf("%s: fits creator %v, unprivileged %v; want %v, %v", k.Label, k.FitsCreator(), k.FitsUnprivileged(), tc.fitsCreator[i], tc.fitsUnpriv[i])
				}
			}
		})
	}
}

// TestProbeStateKinds: the reference relay publishes 39000-39002 for a new group.
func TestProbeStateKinds(t *testing.T) {
	f := probe(t, reference.Config{}, nil)
	for _, kind := range StateKinds {
		if f.State[kind] != Yes {
			t.Errorf("kind %d: %q, want yes (evidence %q)", kind, f.State[kind], f.StateEvidence)
		}
	}
}

// TestProbeCreatorRoles: the probe's moderating role is the creator's
// whole 39001 role set, in the relay's order, not its first role (a relay
// may list a powerless role first).
func TestProbeCreatorRoles(t *testing.T) {
	for _, tc := range []struct {
		variants []string
		want     []string
	}{
		{nil, []string{"owner"}},
		{[]string{"powerless-role-first"}, []string{"member", "owner"}},
		{[]string{"several-roles-per-admin"}, []string{"owner", "gardener"}},
	} {
		f := probe(t, reference.Config{Variants: tc.variants}, nil)
		if !slices.Equal(f.CreatorRoles, tc.want) {
			t.Errorf("variants %v: creator roles %q, want %q (evidence %q)", tc.variants, f.CreatorRoles, tc.want, f.StateEvidence)
		}
	}
}

// TestDeclaredRoles: a declaration restricts a key's use, and an observed
// moderation power overrides a declared "unprivileged".
func TestDeclaredRoles(t *testing.T) {
	k := key(t, "k", RoleUnprivileged)
	k.MayCreate, k.ModeratesForeign, k.Admitted = Yes, No, Yes
	if k.FitsCreator() || !k.FitsUnprivileged() {
		t.Errorf("declared unprivileged: fits creator %v, unprivileged %v", k.FitsCreator(), k.FitsUnprivileged())
	}
	k.ModeratesForeign = Yes
	if k.FitsUnprivileged() {
		t.Error("a key seen moderating a foreign group fits unprivileged although declared so")
	}
	// The report says so: the key's kind names the contradiction, never
	// silently the observed kind alone.
	if c := k.Contradiction(); c == "" || !strings.HasPrefix(k.Kind(), c) || !strings.Contains(k.Kind(), "moderates foreign groups") {
		t.Errorf("declared unprivileged, seen moderating: contradiction %q, kind %q", c, k.Kind())
	}
	k.ModeratesForeign = No
	if c := k.Contradiction(); c != "" {
		t.Errorf("declared unprivileged, seen refused: contradiction %q, want none", c)
	}
	for in, want := range map[string]Role{"creator": RoleCreator, "Unprivileged": RoleUnprivileged, "member": RoleUnprivileged} {
		if got, err := ParseRole(in); err != nil || got != want {
			t.Errorf("ParseRole(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseRole("boss"); err == nil {
		t.Error("ParseRole accepted an unknown role word")
	}
}

// TestProbeTimeline: a relay enforcing NIP-29 timeline references is
// learned from the 9000 refused in words of previous references and
// answered otherwise with them; a relay that does not enforce them shows
// nothing, and the probe's findings on the keys are the same either way.
func TestProbeTimeline(t *testing.T) {
	for _, tc := range []struct {
		name string
		min  int
		want int
	}{
		{"plain relay", 0, 0},
		{"min-previous 3", 3, fixtures.PreviousRecommended},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := probe(t, reference.Config{MinPrevious: tc.min}, nil)
			if f.Previous != tc.want {
				t.Fatalf("Previous = %d, want %d (evidence %q)", f.Previous, tc.want, f.PreviousEvidence)
			}
			k := f.Keys[0]
			if k.MayCreate != Yes || k.ModeratesForeign != No {
				t.Fatalf("key findings changed: create %q, moderates %q (%q)", k.MayCreate, k.ModeratesForeign, k.Evidence)
			}
			if tc.want > 0 && (len(f.PreviousEvidence) != 1 || !strings.Contains(f.PreviousEvidence[0], "previous references")) {
				t.Fatalf("evidence = %q, want the refusal and the answer with references", f.PreviousEvidence)
			}
			if tc.want == 0 && len(f.PreviousEvidence) != 0 {
				t.Fatalf("evidence on a relay that does not enforce references: %q", f.PreviousEvidence)
			}
			if len(f.Undeleted) != 0 {
				t.Fatalf("probe groups left: %q", f.Undeleted)
			}
		})
	}
}
