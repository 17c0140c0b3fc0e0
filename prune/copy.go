package prune

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/offtopic/offtopic/timemap"
)

// FileCount is what happened to one input file's records.
type FileCount struct {
	File     string
	Records  int // records in the input, unreadable ones included
	Kept     int
	Excluded int
	// Unreadable counts damaged stretches the reader could not parse (a cut
	// or corrupt gzip member, junk between records, a record whose
	// Content-Length overruns): left out and counted in Excluded unless
	// Plan.KeepDamaged, then copied as they are and counted in Kept.
	Unreadable int
}

// Summary is the outcome of a prune.
type Summary struct {
	Files    []FileCount
	Excluded []ExcludedRecord
	// Damaged lists the damaged stretches of the inputs (Type "damaged",
	// Reason the reader's error), left out of the copy unless
	// Plan.KeepDamaged; those left out are in Excluded too.
	Damaged []ExcludedRecord
	// Captures is the number of captures the written index holds.
	Captures int
}

// ExcludedRecord is one record left out of the copy.
type ExcludedRecord struct {
	Exclusion
	Type   string
	File   string
	Offset int64
}

// entry is one record (or unreadable stretch) of an input file.
type entry struct {
	loc       timemap.Location
	typ       string
	id        string
	concur    []string
	uri       string
	date      time.Time
	exclude   bool
	why       Exclusion
	corrupted bool
	// tail marks bytes after a record of a plain file that are no record
	// (timemap.ErrGarbage): most often that record's own tail, its
	// Content-Length short. They go with it.
	tail bool
}

// Copy writes a cleaned copy of files into outDir: each input file under its
// own name, without the off-topic captures of plan and their paired request
// and metadata records, plus index.cdxj (of the new files) and excluded.tsv.
// The copy is built in a temporary directory beside outDir and renamed into
// place at the end, so an interrupted run leaves no partial output. outDir
// must not exist, be empty, or be an earlier copy (which the new one
// replaces, as a second detect replaces its outputs); a folder holding
// anything else is refused. Input files are only read.
func Copy(ctx context.Context, plan *Plan, files []string, outDir string) (*Summary, error) {
	earlier, err := checkOutDir(outDir, files)
	if err != nil {
		return nil, err
	}
	parent := filepath.Dir(filepath.Clean(outDir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", parent, err)
	}
	tmp, err := mkdirPartial(parent, filepath.Base(outDir))
	if err != nil {
		return nil, err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	sum := &Summary{}
	var outFiles []string
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fc, ex, dam, err := copyFile(plan, f, filepath.Join(tmp, filepath.Base(f)))
		if err != nil {
			return nil, err
		}
		sum.Files = append(sum.Files, fc)
		sum.Excluded = append(sum.Excluded, ex...)
		sum.Damaged = append(sum.Damaged, dam...)
		outFiles = append(outFiles, filepath.Join(tmp, filepath.Base(f)))
	}
	n, err := writeIndex(ctx, outFiles, filepath.Join(tmp, "index.cdxj"))
	if err != nil {
		return nil, err
	}
	sum.Captures = n
	if err := writeExcluded(sum.Excluded, filepath.Join(tmp, "excluded.tsv")); err != nil {
		return nil, err
	}
	if err := replaceDir(tmp, outDir, earlier); err != nil {
		return nil, err
	}
	done = true
	return sum, nil
}

// replaceDir renames the finished copy tmp to outDir. An earlier copy there
// is moved aside first and removed once the new one is in place (put back
// if it cannot be); an empty outDir is removed.
func replaceDir(tmp, outDir string, earlier bool) error {
	if !earlier {
		os.Remove(outDir) // an empty directory; checkOutDir refused anything else
		if err := os.Rename(tmp, outDir); err != nil {
			return fmt.Errorf("move the copy into %s: %w", outDir, err)
		}
		return nil
	}
	aside := tmp + ".earlier"
	if err := os.Rename(outDir, aside); err != nil {
		return fmt.Errorf("move the earlier copy in %s aside: %w", outDir, err)
	}
	if err := os.Rename(tmp, outDir); err != nil {
		os.Rename(aside, outDir)
		return fmt.Errorf("move the copy into %s: %w", outDir, err)
	}
	if err := os.RemoveAll(aside); err != nil {
		return fmt.Errorf("remove the earlier copy %s: %w", aside, err)
	}
	return nil
}

// isRecordFile reports whether name is a WARC or ARC file's.
func isRecordFile(name string) bool {
	n := strings.ToLower(name)
	for _, ext := range []string{".warc", ".warc.gz", ".arc", ".arc.gz"} {
		if strings.HasSuffix(n, ext) {
			return true
		}
	}
	return false
}

// copyFiles are the files a copy writes besides the WARC/ARC files.
var copyFiles = []string{"index.cdxj", "excluded.tsv"}

// isCopy reports whether the folder's entries are those of a copy Copy
// wrote: its index, its list of exclusions and WARC/ARC files, nothing else.
func isCopy(entries []os.DirEntry) bool {
	own := 0
	for _, e := range entries {
		name := e.Name()
		switch {
		case !e.Type().IsRegular():
			return false
		case slices.Contains(copyFiles, name):
			own++
		case !isRecordFile(name):
			return false
		}
	}
	return own == len(copyFiles)
}

// mkdirPartial creates the temporary directory a copy is built in, named
// .NAME.partial-N, with mode 0777 less the umask (os.MkdirTemp would make it
// 0700, and it becomes the output directory, which a replay server running
// as another user must read).
func mkdirPartial(parent, name string) (string, error) {
	// Remove what a killed run left.
	stale, _ := filepath.Glob(filepath.Join(parent, "."+name+".partial-*"))
	for _, d := range stale {
		os.RemoveAll(d)
	}
	for range 100 {
		tmp := filepath.Join(parent, fmt.Sprintf(".%s.partial-%d", name, rand.Uint32()))
		err := os.Mkdir(tmp, 0o777)
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("create temporary output: %w", err)
		}
		return tmp, nil
	}
	return "", fmt.Errorf("create temporary output in %s: no free name", parent)
}

