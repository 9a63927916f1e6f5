package conformance

import (
	"reflect"
	"regexp"
	"testing"

	"github.com/nipcl/nipcl-conform/runner"
)

func TestDealPlansLongestFirst(t *testing.T) {
	plans := []runner.Plan{
		{Name: "a", Cases: []string{"x/a/1"}},
		{Name: "b", Cases: []string{"x/a/1", "x/a/2", "x/a/3", "x/a/4"}},
		{Name: "c", Cases: []string{"x/a/1", "x/a/2"}},
		{Name: "d", Cases: []string{"x/a/1"}},
	}
	got := dealPlans(plans, 2)
	want := []share{{Plans: []string{"b", "d"}}, {Plans: []string{"c", "a"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("shares: expected %+v, observed %+v", want, got)
	}
	if got := dealPlans(plans[:1], 4); len(got) != 1 {
		t.Errorf("one plan, 4 shares: expected 1 share, observed %+v", got)
	}
}

func TestRunPatternSelectsOnlyTheTest(t *testing.T) {
	p := runPattern("TestKill/a.b+c")
	if p != `^TestKill$/^a\.b\+c$` {
		t.Errorf("pattern: %s", p)
	}
	if !regexp.MustCompile(`^a\.b\+c$`).MatchString("a.b+c") {
		t.Error("the quoted part does not match its name")
	}
}
