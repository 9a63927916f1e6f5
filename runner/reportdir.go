package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// lockName is the file a run holds in its report directory while it runs.
const lockName = ".nipcl-conform.lock"

// ClaimReportDir makes sure a run can write its reports before any case
// runs, and that no other run writes into the same directory meanwhile:
// it creates dir, takes its lock file (which also proves the directory
// writable) and checks that the JUnit file's directory is writable too.
// A directory another live nipcl-conform process holds is refused; one a
// finished run left its reports in is reused, and note says whose
// reports will be replaced ("" when none). release (never nil) removes
// the lock. A process may claim a directory it already holds.
func ClaimReportDir(dir, junitPath string) (release func(), note string, err error) {
	release = func() {}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return release, "", fmt.Errorf("report directory %s: cannot create it: %w", dir, err)
	}
	lock := filepath.Join(dir, lockName)
	for attempt := 0; ; attempt++ {
		f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := fmt.Fprintf(f, "%d %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339))
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				_ = os.Remove(lock)
				return release, "", fmt.Errorf("report directory %s is not writable: %w", dir, werr)
			}
			release = func() { _ = os.Remove(lock) }
			break
		}
		if !errors.Is(err, fs.ErrExist) || attempt > 0 {
			return release, "", fmt.Errorf("report directory %s is not writable: %w", dir, err)
		}
		pid, since := readLock(lock)
		if pid == os.Getpid() {
			// This process holds it (the CLI claims it before it starts
			// the relays, then runs): already checked and said.
			return release, "", nil
		}
		if pid > 0 && alive(pid) {
			return release, "", fmt.Errorf("report directory %s is in use by another nipcl-conform run (pid %d, since %s): pass another --report-dir, or wait for it to end", dir, pid, since)
		}
		_ = os.Remove(lock) // left by a run that died
	}
	if junitPath != "" {
		if err := checkWritable(filepath.Dir(junitPath)); err != nil {
			release()
			return func() {}, "", fmt.Errorf("--junit %s: %w", junitPath, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "results.json")); err == nil {
		var prev struct {
			RunID    string    `json:"run_id"`
			Finished time.Time `json:"finished"`
		}
		if json.Unmarshal(b, &prev) == nil && prev.RunID != "" {
			note = fmt.Sprintf("replacing the reports of run %s (finished %s) in %s", prev.RunID, prev.Finished.Format("2006-01-02 15:04:05 MST"), dir)
		}
	}
	return release, note, nil
}

// readLock reads a lock file's process ID and start time.
func readLock(path string) (pid int, since string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, ""
	}
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return 0, ""
	}
	pid, _ = strconv.Atoi(fields[0])
	if len(fields) > 1 {
		since = fields[1]
	}
	return pid, since
}

// alive reports whether a process with this ID runs.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Signal(syscall.Signal(0)) == nil
}

// checkWritable creates the directory and a file in it, then removes the
// file.
func checkWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".nipcl-conform-write-*")
	if err != nil {
		return fmt.Errorf("%s is not writable: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