// checkOutDir refuses an output directory that holds anything but an
// earlier copy (so no output is ever mixed with an older one, and no folder
// prune did not write is replaced) or that would put a file over its
// input. earlier says whether outDir holds an earlier copy.
func checkOutDir(outDir string, files []string) (earlier bool, _ error) {
	absOut, _ := filepath.Abs(outDir)
	seen := map[string]string{}
	for _, f := range files {
		base := filepath.Base(f)
		if prev, ok := seen[base]; ok {
			return false, fmt.Errorf("inputs %s and %s have the same name; prune them separately", prev, f)
		}
		seen[base] = f
		if absIn, _ := filepath.Abs(filepath.Dir(f)); absIn == absOut {
			return false, fmt.Errorf("output directory %s holds the input %s", outDir, f)
		}
	}
	entries, err := os.ReadDir(outDir)
	if err != nil || len(entries) == 0 {
		return false, nil
	}
	if !isCopy(entries) {
		return false, fmt.Errorf("output directory %s holds files prune did not write (it replaces only its own earlier copy: %s and WARC/ARC files); choose another --out-dir, or empty it",
			outDir, strings.Join(copyFiles, ", "))
	}
	return true, nil
}

// storage says how a file's records are stored: plain, in gzip members or
// in zstd frames.
type storage struct{ gz, zstd bool }

// scan lists the records of one file with what pairing needs, and reports
// how the reader took the file: plain, gzip members or zstd frames.
func scan(path string) ([]entry, storage, error) {
	rr, err := timemap.OpenRecords(path, timemap.ReadOptions{MaxBodyBytes: 1})
	if err != nil {
		return nil, storage{}, err
	}
	defer rr.Close()
	var es []entry
	for {
		rec, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var re *timemap.RecordError
			if errors.As(err, &re) {
				es = append(es, entry{loc: timemap.Location{File: path, Offset: re.Offset}, typ: "damaged", corrupted: true,
					why: Exclusion{Reason: re.Err.Error()}, tail: errors.Is(re.Err, timemap.ErrGarbage)})
				continue
			}
			return nil, storage{}, fmt.Errorf("read %s: %w", path, err)
		}
		e := entry{loc: rec.Loc, typ: rec.Type, id: rec.RecordID, uri: rec.TargetURI, date: rec.Date}
		if rec.Fields != nil {
			e.concur = rec.Fields.Values("Warc-Concurrent-To")
		}
		es = append(es, e)
	}
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].loc.Offset != es[j].loc.Offset {
			return es[i].loc.Offset < es[j].loc.Offset
		}
		return es[i].loc.MemberOffset < es[j].loc.MemberOffset
	})
	return es, storage{gz: rr.Gzipped(), zstd: rr.Zstd()}, nil
}

// decide marks the records to leave out: off-topic captures, then the
// request and metadata records paired with them (by WARC-Concurrent-To, or
// by target URI and date where a writer left that out).
func decide(plan *Plan, es []entry) {
	ids := map[string]Exclusion{}
	type uriDate struct {
		uri  string
		date time.Time
	}
	byURIDate := map[uriDate]Exclusion{}
	for i := range es {
		e := &es[i]
		if e.corrupted {
			continue
		}
		if ex, ok := plan.excludes(e.loc); ok {
			e.exclude, e.why = true, ex
			if e.id != "" {
				ids[e.id] = ex
			}
			byURIDate[uriDate{e.uri, e.date}] = ex
		}
	}
	for i := range es {
		e := &es[i]
		if e.exclude || (e.typ != "request" && e.typ != "metadata") {
			continue
		}
		for _, c := range e.concur {
			if ex, ok := ids[strings.TrimSpace(c)]; ok {
				e.exclude, e.why = true, ex
			}
		}
		if ex, ok := byURIDate[uriDate{e.uri, e.date}]; ok && len(e.concur) == 0 {
			e.exclude, e.why = true, ex
		}
	}
}

