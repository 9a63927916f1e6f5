package runner

// Container tests. They need a Docker engine; without one they skip with a
// one-line reason, unless NIPCL_REQUIRE_DOCKER=1 (CI), when they fail.
//
// Images: NIPCL_REFERENCE_IMAGE and NIPCL_HARNESS_IMAGE name prebuilt images
// (.ci/run builds them once with scripts/build-images.sh); when unset the
// tests build them from reference/Dockerfile and the root Dockerfile with a
// freshly built static binary staged into a temporary context (tags
// nipcl-reference:go-test and nipcl-conform:go-test).
//
// All containers run with host networking on free loopback ports.

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/exec"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/internal/text"
	"github.com/nipcl/nipcl-conform/reports"
)

var (
	dockerOnce sync.Once
	dockerErr  error
)

// requireDocker skips (or, with NIPCL_REQUIRE_DOCKER=1, fails) the test when
// no Docker engine is reachable.
func requireDocker(t *testing.T) {
	t.Helper()
	dockerOnce.Do(func() {
		// The reaper (ryuk) is an image pulled from a registry; these tests
		// remove their containers themselves.
		if os.Getenv("TESTCONTAINERS_RYUK_DISABLED") == "" {
			_ = os.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		dockerErr = DockerAvailable(ctx)
	})
	if dockerErr == nil {
		return
	}
	if os.Getenv("NIPCL_REQUIRE_DOCKER") == "1" {
		t.Fatalf("NIPCL_REQUIRE_DOCKER=1: %v", dockerErr)
	}
	t.Skip(dockerErr.Error())
}

type builtImage struct {
	once sync.Once
	tag  string
	err  error
}

var refImage, harnessImage builtImage

// image returns the tag from env, or builds dockerfileDir (relative to the
// module root) once per test binary.
func (b *builtImage) image(t *testing.T, env, dockerfileDir, tag string) string {
	t.Helper()
	requireDocker(t)
	b.once.Do(func() {
		if v := os.Getenv(env); v != "" {
			b.tag = v
			return
		}
		root, err := filepath.Abs("..")
		if err != nil {
			b.err = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		began := time.Now()
		b.err = BuildCLIImage(ctx, root, filepath.Join(root, dockerfileDir), tag, nil)
		b.tag = tag
		t.Logf("built %s in %s (set %s to reuse a prebuilt image)", tag, time.Since(began).Round(time.Millisecond), env)
	})
	if b.err != nil {
		t.Fatalf("image for %s: %v", env, b.err)
	}
	return b.tag
}

func referenceImage(t *testing.T) string {
	return refImage.image(t, "NIPCL_REFERENCE_IMAGE", "reference", "nipcl-reference:go-test")
}

func harnessImageTag(t *testing.T) string {
	return harnessImage.image(t, "NIPCL_HARNESS_IMAGE", ".", "nipcl-conform:go-test")
}

// labelled returns the IDs of all containers (any state) labelled with runID.
func labelled(t *testing.T, runID string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		t.Fatalf("docker client: %v", err)
	}
	defer cli.Close()
	list, err := cli.ContainerList(ctx, client.ContainerListOptions{
		All:     true,
		Filters: make(client.Filters).Add("label", LabelRun+"="+runID),
	})
	if err != nil {
		t.Fatalf("list containers: %v", err)
	}
	var ids []string
	for _, c := range list.Items {
		ids = append(ids, shortID(c.ID)+" ("+string(c.State)+")")
	}
	return ids
}

func assertRemoved(t *testing.T, runID string) {
	t.Helper()
	if ids := labelled(t, runID); len(ids) > 0 {
		t.Errorf("containers labelled %s=%s still exist: %v", LabelRun, runID, ids)
	}
}

func TestContainerReferenceProfiles(t *testing.T) {
	t.Parallel() // a container engine's waits (image builds are once per binary, ports picked free)
	img := referenceImage(t)
	cases := []struct {
		profile string
		env     map[string]string // profile given through env …
		cmd     []string          // … or a flag
		nipCL   bool
	}{
		{"identity", map[string]string{"NIPCL_PROFILE": "identity"}, nil, true},
		{"labels", map[string]string{"NIPCL_PROFILE": "labels"}, nil, true},
		{"none", nil, []string{"--profile", "none"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.profile, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			ct := &ContainerTarget{
				Image: img, Env: tc.env, Cmd: tc.cmd, Network: "host",
				RunID: "test-" + NewRunID(), Logf: t.Logf,
			}
			began := time.Now()
			ep, err := ct.Start(ctx)
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			t.Logf("%s ready at %s in %s", ct, ep.URL, time.Since(began).Round(time.Millisecond))
			defer func() {
				if err := ct.Stop(ctx); err != nil {
					t.Errorf("Stop: %v", err)
				}
				assertRemoved(t, ct.RunID)
			}()
			if !strings.HasPrefix(ep.URL, "ws://127.0.0.1:") {
				t.Errorf("URL %q is not a loopback ws:// URL", ep.URL)
			}
			info, err := fixtures.FetchInfo(ctx, ep.URL, "")
			if err != nil {
				t.Fatalf("NIP-11: %v\nlogs:\n%s", err, ct.Logs(ctx))
			}
			if got := info.HasExtension("nip-cl"); got != tc.nipCL {
				t.Errorf("supported_extensions = %v: contains nip-cl = %v, want %v", info.SupportedExtensions, got, tc.nipCL)
			}
			if !text.IsHex64(info.Self) {
				t.Errorf("self = %q, want 64 lowercase hex", info.Self)
			}
		})
	}
}

func TestContainerStopRemovesContainer(t *testing.T) {
	t.Parallel() // a container engine's waits (image builds are once per binary, ports picked free)
	img := referenceImage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ct := &ContainerTarget{Image: img, Network: "host", RunID: "test-" + NewRunID(), Logf: t.Logf}
	if _, err := ct.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if ids := labelled(t, ct.RunID); len(ids) != 1 {
		t.Fatalf("want 1 labelled container while running, got %v", ids)
	}
	if ct.ContainerID() == "" {
		t.Error("ContainerID empty while running")
	}
	if logs := ct.Logs(ctx); !strings.Contains(logs, "listening on") {
		t.Errorf("Logs while running = %q, want the serve banner", logs)
	}
	if err := ct.Stop(ctx); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	assertRemoved(t, ct.RunID)
	if err := ct.Stop(ctx); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	if logs := ct.Logs(ctx); !strings.Contains(logs, "listening on") {
		t.Errorf("Logs after Stop = %q, want the output captured before removal", logs)
	}
}

func TestContainerFromDockerfile(t *testing.T) {
	t.Parallel() // a container engine's waits (image builds are once per binary, ports picked free)
	requireDocker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), BinaryName)
	began := time.Now()
	if err := BuildStaticCLI(ctx, "..", bin); err != nil {
		t.Fatal(err)
	}
	if static, err := IsStaticELF(bin); err != nil || !static {
		t.Fatalf("IsStaticELF(%s) = %v, %v; want a static binary", bin, static, err)
	}
	t.Logf("static binary built in %s", time.Since(began).Round(time.Millisecond))
	ct := &ContainerTarget{
		Dockerfile: filepath.Join("..", "reference"), StageFiles: map[string]string{BinaryName: bin},
		Network: "host", RunID: "test-" + NewRunID(), Logf: t.Logf,
		Env: map[string]string{"NIPCL_PROFILE": "identity"},
	}
	began = time.Now()
	ep, err := ct.Start(ctx)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Logf("built and started %s in %s", ct, time.Since(began).Round(time.Millisecond))
	ref := builtRepo + ":" + ct.RunID
	if _, err := fixtures.FetchInfo(ctx, ep.URL, ""); err != nil {
		t.Errorf("NIP-11: %v", err)
	}
	if err := ct.Stop(ctx); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	assertRemoved(t, ct.RunID)
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	if _, err := cli.ImageInspect(ctx, ref); err == nil {
		t.Errorf("built image %s still exists after Stop", ref)
	}
}

