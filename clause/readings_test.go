package clause

import "testing"

func TestReadingsCatalogue(t *testing.T) {
	if len(Readings()) == 0 {
		t.Fatal("no readings")
	}
	seen := map[string]bool{}
	for _, r := range Readings() {
		if seen[r.ID] {
			t.Errorf("reading %s listed twice", r.ID)
		}
		seen[r.ID] = true
		if _, ok := Lookup(r.Section); !ok {
			t.Errorf("reading %s: unknown section %q", r.ID, r.Section)
		}
		switch r.Profile {
		case "", "nip29", "identity", "labels":
		default:
			t.Errorf("reading %s: unknown profile %q", r.ID, r.Profile)
		}
		if len(r.Values) < 2 {
			t.Errorf("reading %s: needs at least two values, has %v", r.ID, r.ValueNames())
		}
		names := map[string]bool{}
		for _, v := range r.Values {
			if v.Name == "" || v.Meaning == "" || names[v.Name] {
				t.Errorf("reading %s: bad or repeated value %+v", r.ID, v)
			}
			names[v.Name] = true
		}
		if r.Open == "" || r.Ref == "" || len(r.Cases) == 0 {
			t.Errorf("reading %s: needs Open, Ref and the cases that note it", r.ID)
		}
		if err := CheckReading(r.ID, r.Default()); err != nil {
			t.Errorf("reading %s: default: %v", r.ID, err)
		}
	}
	if _, _, err := ParseReading("no-such=x"); err == nil {
		t.Error("unknown reading accepted")
	}
	if _, _, err := ParseReading(ReadingIdentityCreatedAt + "=nope"); err == nil {
		t.Error("unknown value accepted")
	}
	if _, _, err := ParseReading(ReadingIdentityCreatedAt); err == nil {
		t.Error("missing =VALUE accepted")
	}
	if id, v, err := ParseReading(ReadingIdentityCreatedAt + "=command"); err != nil || id != ReadingIdentityCreatedAt || v != "command" {
		t.Errorf("ParseReading: %q %q %v", id, v, err)
	}
}
