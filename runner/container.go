package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
	tclog "github.com/testcontainers/testcontainers-go/log"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/internal/text"
)

// Container defaults.
const (
	// DefaultContainerPort is the port the reference image listens on in
	// bridge mode ("7447/tcp").
	DefaultContainerPort = "7447/tcp"
	// DefaultPortEnv is the environment variable through which a container in
	// host-network mode is told where to listen, as "host:port".
	DefaultPortEnv = "NIPCL_ADDR"
	// DefaultStartTimeout bounds how long Start waits for the NIP-11 document.
	DefaultStartTimeout = 60 * time.Second
	// LabelRun is the container label carrying ContainerTarget.RunID; Stop
	// removes every container carrying its run ID.
	LabelRun = "nipcl-conform.run"
	// builtRepo is the repository of images built from ContainerTarget.Dockerfile.
	builtRepo = "nipcl-conform-target"
	// maxLogBytes bounds what Logs returns (the tail of the output).
	maxLogBytes = 64 << 10
	// stopGrace bounds a container's graceful stop before it is killed.
	stopGrace = 5 * time.Second
	// cleanupTimeout bounds the cleanup Start does after a failure, which must
	// run even when the caller's context is already done.
	cleanupTimeout = 30 * time.Second
)

// ContainerTarget runs the relay under test in a Docker container, through
// testcontainers-go. Either Image names an existing local image or
// Dockerfile names a build context directory holding a Dockerfile; a built
// image is removed again by Stop.
//
// In host-network mode (Network == "host", the mode used on machines whose
// engine runs without a bridge) the container shares the host's network
// stack: Start picks a free loopback port and tells the relay to listen on
// it through the environment variable PortEnv (default NIPCL_ADDR) with the
// value "127.0.0.1:PORT". Images under test must honour that variable, or
// take the address through Cmd: the placeholders {addr} ("127.0.0.1:PORT")
// and {port} ("PORT") are replaced in Cmd and Env values. In bridge mode
// (Network == "") the relay listens on ContainerPort inside the container
// and the URL uses the port the engine mapped it to.
//
// Start is ready when the relay serves its NIP-11 document (HTTP GET with
// "Accept: application/nostr+json" answered with 200 and a JSON object).
//
// The engine is found the way testcontainers-go finds it (DOCKER_HOST,
// docker contexts, ~/.testcontainers.properties). On machines that cannot
// pull images set TESTCONTAINERS_RYUK_DISABLED=true (the reaper is an image
// pulled from a registry; Stop removes the containers anyway), and where the
// engine's address is not the host's loopback set
// TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1.
//
// All methods are safe for concurrent use: a signal handler may call Stop
// while Start is still waiting, which makes Start give up and clean up.
type ContainerTarget struct {
	// Image is the image to run (must exist locally or be pullable).
	Image string
	// Dockerfile is a build context directory containing a Dockerfile; used
	// when Image is empty.
	Dockerfile string
	// StageFiles are copied into a temporary copy of the Dockerfile context
	// before building, keyed by their name in the context (host path as
	// value): e.g. {"nipcl-conform": "/tmp/static-binary"} for
	// reference/Dockerfile, which expects a prebuilt static binary.
	StageFiles map[string]string
	// Env is added to the container's environment ({addr} and {port}
	// placeholders are expanded).
	Env map[string]string
	// Cmd overrides the image's CMD (arguments after the ENTRYPOINT);
	// {addr} and {port} placeholders are expanded.
	Cmd []string
	// ContainerPort is the relay's port inside the container in bridge
	// mode; default "7447/tcp".
	ContainerPort string
	// Path is the URL path of the relay; default "/".
	Path string
	// Network is "host" for host networking, "" for the engine's default
	// (bridge) network with a mapped port.
	Network string
	// PortEnv is the variable telling the relay its listen address in host
	// mode; default "NIPCL_ADDR". Set it to "-" to set no variable (then
	// pass the address through Cmd with {addr} or {port}).
	PortEnv string
	// StartTimeout bounds the wait for the NIP-11 document; default 60s.
	StartTimeout time.Duration
	// RunID is set as label nipcl-conform.run on the container; Start
	// generates one when empty.
	RunID string
	// Labels are extra container labels.
	Labels map[string]string
	// AliasHost offers "localhost:PORT" as a second community of the relay
	// (for relays that, like the reference relay, resolve the community
	// from the Host name); the community-isolation cases need one.
	AliasHost bool
	// Logf receives progress messages (testcontainers' included); nil
	// discards them.
	Logf func(format string, args ...any)

	mu       sync.Mutex
	ctr      testcontainers.Container
	cancel   context.CancelFunc // cancels an in-flight Start
	starting chan struct{}      // closed when an in-flight Start returns
	endpoint Endpoint
	lastLogs string // logs captured before the container was removed
	clean    bool   // nothing of this target's is left in the engine
	builtRef string // image Start built from Dockerfile, removed by Stop
}

