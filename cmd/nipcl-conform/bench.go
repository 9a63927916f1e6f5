package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/bench"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/internal/trust"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// cmdBench measures mutation throughput and latencies against the built-in
// reference relay and any --target, one column per target.
func cmdBench(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench", "bench [flags]", stderr)
	var targets, headers, commandTags, caCerts listFlag
	fs.Var(&caCerts, "ca-cert", "FILE: also trust the CA certificate(s) in this PEM file for wss:// targets (repeatable; a private CA or a self-signed certificate); the system roots, or SSL_CERT_FILE / SSL_CERT_DIR, stay trusted")
	fs.Var(&targets, "target", "[NAME=]URL of a relay to measure (repeatable); measured after the reference relay unless --no-reference")
	fs.Var(&headers, "header", "'Name: value': an HTTP header sent on the NIP-11 request and every WebSocket upgrade (repeatable; a proxy's credentials)")
	fs.Var(&commandTags, "command-tag", "K=V: a tag [\"K\",\"V\"] added to every group command (kinds 9000-9022) the bench signs, for a deployment that requires tags of its own (repeatable; outside NIP-29 and NIP-CL)")
	var (
		noRef       = fs.Bool("no-reference", false, "do not measure the built-in reference relay")
		profile     = fs.String("profile", "auto", "profile of the --target relays: nip29 (9002 metadata edits), identity, labels, or auto (detect as `run` does)")
		refProfiles = fs.String("reference-profile", "", "comma-separated profiles of the reference relay to measure (default: --profile when it names one, else labels)")
		db          = fs.String("db", "", "SQLite file for the built-in reference relay: a path, \"temp\" (a fresh temporary file per profile), \"both\" (each profile twice: in-memory, then a temporary file), or empty for in-memory")
		channels    = fs.Int("channels", 8, "channels created per target")
		concurrency = fs.Int("concurrency", 4, "connections sending mutations concurrently, each on its own channels (at most --channels)")
		duration    = fs.Duration("duration", 10*time.Second, "measured window per target")
		timeout     = fs.Duration("timeout", 10*time.Second, "deadline for each network step")
		safe        = fs.Bool("safe", false, "safe mode for live relays: pace writes (--rate) and delete every channel the run creates")
		rate        = fs.Float64("rate", 0, "writes per second per target (default unlimited; 5 in --safe mode)")
		runID       = fs.String("run-id", "", "run identifier (names the channels and the label the run creates); default random")
		format      = fs.String("format", "markdown", "result on stdout: markdown or json")
		out         = fs.String("out", "", "also write the result to this file (.json: JSON, else Markdown)")
	)
	if code, done := parse(fs, args); done {
		return code
	}
	if *channels < 1 || *concurrency < 1 {
		return usageError(stderr, "--channels and --concurrency must be at least 1")
	}
	if *duration <= 0 || *timeout <= 0 {
		return usageError(stderr, "--duration and --timeout must be positive durations")
	}
	if *rate < 0 {
		return usageError(stderr, "--rate must not be negative")
	}
	if *safe && *rate == 0 {
		*rate = 5
	}
	if *format != "markdown" && *format != "json" {
		return usageError(stderr, "--format must be markdown or json, not %q", *format)
	}
	header, err := fixtures.ParseHeaders(headers)
	if err != nil {
		return usageError(stderr, "--header: %v", err)
	}
	if err := trust.Install(caCerts); err != nil {
		return usageError(stderr, "%v", err)
	}
	cmdTags, err := fixtures.ParseCommandTags(commandTags)
	if err != nil {
		return usageError(stderr, "--command-tag: %v", err)
	}
	if *runID == "" {
		*runID = runner.NewRunID()
	} else if !runner.ValidRunID(*runID) {
		return usageError(stderr, "--run-id %q: want 1-16 lowercase letters, digits or '-' (it becomes part of every label the run creates)", *runID)
	}
	if *profile != "auto" {
		p, err := framework.ParseProfile(*profile)
		if err != nil {
			return usageError(stderr, "--profile: %v (or auto)", err)
		}
		*profile = p
	}
	type urlTarget struct{ name, url string }
	var urls []urlTarget
	names := map[string]bool{}
	for i, t := range targets {
		name, u, named := strings.Cut(t, "=")
		if !named || strings.Contains(name, "://") {
			name, u = fmt.Sprintf("target%d", i+1), t
			if len(targets) == 1 {
				name = "target"
			}
		}
		pu, err := url.Parse(u)
		if err != nil || (pu.Scheme != "ws" && pu.Scheme != "wss") || pu.Host == "" {
			return usageError(stderr, "--target must be [NAME=]ws://… or wss://…, got %q", t)
		}
		if names[name] {
			return usageError(stderr, "--target name %q given twice", name)
		}
		names[name] = true
		urls = append(urls, urlTarget{name, u})
	}
	var refs []string
	if !*noRef {
		list := *refProfiles
		if list == "" {
			list = framework.ProfileLabels
			if *profile != "auto" {
				list = *profile
			}
		}
		for _, p := range strings.Split(list, ",") {
			pp, err := framework.ParseProfile(strings.TrimSpace(p))
			if err != nil {
				return usageError(stderr, "--reference-profile: %v", err)
			}
			refs = append(refs, pp)
		}
	} else if *refProfiles != "" || *db != "" {
		return usageError(stderr, "--reference-profile and --db apply to the built-in reference relay, which --no-reference leaves out")
	}
	if len(refs) == 0 && len(urls) == 0 {
		return usageError(stderr, "nothing to measure: give a --target or leave out --no-reference")
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := bench.Options{Channels: *channels, Concurrency: *concurrency, Duration: *duration, StepTimeout: *timeout,
		RunID: *runID, Safe: *safe, Rate: *rate, Header: header, CommandTags: cmdTags}
	if isTerminal(stderr) {
		opts.Progress = progressBar(stderr)
	}
	rep := &bench.Report{RunID: *runID, Channels: *channels, Concurrency: min(*concurrency, *channels), Duration: duration.String(),
		Safe: *safe, Rate: *rate}
	failed := func(err error) {
		var be *bench.Error
		if !errors.As(err, &be) {
			err = &bench.Error{Target: "bench", Kind: bench.Failed, Detail: err.Error(), Err: err}
		}
		rep.Errors = append(rep.Errors, err.Error())
		fmt.Fprintf(stderr, "nipcl-conform bench: %v\n", err)
	}
	measure := func(t bench.Target) {
		res, err := bench.Run(ctx, t, opts)
		if err != nil {
			failed(err)
			return
		}
		rep.Results = append(rep.Results, res)
	}

	dbs := []string{*db}
	if *db == "both" {
		dbs = []string{"", "temp"}
	}
	for _, p := range refs {
		for _, d := range dbs {
			measureReference(ctx, p, d, len(dbs) > 1, *timeout, measure, failed)
		}
	}
	for _, u := range urls {
		t := bench.Target{Name: u.name, URL: u.url, Profile: *profile}
		if t.Profile == "auto" {
			p, note, err := detectBenchProfile(ctx, u.name, u.url, *timeout, *runID, header, cmdTags)
			if err != nil {
				failed(err)
				continue
			}
			t.Profile, t.Note = p, note
		}
		measure(t)
	}
	if opts.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}

	if len(rep.Results) > 0 {
		var err error
		if *format == "json" {
			err = rep.JSON(stdout)
		} else {
			err = rep.Markdown(stdout)
		}
		if err != nil {
			fmt.Fprintf(stderr, "nipcl-conform bench: %v\n", err)
			return 2
		}
	}
	if *out != "" {
		if err := writeBenchReport(*out, rep); err != nil {
			fmt.Fprintf(stderr, "nipcl-conform bench: %v\n", err)
			return 2
		}
	}
	if len(rep.Errors) > 0 {
		return 2
	}
	return 0
}

