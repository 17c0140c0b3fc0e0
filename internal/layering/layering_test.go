// Package layering holds the layers the packages' docs state: it has only
// this test, which reads every package's dependencies with `go list -deps`.
package layering

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/offtopic/offtopic"

// allowed lists, for each package, the packages of this module it may
// import directly besides internal/...: timemap and extract import no other
// layer; remote sits on timemap; similarity on timemap and extract; crawl,
// report and prune on similarity (crawl on remote too; crawl never imports
// report); state (a collection's state between runs) on report and the
// layers below; cmd on everything. What a package may depend on at all is the
// closure of this: prune may reach extract through similarity.
var allowed = map[string][]string{
	"timemap":      nil,
	"extract":      nil,
	"remote":       {"timemap"},
	"similarity":   {"timemap", "extract"},
	"crawl":        {"timemap", "extract", "remote", "similarity"},
	"report":       {"timemap", "extract", "similarity"},
	"prune":        {"timemap", "similarity"},
	"state":        {"timemap", "extract", "similarity", "report"},
	"cmd/offtopic": {"*"},
}

// never lists dependencies a package must not have even if allowed above
// were widened by mistake.
var never = map[string][]string{
	"timemap": {"extract", "similarity", "remote"},
	"extract": {"timemap", "similarity", "remote"},
	"crawl":   {"report", "prune", "state", "cmd/offtopic"},
}

// may returns the closure of allowed[pkg]: every layer pkg may depend on.
func may(pkg string) map[string]bool {
	out := map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		for _, q := range allowed[p] {
			if !out[q] {
				out[q] = true
				walk(q)
			}
		}
	}
	walk(pkg)
	return out
}

// TestLayering fails when a package depends on one above it (or is not
// listed at all), directly or through another package, or when its tests
// import one above it, as Go's own go/build deps_test holds the standard
// library's layers.
func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps=false", "-f",
		`{{.ImportPath}}|{{join .Deps " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}`, module+"/...").Output()
	if err != nil {
		// A failing go list is a broken module (a syntax error, an import
		// that does not resolve), not a reason to check nothing.
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	seen := 0
	for line := range strings.Lines(string(out)) {
		f := strings.Split(strings.TrimSpace(line), "|")
		if len(f) != 3 {
			continue
		}
		pkg := ours(f[0])
		deps, testImports := layers(f[1]), layers(f[2])
		if strings.HasPrefix(pkg, "internal/") {
			for _, d := range slices.Concat(deps, testImports) {
				t.Errorf("%s depends on %s: internal packages depend on no layer", pkg, d)
			}
			continue
		}
		ok, listed := allowed[pkg]
		if !listed {
			t.Errorf("package %s is not in the layering: add it to allowed", pkg)
			continue
		}
		seen++
		for _, d := range never[pkg] {
			if slices.Contains(deps, d) || slices.Contains(testImports, d) {
				t.Errorf("%s depends on %s, which it never may", pkg, d)
			}
		}
		if slices.Equal(ok, []string{"*"}) {
			continue
		}
		m := may(pkg)
		for _, d := range deps {
			if !m[d] {
				t.Errorf("%s depends on %s, a layer it may not (directly: %s)", pkg, d, strings.Join(ok, ", "))
			}
		}
		for _, d := range testImports {
			if d != pkg && !m[d] {
				t.Errorf("%s's tests import %s, a layer it may not (directly: %s)", pkg, d, strings.Join(ok, ", "))
			}
		}
	}
	if seen != len(allowed) {
		t.Errorf("go list named %d of the %d layered packages", seen, len(allowed))
	}
}

// TestMayIsTheClosure checks the closure the test holds packages to on the
// table itself.
func TestMayIsTheClosure(t *testing.T) {
	for _, tc := range []struct {
		pkg  string
		want []string
	}{
		{"timemap", nil},
		{"remote", []string{"timemap"}},
		{"prune", []string{"extract", "similarity", "timemap"}},
		{"crawl", []string{"extract", "remote", "similarity", "timemap"}},
	} {
		got := may(tc.pkg)
		var names []string
		for p := range got {
			names = append(names, p)
		}
		slices.Sort(names)
		if !slices.Equal(names, tc.want) {
			t.Errorf("may(%s) = %v, want %v", tc.pkg, names, tc.want)
		}
	}
}

// ours returns the path of an import path of this module relative to the
// module, or "" for any other.
func ours(importPath string) string {
	if importPath == module {
		return "."
	}
	p, ok := strings.CutPrefix(importPath, module+"/")
	if !ok {
		return ""
	}
	return p
}

// layers returns the packages of this module among the space-separated
// import paths list, internal/... left out.
func layers(list string) []string {
	var out []string
	for _, imp := range strings.Fields(list) {
		if p := ours(imp); p != "" && !strings.HasPrefix(p, "internal/") {
			out = append(out, p)
		}
	}
	return out
}