// Start implements Target. It builds the image when Dockerfile is set,
// creates and starts the container and waits until the relay serves its
// NIP-11 document. On any failure it removes whatever it created and
// reports the container's last log lines in the error.
func (t *ContainerTarget) Start(ctx context.Context) (Endpoint, error) {
	t.mu.Lock()
	if t.starting != nil {
		t.mu.Unlock()
		return Endpoint{}, errors.New("container target: Start already in progress")
	}
	if t.ctr != nil {
		ep := t.endpoint
		t.mu.Unlock()
		return ep, nil
	}
	if t.RunID == "" {
		t.RunID = NewRunID()
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	t.cancel, t.starting = cancel, done
	t.lastLogs, t.clean = "", false
	t.mu.Unlock()

	ep, ctr, err := t.start(ctx)

	t.mu.Lock()
	defer t.mu.Unlock()
	cancel()
	t.cancel, t.starting = nil, nil
	close(done)
	if err != nil {
		cctx, ccancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer ccancel()
		if ctr != nil {
			t.lastLogs = containerLogs(cctx, ctr)
			if tail := strings.TrimSpace(strings.Join(text.LastLines(t.lastLogs, 20), "\n")); tail != "" {
				err = fmt.Errorf("%w\ncontainer output (tail):\n%s", err, tail)
			}
		}
		if cerr := t.remove(cctx, ctr); cerr != nil {
			err = errors.Join(err, fmt.Errorf("clean up after failed start: %w", cerr))
		} else {
			t.clean = true
		}
		return Endpoint{}, err
	}
	t.ctr, t.endpoint = ctr, ep
	return ep, nil
}

// start does the work of Start; it returns the container (when one was
// created) even on error so that Start can remove it.
func (t *ContainerTarget) start(ctx context.Context) (Endpoint, testcontainers.Container, error) {
	if t.Image == "" && t.Dockerfile == "" {
		return Endpoint{}, nil, errors.New("container target: neither Image nor Dockerfile set")
	}
	host := t.Network == "host"
	port := 0
	if host {
		p, err := FreeLoopbackPort()
		if err != nil {
			return Endpoint{}, nil, err
		}
		port = p
	}
	expand := func(s string) string {
		if !host {
			return s
		}
		addr := "127.0.0.1:" + strconv.Itoa(port)
		return strings.NewReplacer("{addr}", addr, "{port}", strconv.Itoa(port)).Replace(s)
	}

	env := map[string]string{}
	if host && t.portEnv() != "-" {
		env[t.portEnv()] = "127.0.0.1:" + strconv.Itoa(port)
	}
	for k, v := range t.Env {
		env[k] = expand(v)
	}
	var cmd []string
	for _, a := range t.Cmd {
		cmd = append(cmd, expand(a))
	}
	labels := map[string]string{}
	for k, v := range t.Labels {
		labels[k] = v
	}
	labels[LabelRun] = t.RunID

	wt := &nip11Wait{
		host:     host,
		port:     port,
		ctrPort:  t.containerPort(),
		path:     t.path(),
		timeout:  t.startTimeout(),
		interval: 100 * time.Millisecond,
	}
	req := testcontainers.ContainerRequest{
		Image:      t.Image,
		Env:        env,
		Cmd:        cmd,
		Labels:     labels,
		WaitingFor: wt,
	}
	if host {
		req.HostConfigModifier = func(hc *container.HostConfig) {
			hc.NetworkMode = "host"
		}
		// Host networking excludes every other network attachment.
		req.EndpointSettingsModifier = func(m map[string]*network.EndpointSettings) {
			clear(m)
		}
	} else {
		req.ExposedPorts = []string{t.containerPort()}
	}
	if t.Image == "" {
		dir, cleanup, err := stageContext(t.Dockerfile, t.StageFiles)
		if err != nil {
			return Endpoint{}, nil, err
		}
		defer cleanup()
		tag := strings.ToLower(t.RunID)
		t.mu.Lock()
		t.builtRef = builtRepo + ":" + tag
		t.mu.Unlock()
		req.FromDockerfile = testcontainers.FromDockerfile{
			Context:        dir,
			Repo:           builtRepo,
			Tag:            tag,
			BuildLogWriter: logfWriter{t.logf},
			// KeepImage false: Terminate removes the built image.
		}
	}

	t.logf("starting container %s", t)
	began := time.Now()
	var ctr testcontainers.Container
	var err error
	if host {
		// A provider whose "default network" is the host network: the
		// generic path would otherwise create a bridge network
		// (reaper_default) on engines running without one (--bridge=none),
		// although a host-network container never uses it.
		var p *testcontainers.DockerProvider
		p, err = testcontainers.NewDockerProvider(
			testcontainers.WithLogger(logfLogger{t.logf}),
			testcontainers.WithDefaultBridgeNetwork("host"))
		if err != nil {
			return Endpoint{}, nil, fmt.Errorf("start %s: docker engine not reachable: %w", t, err)
		}
		defer p.Close()
		ctr, err = p.RunContainer(ctx, req)
	} else {
		ctr, err = testcontainers.GenericContainer(ctx, testcontainers.GenericContainerRequest{
			ContainerRequest: req,
			Started:          true,
			Logger:           logfLogger{t.logf},
		})
	}
	if err != nil {
		if wt.failure != nil {
			err = wt.failure // the readiness failure, without the hook chain
		} else if ctx.Err() != nil {
			err = fmt.Errorf("%w (%w)", err, context.Cause(ctx))
		}
		return Endpoint{}, ctr, fmt.Errorf("start %s: %w", t, err)
	}
	u := "ws://127.0.0.1:" + strconv.Itoa(wt.readyPort) + t.path()
	if !host {
		u = "ws://" + wt.readyHost + ":" + strconv.Itoa(wt.readyPort) + t.path()
	}
	t.logf("container %s ready at %s after %s", shortID(ctr.GetContainerID()), u, time.Since(began).Round(time.Millisecond))
	ep := Endpoint{URL: u}
	if t.AliasHost {
		if pu, err := url.Parse(u); err == nil && pu.Hostname() == "127.0.0.1" {
			ep.Hosts = []string{"localhost:" + pu.Port()}
		}
	}
	return ep, ctr, nil
}

// Stop implements Target. It stops and removes the container (and the image
// when Start built one), then removes any other container labelled with
// this target's run ID. A Start in progress is cancelled first. Stop is safe
// to call more than once and after a failed Start.
func (t *ContainerTarget) Stop(ctx context.Context) error {
	t.mu.Lock()
	if t.cancel != nil {
		t.cancel()
	}
	starting := t.starting
	t.mu.Unlock()
	if starting != nil {
		// Start removes what it created once it sees the cancellation.
		select {
		case <-starting:
		case <-ctx.Done():
			return fmt.Errorf("stop %s: waiting for start to give up: %w", t, ctx.Err())
		}
	}

	t.mu.Lock()
	defer t.mu.Unlock()
	ctr := t.ctr
	if ctr == nil && (t.clean || t.RunID == "") {
		return nil
	}
	if ctr != nil {
		t.lastLogs = containerLogs(ctx, ctr)
	}
	if err := t.remove(ctx, ctr); err != nil {
		return fmt.Errorf("stop %s: %w", t, err)
	}
	t.ctr, t.endpoint, t.clean = nil, Endpoint{}, true
	return nil
}

// remove terminates ctr (if any) and then force-removes every container
// still carrying this target's run label. Called with t.mu held.
func (t *ContainerTarget) remove(ctx context.Context, ctr testcontainers.Container) error {
	var errs []error
	if ctr != nil {
		if err := testcontainers.TerminateContainer(ctr, testcontainers.StopContext(ctx), testcontainers.StopTimeout(stopGrace)); err != nil {
			errs = append(errs, fmt.Errorf("terminate container %s: %w", shortID(ctr.GetContainerID()), err))
		}
	}
	if t.RunID != "" {
		if err := removeLabelled(ctx, LabelRun, t.RunID); err != nil {
			errs = append(errs, err)
		}
	}
	if t.builtRef != "" {
		// Terminate removes a built image; this covers a container that
		// was never created.
		if err := removeImage(ctx, t.builtRef); err != nil {
			errs = append(errs, err)
		} else {
			t.builtRef = ""
		}
	}
	return errors.Join(errs...)
}

// Logs implements Target: the last 64 KiB of the container's output. After
// Stop (or a failed Start) it returns the output captured just before the
// container was removed.
func (t *ContainerTarget) Logs(ctx context.Context) string {
	t.mu.Lock()
	ctr, last := t.ctr, t.lastLogs
	t.mu.Unlock()
	if ctr == nil {
		return last
	}
	return containerLogs(ctx, ctr)
}

// String implements Target.
func (t *ContainerTarget) String() string {
	s := "image " + t.Image
	if t.Image == "" {
		s = "dockerfile " + t.Dockerfile
	}
	if t.Network == "host" {
		s += " (host network)"
	}
	return s
}

// ContainerID returns the running container's ID, or "" when none runs.
func (t *ContainerTarget) ContainerID() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ctr == nil {
		return ""
	}
	return t.ctr.GetContainerID()
}