// measureReference starts the built-in reference relay of profile p on
// database db ("" in-memory, "temp" a fresh temporary file, else a path),
// measures it and stops it. named adds the database kind to the column name.
func measureReference(ctx context.Context, p, db string, named bool, timeout time.Duration, measure func(bench.Target), failed func(error)) {
	cfg := reference.Config{Profile: p, DBPath: db}
	kind, note := "memory", "in-process, in-memory SQLite"
	if db == "temp" {
		dir, err := os.MkdirTemp("", "nipcl-bench-")
		if err != nil {
			failed(fmt.Errorf("temporary database: %w", err))
			return
		}
		defer os.RemoveAll(dir)
		cfg.DBPath = filepath.Join(dir, "bench.db")
	}
	if cfg.DBPath != "" {
		kind, note = "file", "in-process, SQLite file (WAL, durable)"
	}
	rt := &runner.ReferenceTarget{Config: cfg}
	name := rt.String()
	if named {
		name += " " + kind
	}
	ep, err := rt.Start(ctx)
	if err != nil {
		failed(&bench.Error{Target: name, Kind: bench.Failed, Detail: err.Error(), Err: err})
		return
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), timeout)
		_ = rt.Stop(sctx)
		cancel()
	}()
	measure(bench.Target{Name: name, URL: ep.URL, Profile: p, Note: note})
}

