package runner

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// BinaryName is the file name the Dockerfiles (reference/Dockerfile and the
// root Dockerfile) expect the prebuilt static CLI binary under, at the root
// of their build context.
const BinaryName = "nipcl-conform"

// BuildStaticCLI builds the nipcl-conform CLI as a static binary
// (CGO_ENABLED=0 go build -o out ./cmd/nipcl-conform) from the module in
// moduleDir, for copying into a FROM scratch image. It needs the go
// command on PATH.
func BuildStaticCLI(ctx context.Context, moduleDir, out string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", out, "./cmd/nipcl-conform")
	cmd.Dir = moduleDir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("build static nipcl-conform binary in %s: %w: %s", moduleDir, err, strings.TrimSpace(buf.String()))
	}
	return nil
}

// BuildCLIImage builds the Dockerfile in dockerfileDir (reference/ or the
// module root) with a freshly built static CLI binary staged into a
// temporary copy of the context, and tags it tag. moduleDir is the module
// root the binary is built from.
func BuildCLIImage(ctx context.Context, moduleDir, dockerfileDir, tag string, logf func(string, ...any)) error {
	tmp, err := os.MkdirTemp("", "nipcl-bin-")
	if err != nil {
		return fmt.Errorf("build image %s: %w", tag, err)
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, BinaryName)
	if err := BuildStaticCLI(ctx, moduleDir, bin); err != nil {
		return fmt.Errorf("build image %s: %w", tag, err)
	}
	stage, err := CLIImageStage(dockerfileDir, bin)
	if err != nil {
		return fmt.Errorf("build image %s: %w", tag, err)
	}
	return BuildImageWithFiles(ctx, dockerfileDir, stage, tag, logf)
}

// CABundleName is the CA bundle a FROM scratch image copies from its build
// context (the root Dockerfile: the harness image trusts the same public
// CAs the build machine does, so wss:// targets work from it).
const CABundleName = "ca-certificates.crt"

// caBundlePaths are where Linux distributions and macOS keep the system
// CA bundle.
var caBundlePaths = []string{
	"/etc/ssl/certs/ca-certificates.crt", // Debian, Ubuntu, Alpine, Arch
	"/etc/pki/tls/certs/ca-bundle.crt",   // Fedora, RHEL
	"/etc/ssl/ca-bundle.pem",             // openSUSE
	"/etc/ssl/cert.pem",                  // macOS, Alpine
}

// HostCABundle returns the path of this machine's CA bundle: SSL_CERT_FILE
// when set, else the first of the usual places that exists.
func HostCABundle() (string, error) {
	if f := os.Getenv("SSL_CERT_FILE"); f != "" {
		if _, err := os.Stat(f); err != nil {
			return "", fmt.Errorf("CA bundle: SSL_CERT_FILE: %w", err)
		}
		return f, nil
	}
	for _, p := range caBundlePaths {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("CA bundle: none of %s exists (set SSL_CERT_FILE to one)", strings.Join(caBundlePaths, ", "))
}

// CLIImageStage is what a build of the image in dockerfileDir needs staged
// beside its Dockerfile: the static binary bin, and the host's CA bundle
// when the Dockerfile copies CABundleName and the directory has none.
func CLIImageStage(dockerfileDir, bin string) (map[string]string, error) {
	stage := map[string]string{BinaryName: bin}
	df, err := os.ReadFile(filepath.Join(dockerfileDir, "Dockerfile"))
	if err != nil {
		return nil, fmt.Errorf("read Dockerfile: %w", err)
	}
	if strings.Contains(string(df), CABundleName) {
		if _, err := os.Stat(filepath.Join(dockerfileDir, CABundleName)); err != nil {
			bundle, err := HostCABundle()
			if err != nil {
				return nil, err
			}
			stage[CABundleName] = bundle
		}
	}
	return stage, nil
}

// IsStaticELF reports whether the file at path is an ELF executable without
// a dynamic loader (so that it can run in a FROM scratch image).
func IsStaticELF(path string) (bool, error) {
	f, err := elf.Open(path)
	if err != nil {
		return false, fmt.Errorf("inspect %s: %w", path, err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return false, nil
		}
	}
	return true, nil
}

// stageContext returns a build context directory: dir itself when stage is
// empty, else a temporary copy of dir (without .git) with the staged files
// (name in context → host path) added, executable. cleanup removes the
// copy.
func stageContext(dir string, stage map[string]string) (string, func(), error) {
	if fi, err := os.Stat(filepath.Join(dir, "Dockerfile")); err != nil || fi.IsDir() {
		return "", nil, fmt.Errorf("build context %s: no Dockerfile in it", dir)
	}
	if len(stage) == 0 {
		return dir, func() {}, nil
	}
	tmp, err := os.MkdirTemp("", "nipcl-context-")
	if err != nil {
		return "", nil, fmt.Errorf("stage build context: %w", err)
	}
	cleanup := func() { _ = os.RemoveAll(tmp) }
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		dst := filepath.Join(tmp, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil // sockets, symlinks …: not part of a build context here
		}
		return copyFile(p, dst)
	})
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("stage build context from %s: %w", dir, err)
	}
	for name, src := range stage {
		if name == "" || filepath.IsAbs(name) || strings.HasPrefix(filepath.Clean(name), "..") {
			cleanup()
			return "", nil, fmt.Errorf("stage build context: bad file name %q", name)
		}
		dst := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			cleanup()
			return "", nil, fmt.Errorf("stage %s: %w", name, err)
		}
		if err := copyFile(src, dst); err != nil {
			cleanup()
			return "", nil, fmt.Errorf("stage %s: %w", name, err)
		}
		if err := os.Chmod(dst, 0o755); err != nil {
			cleanup()
			return "", nil, fmt.Errorf("stage %s: %w", name, err)
		}
	}
	return tmp, cleanup, nil
}

// copyFile copies the regular file src to dst, keeping its permission bits.
func copyFile(src, dst string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", src)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, out.Close()) }()
	_, err = io.Copy(out, in)
	return err
}
