package timemap

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

func TestReadSeeds(t *testing.T) {
	in := `# a seed list
http://www.Example.com/news/
  https://example.org/a?b=2&a=1   # trailing comment field
com,surt)/
org,wildcard,*
http://prefix.net/blog*

net,host)
`
	s, err := ReadSeeds(strings.NewReader(in), "seeds.txt", CanonSURT)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 6 {
		t.Errorf("Len %d, want 6", s.Len())
	}
	tests := []struct {
		key  string
		want bool
	}{
		{"com,example)/news", true},
		{"com,example)/news/more", false},
		{"com,example)/", false},
		{"org,example)/a?a=1&b=2", true},
		{"org,example)/a", false},
		{"com,surt)/", true},
		{"com,surt)/page", true},
		{"com,surt,www2)/", false},
		{"org,wildcard,www)/x", true},
		{"org,wildcard)/", false},
		{"net,prefix)/blog", true},
		{"net,prefix)/blog/2005/post", true},
		{"net,prefix)/blogroll", true},
		{"net,prefix)/", false},
		{"net,host)/anything", true},
		{"net,hostess)/", false},
	}
	for _, tt := range tests {
		if got := s.Match(tt.key); got != tt.want {
			t.Errorf("Match(%q) = %v, want %v", tt.key, got, tt.want)
		}
	}
	for _, bad := range []string{"ok.com\n*\n"} {
		_, err := ReadSeeds(strings.NewReader(bad), "bad.txt", CanonSURT)
		if err == nil || !strings.Contains(err.Error(), "bad.txt:2") {
			t.Errorf("ReadSeeds(%q) error %v, want one naming bad.txt:2", bad, err)
		}
	}
	// Nested prefixes and covered exact keys collapse.
	n := NewSeeds(CanonSURT, "com,a)/", "com,a)/b", "http://a.com/c", "http://b.com/")
	if got := fmt.Sprint(n.ranges()); got != "[{com,a)/ true} {com,b)/ false}]" {
		t.Errorf("ranges %s", got)
	}
}

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// devCDXJ writes a CDXJ of the dev corpus with BuildIndex and WriteCDXJ
// into a temp dir and returns its path and the corpus dir.
func devCDXJ(t *testing.T) (string, string, []*TimeMap) {
	t.Helper()
	testcorpus.SkipShort(t, "corpus/dev, indexed")
	dir := filepath.Join(sharedDir(t), "corpus", "dev")
	warcs, err := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if err != nil || len(warcs) == 0 {
		t.Skipf("no dev corpus in %s", dir)
	}
	idx, _ := buildIndex(t, warcs, IndexOptions{})
	path := filepath.Join(t.TempDir(), "dev.cdxj")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteCDXJ(f, idx.Captures()); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path, dir, collect(t, idx)
}

