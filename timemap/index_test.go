package timemap

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

func buildIndex(t testing.TB, files []string, opts IndexOptions) (*Index, []error) {
	t.Helper()
	var errs []error
	opts.OnError = func(err error) { errs = append(errs, err) }
	idx, err := BuildIndex(context.Background(), files, opts)
	if err != nil {
		t.Fatalf("BuildIndex: %v", err)
	}
	t.Cleanup(func() { idx.Close() })
	return idx, errs
}

// collect reads every TimeMap of src, failing t at the first error.
func collect(t testing.TB, src Source) []*TimeMap {
	t.Helper()
	var tms []*TimeMap
	for tm, err := range src.TimeMaps(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		tms = append(tms, tm)
	}
	return tms
}

func TestIndexRevisits(t *testing.T) {
	tests := []struct {
		name            string
		files           []string
		captures        int
		revisits        int
		unresolved      int
		wantMinTimeMaps int
	}{
		// pywb-dupes revisits refer to captures in pywb-iana, except one.
		{"dupes alone", []string{"warc/pywb-dupes.warc.gz"}, 12, 9, 8, 2},
		{"dupes+iana", []string{"warc/pywb-dupes.warc.gz", "warc/pywb-iana.warc.gz"}, 183, 132, 0, 10},
		{"iana", []string{"warc/pywb-iana.warc.gz"}, 171, 123, 0, 10},
		{"url-agnostic", []string{"warc/pywb-example-url-agnostic-orig.warc.gz", "warc/pywb-example-url-agnostic-revisit.warc.gz"}, 2, 1, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var files []string
			for _, f := range tt.files {
				files = append(files, fixture(t, f))
			}
			idx, errs := buildIndex(t, files, IndexOptions{})
			if len(errs) > 0 {
				t.Errorf("errors: %v", errs)
			}
			tms := collect(t, idx)
			if len(tms) < tt.wantMinTimeMaps {
				t.Errorf("%d TimeMaps, want >= %d", len(tms), tt.wantMinTimeMaps)
			}
			var n, rv, unresolved int
			for _, tm := range tms {
				for i, c := range tm.Captures {
					n++
					if c.Key != tm.Key {
						t.Errorf("capture key %q in TimeMap %q", c.Key, tm.Key)
					}
					if i > 0 && c.Time.Before(tm.Captures[i-1].Time) {
						t.Errorf("TimeMap %q not in time order", tm.Key)
					}
					if !c.Revisit {
						if c.Payload != c.Loc {
							t.Errorf("response %s: Payload %+v != Loc %+v", c.URIR, c.Payload, c.Loc)
						}
						continue
					}
					rv++
					if c.Payload.IsZero() {
						unresolved++
						continue
					}
					// The payload must be a response with the same digest.
					resp, err := ReadResponse(c.Payload, 0)
					if err != nil {
						t.Fatal(err)
					}
					if resp.Record.Type == "revisit" || normDigest(resp.Record.PayloadDigest) != normDigest(c.Digest) {
						t.Errorf("revisit %s %s resolved to %s record with digest %s", c.URIR, c.Digest, resp.Record.Type, resp.Record.PayloadDigest)
					}
					if c.Status == 0 {
						t.Errorf("revisit %s has status 0", c.URIR)
					}
				}
			}
			if n != tt.captures || rv != tt.revisits || unresolved != tt.unresolved {
				t.Errorf("captures %d revisits %d unresolved %d; want %d %d %d", n, rv, unresolved, tt.captures, tt.revisits, tt.unresolved)
			}
		})
	}
}

