package timemap

import (
	"context"
	"errors"
	"iter"
	"slices"
	"testing"
)

func TestArchiveItCollection(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"ARCHIVEIT-1068-QUARTERLY-JOB12345-20080515181405-00000.warc.gz", "1068"},
		{"/data/coll/ARCHIVEIT-3001-CRAWL-20050110033641-00000.warc.gz", "3001"},
		{"ARCHIVEIT-4200-TEST-JOB1-SEED2-20121019.arc.gz", "4200"},
		{"archiveit-1068-x.warc.gz", ""}, // Archive-It's names are upper case
		{"ARCHIVEIT-notanid-x.warc.gz", ""},
		{"/data/ARCHIVEIT-1068-x/crawl.warc.gz", ""}, // the file's name, not its folder's
		{"crawl-20080515.warc.gz", ""},
	} {
		if got := ArchiveItCollection(tc.path); got != tc.want {
			t.Errorf("ArchiveItCollection(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
	got := Collections([]string{"ARCHIVEIT-3002-a.warc.gz", "x.warc.gz", "ARCHIVEIT-3001-b.warc.gz", "ARCHIVEIT-3002-c.warc.gz"})
	if want := []string{"", "3001", "3002"}; !slices.Equal(got, want) {
		t.Errorf("Collections = %q, want %q", got, want)
	}
}

// capturesIn yields TimeMaps whose captures were read from the files named,
// one file per capture, and an error after the first TimeMap.
type capturesIn map[string][]string

func (c capturesIn) TimeMaps(context.Context) iter.Seq2[*TimeMap, error] {
	return func(yield func(*TimeMap, error) bool) {
		keys := make([]string, 0, len(c))
		for k := range c {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			tm := &TimeMap{Key: k}
			for _, f := range c[k] {
				tm.Captures = append(tm.Captures, Capture{Key: k, Loc: Location{File: f}})
			}
			if !yield(tm, nil) {
				return
			}
			if i == 0 && !yield(nil, errors.New("broken")) {
				return
			}
		}
	}
}

// TestSelectCollection: each collection gets its own files' captures; a
// TimeMap with none is left out, and errors pass.
func TestSelectCollection(t *testing.T) {
	src := capturesIn{
		"com,a)/": {"/w/ARCHIVEIT-1-a.warc.gz", "/w/ARCHIVEIT-2-a.warc.gz", "/w/ARCHIVEIT-1-b.warc.gz"},
		"com,b)/": {"/w/ARCHIVEIT-2-a.warc.gz"},
		"com,c)/": {"/w/other.warc.gz"},
	}
	for _, tc := range []struct {
		id   string
		want map[string][]string
	}{
		{"1", map[string][]string{"com,a)/": {"/w/ARCHIVEIT-1-a.warc.gz", "/w/ARCHIVEIT-1-b.warc.gz"}}},
		{"2", map[string][]string{"com,a)/": {"/w/ARCHIVEIT-2-a.warc.gz"}, "com,b)/": {"/w/ARCHIVEIT-2-a.warc.gz"}}},
		{"", map[string][]string{"com,c)/": {"/w/other.warc.gz"}}},
		{"3", map[string][]string{}},
	} {
		got := map[string][]string{}
		errs := 0
		for tm, err := range SelectCollection(src, tc.id).TimeMaps(context.Background()) {
			if err != nil {
				errs++
				continue
			}
			for _, c := range tm.Captures {
				got[tm.Key] = append(got[tm.Key], c.Loc.File)
			}
		}
		if len(got) != len(tc.want) || errs != 1 {
			t.Errorf("collection %q: %v and %d errors, want %v and 1", tc.id, got, errs, tc.want)
			continue
		}
		for k, files := range tc.want {
			if !slices.Equal(got[k], files) {
				t.Errorf("collection %q, %s: %v, want %v", tc.id, k, got[k], files)
			}
		}
	}
}
