package main

import (
	"hash/fnv"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/report"
)

// mapSortReduceMerge runs the line-oriented pipeline in-process, sorting the
// map output as LC_ALL=C sort would.
func mapSortReduceMerge(t *testing.T, files []string, outDir string) {
	t.Helper()
	code, mapped, stderr := runWithStdin(t, strings.Join(files, "\n")+"\n", "map")
	if code != 0 {
		t.Fatalf("map: %s", stderr)
	}
	lines := strings.SplitAfter(mapped, "\n")
	sort.Strings(lines)
	code, reduced, stderr := runWithStdin(t, strings.Join(lines, ""), "reduce", "-q")
	if code != 0 {
		t.Fatalf("reduce: %s", stderr)
	}
	if code, _, stderr := runWithStdin(t, reduced, "merge", "--out-dir", outDir); code != 0 {
		t.Fatalf("merge: %s", stderr)
	}
}

// resultLines are a results file's TimeMap lines (the run line differs by time).
func resultLines(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[1:]
}

// TestMapReduceEqualsDetect: map | sort | reduce | merge gives the results of
// a single-process run byte for byte, on the sample and (where present) on
// the dev corpus (three Archive-It collections, which runs split over
// processes model as one: detect --one-collection).
func TestMapReduceEqualsDetect(t *testing.T) {
	sets := map[string][]string{"sample": sampleFiles(t)}
	if dev := devFiles(); len(dev) > 0 {
		sets["dev"] = dev
	} else {
		t.Log("dev corpus absent or -short: comparing on the sample only")
	}
	for name, files := range sets {
		t.Run(name, func(t *testing.T) {
			single, piped := t.TempDir(), t.TempDir()
			if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--one-collection", "--out-dir", single}, files...)...); code != 0 {
				t.Fatalf("detect: %s", stderr)
			}
			mapSortReduceMerge(t, files, piped)
			a, b := resultLines(t, single), resultLines(t, piped)
			if len(a) != len(b) {
				t.Fatalf("%d TimeMaps single-process, %d through map/reduce", len(a), len(b))
			}
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("TimeMap %d differs:\nsingle: %.300s\npiped:  %.300s", i, a[i], b[i])
				}
			}
			// The run line keeps what prune and the reports need.
			var runs [2]report.Run
			for i, dir := range []string{single, piped} {
				f, err := os.Open(filepath.Join(dir, "results.jsonl"))
				if err != nil {
					t.Fatal(err)
				}
				for _, err := range report.ReadResults(f, dir, &runs[i]) {
					if err != nil {
						t.Fatal(err)
					}
					break
				}
				f.Close()
			}
			abs := func(in []string) []string {
				out := make([]string, len(in))
				for i, p := range in {
					out[i], _ = filepath.Abs(p)
				}
				slices.Sort(out)
				return out
			}
			if s, p := runs[0], runs[1]; !slices.Equal(abs(s.Inputs), abs(p.Inputs)) || p.ArchiveURL != s.ArchiveURL || p.Measures != s.Measures || !maps.Equal(p.Options, s.Options) {
				t.Errorf("run line through map/reduce %+v, single-process %+v", p, s)
			}
			ca, _ := os.ReadFile(filepath.Join(single, "offtopic.csv"))
			cb, _ := os.ReadFile(filepath.Join(piped, "offtopic.csv"))
			if string(ca) != string(cb) {
				t.Error("CSV differs between single-process and map/reduce")
			}
		})
	}
}

// TestShards: the shards of a run partition its TimeMaps.
func TestShards(t *testing.T) {
	files := sampleFiles(t)
	seen := map[string]int{}
	total := 0
	for i := range 3 {
		dir := t.TempDir()
		code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--shard", []string{"0/3", "1/3", "2/3"}[i], "--out-dir", dir}, files...)...)
		if code != 0 {
			t.Fatalf("shard %d: %s", i, stderr)
		}
		for _, l := range resultLines(t, dir) {
			if l == "" {
				continue
			}
			key := l[strings.Index(l, `"key":"`)+7:]
			seen[key[:strings.Index(key, `"`)]]++
			total++
		}
	}
	if len(seen) != 6 || total != 6 {
		t.Errorf("3 shards hold %d TimeMaps (%d distinct), want the sample's 6 once each", total, len(seen))
	}
	if code, _, _ := runCLI(t, "detect", "--shard", "3/3", files[0]); code != 2 {
		t.Errorf("--shard 3/3 accepted")
	}
}