// TestIndexSpill checks that a tiny MaxInMemory (forcing many spilled runs,
// merged three at a time into larger runs, and a k-way merge) gives the same
// TimeMaps as an all-in-memory index.
func TestIndexSpill(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "fixtures", "warc")
	var files []string
	for _, f := range []string{"pywb-iana.warc.gz", "pywb-dupes.warc.gz", "pywb-example.warc.gz", "aut-example.warc.gz", "pywb-example-bad.warc.gz.bad"} {
		files = append(files, filepath.Join(dir, f))
	}
	mem, _ := buildIndex(t, files, IndexOptions{})
	tmp := t.TempDir()
	spilled, _ := buildIndex(t, files, IndexOptions{MaxInMemory: 7, TempDir: tmp, Workers: 3, fanIn: 3})
	if spilled.Stats().Runs < 10 {
		t.Fatalf("only %d runs spilled", spilled.Stats().Runs)
	}
	if spilled.orig.table == nil || spilled.orig.len() != mem.orig.len() {
		t.Errorf("digest map: on disk %v with %d digests, want a table of the %d digests held in memory", spilled.orig.table != nil, spilled.orig.len(), mem.orig.len())
	}
	perLevel := map[int]int{}
	for _, r := range spilled.runs {
		perLevel[r.level]++
	}
	if perLevel[2] == 0 || len(spilled.runs) >= spilled.Stats().Runs {
		t.Errorf("%d runs spilled, %d on disk by level %v: want runs merged into level 2", spilled.Stats().Runs, len(spilled.runs), perLevel)
	}
	for l, n := range perLevel {
		if n >= 3 {
			t.Errorf("%d runs of level %d left unmerged", n, l)
		}
	}
	if ents, _ := filepath.Glob(filepath.Join(spilled.tmpDir, "*")); len(ents) != len(spilled.runs) {
		t.Errorf("%d files in the spill directory for %d runs", len(ents), len(spilled.runs))
	}
	a, b := collect(t, mem), collect(t, spilled)
	if len(a) != len(b) {
		t.Fatalf("%d vs %d TimeMaps", len(a), len(b))
	}
	for i := range a {
		if !reflect.DeepEqual(normTM(a[i]), normTM(b[i])) {
			t.Fatalf("TimeMap %d differs:\n%+v\n%+v", i, a[i], b[i])
		}
	}
	if !sort.SliceIsSorted(a, func(i, j int) bool { return a[i].Key < a[j].Key }) {
		t.Error("TimeMaps not in key order")
	}
	ents, _ := os.ReadDir(tmp)
	if len(ents) == 0 {
		t.Error("nothing spilled to TempDir")
	}
	spilled.Close()
	ents, _ = os.ReadDir(tmp)
	if len(ents) != 0 {
		t.Errorf("Close left %d entries in TempDir", len(ents))
	}
}

// normTM strips monotonic clock readings and locations so that TimeMaps from
// gob and from memory compare equal.
func normTM(tm *TimeMap) *TimeMap {
	c := *tm
	c.Captures = append([]Capture(nil), tm.Captures...)
	for i := range c.Captures {
		c.Captures[i].Time = c.Captures[i].Time.Round(0).UTC()
	}
	return &c
}

func TestIndexStatsAndErrors(t *testing.T) {
	files := []string{
		fixture(t, "warc/aut-example.warc.gz"),
		fixture(t, "arc/aut-badexample.arc.gz"),
		filepath.Join(t.TempDir(), "missing.warc.gz"),
	}
	idx, errs := buildIndex(t, files, IndexOptions{})
	st := idx.Stats()
	if st.Files != 3 || st.FilesFailed != 1 {
		t.Errorf("Files %d FilesFailed %d", st.Files, st.FilesFailed)
	}
	// The ARC's last record, cut short, is kept: 3 responses, 2 captures.
	if st.Records["metadata"] != 261 || st.Records["request"] != 261 || st.Records["response"] != 299+3 {
		t.Errorf("Records = %v", st.Records)
	}
	// 38 dns: responses in the WARC, 1 in the ARC.
	if st.NonHTTP != 39 {
		t.Errorf("NonHTTP = %d, want 39", st.NonHTTP)
	}
	if st.Captures != 299-38+2 {
		t.Errorf("Captures = %d, want %d", st.Captures, 299-38+2)
	}
	if st.Skipped != 3 || len(errs) != 4 {
		t.Errorf("Skipped %d, errors %v", st.Skipped, errs)
	}
	if _, err := BuildIndex(context.Background(), files[2:], IndexOptions{}); err == nil {
		t.Error("BuildIndex over only a missing file: no error")
	}
}