func (t *ContainerTarget) portEnv() string {
	if t.PortEnv == "" {
		return DefaultPortEnv
	}
	return t.PortEnv
}

func (t *ContainerTarget) containerPort() string {
	if t.ContainerPort == "" {
		return DefaultContainerPort
	}
	return t.ContainerPort
}

func (t *ContainerTarget) path() string {
	if t.Path == "" {
		return "/"
	}
	if !strings.HasPrefix(t.Path, "/") {
		return "/" + t.Path
	}
	return t.Path
}

func (t *ContainerTarget) startTimeout() time.Duration {
	if t.StartTimeout <= 0 {
		return DefaultStartTimeout
	}
	return t.StartTimeout
}

func (t *ContainerTarget) logf(format string, args ...any) {
	if t.Logf != nil {
		t.Logf(format, args...)
	}
}

// errNIP11Timeout marks a readiness wait that ran out of time.
var errNIP11Timeout = errors.New("relay container did not serve a NIP-11 document")

// nip11Wait is the readiness strategy: the relay answers an HTTP GET with
// "Accept: application/nostr+json" with 200 and a JSON object. It fails
// early when the container exits.
type nip11Wait struct {
	host              bool // host network: fixed loopback port
	port              int  // host-mode port
	ctrPort           string
	path              string
	timeout, interval time.Duration

	// set by WaitUntilReady
	readyHost string
	readyPort int
	failure   error
}

