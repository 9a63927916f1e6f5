package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tclog "github.com/testcontainers/testcontainers-go/log"

	"github.com/nipcl/nipcl-conform/runner"
)

func init() {
	// testcontainers prints a banner through its global logger; the run's
	// own output says what matters.
	tclog.SetDefault(tclog.NewNoopLogger())
}

// stageBinary returns the files to stage into a --dockerfile build context
// whose Dockerfile copies a prebuilt nipcl-conform binary (reference/Dockerfile,
// the root Dockerfile) that the directory does not hold: this executable when
// it is static, else a static build of the module in the working directory
// — and the host's CA bundle when the Dockerfile copies one it lacks (the
// root Dockerfile). The cleanup func removes any temporary build.
func stageBinary(ctx context.Context, dir string) (map[string]string, func(), error) {
	nothing := func() {}
	df, err := os.ReadFile(filepath.Join(dir, "Dockerfile"))
	if err != nil {
		return nil, nothing, fmt.Errorf("--dockerfile %s: %w", dir, err)
	}
	stage := map[string]string{}
	if needs(dir, string(df), runner.CABundleName) {
		bundle, err := runner.HostCABundle()
		if err != nil {
			return nil, nothing, fmt.Errorf("--dockerfile %s: %w", dir, err)
		}
		stage[runner.CABundleName] = bundle
	}
	if !needs(dir, string(df), runner.BinaryName) {
		if len(stage) == 0 {
			return nil, nothing, nil
		}
		return stage, nothing, nil
	}
	if exe, err := os.Executable(); err == nil {
		if static, _ := runner.IsStaticELF(exe); static {
			stage[runner.BinaryName] = exe
			return stage, nothing, nil
		}
	}
	if _, err := os.Stat("go.mod"); err != nil {
		return nil, nothing, fmt.Errorf("--dockerfile %s needs a static %s binary in the directory: build it with CGO_ENABLED=0 go build -o %s ./cmd/nipcl-conform",
			dir, runner.BinaryName, filepath.Join(dir, runner.BinaryName))
	}
	tmp, err := os.MkdirTemp("", "nipcl-stage-")
	if err != nil {
		return nil, nothing, fmt.Errorf("stage binary: %w", err)
	}
	cleanup := func() { os.RemoveAll(tmp) }
	bin := filepath.Join(tmp, runner.BinaryName)
	if err := runner.BuildStaticCLI(ctx, ".", bin); err != nil {
		cleanup()
		return nil, nothing, err
	}
	stage[runner.BinaryName] = bin
	return stage, cleanup, nil
}

// needs reports whether a Dockerfile names a file its directory lacks.
func needs(dir, dockerfile, name string) bool {
	if !strings.Contains(dockerfile, name) {
		return false
	}
	_, err := os.Stat(filepath.Join(dir, name))
	return err != nil
}