// detectBenchProfile picks the profile of a URL target as `run --profile
// auto` does: nip29 unless its NIP-11 document advertises nip-cl, then the
// NIP-CL line its behaviour matches.
func detectBenchProfile(ctx context.Context, name, u string, step time.Duration, runID string, header http.Header, cmdTags nostr.Tags) (string, string, error) {
	c, err := fixtures.Dial(ctx, u, fixtures.DialOptions{StepTimeout: step, Header: header})
	if err != nil {
		kind := bench.Failed
		if errors.Is(err, fixtures.ErrUnreachable) {
			kind = bench.Unreachable
		}
		return "", "", &bench.Error{Target: name, Kind: kind, Detail: "connect: " + err.Error(), Err: err}
	}
	c.Close()
	ictx, cancel := context.WithTimeout(ctx, step)
	info, err := fixtures.FetchInfoWith(ictx, u, "", header)
	cancel()
	if err != nil {
		return framework.ProfileNIP29, "no NIP-11 document (" + err.Error() + "): measured as nip29", nil
	}
	if !info.HasExtension("nip-cl") {
		return framework.ProfileNIP29, "NIP-11 does not advertise nip-cl: measured as nip29", nil
	}
	detector := fixtures.NewActor("detector")
	detector.CommandTags = cmdTags
	d, err := runner.DetectProfile(ctx, u, false, step, detector, runID, "", header, nil)
	if err != nil {
		return "", "", &bench.Error{Target: name, Kind: bench.Failed, Detail: err.Error(), Err: err}
	}
	if d.Profile == "" {
		return "", "", &bench.Error{Target: name, Kind: bench.Failed, Detail: "advertises nip-cl but matches neither draft: " + d.Detail + " (pass --profile)"}
	}
	return d.Profile, "profile detected: " + d.Detail, nil
}

// writeBenchReport writes rep to path: JSON for a .json name, else Markdown.
func writeBenchReport(path string, rep *bench.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write bench report: %w", err)
	}
	if strings.HasSuffix(path, ".json") {
		err = rep.JSON(f)
	} else {
		err = rep.Markdown(f)
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("write bench report: %w", cerr)
	}
	return err
}

// progressBar draws one line per target on a terminal.
func progressBar(w io.Writer) func(string, float64) {
	return func(target string, done float64) {
		const width = 30
		n := int(done * width)
		fmt.Fprintf(w, "\r\033[K%-24s [%s%s] %3.0f%%", target, strings.Repeat("#", n), strings.Repeat("-", width-n), done*100)
	}
}