// String describes the strategy in testcontainers' log line.
func (w *nip11Wait) String() string {
	return "NIP-11 document at " + w.path
}

// Timeout implements wait.StrategyTimeout.
func (w *nip11Wait) Timeout() *time.Duration { return &w.timeout }

// WaitUntilReady implements wait.Strategy. Its own failures are also kept
// in w.failure so that Start can report them without testcontainers' hook
// chain around them.
func (w *nip11Wait) WaitUntilReady(ctx context.Context, target wait.StrategyTarget) error {
	err := w.wait(ctx, target)
	w.failure = err
	return err
}

func (w *nip11Wait) wait(ctx context.Context, target wait.StrategyTarget) error {
	began := time.Now()
	ctx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	var lastErr error
	where := "container port " + w.ctrPort
	if w.host {
		where = "http://127.0.0.1:" + strconv.Itoa(w.port) + w.path
	}
	interval := w.interval
	for {
		st, err := target.State(ctx)
		if err == nil && st != nil && !st.Running &&
			(st.Status == container.StateExited || st.Status == container.StateDead) {
			return fmt.Errorf("relay container exited with code %d before serving a NIP-11 document on %s", st.ExitCode, where)
		}
		host, port, err := w.address(ctx, target)
		if err == nil {
			where = "http://" + host + ":" + strconv.Itoa(port) + w.path
			actx, acancel := context.WithTimeout(ctx, 2*time.Second)
			_, err = fixtures.FetchInfo(actx, "ws://"+host+":"+strconv.Itoa(port)+w.path, "")
			acancel()
			if err == nil {
				w.readyHost, w.readyPort = host, port
				return nil
			}
		}
		lastErr = err
		select {
		case <-ctx.Done():
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("waiting for a NIP-11 document on %s: %w", where, context.Cause(ctx))
			}
			return fmt.Errorf("%w on %s within %s (last attempt: %v)", errNIP11Timeout, where,
				time.Since(began).Round(time.Second), lastErr)
		case <-time.After(interval):
		}
		if interval < time.Second {
			interval += interval / 2
		}
	}
}

