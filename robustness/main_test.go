package robustness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/reports"
)

// bin is the nipcl-conform binary built once for this package: Ginkgo allows
// one RunSpecs per process, so every run is a subprocess.
var bin string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "nipcl-robustness-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin = filepath.Join(dir, "nipcl-conform")
	// go test puts its own go command first on PATH.
	build := exec.Command("go", "build", "-o", bin, "./cmd/nipcl-conform")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build nipcl-conform: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// runResult is one finished CLI run.
type runResult struct {
	code    int
	err     error
	took    time.Duration
	stdout  string
	stderr  string
	dir     string
	results *reports.Results
}

// readResults loads results.json and checks the other reports exist.
func readResults(t *testing.T, dir string) *reports.Results {
	t.Helper()
	for _, f := range []string{"junit.xml", "results.json", "summary.md"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("report %s missing or empty: %v", f, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatalf("results.json: %v", err)
	}
	var res reports.Results
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("results.json: %v", err)
	}
	return &res
}

// exitCode returns the process exit code, or an error when it did not exit
// normally (killed by the guard timeout, a signal …).
func exitCode(err error, guard context.Context) (int, error) {
	if guard.Err() != nil {
		return -1, fmt.Errorf("nipcl-conform did not end before the guard timeout: %v", err)
	}
	if err == nil {
		return 0, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.Exited() {
		return ee.ExitCode(), nil
	}
	return -1, fmt.Errorf("nipcl-conform: %w", err)
}
