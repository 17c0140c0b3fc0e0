package timemap

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestCompressedRefused: WARCs compressed with bzip2 or xz, and zstd files
// that are no WARC of zstd frames, are refused whole with an error that
// names the compression, never read as garbage; the index goes on with the
// other files and counts them as failed (issue 38, 8).
func TestCompressedRefused(t *testing.T) {
	files := []string{"../testdata/sample/SAMPLE-LIGHTS-20090415093000-00001.warc.gz"}
	for _, tt := range []struct{ file, want string }{
		{"sample.warc.bz2", "bzip2"},
		{"sample.warc.xz", "xz"},
		{"text.zst", "zstd"},
	} {
		path := filepath.Join("testdata", "compressed", tt.file)
		files = append(files, path)
		_, err := OpenRecords(path, ReadOptions{})
		var ce *CompressionError
		if !errors.As(err, &ce) || ce.Compression != tt.want {
			t.Errorf("%s: %v, want it refused as %s", tt.file, err, tt.want)
		}
	}
	// A file of a dictionary frame and nothing else.
	dict := filepath.Join(t.TempDir(), "dict.warc.zst")
	if err := os.WriteFile(dict, []byte{0x5d, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 0x37, 0xa4, 0x30, 0xec}, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenRecords(dict, ReadOptions{}); !errors.As(err, new(*CompressionError)) {
		t.Errorf("a .warc.zst of a dictionary alone: %v", err)
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

// TestZstdWARC: a WARC of zstd frames is read as the same records in gzip
// are: one frame for the whole file (zstd's command line), one per record
// (jwarc), one per record with the dictionary in a skippable frame first
// (the IIPC's WARC zstd specification); every payload reads back by its
// location as the gzipped file's does (issue 38, 8).
func TestZstdWARC(t *testing.T) {
	gz, err := filepath.Glob("../testdata/sample/*.warc.gz")
	if err != nil || len(gz) != 3 {
		t.Fatalf("sample files %v: %v", gz, err)
	}
	payloads := func(files []string) []string {
		idx, err := BuildIndex(context.Background(), files, IndexOptions{TempDir: t.TempDir(), OnError: func(err error) { t.Errorf("%v", err) }})
		if err != nil {
			t.Fatal(err)
		}
		defer idx.Close()
		var out []string
		for c := range idx.Captures() {
			r, err := ReadResponse(c.Payload, 0)
			if err != nil {
				t.Fatalf("%s %s: %v", c.URIR, c.Timestamp14(), err)
			}
			out = append(out, c.URIR+" "+c.Timestamp14()+" "+string(r.Body))
		}
		slices.Sort(out)
		return out
	}
	want := payloads(gz)
	for _, tt := range []struct {
		file  string
		files []string
	}{
		{"sample.warc.zst", []string{gz[2]}}, // of SAMPLE-LIGHTS-20110620140000-00002
		{"sample-frames.warc.zst", gz},
		{"sample-dict.warc.zst", gz},
	} {
		path := filepath.Join("testdata", "compressed", tt.file)
		rr, err := OpenRecords(path, ReadOptions{})
		if err != nil || !rr.Zstd() {
			t.Fatalf("%s: %v", tt.file, err)
		}
		rr.Close()
		got, want := payloads([]string{path}), payloads(tt.files)
		if len(got) == 0 || !slices.EqualFunc(got, want, func(a, b string) bool { return bytes.Equal([]byte(a), []byte(b)) }) {
			t.Errorf("%s: %d captures read back differ from the gzipped files' %d", tt.file, len(got), len(want))
		}
	}
	if len(want) == 0 {
		t.Error("no captures in the sample")
	}
}
