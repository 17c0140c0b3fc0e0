// Package layering holds the layers the packages' docs state: it has only
// this test, which reads every package's imports with `go list`.
package layering

import (
	"os/exec"
	"path"
	"strings"
	"testing"
)

const module = "github.com/offtopic/offtopic"

// allowed lists, for each package, the packages of this module it may
// import besides internal/...: timemap and extract own nothing above them;
// remote sits on timemap; similarity on timemap and extract; crawl, report
// and prune on similarity (crawl never imports report); cmd on everything.
var allowed = map[string][]string{
	"timemap":      nil,
	"extract":      nil,
	"remote":       {"timemap"},
	"similarity":   {"timemap", "extract"},
	"crawl":        {"timemap", "extract", "remote", "similarity"},
	"report":       {"timemap", "extract", "similarity"},
	"prune":        {"timemap", "similarity"},
	"cmd/offtopic": {"*"},
}

// TestLayering fails when a package imports one above it (or one not
// listed at all), as Go's own go/build deps_test holds the standard
// library's layers.
func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	seen := 0
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		pkg := strings.TrimPrefix(strings.TrimPrefix(f[0], module), "/")
		if strings.HasPrefix(pkg, "internal/") {
			for _, imp := range f[1:] {
				if p, ok := strings.CutPrefix(imp, module+"/"); ok && !strings.HasPrefix(p, "internal/") {
					t.Errorf("%s imports %s: internal packages import no layer", pkg, p)
				}
			}
			continue
		}
		ok, listed := allowed[pkg]
		if !listed {
			t.Errorf("package %s is not in the layering: add it to allowed", pkg)
			continue
		}
		seen++
		for _, imp := range f[1:] {
			p, ours := strings.CutPrefix(imp, module+"/")
			if !ours || strings.HasPrefix(p, "internal/") || len(ok) == 1 && ok[0] == "*" {
				continue
			}
			if !contains(ok, p) {
				t.Errorf("%s imports %s, a layer it may not (may: %s)", pkg, p, strings.Join(ok, ", "))
			}
		}
	}
	if seen != len(allowed) {
		t.Errorf("go list named %d of the %d layered packages", seen, len(allowed))
	}
}

func contains(list []string, p string) bool {
	for _, x := range list {
		if x == p || path.Dir(p) == x {
			return true
		}
	}
	return false
}
