package timemap

import (
	"context"
	"iter"
	"path/filepath"
	"regexp"
	"slices"
)

// archiveItName is how Archive-It names the WARC files of a collection's
// crawls: ARCHIVEIT-<collection id>-<crawl>-...
var archiveItName = regexp.MustCompile(`^ARCHIVEIT-([0-9]+)-`)

// ArchiveItCollection returns the Archive-It collection id that a WARC or
// ARC file's name carries, "" when the name does not follow Archive-It's.
func ArchiveItCollection(path string) string {
	if m := archiveItName.FindStringSubmatch(filepath.Base(path)); m != nil {
		return m[1]
	}
	return ""
}

// Collections returns the Archive-It collection ids of files, sorted, ""
// standing for the files whose names carry none.
func Collections(files []string) []string {
	var ids []string
	for _, f := range files {
		if id := ArchiveItCollection(f); !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// SelectCollection is src with only the captures read from files of
// Archive-It collection id ("": files whose names carry none); TimeMaps left
// without captures are dropped, errors pass.
func SelectCollection(src Source, id string) Source {
	return collectionFilter{src, id}
}

type collectionFilter struct {
	src Source
	id  string
}

func (f collectionFilter) TimeMaps(ctx context.Context) iter.Seq2[*TimeMap, error] {
	return func(yield func(*TimeMap, error) bool) {
		for tm, err := range f.src.TimeMaps(ctx) {
			if err == nil {
				if tm = f.keep(tm); tm == nil {
					continue
				}
			}
			if !yield(tm, err) {
				return
			}
		}
	}
}

// keep returns tm with the collection's captures only (tm itself when it
// has no other), nil when it has none.
func (f collectionFilter) keep(tm *TimeMap) *TimeMap {
	in := func(c Capture) bool { return ArchiveItCollection(c.Loc.File) == f.id }
	if !slices.ContainsFunc(tm.Captures, func(c Capture) bool { return !in(c) }) {
		return tm
	}
	out := *tm
	out.Captures = nil
	for _, c := range tm.Captures {
		if in(c) {
			out.Captures = append(out.Captures, c)
		}
	}
	if len(out.Captures) == 0 {
		return nil
	}
	return &out
}
