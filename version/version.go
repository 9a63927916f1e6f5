// Package version says which build of nipcl-conform is running and which
// specification revisions its case catalogue was written against, so that a
// result file is a claim a reader can pin: "this relay passed
// nipcl-conform vX (commit C), labels profile, against nip-cl-labels.md
// revision R".
//
// The build half comes from the Go build information (debug.ReadBuildInfo):
// the module version (a tag when installed with `go install …@vX`, a
// pseudo-version or "(devel)" when built from a checkout) and the VCS
// commit (absent when built with -buildvcs=false, as CI does; then
// "unknown"). Release images built without VCS stamping can set the version
// at link time:
//
//	go build -ldflags "-X github.com/nipcl/nipcl-conform/version.release=v1.2.0" ./cmd/nipcl-conform
//
// The specification half is constant (specs.go): the drafts live outside
// the repository, so an installed binary cannot read them; their
// fingerprints are recorded in code and a test recomputes them whenever the
// drafts are present.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
)

// Module is the module path of nipcl-conform.
const Module = "github.com/nipcl/nipcl-conform"

// Devel is the version of a build with no module version: `go run`,
// `go test`, or `go build` with -buildvcs=false from a checkout.
const Devel = "(devel)"

// Unknown stands for a commit the build did not record.
const Unknown = "unknown"

// release and commit, when set at link time (-ldflags -X), override the
// module version and the VCS commit from the build information (a build
// from an archive without .git, such as the GitHub Action's).
var release, commit string

// Build identifies one build of the harness.
type Build struct {
	// Version is the module version: "v1.2.0" (go install …@v1.2.0), a
	// pseudo-version such as "v0.0.0-20260722120000-abcdef123456+dirty"
	// (go build in a checkout with VCS stamping), or "(devel)".
	Version string `json:"version"`
	// Commit is the VCS revision the binary was built from, or "unknown"
	// (built with -buildvcs=false, outside a checkout, or by go test).
	Commit string `json:"commit"`
	// Modified reports uncommitted changes in the checkout at build time.
	Modified bool `json:"modified,omitempty"`
	// Time is the commit time (RFC 3339), when recorded.
	Time string `json:"time,omitempty"`
	// Go is the toolchain that built the binary.
	Go string `json:"go"`
}

var current = sync.OnceValue(func() Build {
	bi, ok := debug.ReadBuildInfo()
	b := fromBuildInfo(bi, ok, release)
	if commit != "" {
		b.Commit = commit
	}
	return b
})

// Get returns this binary's build identity.
func Get() Build { return current() }

// fromBuildInfo reads a Build from build information; override, when not
// empty, replaces the module version.
func fromBuildInfo(bi *debug.BuildInfo, ok bool, override string) Build {
	b := Build{Version: Devel, Commit: Unknown, Go: runtime.Version()}
	if ok && bi != nil {
		if bi.GoVersion != "" {
			b.Go = bi.GoVersion
		}
		if v := bi.Main.Version; v != "" {
			b.Version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if s.Value != "" {
					b.Commit = s.Value
				}
			case "vcs.modified":
				b.Modified = s.Value == "true"
			case "vcs.time":
				b.Time = s.Value
			}
		}
	}
	if override != "" {
		b.Version = override
	}
	return b
}

// CommitText is the commit for people: the hash with "(modified)" when the
// checkout had uncommitted changes, or why there is none.
func (b Build) CommitText() string {
	if b.Commit == "" || b.Commit == Unknown {
		return Unknown + " (built without VCS information, e.g. -buildvcs=false or go run/test)"
	}
	if b.Modified {
		return b.Commit + " (modified)"
	}
	return b.Commit
}

// String is a one-line description, e.g.
// "nipcl-conform v1.2.0 (commit 0123abcd…, go1.26.0)".
func (b Build) String() string {
	c := b.Commit
	if c == "" {
		c = Unknown
	}
	c = shorten(c, 12)
	if b.Modified {
		c += ", modified"
	}
	return fmt.Sprintf("nipcl-conform %s (commit %s, %s)", b.Version, c, b.Go)
}

func shorten(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
