package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// actionStep returns the bash script of the action.yml step named name:
// the lines of its `run: |` block, unindented.
func actionStep(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	in, indent := false, ""
	var out []string
	for _, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch {
		case trimmed == "- name: "+name:
			in = true
		case in && indent == "" && trimmed == "run: |":
			indent = "?"
		case indent == "?":
			indent = l[:len(l)-len(strings.TrimLeft(l, " "))]
			out = append(out, strings.TrimPrefix(l, indent))
		case indent != "" && (strings.HasPrefix(l, indent) || trimmed == ""):
			out = append(out, strings.TrimPrefix(l, indent))
		case indent != "":
			return strings.Join(out, "\n")
		}
	}
	if len(out) == 0 {
		t.Fatalf("action.yml has no step %q with a run block", name)
	}
	return strings.Join(out, "\n")
}

// stub writes an executable that records its arguments, one per line, to
// $STUB_ARGS and exits with $STUB_CODE (writing summary.md when asked).
func stub(t *testing.T, dir, name string) {
	t.Helper()
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$STUB_ARGS\"\n" +
		"if [ -n \"$NIPCL_IN_REPORT_DIR\" ]; then mkdir -p \"$NIPCL_IN_REPORT_DIR\" && echo '## nipcl-conform: stub' > \"$NIPCL_IN_REPORT_DIR/summary.md\"; fi\n" +
		"exit ${STUB_CODE:-0}\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// runStep runs an action step's script as GitHub does (bash -e -o
// pipefail) with env, a stub for name on PATH; it returns the exit code,
// the stub's arguments and the step's outputs file.
func runStep(t *testing.T, step, name string, env map[string]string) (code int, args []string, outputs, summary string) {
	t.Helper()
	dir := t.TempDir()
	stub(t, dir, name)
	work := t.TempDir()
	files := map[string]string{"STUB_ARGS": "args", "GITHUB_OUTPUT": "output", "GITHUB_STEP_SUMMARY": "summary", "GITHUB_PATH": "path"}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", actionStep(t, step))
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"), "RUNNER_TEMP="+t.TempDir())
	for k, f := range files {
		cmd.Env = append(cmd.Env, k+"="+filepath.Join(work, f))
	}
	// GitHub sets every input's variable, empty when not given.
	for _, k := range []string{"TARGET", "IMAGE", "DOCKERFILE", "NETWORK", "PROFILE", "ARGS", "HEADERS", "LABEL_FILTER", "CA_CERT", "REPORT_DIR"} {
		if _, ok := env["NIPCL_IN_"+k]; !ok {
			cmd.Env = append(cmd.Env, "NIPCL_IN_"+k+"=")
		}
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	read := func(f string) string { b, _ := os.ReadFile(filepath.Join(work, f)); return string(b) }
	if a := read("args"); a != "" {
		args = strings.Split(strings.TrimSuffix(a, "\n"), "\n")
	}
	t.Logf("step output:\n%s", out)
	return code, args, read("output"), read("summary")
}

// pairs reports whether args holds flag followed by value.
func pairs(args []string, flag, value string) bool {
	for i := 0; i+1 < len(args); i++ {
		if args[i] == flag && args[i+1] == value {
			return true
		}
	}
	return false
}

// TestActionRunStep runs the action's run step with a stub nipcl-conform:
// network honoured, headers and label filters with spaces carried whole,
// args split like a shell, the exit code passed on and the summary copied.
func TestActionRunStep(t *testing.T) {
	env := map[string]string{
		"NIPCL_IN_IMAGE": "relay:ci", "NIPCL_IN_NETWORK": "bridge", "NIPCL_IN_PROFILE": "labels",
		"NIPCL_IN_HEADERS":      "Authorization: Bearer a b\nX-Tenant: acme\n",
		"NIPCL_IN_LABEL_FILTER": "labels && MUST && !slow",
		"NIPCL_IN_ARGS":         `--focus labels/ --timeout 20s --skip 'labels/reads/*' --command-tag "x-tenant=a b"`,
		"NIPCL_IN_REPORT_DIR":   "reports", "STUB_CODE": "3",
	}
	code, args, outputs, summary := runStep(t, "Run conformance suite", "nipcl-conform", env)
	if code != 3 || !strings.Contains(outputs, "exit-code=3") {
		t.Errorf("exit %d, outputs %q: want the run's exit code 3 passed on", code, outputs)
	}
	for _, p := range [][2]string{
		{"--image", "relay:ci"}, {"--network", "bridge"}, {"--profile", "labels"}, {"--report-dir", "reports"},
		{"--header", "Authorization: Bearer a b"}, {"--header", "X-Tenant: acme"}, {"--label-filter", "labels && MUST && !slow"},
		{"--focus", "labels/"}, {"--timeout", "20s"}, {"--skip", "labels/reads/*"}, {"--command-tag", "x-tenant=a b"},
	} {
		if !pairs(args, p[0], p[1]) {
			t.Errorf("nipcl-conform was not given %s %q: %q", p[0], p[1], args)
		}
	}
	if !strings.Contains(summary, "## nipcl-conform: stub") {
		t.Errorf("job summary %q: want summary.md", summary)
	}

	env = map[string]string{"NIPCL_IN_TARGET": "ws://127.0.0.1:7447", "NIPCL_IN_PROFILE": "auto", "NIPCL_IN_REPORT_DIR": "r", "NIPCL_IN_ARGS": `--focus 'unclosed`}
	if code, args, _, _ := runStep(t, "Run conformance suite", "nipcl-conform", env); code != 2 || args != nil {
		t.Errorf("unmatched quote in args: exit %d, ran with %q; want exit 2 before running", code, args)
	}
}

// TestActionBuildStampsTheRef: the action's build step stamps the ref the
// workflow pinned as the harness version (and a commit ref as the commit).
func TestActionBuildStampsTheRef(t *testing.T) {
	_, args, _, _ := runStep(t, "Build nipcl-conform", "go", map[string]string{"NIPCL_ACTION_REF": "v9.8.7"})
	joined := strings.Join(args, " ")
	if !strings.Contains(joined, "-X github.com/nipcl/nipcl-conform/version.release=v9.8.7") {
		t.Errorf("go %s: want the version stamped", joined)
	}
	sha := strings.Repeat("ab", 20)
	_, args, _, _ = runStep(t, "Build nipcl-conform", "go", map[string]string{"NIPCL_ACTION_REF": sha})
	if !strings.Contains(strings.Join(args, " "), "version.commit="+sha) {
		t.Errorf("go %s: want the commit stamped", strings.Join(args, " "))
	}
}

// TestHelpNamesArguments: `help run` names each flag's argument as its
// text does (-shard i/N, -fault NAME), never by the first back-quoted
// words of the text (-shard report merge).
func TestHelpNamesArguments(t *testing.T) {
	_, stdout, stderr := runDispatch(t, "help", "run")
	out := stdout + stderr
	for _, want := range []string{"  -shard i/N\n", "  -fault NAME\n", "  -policy NAME\n", "  -header 'Name: value'\n", "  -ca-cert FILE\n", "  -timeout duration\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("help run lacks %q", strings.TrimSpace(want))
		}
	}
	for _, bad := range []string{"-shard report merge", "-fault nipcl-conform faults", "-reading nipcl-conform list"} {
		if strings.Contains(out, bad) {
			t.Errorf("help run shows %q", bad)
		}
	}
}