// copyFile writes the kept records of in to out, and returns what it left
// out and the damaged stretches it found.
func copyFile(plan *Plan, in, out string) (FileCount, []ExcludedRecord, []ExcludedRecord, error) {
	t := fileTally{in: in, fc: FileCount{File: in}}
	fail := func(err error) (FileCount, []ExcludedRecord, []ExcludedRecord, error) { return t.fc, nil, nil, err }
	es, mem, err := scan(in)
	if err != nil {
		return fail(err)
	}
	if len(es) > 0 && !slices.ContainsFunc(es, func(e entry) bool { return !e.corrupted }) {
		// Not a WARC or ARC file the reader knows: its copy would be empty.
		return fail(fmt.Errorf("%s: no record could be read (%s): not copied", in, es[0].why.Reason))
	}
	decide(plan, es)
	src, err := os.Open(in)
	if err != nil {
		return fail(fmt.Errorf("open %s: %w", in, err))
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil {
		return fail(fmt.Errorf("stat %s: %w", in, err))
	}
	dst, err := os.Create(out)
	if err != nil {
		return fail(fmt.Errorf("create %s: %w", out, err))
	}
	defer dst.Close()
	bw := bufio.NewWriterSize(dst, 1<<20)
	// Bytes before the first record (a leading stretch no record claims) are kept.
	first := fi.Size()
	if len(es) > 0 {
		first = es[0].loc.Offset
	}
	if _, err := io.Copy(bw, io.NewSectionReader(src, 0, first)); err != nil {
		return fail(fmt.Errorf("copy %s: %w", in, err))
	}
	for i := 0; i < len(es); {
		// A group is the records stored in one stretch of the file: one gzip
		// member (several records only in whole-file gzip) or one plain record.
		j := i + 1
		for j < len(es) && es[j].loc.Offset == es[i].loc.Offset {
			j++
		}
		for !mem.gz && !mem.zstd && !es[i].corrupted && j < len(es) && es[j].tail {
			j++ // bytes after a plain record that are no record: kept with it
		}
		end := fi.Size()
		if j < len(es) {
			end = es[j].loc.Offset
		}
		group := es[i:j]
		i = j
		if len(group) > 1 {
			if group = t.keepDamageInMember(group); len(group) == 0 {
				continue
			}
		}
		t.decideGroup(group, end, plan.KeepDamaged)
		if len(group) == 1 || !mem.gz && !mem.zstd {
			if !group[0].exclude {
				if _, err := io.Copy(bw, io.NewSectionReader(src, group[0].loc.Offset, end-group[0].loc.Offset)); err != nil {
					return fail(fmt.Errorf("copy %s at %d: %w", in, group[0].loc.Offset, err))
				}
			}
		} else if err := splitMember(bw, src, group, end, mem.zstd); err != nil {
			return fail(fmt.Errorf("copy %s at %d: %w", in, group[0].loc.Offset, err))
		}
	}
	if err := bw.Flush(); err != nil {
		return fail(fmt.Errorf("write %s: %w", out, err))
	}
	if err := dst.Sync(); err != nil {
		return fail(fmt.Errorf("write %s: %w", out, err))
	}
	if fc := t.fc; fc.Records != fc.Kept+fc.Excluded {
		return fail(fmt.Errorf("%s: %d records in, %d kept + %d excluded", in, fc.Records, fc.Kept, fc.Excluded))
	}
	return t.fc, t.excluded, t.damaged, nil
}

// fileTally is what copyFile counts of one file's records: kept, left out,
// damaged.
type fileTally struct {
	in                string
	fc                FileCount
	excluded, damaged []ExcludedRecord
}

// keepDamageInMember returns the records of a member holding several
// without its damaged ones, counted kept and damaged: damage inside a member
// that also holds readable records cannot be cut out of it, it stays with
// them.
func (t *fileTally) keepDamageInMember(group []entry) []entry {
	return slices.DeleteFunc(slices.Clone(group), func(e entry) bool {
		if e.corrupted {
			t.fc.Records++
			t.fc.Kept++
			t.fc.Unreadable++
			t.damaged = append(t.damaged, ExcludedRecord{Exclusion: e.why, Type: e.typ, File: t.in, Offset: e.loc.Offset})
		}
		return e.corrupted
	})
}

// decideGroup counts the records of a group whose stretch ends at end as
// kept or excluded; a damaged one (its stretch's length added to its
// reason) is excluded unless keepDamaged.
func (t *fileTally) decideGroup(group []entry, end int64, keepDamaged bool) {
	for k := range group {
		e := &group[k]
		t.fc.Records++
		if e.corrupted {
			t.fc.Unreadable++
			e.why.Reason += fmt.Sprintf(" (%d bytes)", end-e.loc.Offset)
			rec := ExcludedRecord{Exclusion: e.why, Type: e.typ, File: t.in, Offset: e.loc.Offset}
			t.damaged = append(t.damaged, rec)
			if !keepDamaged {
				e.exclude = true
				t.fc.Excluded++
				t.excluded = append(t.excluded, rec)
				continue
			}
			t.fc.Kept++
			continue
		}
		if e.exclude {
			t.fc.Excluded++
			t.excluded = append(t.excluded, ExcludedRecord{Exclusion: e.why, Type: e.typ, File: t.in, Offset: e.loc.Offset})
			continue
		}
		t.fc.Kept++
	}
}

// splitMember copies the kept records of one gzip member holding several
// records (whole-file gzip), or of members a writer cut at fixed sizes so
// that records go on from one to the next, each as a gzip member of its own;
// with zst, of one zstd frame holding several (a whole-file frame), each as
// a frame of its own.
func splitMember(w io.Writer, src *os.File, group []entry, end int64, zst bool) error {
	start := group[0].loc.Offset
	section := bufio.NewReader(io.NewSectionReader(src, start, end-start))
	var zr io.Reader
	newWriter := func(w io.Writer) (io.WriteCloser, error) { return gzip.NewWriter(w), nil }
	if zst {
		dict, err := timemap.ZstdDictionary(src)
		if err != nil {
			return err
		}
		opts := []zstd.DOption{zstd.WithDecoderConcurrency(1)}
		if dict != nil {
			opts = append(opts, zstd.WithDecoderDicts(dict))
		}
		d, err := zstd.NewReader(section, opts...)
		if err != nil {
			return err
		}
		defer d.Close()
		zr = d
		newWriter = func(w io.Writer) (io.WriteCloser, error) { return zstd.NewWriter(w, zstd.WithEncoderConcurrency(1)) }
	} else {
		g, err := gzip.NewReader(section)
		if err != nil {
			return err
		}
		zr = g
	}
	var err error
	for k, e := range group {
		var n int64 = -1
		if k+1 < len(group) {
			n = group[k+1].loc.MemberOffset - e.loc.MemberOffset
		}
		if e.exclude {
			if n < 0 {
				_, err = io.Copy(io.Discard, zr)
			} else {
				_, err = io.CopyN(io.Discard, zr, n)
			}
			if err != nil && !errors.Is(err, gzip.ErrChecksum) {
				return err
			}
			continue
		}
		zw, err := newWriter(w)
		if err != nil {
			return err
		}
		if n < 0 {
			_, err = io.Copy(zw, zr)
		} else {
			_, err = io.CopyN(zw, zr, n)
		}
		if err != nil && !errors.Is(err, gzip.ErrChecksum) {
			return err // a member whose data is whole and only its trailer fails is copied as read
		}
		if err := zw.Close(); err != nil {
			return err
		}
	}
	return nil
}

// writeIndex writes the CDXJ index of the new files and returns its size.
func writeIndex(ctx context.Context, files []string, path string) (int, error) {
	idx, err := timemap.BuildIndex(ctx, files, timemap.IndexOptions{})
	if err != nil {
		return 0, fmt.Errorf("index the copy: %w", err)
	}
	defer idx.Close()
	f, err := os.Create(path)
	if err != nil {
		return 0, fmt.Errorf("create %s: %w", path, err)
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	if err := timemap.WriteCDXJ(bw, idx.Captures()); err != nil {
		return 0, fmt.Errorf("write %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return 0, fmt.Errorf("write %s: %w", path, err)
	}
	return idx.Stats().Captures, f.Sync()
}

// writeExcluded lists the excluded records as TSV.
func writeExcluded(ex []ExcludedRecord, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	fmt.Fprintln(bw, "uri_r\turi_m\tdatetime\trecord\tfile\toffset\treason")
	for _, e := range ex {
		fmt.Fprintf(bw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", tsvField(e.URIR), tsvField(e.URIM), e.Datetime.UTC().Format(time.RFC3339),
			e.Type, tsvField(filepath.Base(e.File)), e.Offset, tsvField(e.Reason))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Sync()
}

// tsvField keeps a value on one TSV field.
func tsvField(s string) string {
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
}
