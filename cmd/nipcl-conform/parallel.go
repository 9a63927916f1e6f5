package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
)

// parseShard parses "i/N" (1-based i) into a runner.Shard (0-based index).
func parseShard(s string) (runner.Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return runner.Shard{}, fmt.Errorf("--shard wants i/N with 1 <= i <= N, got %q", s)
	}
	return runner.Shard{Index: i - 1, Total: n}, nil
}

// childArgs rebuilds the flags the user set, minus the ones the parent
// owns (parallel, shard, report paths, run ID).
func childArgs(fs *flag.FlagSet) []string {
	skip := map[string]bool{"parallel": true, "shard": true, "report-dir": true, "junit": true, "run-id": true}
	var out []string
	fs.Visit(func(f *flag.Flag) {
		if skip[f.Name] {
			return
		}
		if l, ok := f.Value.(*listFlag); ok {
			for _, v := range *l {
				out = append(out, "--"+f.Name, v)
			}
			return
		}
		out = append(out, "--"+f.Name+"="+f.Value.String())
	})
	return out
}

// runParallel runs n shards of the same run as child processes of this
// executable, then merges their results into one set of reports in
// reportDir (the JUnit file at junitPath when set, as without --parallel).
// It returns the merged results.
func runParallel(ctx context.Context, fs *flag.FlagSet, n int, reportDir, junitPath, runID string, deadline time.Duration, stderr io.Writer) (*reports.Results, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--parallel: find own executable: %w", err)
	}
	base := childArgs(fs)
	ctx, cancel := context.WithTimeout(ctx, deadline+30*time.Second)
	defer cancel()
	parts := make([]*reports.Results, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			dir := filepath.Join(reportDir, fmt.Sprintf("shard-%d", i+1))
			args := append([]string{"run"}, base...)
			args = append(args, "--shard", fmt.Sprintf("%d/%d", i+1, n), "--report-dir", dir, "--run-id", runID)
			cmd := exec.CommandContext(ctx, exe, args...)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			runErr := cmd.Run()
			r, err := reports.ReadJSON(filepath.Join(dir, "results.json"))
			if err != nil {
				errs[i] = fmt.Errorf("shard %d/%d produced no results (%v): %s", i+1, n, runErr, strings.TrimSpace(out.String()))
				return
			}
			parts[i] = r
		}(i)
	}
	wg.Wait()
	var got []*reports.Results
	for i, p := range parts {
		if errs[i] != nil {
			fmt.Fprintf(stderr, "nipcl-conform: %v\n", errs[i])
			continue
		}
		got = append(got, p)
	}
	if len(got) != n {
		return nil, fmt.Errorf("--parallel: %d of %d shards failed", n-len(got), n)
	}
	merged, err := reports.Merge(got...)
	if err != nil {
		return nil, err
	}
	merged.Settings["parallel"] = strconv.Itoa(n)
	return merged, runner.WriteReports(reportDir, junitPath, merged)
}