func TestIndexCanonNone(t *testing.T) {
	files := []string{fixture(t, "warc/pywb-example.warc.gz"), fixture(t, "warc/pywb-example-extra.warc")}
	idx, _ := buildIndex(t, files, IndexOptions{Canon: CanonNone})
	for _, tm := range collect(t, idx) {
		if tm.Key != tm.URIR {
			t.Errorf("CanonNone key %q for %q", tm.Key, tm.URIR)
		}
	}
}

func devCorpus(tb testing.TB) []string {
	testcorpus.SkipShort(tb, "corpus/dev")
	files, _ := filepath.Glob(filepath.Join(sharedDir(tb), "corpus", "dev", "*.warc.gz"))
	if len(files) == 0 {
		tb.Skip("dev corpus not found")
	}
	return files
}

func TestIndexDevCorpus(t *testing.T) {
	files := devCorpus(t)
	start := time.Now()
	idx, errs := buildIndex(t, files, IndexOptions{})
	el := time.Since(start)
	if len(errs) > 0 {
		t.Errorf("errors: %v", errs[:min(5, len(errs))])
	}
	st := idx.Stats()
	tms := collect(t, idx)
	t.Logf("%d files in %v: %+v, %d TimeMaps", len(files), el, st, len(tms))
	if st.Captures == 0 || len(tms) == 0 {
		t.Fatal("nothing indexed")
	}
	unresolved := 0
	for _, tm := range tms {
		for _, c := range tm.Captures {
			if c.Revisit && c.Payload.IsZero() {
				unresolved++
			}
		}
	}
	if unresolved > 0 {
		t.Errorf("%d unresolved revisits", unresolved)
	}
}

// BenchmarkBuildIndexDev is the index pass over the dev corpus.
func BenchmarkBuildIndexDev(b *testing.B) {
	files := devCorpus(b)
	b.ReportAllocs()
	for b.Loop() {
		idx, err := BuildIndex(context.Background(), files, IndexOptions{})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for range idx.Captures() {
			n++
		}
		idx.Close()
	}
}

// TestIndexNotes: every capture whose own record holds an HTTP payload and
// that WantsNote accepts gets the note of exactly its payload, in memory and
// through spilled runs (the note workers flush one entry at a time); other
// captures and revisits get none, and the captures are those of an index
// without notes.
func TestIndexNotes(t *testing.T) {
	testcorpus.SkipShort(t, "the pywb-iana and aut-example fixtures, three times")
	dir := filepath.Join(sharedDir(t), "fixtures", "warc")
	files := []string{filepath.Join(dir, "pywb-iana.warc.gz"), filepath.Join(dir, "pywb-dupes.warc.gz"), filepath.Join(dir, "aut-example.warc.gz")}
	plain, _ := buildIndex(t, files, IndexOptions{})
	want := collect(t, plain)
	wants := func(c *Capture) bool { return c.Status == 200 }
	note := func(c *Capture, h http.Header, body []byte) []byte {
		return fmt.Appendf(nil, "%s %s %d %x", c.URIR, h.Get("Content-Type"), len(body), sha256.Sum256(body))
	}
	for _, opts := range []IndexOptions{
		{Note: note, WantsNote: wants},
		{Note: note, WantsNote: wants, MaxInMemory: 5, TempDir: t.TempDir(), Workers: 3, fanIn: 3},
	} {
		idx, _ := buildIndex(t, files, opts)
		got := collect(t, idx)
		if len(got) != len(want) {
			t.Fatalf("%d TimeMaps with notes, %d without", len(got), len(want))
		}
		noted := 0
		for i, tm := range got {
			for j, c := range tm.Captures {
				if c.Revisit || c.Status != 200 {
					if c.Note != "" {
						t.Errorf("%s %s: note %q on a revisit or non-200 capture", c.URIR, c.Timestamp14(), c.Note)
					}
				} else if c.Note != "" {
					noted++
					r, err := ReadResponse(c.Loc, 0)
					if err != nil {
						t.Fatalf("%s: %v", c.URIR, err)
					}
					if w := string(note(&c, r.Header, r.Body)); c.Note != w {
						t.Errorf("%s %s: note %q, want %q", c.URIR, c.Timestamp14(), c.Note, w)
					}
				}
				c.Note = ""
				if !reflect.DeepEqual(c, want[i].Captures[j]) {
					t.Errorf("capture %+v, without notes %+v", c, want[i].Captures[j])
				}
			}
		}
		if noted < 20 {
			t.Errorf("only %d captures got a note", noted)
		}
	}
}

