package clientmode

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs more parallel tests at once than the default
// -test.parallel (GOMAXPROCS) unless the command line sets it: TestKill
// runs every case once per fault, each fault a parallel subtest whose
// cases wait on sockets and timers (about 0.3 s of CPU in 4-5 s of wall
// time per fault), so eight at once overlap those waits on two cores.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "8")
	}
	os.Exit(m.Run())
}
