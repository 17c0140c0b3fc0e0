package timemap

import (
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