// keeper gathers what an index kept, by file.
type keeper struct {
	entries map[int][]Entry
	read    map[int]bool
}

func (k *keeper) Keep(file int, e Entry)    { k.entries[file] = append(k.entries[file], e) }
func (k *keeper) Read(file int, whole bool) { k.read[file] = whole }

// TestIndexRecall: the entries Keep hears of a run, given back by Recall
// for some files (under other paths, in another order of files), make the
// TimeMaps of reading every file, notes, revisits across files and all;
// recalled files are not opened and not kept again.
func TestIndexRecall(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "fixtures", "warc")
	files := []string{filepath.Join(dir, "pywb-iana.warc.gz"), filepath.Join(dir, "pywb-dupes.warc.gz"), filepath.Join(dir, "aut-example.warc.gz")}
	note := func(c *Capture, h http.Header, body []byte) []byte {
		return fmt.Appendf(nil, "%s %d %x", c.URIR, len(body), sha256.Sum256(body))
	}
	first := &keeper{entries: map[int][]Entry{}, read: map[int]bool{}}
	buildIndex(t, files, IndexOptions{Note: note, Keep: first, MaxInMemory: 7, TempDir: t.TempDir(), fanIn: 3})
	for i := range files {
		if !first.read[i] || len(first.entries[i]) == 0 {
			t.Fatalf("file %d: read whole %v, %d entries kept", i, first.read[i], len(first.entries[i]))
		}
	}
	// The second run names the files in another order; two are recalled,
	// one of them from a copy that Recall must not open (its path is gone).
	moved := filepath.Join(t.TempDir(), "gone.warc.gz")
	second := []string{files[2], moved, files[0]}
	recalled := map[int][]Entry{1: first.entries[1], 2: first.entries[0]}
	again := &keeper{entries: map[int][]Entry{}, read: map[int]bool{}}
	idx, errs := buildIndex(t, second, IndexOptions{Note: note, Keep: again, Recall: func(fi int, path string) ([]Entry, bool) {
		es, ok := recalled[fi]
		return es, ok
	}})
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if len(again.entries) != 1 || len(again.entries[0]) == 0 || len(again.read) != 1 {
		t.Errorf("kept %d files' entries, heard %d read: want the one file read", len(again.entries), len(again.read))
	}
	got := collect(t, idx)
	want := collect(t, func() *Index {
		// What reading the files gives, with the copy at its new path.
		idx, _ := buildIndex(t, []string{files[2], files[1], files[0]}, IndexOptions{Note: note})
		return idx
	}())
	if len(got) != len(want) {
		t.Fatalf("%d TimeMaps recalled, %d read", len(got), len(want))
	}
	for i := range got {
		for j := range want[i].Captures {
			w := want[i].Captures[j]
			for _, l := range []*Location{&w.Loc, &w.Payload} {
				if l.File == files[1] {
					l.File = moved
				}
			}
			if !reflect.DeepEqual(got[i].Captures[j], w) {
				t.Fatalf("TimeMap %s capture %d:\n got %+v\nwant %+v", got[i].Key, j, got[i].Captures[j], w)
			}
		}
	}
}
