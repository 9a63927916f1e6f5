package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImageBuildsStageEveryCopiedFile: each FROM scratch image's build
// context gets every file its Dockerfile copies — the static binary and,
// for the harness image, the host's CA bundle, so that wss:// targets
// with public certificates work from the image.
func TestImageBuildsStageEveryCopiedFile(t *testing.T) {
	for _, dir := range []string{"..", filepath.Join("..", "reference")} {
		stage, err := CLIImageStage(dir, "/bin/true")
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		df, err := os.ReadFile(filepath.Join(dir, "Dockerfile"))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(df), "\n") {
			f := strings.Fields(line)
			if len(f) < 3 || f[0] != "COPY" {
				continue
			}
			src := f[1]
			if _, staged := stage[src]; staged {
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, src)); err != nil {
				t.Errorf("%s/Dockerfile copies %s, which is neither staged nor in the directory", dir, src)
			}
		}
	}
	stage, _ := CLIImageStage("..", "/bin/true")
	if b := stage[CABundleName]; b == "" {
		t.Error("the harness image gets no CA bundle")
	} else if data, err := os.ReadFile(b); err != nil || !strings.Contains(string(data), "BEGIN CERTIFICATE") {
		t.Errorf("CA bundle %s: %v", b, err)
	}
}
