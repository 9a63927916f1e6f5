package framework

import (
	"errors"
	"testing"

	"github.com/onsi/gomega"
)

// TestRewordLeavesNoMatcherBoilerplate: every matcher the cases use fails
// with "<what>: expected …, observed …", never Gomega's own layout.
func TestRewordLeavesNoMatcherBoilerplate(t *testing.T) {
	var got []string
	g := gomega.NewGomega(func(message string, _ ...int) { got = append(got, Reword(message)) })
	g.Expect("a").To(gomega.Equal("b"), "39000 name tag")
	g.Expect(false).To(gomega.BeTrue(), "39002 lists the creator")
	g.Expect([]string{"x"}).To(gomega.BeEmpty(), "an outsider reads nothing")
	g.Expect([]string{"x"}).To(gomega.ConsistOf("y", "z"), "union")
	g.Expect([]string{"x"}).To(gomega.ContainElement("owner"))
	g.Expect(3).To(gomega.BeNumerically(">", 5), "created_at increases")
	g.Expect(nil).NotTo(gomega.BeNil(), "member reads")
	g.Expect(errors.New("boom")).NotTo(gomega.HaveOccurred(), "sig check")
	g.Expect(int64(2)).To(gomega.BeEquivalentTo(3), "COUNT")
	g.Expect([2]string{"P", "9f626c38e726535a895b468030b7930c8cdce3588216fab7158f1b8674af836c"}).To(gomega.Equal([2]string{"t", "stream"}), "first tag")
	want := []string{
		`39000 name tag: expected b, observed a`,
		`39002 lists the creator: expected so, observed otherwise`,
		`an outsider reads nothing: expected nothing, observed ["x"]`,
		`union: expected exactly ["y", "z"] (any order), observed ["x"]`,
		`expected ["x"] to contain owner`,
		`created_at increases: expected a value > 5, observed 3`,
		`member reads: expected one, observed none`,
		`sig check: expected no error, observed: boom`,
		`COUNT: expected 3, observed 2`,
		`first tag: expected ["t", "stream"], observed ["P", "9f626c38e726535a895b468030b7930c8cdce3588216fab7158f1b8674af836c"]`,
	}
	if len(got) != len(want) {
		t.Fatalf("%d messages, want %d: %q", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d:\n got %q\nwant %q", i, got[i], want[i])
		}
		if HasMatcherBoilerplate(got[i]) {
			t.Errorf("message %d keeps matcher boilerplate: %q", i, got[i])
		}
	}
	if m := "a message of our own: expected x, got y"; Reword(m) != m {
		t.Errorf("our own message was changed: %q", Reword(m))
	}
}