// partition splits sorted map output lines over r reducers by a hash of the
// key, as Hadoop's default HashPartitioner does; each part stays sorted.
func partition(lines []string, r int) [][]string {
	parts := make([][]string, r)
	for _, l := range lines {
		if l == "" {
			continue
		}
		key, _, _ := strings.Cut(l, "\t")
		h := fnv.New32a()
		h.Write([]byte(key))
		parts[int(h.Sum32()&0x7fffffff)%r] = append(parts[int(h.Sum32()&0x7fffffff)%r], l)
	}
	return parts
}

// TestSplitRunsEqualDetect: a model job (reduce --stats, model --merge) and a
// scoring job (reduce --model) over R reducers, and shards scored with
// detect --model, give the single-process results byte for byte (detect
// --one-collection: they model the dev corpus's three collections as one).
func TestSplitRunsEqualDetect(t *testing.T) {
	type set struct {
		files []string
		rs    []int
	}
	sets := map[string]set{"sample": {sampleFiles(t), []int{1, 3, 8}}}
	if dev := devFiles(); len(dev) > 0 {
		sets["dev"] = set{dev, []int{8}}
	} else {
		t.Log("dev corpus absent or -short: comparing on the sample only")
	}
	for name, s := range sets {
		t.Run(name, func(t *testing.T) {
			single := t.TempDir()
			if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--one-collection", "--out-dir", single}, s.files...)...); code != 0 {
				t.Fatalf("detect: %s", stderr)
			}
			want := resultLines(t, single)
			code, mapped, stderr := runWithStdin(t, strings.Join(s.files, "\n")+"\n", "map")
			if code != 0 {
				t.Fatalf("map: %s", stderr)
			}
			lines := strings.SplitAfter(mapped, "\n")
			sort.Strings(lines)
			for _, r := range s.rs {
				parts := partition(lines, r)
				var stats strings.Builder
				for i, p := range parts {
					code, out, stderr := runWithStdin(t, strings.Join(p, ""), "reduce", "-q", "--stats")
					if code != 0 {
						t.Fatalf("R=%d reducer %d --stats: %s", r, i, stderr)
					}
					stats.WriteString(out)
				}
				model := filepath.Join(t.TempDir(), "model.json.gz")
				if code, _, stderr := runWithStdin(t, stats.String(), "model", "--merge", "-o", model); code != 0 {
					t.Fatalf("R=%d model --merge: %s", r, stderr)
				}
				var results []string
				for i, p := range parts {
					code, out, stderr := runWithStdin(t, strings.Join(p, ""), "reduce", "-q", "--model", model)
					if code != 0 {
						t.Fatalf("R=%d reducer %d: %s", r, i, stderr)
					}
					results = append(results, strings.SplitAfter(out, "\n")...)
				}
				sort.Strings(results)
				dir := t.TempDir()
				if code, _, stderr := runWithStdin(t, strings.Join(results, ""), "merge", "--out-dir", dir); code != 0 {
					t.Fatalf("R=%d merge: %s", r, stderr)
				}
				got := resultLines(t, dir)
				if len(got) != len(want) {
					t.Fatalf("R=%d: %d TimeMaps, single run %d", r, len(got), len(want))
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("R=%d: TimeMap %d differs from the single run:\nsingle: %.300s\nsplit:  %.300s", r, i, want[i], got[i])
					}
				}
			}
			if name != "sample" {
				return
			}
			// Shards scored against a model file built once.
			model := filepath.Join(t.TempDir(), "model.json.gz")
			if code, _, stderr := runCLI(t, append([]string{"model", "-q", "-o", model}, s.files...)...); code != 0 {
				t.Fatalf("model: %s", stderr)
			}
			var got []string
			for _, sh := range []string{"0/3", "1/3", "2/3"} {
				dir := t.TempDir()
				if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--model", model, "--shard", sh, "--out-dir", dir}, s.files...)...); code != 0 {
					t.Fatalf("shard %s: %s", sh, stderr)
				}
				got = append(got, resultLines(t, dir)...)
			}
			sort.Strings(got)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Error("shards scored with --model differ from the single run")
			}
			// A model built with other settings is refused.
			if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--model", model, "--min-t0-words", "30", "--out-dir", t.TempDir()}, s.files...)...); code != 2 || !strings.Contains(stderr, "min-t0-words") {
				t.Errorf("model of other settings: exit %d, %s", code, stderr)
			}
		})
	}
}
