package timemap

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestDamagedStartResynchronises damages the start of gzipped and plain
// WARC and ARC files (issue 23 item 1): one stray byte before the first
// gzip member, or a flipped first byte, used to lose the whole file as
// "garbage at end of file". The reader now finds the first gzip member or
// record further on, reports the bytes before it with the file and offset
// 0, and reads every record after them; each record is found again at the
// location it is reported at.
func TestDamagedStartResynchronises(t *testing.T) {
	stray := func(b []byte) []byte { return append([]byte{'x'}, b...) }
	flip := func(b []byte) []byte {
		b = bytes.Clone(b)
		b[0] ^= 0x5a
		return b
	}
	for _, tc := range []struct {
		name, fixture, ext string
		damage             func([]byte) []byte
		lost               int    // records lost with the damaged member
		msg                string // in the one record error, at offset 0
	}{
		{"warc.gz stray byte", "warc/pywb-example.warc.gz", ".warc.gz", stray, 0, "1 bytes of garbage before the first gzip member"},
		{"warc.gz flipped first byte", "warc/pywb-example.warc.gz", ".warc.gz", flip, 1, "garbage before the first gzip member"},
		{"big warc.gz stray byte", "warc/aut-example.warc.gz", ".warc.gz", stray, 0, "1 bytes of garbage before the first gzip member"},
		{"arc.gz stray byte", "arc/pywb-example.arc.gz", ".arc.gz", stray, 0, "1 bytes of garbage before the first gzip member"},
		{"arc.gz flipped first byte", "arc/pywb-example.arc.gz", ".arc.gz", flip, 1, "garbage before the first gzip member"},
		{"big arc.gz stray byte", "arc/aut-example.arc.gz", ".arc.gz", stray, 0, "1 bytes of garbage before the first gzip member"},
		{"plain warc stray byte", "warc/pywb-example.warc", ".warc", stray, 0, "1 bytes of garbage before the record at offset 1"},
		{"gzip magic as name sniff bait", "warc/pywb-example.warc.gz", ".bin", stray, 0, "1 bytes of garbage before the first gzip member"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := os.ReadFile(fixture(t, tc.fixture))
			if err != nil {
				t.Fatal(err)
			}
			clean, cerrs := readAll(t, fixture(t, tc.fixture))
			p := writeTemp(t, "damaged"+tc.ext, tc.damage(src))
			got, rerrs := readAll(t, p)
			if n := len(rerrs) - len(cerrs); n != 1 {
				t.Fatalf("%d record errors more than the clean file, want 1: %v", n, rerrs)
			}
			if e := rerrs[0]; e.Offset != 0 || e.File != p || !strings.Contains(e.Error(), tc.msg) {
				t.Errorf("record error %v, want %q at offset 0 of %s", e, tc.msg, p)
			}
			if want := len(clean) - tc.lost; len(got) != want {
				t.Fatalf("%d records read, want %d of %d", len(got), want, len(clean))
			}
			for i, r := range got {
				c := clean[i+tc.lost]
				if r.TargetURI != c.TargetURI || r.Type != c.Type || !bytes.Equal(r.Payload, c.Payload) {
					t.Fatalf("record %d: %s %s, want %s %s", i, r.Type, r.TargetURI, c.Type, c.TargetURI)
				}
			}
			// The last record is found again where it is said to be.
			last := got[len(got)-1]
			resp, err := ReadResponse(last.Loc, -1)
			if err != nil {
				t.Fatalf("ReadResponse(%+v): %v", last.Loc, err)
			}
			if resp.Record.TargetURI != last.TargetURI {
				t.Errorf("ReadResponse(%+v) read %s, want %s", last.Loc, resp.Record.TargetURI, last.TargetURI)
			}
		})
	}
}