func TestSearchLinesReadsLittle(t *testing.T) {
	path, _, tms := devCDXJ(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, nseeds := range []int{1, 10, 40} {
		var entries []string
		for range nseeds {
			tm := tms[rng.IntN(len(tms))]
			entries = append(entries, tm.URIR)
		}
		seeds := NewSeeds(CanonSURT, entries...)
		var want []string
		for _, line := range strings.SplitAfter(string(data), "\n") {
			if line != "" && seeds.Match(string(lineKey([]byte(line)))) {
				want = append(want, line)
			}
		}
		ra := &countingReaderAt{r: bytes.NewReader(data)}
		var got []string
		err := searchLines(ra, int64(len(data)), seeds.ranges(), func(off int64, line []byte) bool {
			if !bytes.HasPrefix(data[off:], line) {
				t.Errorf("line at %d is not the file's", off)
			}
			got = append(got, string(line))
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%d seeds: %d lines found, want %d", nseeds, len(got), len(want))
		}
		read := ra.n.Load()
		t.Logf("%d seeds: %d lines, read %d of %d bytes (%.1f%%)", nseeds, len(got), read, len(data), 100*float64(read)/float64(len(data)))
		if read > int64(len(data))/4 {
			t.Errorf("%d seeds: binary search read %d bytes of %d", nseeds, read, len(data))
		}
	}
}

func TestSeekKey(t *testing.T) {
	var b strings.Builder
	b.WriteString(" CDX N b a\n")
	for i := 0; i < 5000; i += 1 + i%3 {
		for range 1 + i%2 {
			fmt.Fprintf(&b, "com,k%05d)/ 20050101000000 http://k%05d.com/\n", i, i)
		}
	}
	data := []byte(b.String())
	exact := func(target string) int64 { // first line with key >= target
		off := int64(0)
		for _, line := range strings.SplitAfter(string(data), "\n") {
			if line != "" && line[0] != ' ' && string(lineKey([]byte(line))) >= target {
				return off
			}
			off += int64(len(line))
		}
		return int64(len(data))
	}
	for _, target := range []string{"", "a", "com,k00000)/", "com,k00001)/", "com,k02500)/", "com,k02501)/", "com,k04999)/", "com,k05000)/", "z"} {
		want := exact(target)
		got, err := seekKey(bytes.NewReader(data), 0, int64(len(data)), target)
		if err != nil {
			t.Fatal(err)
		}
		if got > want || want-got > probeSize+64 || got > 0 && data[got-1] != '\n' {
			t.Errorf("seekKey(%q) = %d, want a line start at most %d bytes before %d", target, got, probeSize+64, want)
		}
	}
}

func TestCDXIndexSelect(t *testing.T) {
	path, dir, tms := devCDXJ(t)
	sf, err := os.Open(filepath.Join(dir, "seeds.txt"))
	if err != nil {
		t.Skip(err)
	}
	defer sf.Close()
	all, err := ReadSeeds(sf, "seeds.txt", CanonSURT)
	if err != nil {
		t.Fatal(err)
	}
	// gzipped copy: no binary search, a scan with skipping.
	gzPath := path + ".gz"
	raw, _ := os.ReadFile(path)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(raw)
	zw.Close()
	if err := os.WriteFile(gzPath, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var some []string
	for i, tm := range tms {
		if i%37 == 0 {
			some = append(some, tm.URIR)
		}
	}
	tests := []struct {
		name  string
		seeds *Seeds
	}{
		{"corpus seeds.txt", all},
		{"every 37th URI-R", NewSeeds(CanonSURT, some...)},
		{"SURT prefix and URL with *", NewSeeds(CanonSURT, "uk,org,", "http://www.dailydigest80.org/news/*")},
	}
	for _, tt := range tests {
		var want []string
		for _, tm := range tms {
			if tt.seeds.Match(tm.Key) {
				want = append(want, timeMapLines([]*TimeMap{tm}, captureLine)...)
			}
		}
		if len(want) == 0 {
			t.Errorf("%s: selects nothing", tt.name)
		}
		for _, p := range []string{path, gzPath} {
			t.Run(tt.name+"/"+filepath.Ext(p), func(t *testing.T) {
				idx, errp := openIndex(t, []string{p}, CDXOptions{WARCDir: dir})
				idx.Select(tt.seeds)
				got := timeMapLines(collect(t, idx), captureLine)
				diffLines(t, got, want)
				if len(*errp) > 0 {
					t.Errorf("errors: %v", (*errp)[:min(5, len(*errp))])
				}
			})
		}
	}
}

func TestCDXIndexCancel(t *testing.T) {
	path, dir, _ := devCDXJ(t)
	idx, _ := openIndex(t, []string{path}, CDXOptions{WARCDir: dir})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	var last error
	for _, err := range idx.TimeMaps(ctx) {
		if err != nil {
			last = err
			break
		}
		if n++; n == 3 {
			cancel()
		}
	}
	if last == nil || n != 3 {
		t.Errorf("after cancel: %d TimeMaps, error %v", n, last)
	}
}