// address returns where the relay's HTTP port can be reached from here.
func (w *nip11Wait) address(ctx context.Context, target wait.StrategyTarget) (string, int, error) {
	if w.host {
		return "127.0.0.1", w.port, nil
	}
	host, err := target.Host(ctx)
	if err != nil {
		return "", 0, fmt.Errorf("container host: %w", err)
	}
	p, err := target.MappedPort(ctx, w.ctrPort)
	if err != nil {
		return "", 0, fmt.Errorf("mapped port %s: %w", w.ctrPort, err)
	}
	return host, int(p.Num()), nil
}

// containerLogs returns the tail (64 KiB) of ctr's output, or a note
// saying why there is none.
func containerLogs(ctx context.Context, ctr testcontainers.Container) string {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	rc, err := ctr.Logs(ctx)
	if err != nil {
		return fmt.Sprintf("(container logs unavailable: %v)", err)
	}
	defer rc.Close()
	var tw tailWriter
	if _, err := io.Copy(&tw, rc); err != nil && tw.n == 0 {
		return fmt.Sprintf("(container logs unavailable: %v)", err)
	}
	return tw.String()
}

// tailWriter keeps the last maxLogBytes bytes written to it.
type tailWriter struct {
	buf       []byte
	n         int64 // total bytes written
	truncated bool
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	w.buf = append(w.buf, p...)
	if over := len(w.buf) - maxLogBytes; over > 0 {
		w.buf = append(w.buf[:0], w.buf[over:]...)
		w.truncated = true
	}
	return len(p), nil
}

func (w *tailWriter) String() string {
	if !w.truncated {
		return string(w.buf)
	}
	b := w.buf
	if i := bytes.IndexByte(b, '\n'); i >= 0 && i < len(b)-1 {
		b = b[i+1:] // start on a line boundary
	}
	return "[… earlier output truncated …]\n" + string(b)
}

// removeLabelled force-removes all containers (running or not) labelled key=value.
func removeLabelled(ctx context.Context, key, value string) error {
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		return fmt.Errorf("docker client: %w", err)
	}
	defer cli.Close()
	list, err := cli.ContainerList(ctx, client.ContainerListOptions{
		All:     true,
		Filters: make(client.Filters).Add("label", key+"="+value),
	})
	if err != nil {
		return fmt.Errorf("list containers labelled %s=%s: %w", key, value, err)
	}
	var errs []error
	for _, c := range list.Items {
		_, err := cli.ContainerRemove(ctx, c.ID, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
		if err != nil && !cerrdefs.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("remove container %s: %w", shortID(c.ID), err))
		}
	}
	return errors.Join(errs...)
}

// RunImage runs image once with cmd as its arguments (after the image's
// ENTRYPOINT) in host-network mode, waits (at most timeout) for it to exit,
// and returns its exit code and output (last 64 KiB). The container is
// always removed. It is how the tests check the harness image
// (RunImage(ctx, "nipcl-conform:ci", []string{"--help"}, …)).
func RunImage(ctx context.Context, image string, cmd []string, env map[string]string, timeout time.Duration) (code int, output string, err error) {
	p, err := testcontainers.NewDockerProvider(
		testcontainers.WithLogger(tclog.NewNoopLogger()),
		testcontainers.WithDefaultBridgeNetwork("host"))
	if err != nil {
		return -1, "", fmt.Errorf("run %s: docker engine not reachable: %w", image, err)
	}
	defer p.Close()
	runID := NewRunID()
	ctr, err := p.RunContainer(ctx, testcontainers.ContainerRequest{
		Image:              image,
		Cmd:                cmd,
		Env:                env,
		Labels:             map[string]string{LabelRun: runID},
		HostConfigModifier: func(hc *container.HostConfig) { hc.NetworkMode = "host" },
		WaitingFor:         wait.ForExit().WithExitTimeout(timeout),
	})
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		if cerr := testcontainers.TerminateContainer(ctr, testcontainers.StopContext(cctx)); cerr != nil {
			err = errors.Join(err, fmt.Errorf("remove container: %w", cerr))
		}
		if cerr := removeLabelled(cctx, LabelRun, runID); cerr != nil {
			err = errors.Join(err, cerr)
		}
	}()
	if err != nil {
		return -1, "", fmt.Errorf("run %s %s: %w", image, strings.Join(cmd, " "), err)
	}
	st, err := ctr.State(ctx)
	if err != nil {
		return -1, "", fmt.Errorf("run %s: container state: %w", image, err)
	}
	output = containerLogs(ctx, ctr)
	if st.Running {
		return -1, output, fmt.Errorf("run %s %s: still running after %s", image, strings.Join(cmd, " "), timeout)
	}
	return st.ExitCode, output, nil
}