func TestContainerFailedStartCleansUp(t *testing.T) {
	t.Parallel() // a container engine's waits (image builds are once per binary, ports picked free)
	t.Run("entrypoint exits", func(t *testing.T) {
		// The harness image's entrypoint prints help and exits at once.
		img := harnessImageTag(t)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		ct := &ContainerTarget{Image: img, Cmd: []string{"--help"}, Network: "host", RunID: "test-" + NewRunID(), Logf: t.Logf}
		_, err := ct.Start(ctx)
		if err == nil {
			_ = ct.Stop(ctx)
			t.Fatal("Start succeeded for an image that exits")
		}
		t.Logf("Start error: %v", err)
		if !strings.Contains(err.Error(), "exited with code") {
			t.Errorf("error %q does not say the container exited", err)
		}
		assertRemoved(t, ct.RunID)
		if err := ct.Stop(ctx); err != nil {
			t.Errorf("Stop after failed Start: %v", err)
		}
	})
	t.Run("wait timeout", func(t *testing.T) {
		// The relay listens on another port than the one waited on.
		img := referenceImage(t)
		other, err := FreeLoopbackPort()
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		ct := &ContainerTarget{
			Image: img, Network: "host", RunID: "test-" + NewRunID(), Logf: t.Logf,
			Env:          map[string]string{"NIPCL_ADDR": "127.0.0.1:" + strconv.Itoa(other)},
			StartTimeout: 2 * time.Second,
		}
		began := time.Now()
		_, err = ct.Start(ctx)
		if err == nil {
			_ = ct.Stop(ctx)
			t.Fatal("Start succeeded although the relay never served on the waited port")
		}
		t.Logf("Start error after %s: %v", time.Since(began).Round(time.Millisecond), err)
		if !strings.Contains(err.Error(), "did not serve a NIP-11 document on http://127.0.0.1:") ||
			!strings.Contains(err.Error(), "within 2s") {
			t.Errorf("error %q lacks the timeout message", err)
		}
		if d := time.Since(began); d > 30*time.Second {
			t.Errorf("Start took %s with a 2s start timeout", d)
		}
		assertRemoved(t, ct.RunID)
		if logs := ct.Logs(ctx); !strings.Contains(logs, "listening on") {
			t.Errorf("Logs after failed Start = %q, want the captured output", logs)
		}
	})
	t.Run("stop during start", func(t *testing.T) {
		// What a Ctrl-C handler does: Stop while Start waits.
		img := referenceImage(t)
		other, err := FreeLoopbackPort()
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		ct := &ContainerTarget{
			Image: img, Network: "host", RunID: "test-" + NewRunID(), Logf: t.Logf,
			Env: map[string]string{"NIPCL_ADDR": "127.0.0.1:" + strconv.Itoa(other)},
		}
		errc := make(chan error, 1)
		go func() {
			_, err := ct.Start(ctx)
			errc <- err
		}()
		// Stop once the container exists (bounded poll).
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		limit := time.After(30 * time.Second)
	poll:
		for len(labelled(t, ct.RunID)) == 0 {
			select {
			case <-tick.C:
			case <-limit:
				break poll
			}
		}
		began := time.Now()
		if err := ct.Stop(ctx); err != nil {
			t.Errorf("Stop: %v", err)
		}
		select {
		case err := <-errc:
			if err == nil {
				t.Error("Start succeeded although Stop was called")
			} else if !errors.Is(err, context.Canceled) {
				t.Logf("Start error: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("Start did not return after Stop")
		}
		t.Logf("Stop during Start took %s", time.Since(began).Round(time.Millisecond))
		assertRemoved(t, ct.RunID)
	})
}

func TestHarnessImageHelp(t *testing.T) {
	img := harnessImageTag(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code, out, err := RunImage(ctx, img, []string{"--help"}, nil, 30*time.Second)
	if err != nil {
		t.Fatalf("RunImage: %v", err)
	}
	if code != 0 {
		t.Fatalf("%s --help exited %d; output:\n%s", img, code, out)
	}
	if !strings.Contains(out, "run") || !strings.Contains(out, "serve") {
		t.Errorf("%s --help output does not mention run and serve:\n%s", img, out)
	}
}

// TestReferenceImageFullSuite runs every suite, in one Run (Ginkgo allows
// one per process), against the reference relay image started through
// Testcontainers once per profile: every case must pass and the containers
// must be gone afterwards.
func TestReferenceImageFullSuite(t *testing.T) {
	t.Parallel() // a container engine's waits (image builds are once per binary, ports picked free)
	img := referenceImage(t)
	runID := "fullsuite-" + NewRunID()
	var plans []Plan
	for _, profile := range []string{"identity", "labels"} {
		ct := &ContainerTarget{Image: img, Network: "host", RunID: runID, AliasHost: true, Env: map[string]string{"NIPCL_PROFILE": profile}}
		plans = append(plans, Plan{Name: profile, Target: ct, Profile: profile})
	}
	res, err := Run(context.Background(), Options{Plans: plans, ReportDir: t.TempDir(), StepTimeout: 10 * time.Second, Deadline: 5 * time.Minute})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	perPlan := map[string]int{}
	for _, c := range res.Cases {
		perPlan[c.Plan]++
		switch {
		case c.Outcome == reports.Pass:
		case c.Outcome == reports.Skipped && strings.Contains(c.Message, "slow case"): // needs --slow
		case c.Outcome == reports.Unsupported && c.ID == "identity/leave/6": // NIP-50: the reference relay does not advertise search
		case c.Outcome == reports.Unsupported && c.ID == "base/state/8": // NIP-29 39004 (MAY): the reference relay publishes none
		case c.Outcome == reports.Unsupported && c.ID == "base/group-ids/1" && c.Plan == "labels": // the labels draft requires UUID ids
		default:
			t.Errorf("%s %s: %s: %s", c.Plan, c.ID, c.Outcome, c.Message)
		}
	}
	for _, p := range res.Plans {
		if p.SetupError != "" {
			t.Errorf("plan %s: setup: %s", p.Name, p.SetupError)
		}
		if perPlan[p.Name] == 0 {
			t.Errorf("plan %s ran no case", p.Name)
		}
	}
	t.Logf("%d cases against the reference image (%v) in %s", len(res.Cases), perPlan, res.Finished.Sub(res.Started).Round(time.Millisecond))
	assertRemoved(t, runID)
}

// --- tests that need no engine ---

// fakeTarget is a running container for the wait strategy.
type fakeTarget struct {
	wait.StrategyTarget
	exited bool
}

func (f fakeTarget) State(context.Context) (*container.State, error) {
	if f.exited {
		return &container.State{Status: container.StateExited, ExitCode: 3}, nil
	}
	return &container.State{Status: container.StateRunning, Running: true}, nil
}

func (f fakeTarget) Host(context.Context) (string, error) { return "127.0.0.1", nil }

func (f fakeTarget) MappedPort(context.Context, string) (network.Port, error) {
	return network.Port{}, errors.New("no mapping")
}

func (f fakeTarget) Exec(context.Context, []string, ...exec.ProcessOption) (int, io.Reader, error) {
	return 0, nil, errors.New("not supported")
}

func TestNIP11WaitTimeoutMessage(t *testing.T) {
	port, err := FreeLoopbackPort() // nothing listens there
	if err != nil {
		t.Fatal(err)
	}
	w := &nip11Wait{host: true, port: port, path: "/", timeout: 500 * time.Millisecond, interval: 50 * time.Millisecond}
	err = w.WaitUntilReady(context.Background(), fakeTarget{})
	want := "relay container did not serve a NIP-11 document on http://127.0.0.1:" + strconv.Itoa(port) + "/ within"
	if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, errNIP11Timeout) {
		t.Fatalf("err = %v, want it to contain %q", err, want)
	}
	w = &nip11Wait{host: true, port: port, path: "/", timeout: 5 * time.Second, interval: 50 * time.Millisecond}
	err = w.WaitUntilReady(context.Background(), fakeTarget{exited: true})
	if err == nil || !strings.Contains(err.Error(), "exited with code 3") {
		t.Fatalf("exited container: err = %v", err)
	}
}

func TestTailWriterKeepsLast64KiB(t *testing.T) {
	var tw tailWriter
	line := strings.Repeat("x", 99) + "\n"
	for range 2000 { // 200 KB
		_, _ = io.WriteString(&tw, line)
	}
	_, _ = io.WriteString(&tw, "last line\n")
	s := tw.String()
	if len(s) > maxLogBytes+64 {
		t.Errorf("tail is %d bytes", len(s))
	}
	if !strings.HasPrefix(s, "[… earlier output truncated …]\n") || !strings.HasSuffix(s, "last line\n") {
		t.Errorf("tail = %q…%q", s[:40], s[len(s)-20:])
	}
}

func TestStageContext(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("FROM scratch\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.WriteFile(bin, []byte("binary"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, cleanup, err := stageContext(dir, map[string]string{BinaryName: bin})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Dockerfile", BinaryName} {
		if _, err := os.Stat(filepath.Join(got, name)); err != nil {
			t.Errorf("staged context lacks %s: %v", name, err)
		}
	}
	if fi, err := os.Stat(filepath.Join(got, BinaryName)); err == nil && fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("staged binary not executable: %v", fi.Mode())
	}
	cleanup()
	if _, err := os.Stat(got); !os.IsNotExist(err) {
		t.Errorf("cleanup left %s", got)
	}
	if _, _, err := stageContext(t.TempDir(), nil); err == nil {
		t.Error("stageContext accepted a directory without Dockerfile")
	}
}
