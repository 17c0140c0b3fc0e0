package timemap

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestCompressedRefused: WARCs compressed with zstd (as jwarc writes
// them), bzip2 or xz are refused whole with an error that names the
// compression, never read as garbage; the index goes on with the other
// files and counts them as failed (issue 38, 8).
func TestCompressedRefused(t *testing.T) {
	files := []string{"../testdata/sample/SAMPLE-LIGHTS-20090415093000-00001.warc.gz"}
	for _, tt := range []struct{ file, want string }{
		{"sample.warc.zst", "zstd"},
		{"sample.warc.bz2", "bzip2"},
		{"sample.warc.xz", "xz"},
	} {
		path := filepath.Join("testdata", "compressed", tt.file)
		files = append(files, path)
		_, err := OpenRecords(path, ReadOptions{})
		var ce *CompressionError
		if !errors.As(err, &ce) || ce.Compression != tt.want {
			t.Errorf("%s: %v, want it refused as %s", tt.file, err, tt.want)
		}
	}
	// A .warc.zst may start with its dictionary in a skippable frame.
	dict := filepath.Join(t.TempDir(), "dict.warc.zst")
	if err := os.WriteFile(dict, []byte{0x5d, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 0x37, 0xa4, 0x30, 0xec}, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenRecords(dict, ReadOptions{}); !errors.As(err, new(*CompressionError)) {
		t.Errorf("a .warc.zst opening with its dictionary: %v", err)
	}
	var reported []error
	idx, err := BuildIndex(context.Background(), files, IndexOptions{TempDir: t.TempDir(), OnError: func(err error) { reported = append(reported, err) }})
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if st := idx.Stats(); st.FilesFailed != 3 || st.Captures == 0 || len(reported) != 3 {
		t.Errorf("%d files failed, %d captures, %d reported: want the three refused and the gzipped one read", st.FilesFailed, st.Captures, len(reported))
	}
}