// removeImage force-removes the image ref; a missing image is no error.
func removeImage(ctx context.Context, ref string) error {
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		return fmt.Errorf("docker client: %w", err)
	}
	defer cli.Close()
	_, err = cli.ImageRemove(ctx, ref, client.ImageRemoveOptions{Force: true, PruneChildren: true})
	if err != nil && !cerrdefs.IsNotFound(err) {
		return fmt.Errorf("remove image %s: %w", ref, err)
	}
	return nil
}

// DockerAvailable reports whether a Docker engine is reachable the way
// testcontainers-go looks for one; the error is one line, starting with
// "docker engine not reachable: ". It honours ctx's deadline (default 10s
// when ctx has none).
func DockerAvailable(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
	}
	errc := make(chan error, 1)
	go func() {
		errc <- func() (err error) {
			defer func() {
				if r := recover(); r != nil { // testcontainers panics in some lookups
					err = fmt.Errorf("%v", r)
				}
			}()
			p, err := testcontainers.NewDockerProvider(testcontainers.WithLogger(tclog.NewNoopLogger()))
			if err != nil {
				return err
			}
			defer p.Close()
			return p.Health(ctx)
		}()
	}()
	select {
	case err := <-errc:
		if err == nil {
			return nil
		}
		msg := text.OneLine(err.Error())
		if strings.Contains(msg, "rootless Docker not found") || strings.Contains(msg, "failed to detect docker host") {
			// testcontainers reports the last of its socket lookups only.
			msg = "no Docker socket found (DOCKER_HOST unset, no /var/run/docker.sock); start dockerd or set DOCKER_HOST"
			if h := os.Getenv("DOCKER_HOST"); h != "" {
				msg = "DOCKER_HOST=" + h + " does not answer and no other Docker socket was found"
			}
		}
		return fmt.Errorf("docker engine not reachable: %s", msg)
	case <-ctx.Done():
		return fmt.Errorf("docker engine not reachable: %s", text.OneLine(context.Cause(ctx).Error()))
	}
}

// BuildImage builds the Dockerfile in directory dir and tags the result tag
// ("name:version"; ":latest" when no version is given). The image is kept.
// Build output goes to logf (nil discards it).
func BuildImage(ctx context.Context, dir, tag string, logf func(string, ...any)) error {
	return buildImage(ctx, dir, nil, tag, logf)
}

// BuildImageWithFiles is BuildImage on a temporary copy of dir to which the
// files in stage (name in context → host path) are added, e.g. a prebuilt
// static binary for reference/Dockerfile.
func BuildImageWithFiles(ctx context.Context, dir string, stage map[string]string, tag string, logf func(string, ...any)) error {
	return buildImage(ctx, dir, stage, tag, logf)
}

func buildImage(ctx context.Context, dir string, stage map[string]string, tag string, logf func(string, ...any)) error {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	repo, version, ok := strings.Cut(tag, ":")
	if !ok || strings.Contains(version, "/") {
		repo, version = tag, "latest"
	}
	ctxDir, cleanup, err := stageContext(dir, stage)
	if err != nil {
		return err
	}
	defer cleanup()
	p, err := testcontainers.NewDockerProvider(testcontainers.WithLogger(logfLogger{logf}))
	if err != nil {
		return fmt.Errorf("build image %s: docker engine not reachable: %w", tag, err)
	}
	defer p.Close()
	req := testcontainers.ContainerRequest{FromDockerfile: testcontainers.FromDockerfile{
		Context:        ctxDir,
		Repo:           repo,
		Tag:            version,
		KeepImage:      true,
		BuildLogWriter: logfWriter{logf},
	}}
	if _, err := p.BuildImage(ctx, &req); err != nil {
		return fmt.Errorf("build image %s from %s: %w", tag, dir, err)
	}
	return nil
}

// logfLogger adapts a Logf func to testcontainers' logger.
type logfLogger struct{ f func(string, ...any) }

func (l logfLogger) Printf(format string, args ...any) {
	if l.f != nil {
		l.f(strings.TrimRight(format, "\n"), args...)
	}
}

// logfWriter adapts a Logf func to an io.Writer, one call per line.
type logfWriter struct{ f func(string, ...any) }

func (w logfWriter) Write(p []byte) (int, error) {
	if w.f != nil {
		for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
			if strings.TrimSpace(line) != "" {
				w.f("%s", line)
			}
		}
	}
	return len(p), nil
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
