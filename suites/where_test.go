package suites

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEveryCaseSaysWhereItIsDefined checks Case.Where (what `explain`
// prints): it names a file of this module and a line in it, and that file
// writes the case's ID in full, so the reader lands at the definition.
func TestEveryCaseSaysWhereItIsDefined(t *testing.T) {
	sources := map[string]string{}
	for _, c := range Catalogue() {
		file, line, ok := strings.Cut(c.Where, ":")
		n, err := strconv.Atoi(line)
		if !ok || err != nil || n <= 0 {
			t.Errorf("%s: Where %q is not file:line", c.ID, c.Where)
			continue
		}
		src, seen := sources[file]
		if !seen {
			b, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(file)))
			if err != nil {
				t.Errorf("%s: Where %q: %v", c.ID, c.Where, err)
				continue
			}
			src = string(b)
			sources[file] = src
		}
		if n > strings.Count(src, "\n")+1 {
			t.Errorf("%s: Where %q is past the end of the file", c.ID, c.Where)
		}
		if !strings.Contains(src, strconv.Quote(c.ID)) {
			t.Errorf("%s: Where %q, but that file does not write the ID %q", c.ID, c.Where, c.ID)
		}
	}
}
