package prune

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// members splits a per-record gzip file into its members.
func members(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var out [][]byte
	br := bytes.NewReader(b)
	for br.Len() > 0 {
		start := len(b) - br.Len()
		zr, err := gzip.NewReader(br)
		if err != nil {
			t.Fatal(err)
		}
		zr.Multistream(false)
		if _, err := io.Copy(io.Discard, zr); err != nil {
			t.Fatal(err)
		}
		out = append(out, b[start:len(b)-br.Len()])
	}
	return out
}

func gz(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

// readBack counts the records of path and fails on any record error.
func readBack(t *testing.T, path string) int {
	t.Helper()
	rr, err := timemap.OpenRecords(path, timemap.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	n := 0
	for {
		_, err := rr.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatalf("copy %s is damaged: %v", path, err)
		}
		n++
	}
}

// TestCopyLeavesDamageOut prunes damaged copies of a sample file with
// nothing off-topic (issue 12 item 14): the damaged stretch is left out and
// listed with its offset, the copy reads back clean with every other record,
// and with KeepDamaged the copy is the input byte for byte.
func TestCopyLeavesDamageOut(t *testing.T) {
	src, err := os.ReadFile(sampleFiles(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	ms := members(t, src)
	if len(ms) < 5 {
		t.Fatalf("%d members", len(ms))
	}
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	rest := func(from int) []byte { return join(ms[from:]...) }
	corrupt := append([]byte(nil), ms[2]...)
	for i := 20; i < len(corrupt)-20; i += 7 {
		corrupt[i] ^= 0xff
	}
	huge := gz("WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://example.com/huge\r\nWARC-Date: 2008-03-12T10:15:00Z\r\n" +
		"Content-Type: text/plain\r\nContent-Length: 2147483648\r\n\r\nnot that much\r\n\r\n")
	off2 := len(join(ms[:2]...))
	tests := []struct {
		name string
		file []byte
		off  int // where the damage starts
		recs int // records the copy holds
	}{
		{"cut last member", join(join(ms[:len(ms)-1]...), ms[len(ms)-1][:len(ms[len(ms)-1])/2]), len(src) - len(ms[len(ms)-1]), len(ms) - 1},
		{"corrupt deflate member", join(join(ms[:2]...), corrupt, rest(3)), off2, len(ms) - 1},
		{"junk between members", join(join(ms[:2]...), bytes.Repeat([]byte("junk "), 100), rest(2)), off2, len(ms)},
		{"record claiming 2 GB", join(join(ms[:2]...), huge, rest(2)), off2, len(ms)},
		// Issue 23 item 1: damage before the first member lost the whole
		// file and the copy was written empty.
		{"stray byte before the first member", join([]byte{'x'}, src), 0, len(ms)},
		{"flipped first byte", join([]byte{src[0] ^ 0x5a}, src[1:]), 0, len(ms) - 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := filepath.Join(t.TempDir(), "damaged.warc.gz")
			if err := os.WriteFile(in, tc.file, 0o644); err != nil {
				t.Fatal(err)
			}
			plan, _ := NewPlan(seq(nil), nil, UnsureKeep)
			out := filepath.Join(t.TempDir(), "clean")
			sum, err := Copy(context.Background(), plan, []string{in}, out)
			if err != nil {
				t.Fatal(err)
			}
			if len(sum.Damaged) != 1 || sum.Damaged[0].Offset != int64(tc.off) || len(sum.Excluded) != 1 {
				t.Fatalf("damaged %+v, excluded %+v; want one stretch at %d, left out", sum.Damaged, sum.Excluded, tc.off)
			}
			fc := sum.Files[0]
			if fc.Unreadable != 1 || fc.Excluded != 1 || fc.Kept != tc.recs {
				t.Errorf("counts %+v, want 1 unreadable excluded and %d kept", fc, tc.recs)
			}
			if n := readBack(t, filepath.Join(out, "damaged.warc.gz")); n != tc.recs {
				t.Errorf("copy holds %d records, want %d", n, tc.recs)
			}
			tsv, _ := os.ReadFile(filepath.Join(out, "excluded.tsv"))
			if !strings.Contains(string(tsv), fmt.Sprintf("\tdamaged\tdamaged.warc.gz\t%d\t", tc.off)) {
				t.Errorf("excluded.tsv does not list the damage at %d:\n%s", tc.off, tsv)
			}

			plan.KeepDamaged = true
			out2 := filepath.Join(t.TempDir(), "kept")
			if _, err := Copy(context.Background(), plan, []string{in}, out2); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(filepath.Join(out2, "damaged.warc.gz")); !bytes.Equal(b, tc.file) {
				t.Errorf("with KeepDamaged the copy (%d bytes) differs from the input (%d)", len(b), len(tc.file))
			}
		})
	}
}

// TestCopyDirRespectsUmask: the output directory gets 0777 less the umask,
// not the 0700 of a temporary directory (issue 12 item 15), and what a killed
// run left beside it is removed.
func TestCopyDirRespectsUmask(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	parent := t.TempDir()
	stale := filepath.Join(parent, ".clean.partial-42")
	if err := os.Mkdir(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	plan, _ := NewPlan(seq(nil), nil, UnsureKeep)
	out := filepath.Join(parent, "clean")
	if _, err := Copy(context.Background(), plan, sampleFiles(t), out); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o755 {
		t.Errorf("output directory mode %o, want 0755", got)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale partial output left: %v", err)
	}
}

// TestPlanCuratorDecisionOnReplayedPayload (issue 12 item 16): an original
// that an on-topic revisit replays stays when its off-topic verdict is
// automatic or the curator decided the revisit on-topic, and the plan says
// so; when only the original was decided off-topic by a curator, the
// decision wins and the revisit goes too. Excluded() is what is left out.
func TestPlanCuratorDecisionOnReplayedPayload(t *testing.T) {
	t0 := time.Date(2008, 3, 12, 10, 15, 0, 0, time.UTC)
	orig := timemap.Location{File: "a.warc.gz", Offset: 100}
	rev := timemap.Location{File: "a.warc.gz", Offset: 900}
	results := func(origVerdict string) []*similarity.TimeMapResult {
		return []*similarity.TimeMapResult{{Key: "org,example)/", URIR: "http://example.org/", Captures: []similarity.CaptureResult{
			{URIR: "http://example.org/", URIM: "http://a/20080312101500/http://example.org/", Datetime: t0, Loc: orig, Payload: orig, Verdict: origVerdict},
			{URIR: "http://example.org/", URIM: "http://a/20090312101500/http://example.org/", Datetime: t0.AddDate(1, 0, 0), Loc: rev, Payload: orig, Revisit: true, Verdict: similarity.VerdictOn},
		}}}
	}
	key := func(ts string) similarity.GoldKey { return similarity.GoldKey{Key: "org,example)/", TS: ts} }
	tests := []struct {
		name               string
		verdict            string
		decisions          map[similarity.GoldKey]string
		origOut, revOut    bool
		kept, also, offTop int
		because            string
	}{
		{"automatic off-topic original stays", similarity.VerdictOff, nil, false, false, 1, 0, 1, "on-topic verdict"},
		{"curator's off-topic decision wins", similarity.VerdictOn, map[similarity.GoldKey]string{key("20080312101500"): similarity.VerdictOff}, true, true, 0, 1, 1, ""},
		{"curator decided both", similarity.VerdictOn, map[similarity.GoldKey]string{key("20080312101500"): similarity.VerdictOff, key("20090312101500"): similarity.VerdictOn}, false, false, 1, 0, 1, "curator's on-topic decision"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPlan(seq(results(tc.verdict)), tc.decisions, UnsureKeep)
			if err != nil {
				t.Fatal(err)
			}
			_, origOut := p.excludes(orig)
			_, revOut := p.excludes(rev)
			if origOut != tc.origOut || revOut != tc.revOut {
				t.Errorf("original left out %v, revisit left out %v; want %v, %v", origOut, revOut, tc.origOut, tc.revOut)
			}
			if len(p.KeptOff) != tc.kept || len(p.AlsoOff) != tc.also || p.OffTopic != tc.offTop {
				t.Errorf("kept %v, also off %v, off-topic %d", p.KeptOff, p.AlsoOff, p.OffTopic)
			}
			want := 0
			for _, out := range []bool{origOut, revOut} {
				if out {
					want++
				}
			}
			if p.Excluded() != want {
				t.Errorf("Excluded() = %d, %d records left out", p.Excluded(), want)
			}
			if tc.kept > 0 && (!strings.Contains(p.KeptOff[0].Because, tc.because) || !strings.Contains(p.KeptOff[0].Because, "20090312101500")) {
				t.Errorf("kept because %q, want the revisit's URI-M and %q", p.KeptOff[0].Because, tc.because)
			}
		})
	}
}

// TestPlanUnsure (issue 24 item 3): a capture a curator marked unsure is
// kept by default whatever its verdict, left to its verdict or left out as
// asked, and counted.
func TestPlanUnsure(t *testing.T) {
	t0 := time.Date(2008, 3, 12, 10, 15, 0, 0, time.UTC)
	loc := timemap.Location{File: "a.warc.gz", Offset: 100}
	key := similarity.GoldKey{Key: "org,example)/", TS: "20080312101500"}
	for _, tc := range []struct {
		verdict string
		unsure  Unsure
		out     bool
	}{
		{similarity.VerdictOff, UnsureKeep, false},
		{similarity.VerdictOff, UnsureVerdict, true},
		{similarity.VerdictOn, UnsureVerdict, false},
		{similarity.VerdictOn, UnsureOff, true},
	} {
		res := []*similarity.TimeMapResult{{Key: key.Key, URIR: "http://example.org/", Captures: []similarity.CaptureResult{
			{URIR: "http://example.org/", URIM: "http://a/20080312101500/http://example.org/", Datetime: t0, Loc: loc, Payload: loc, Verdict: tc.verdict}}}}
		p, err := NewPlan(seq(res), map[similarity.GoldKey]string{key: DecisionUnsure}, tc.unsure)
		if err != nil {
			t.Fatal(err)
		}
		if _, out := p.excludes(loc); out != tc.out || p.Unsure != 1 {
			t.Errorf("%s, unsure %d: left out %v (want %v), %d unsure counted", tc.verdict, tc.unsure, out, tc.out, p.Unsure)
		}
	}
	for s, want := range map[string]Unsure{"keep": UnsureKeep, "verdict": UnsureVerdict, "off": UnsureOff} {
		if got, err := ParseUnsure(s); err != nil || got != want {
			t.Errorf("ParseUnsure(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseUnsure("maybe"); err == nil {
		t.Error("ParseUnsure accepted maybe")
	}
}

// TestCopyRecordsAcrossMembers prunes a file whose writer cut gzip members
// at fixed sizes, records going on from one member to the next (issue 23
// item 2): every record is kept and the copy reads back whole.
func TestCopyRecordsAcrossMembers(t *testing.T) {
	src, err := os.ReadFile(sampleFiles(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	want := len(members(t, src))
	for _, size := range []int{1000, 7777} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			var b bytes.Buffer
			for p := plain; len(p) > 0; {
				n := min(size, len(p))
				zw := gzip.NewWriter(&b)
				zw.Write(p[:n])
				zw.Close()
				p = p[n:]
			}
			in := filepath.Join(t.TempDir(), "fixed.warc.gz")
			if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			plan, _ := NewPlan(seq(nil), nil, UnsureKeep)
			out := filepath.Join(t.TempDir(), "clean")
			sum, err := Copy(context.Background(), plan, []string{in}, out)
			if err != nil {
				t.Fatal(err)
			}
			if fc := sum.Files[0]; fc.Records != want || fc.Kept != want || len(sum.Damaged) != 0 {
				t.Errorf("counts %+v, damaged %v; want %d records kept", fc, sum.Damaged, want)
			}
			if n := readBack(t, filepath.Join(out, "fixed.warc.gz")); n != want {
				t.Errorf("copy holds %d records, want %d", n, want)
			}
		})
	}
}

// TestPlanUnmatchedAndAbsent (issue 23 item 6): decisions that match no
// capture are listed; off-topic captures whose records no input held are
// Absent, those met are not.
func TestPlanUnmatchedAndAbsent(t *testing.T) {
	t0 := time.Date(2008, 3, 12, 10, 15, 0, 0, time.UTC)
	a, b := timemap.Location{File: "a.warc.gz", Offset: 100}, timemap.Location{File: "b.warc.gz", Offset: 100}
	res := []*similarity.TimeMapResult{{Key: "org,example)/", URIR: "http://example.org/", Captures: []similarity.CaptureResult{
		{URIR: "http://example.org/", URIM: "http://a/20080312101500/http://example.org/", Datetime: t0, Loc: a, Payload: a, Verdict: similarity.VerdictOff},
		{URIR: "http://example.org/", URIM: "http://a/20090312101500/http://example.org/", Datetime: t0.AddDate(1, 0, 0), Loc: b, Payload: b, Verdict: similarity.VerdictOff},
	}}}
	stray := similarity.GoldKey{Key: "org,elsewhere)/", TS: "20010101000000"}
	p, err := NewPlan(seq(res), map[similarity.GoldKey]string{stray: similarity.VerdictOff}, UnsureKeep)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Unmatched) != 1 || p.Unmatched[0] != stray {
		t.Errorf("unmatched decisions %v, want %v", p.Unmatched, stray)
	}
	if got := p.Absent(); len(got) != 2 {
		t.Fatalf("before any input is read, %d absent, want 2", len(got))
	}
	p.excludes(a) // a copy met a's record
	if got := p.Absent(); len(got) != 1 || got[0].URIM != res[0].Captures[1].URIM {
		t.Errorf("absent %v, want only the capture in b.warc.gz", got)
	}
}

// TestCopyKeepsShortRecordsTail: in a plain WARC, a record whose
// Content-Length is short leaves its tail and terminator after it; they
// are that record's and go with it, the copy the input byte for byte, not
// a record cut mid-body (issue 38, 11).
func TestCopyKeepsShortRecordsTail(t *testing.T) {
	b, err := os.ReadFile(sampleFiles(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	// The second response record's Content-Length, 6 bytes short.
	at := bytes.Index(plain, []byte("WARC-Type: response"))
	at = bytes.Index(plain[at+1:], []byte("WARC-Type: response")) + at + 1
	cl := bytes.Index(plain[at:], []byte("Content-Length: ")) + at + len("Content-Length: ")
	end := cl + bytes.IndexByte(plain[cl:], '\r')
	var n int
	fmt.Sscan(string(plain[cl:end]), &n)
	short := slices.Concat(plain[:cl], []byte(fmt.Sprint(n-6)), plain[end:])
	in := filepath.Join(t.TempDir(), "short.warc")
	if err := os.WriteFile(in, short, 0o644); err != nil {
		t.Fatal(err)
	}
	plan, _ := NewPlan(seq(nil), nil, UnsureKeep)
	out := filepath.Join(t.TempDir(), "clean")
	sum, err := Copy(context.Background(), plan, []string{in}, out)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "short.warc")); !bytes.Equal(got, short) {
		t.Errorf("the copy (%d bytes) is not the input (%d bytes): the short record's tail was cut", len(got), len(short))
	}
	if fc := sum.Files[0]; fc.Excluded != 0 || len(sum.Excluded) != 0 {
		t.Errorf("counts %+v, excluded %+v: want nothing left out", fc, sum.Excluded)
	}
}

// TestCopyMemberFailingItsCRC: a gzip member whose data decompresses whole
// but whose trailer fails its CRC is reported as a damaged stretch kept
// with its records, and copied as read: the first member of a file of one
// member per record byte for byte, a whole-file member record by record
// (it made the whole prune fail) (issue 38, 12).
func TestCopyMemberFailingItsCRC(t *testing.T) {
	src, err := os.ReadFile(sampleFiles(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	ms := members(t, src)
	first := slices.Clone(ms[0])
	first[len(first)-8] ^= 0xff // the CRC-32 in the trailer
	zr, _ := gzip.NewReader(bytes.NewReader(src))
	plain, _ := io.ReadAll(zr)
	whole := gz(string(plain))
	whole[len(whole)-8] ^= 0xff
	for _, tc := range []struct {
		name string
		file []byte
		same bool // the copy is the input byte for byte
	}{
		{"first member of one per record", slices.Concat(first, bytes.Join(ms[1:], nil)), true},
		{"whole-file member", whole, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := filepath.Join(t.TempDir(), "crc.warc.gz")
			if err := os.WriteFile(in, tc.file, 0o644); err != nil {
				t.Fatal(err)
			}
			plan, _ := NewPlan(seq(nil), nil, UnsureKeep)
			out := filepath.Join(t.TempDir(), "clean")
			sum, err := Copy(context.Background(), plan, []string{in}, out)
			if err != nil {
				t.Fatal(err)
			}
			if len(sum.Damaged) != 1 || len(sum.Excluded) != 0 || !strings.Contains(sum.Damaged[0].Reason, "fails its check") {
				t.Errorf("damaged %+v, excluded %+v: want the member's trailer reported, nothing left out", sum.Damaged, sum.Excluded)
			}
			got, _ := os.ReadFile(filepath.Join(out, "crc.warc.gz"))
			if tc.same && !bytes.Equal(got, tc.file) {
				t.Errorf("the copy (%d bytes) is not the input (%d)", len(got), len(tc.file))
			}
			if !tc.same {
				if n := readBack(t, filepath.Join(out, "crc.warc.gz")); n != len(ms) {
					t.Errorf("the copy holds %d records, want %d", n, len(ms))
				}
			}
		})
	}
}
