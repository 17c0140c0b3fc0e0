package timemap

import (
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
