// Package offtopicbeam runs offtopic's detection as an Apache Beam pipeline:
// the third deployment of the one pipeline (after the single process and
// map | sort | reduce), grouping captures by SURT key with GroupByKey.
//
// The pipeline has five steps:
//
//  1. map (parallel over input lines): a WARC/ARC path becomes its captures,
//     as `offtopic map` makes them (timemap.BuildIndex over that one file);
//     a CDX/CDXJ index path or line, or a map-format capture line, becomes
//     the captures it names. Each capture is keyed by its SURT key.
//  2. GroupByKey on the SURT key, then per TimeMap (parallel over keys): the
//     captures are put in the order `sort | offtopic reduce` reads them and
//     made a TimeMap by timemap.Build (the builder of every source), and every
//     payload is read and extracted: the expensive part of detection.
//  3. model (a combine): every TimeMap's partial model statistics
//     (similarity.ModelStats: document frequencies, the topic's centroid, a
//     bottom-k sample of first captures) are combined across workers by
//     ModelCombineFn; the statistics merge exactly and in any order, so the
//     model equals the one a single process builds.
//  4. scoring (parallel over TimeMaps): each TimeMap is scored with
//     similarity.Score against the model, given as a side input.
//  5. writing: the results lines (small, one per TimeMap) are sorted by key
//     and written as one results file, equal byte for byte to the file of a
//     single-process run, except where a redirect or a frame leads to another
//     TimeMap: the join that follows those (similarity's replay) runs in a
//     single process only; here each TimeMap follows its own.
//
// No step holds more than one TimeMap's documents: the combine holds the
// model's statistics, whose size does not grow with the number of TimeMaps.
// The exception is SEKernel: its search index holds every passage of the
// collection, so with sekernel selected steps 3-5 run on one worker
// (GatherScoreFn), as a single process does.
//
// Payloads are read from the files the captures name, so every worker needs
// the WARC/ARC files at the same paths (a shared or mounted file system), as
// reducers of map | sort | reduce do.
package offtopicbeam

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"   // gs:// inputs and output
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local inputs and output
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/internal/atomicfile"
	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// Config is what a run needs: where its inputs are and how to score. Its
// fields mirror the scoring flags of `offtopic detect` (same defaults, see
// DefaultConfig). It travels to the workers inside the DoFns, as JSON.
type Config struct {
	// Inputs are text files (local or any Beam file system: gs://...) whose
	// lines are WARC/ARC paths, CDX/CDXJ index paths, CDX/CDXJ lines or
	// map-format capture lines ("SURT<TAB>timestamp<TAB>JSON").
	Inputs []string `json:"inputs"`
	// Output is the results file to write (JSON lines, as results.jsonl).
	Output string `json:"output"`
	// Settings are the scoring settings, as detect's flags give them
	// (their JSON fields sit in Config's own).
	similarity.Settings
	// Canonicalize is "surt" or "none".
	Canonicalize string `json:"canonicalize"`
	// ArchiveURL prefixes URI-Ms.
	ArchiveURL string `json:"archive_url"`
	// WARCDir is the directory that file names in CDX/CDXJ input are resolved
	// against ("" keeps them as written).
	WARCDir string `json:"warc_dir"`
	// TempDir is where workers put temporary index files ("" for the system's).
	TempDir string `json:"temp_dir"`
	// Version goes into the results file's run line.
	Version string `json:"version"`
}

// DefaultConfig returns the defaults of `offtopic detect`.
func DefaultConfig() Config {
	return Config{Settings: similarity.DefaultSettings(), Canonicalize: "surt", ArchiveURL: "http://localhost:8080/collection", Version: "dev"}
}

// Options turns the scoring settings into similarity.Options, as `offtopic
// detect` does with its flags.
func (c Config) Options() (similarity.Options, error) { return c.Settings.Options() }

// Run is the run line of the results file, as `offtopic detect` writes it.
func (c Config) Run(started time.Time) (*report.Run, error) {
	o, err := c.Options()
	if err != nil {
		return nil, err
	}
	canon, err := timemap.ParseCanonMode(c.Canonicalize)
	if err != nil {
		return nil, err
	}
	run := &report.Run{Tool: "offtopic-beam", Version: c.Version, Started: started.UTC(), Inputs: c.Inputs, Measures: o.Rule.String(),
		ArchiveURL: c.ArchiveURL, Options: c.Settings.Record(o)}
	run.Options["canonicalize"] = canon.String()
	return run, nil
}

// Validate checks the configuration before the pipeline is built.
func (c Config) Validate() error {
	if len(c.Inputs) == 0 {
		return errors.New("no input")
	}
	if c.Output == "" {
		return errors.New("no output")
	}
	if _, err := c.Options(); err != nil {
		return err
	}
	_, err := timemap.ParseCanonMode(c.Canonicalize)
	return err
}

// Build adds the pipeline to scope s: read the inputs, key captures by SURT,
// group, extract per TimeMap, build the model and score on one worker, write
// cfg.Output. It returns the PCollection of the number of TimeMaps written
// (one element), for tests and logs.
func Build(s beam.Scope, cfg Config) (beam.PCollection, error) {
	if err := cfg.Validate(); err != nil {
		return beam.PCollection{}, err
	}
	s = s.Scope("offtopic")
	var lines []beam.PCollection
	for _, in := range cfg.Inputs {
		lines = append(lines, textio.Read(s, in))
	}
	all := lines[0]
	if len(lines) > 1 {
		all = beam.Flatten(s, lines...)
	}
	captures := beam.ParDo(s, &MapFn{Cfg: cfg}, all)
	grouped := beam.GroupByKey(s, captures)
	inputs := beam.ParDo(s, &ExtractFn{Cfg: cfg}, grouped)
	if opts, _ := cfg.Options(); opts.Computes(similarity.MeasureSEKernel) {
		gathered := beam.GroupByKey(s, beam.AddFixedKey(s, inputs))
		return beam.ParDo(s, &GatherScoreFn{Cfg: cfg, Started: time.Now().UTC()}, gathered), nil
	}
	model := beam.Combine(s, &ModelCombineFn{MinT0Words: cfg.MinT0Words}, inputs)
	results := beam.ParDo(s, &ScoreFn{Cfg: cfg}, inputs, beam.SideInput{Input: model})
	gathered := beam.GroupByKey(s, beam.AddFixedKey(s, results))
	return beam.ParDo(s, &WriteFn{Cfg: cfg, Started: time.Now().UTC()}, gathered), nil
}

// Result is one TimeMap's results line on its way to the writer.
type Result struct {
	Key  string
	Line string
}

// Encoded is one TimeMap after extraction, on its way to the scoring step:
// its SURT key and its similarity.Input, gob-encoded.
type Encoded struct {
	Key   string
	Input []byte
}

func init() {
	register.DoFn3x1[context.Context, string, func(string, string), error](&MapFn{})
	register.Emitter2[string, string]()
	register.DoFn4x1[context.Context, string, func(*string) bool, func(Encoded), error](&ExtractFn{})
	register.Emitter1[Encoded]()
	register.Iter1[string]()
	register.DoFn4x1[context.Context, Encoded, *similarity.ModelStats, func(Result), error](&ScoreFn{})
	register.Emitter1[Result]()
	register.Combiner3[*similarity.ModelStats, Encoded, *similarity.ModelStats](&ModelCombineFn{})
	register.DoFn4x1[context.Context, int, func(*Result) bool, func(int), error](&WriteFn{})
	register.DoFn4x1[context.Context, int, func(*Encoded) bool, func(int), error](&GatherScoreFn{})
	register.Iter1[Encoded]()
	register.Iter1[Result]()
	register.Emitter1[int]()
	beam.RegisterType(reflect.TypeOf((*Encoded)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Result)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*similarity.ModelStats)(nil)).Elem())
	beam.RegisterCoder(reflect.TypeOf((*similarity.ModelStats)(nil)), encodeStats, decodeStats)
}

// encodeStats and decodeStats carry model statistics between workers.
func encodeStats(m *similarity.ModelStats) ([]byte, error) { return json.Marshal(m) }

func decodeStats(b []byte) (*similarity.ModelStats, error) {
	m := similarity.NewModelStats()
	if err := json.Unmarshal(b, m); err != nil {
		return nil, err
	}
	if m.DF == nil {
		m.DF = map[string]int{}
	}
	if m.Centroid == nil {
		m.Centroid = map[string]int64{}
	}
	return m, nil
}

var (
	filesRead    = beam.NewCounter("offtopic", "files")
	capturesRead = beam.NewCounter("offtopic", "captures")
	skipped      = beam.NewCounter("offtopic", "skipped")
	timeMapsDone = beam.NewCounter("offtopic", "timemaps")
)

// MapFn turns one input line into captures keyed by SURT key, as `offtopic
// map` does: the value is the capture as JSON. Lines are sniffed: a line
// with tabs is a map-format capture line; an existing file ending in .cdx
// or .cdxj (optionally .gz) is an index whose lines are read; any other
// existing file is a WARC or ARC file; a line with spaces that is not a
// file is a CDX or CDXJ line. Blank lines and lines starting with # are
// skipped.
type MapFn struct {
	Cfg Config `json:"cfg"`
}

// ProcessElement implements the map step for one line.
func (f *MapFn) ProcessElement(ctx context.Context, line string, emit func(string, string)) error {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return nil
	}
	canon, err := timemap.ParseCanonMode(f.Cfg.Canonicalize)
	if err != nil {
		return err
	}
	warn := func(err error) {
		skipped.Inc(ctx, 1)
		log.Warnf(ctx, "offtopic: skipped: %v", err)
	}
	out := func(c timemap.Capture) error {
		b, err := json.Marshal(c)
		if err != nil {
			return err
		}
		capturesRead.Inc(ctx, 1)
		emit(c.Key, string(b))
		return nil
	}
	if key, rest, ok := strings.Cut(line, "\t"); ok {
		_, js, ok := strings.Cut(rest, "\t")
		if !ok || !strings.HasPrefix(js, "{") {
			warn(fmt.Errorf("want key<TAB>timestamp<TAB>capture: %.80q", line))
			return nil
		}
		capturesRead.Inc(ctx, 1)
		emit(key, js)
		return nil
	}
	if st, err := os.Stat(line); err == nil && !st.IsDir() {
		filesRead.Inc(ctx, 1)
		if isIndexFile(line) {
			fh, err := os.Open(line)
			if err != nil {
				warn(err)
				return nil
			}
			defer fh.Close()
			return readCDX(fh, line, timemap.CDXOptions{WARCDir: f.Cfg.WARCDir, Canon: canon}, warn, out)
		}
		idx, err := timemap.BuildIndex(ctx, []string{line}, timemap.IndexOptions{Canon: canon, TempDir: f.Cfg.TempDir, OnError: warn})
		if err != nil {
			warn(err)
			return nil
		}
		defer idx.Close()
		for c := range idx.Captures() {
			if err := out(c); err != nil {
				return err
			}
		}
		return idx.Err()
	}
	if strings.Contains(line, " ") {
		return readCDX(strings.NewReader(line+"\n"), "input line", timemap.CDXOptions{WARCDir: f.Cfg.WARCDir, Canon: canon}, warn, out)
	}
	warn(fmt.Errorf("%s: not a file, a CDX line or a capture line", line))
	return nil
}

func readCDX(r io.Reader, name string, opts timemap.CDXOptions, warn func(error), out func(timemap.Capture) error) error {
	for c, err := range timemap.ReadCDX(r, name, opts) {
		if err != nil {
			var ce *timemap.CDXError
			if errors.As(err, &ce) {
				if !ce.Notice {
					warn(err)
				}
				continue
			}
			return err
		}
		if err := out(c); err != nil {
			return err
		}
	}
	return nil
}

func isIndexFile(path string) bool {
	p := strings.TrimSuffix(strings.ToLower(path), ".gz")
	return strings.HasSuffix(p, ".cdx") || strings.HasSuffix(p, ".cdxj")
}

// ExtractFn makes one TimeMap from the captures of one SURT key and reads
// and extracts every payload it needs: the parallel part of detection. The
// captures are ordered as `LC_ALL=C sort | offtopic reduce` orders the lines
// (timestamp, then the line's text, then a stable sort by time), so that
// ties come out the same in every run.
type ExtractFn struct {
	Cfg Config `json:"cfg"`
}

type captureLine struct {
	ts string
	js string
	c  timemap.Capture
}

// ProcessElement implements the per-TimeMap step for one key.
func (f *ExtractFn) ProcessElement(ctx context.Context, key string, values func(*string) bool, emit func(Encoded)) error {
	opts, err := f.Cfg.Options()
	if err != nil {
		return err
	}
	opts = opts.WithDefaults()
	var lines []captureLine
	var js string
	for values(&js) {
		var c timemap.Capture
		if err := json.Unmarshal([]byte(js), &c); err != nil {
			skipped.Inc(ctx, 1)
			log.Warnf(ctx, "offtopic: skipped: %s: %v", key, err)
			continue
		}
		c.Key = key
		lines = append(lines, captureLine{ts: c.Timestamp14(), js: js, c: c})
	}
	if len(lines) == 0 {
		return nil
	}
	slices.SortFunc(lines, func(a, b captureLine) int {
		return cmp.Or(strings.Compare(a.ts, b.ts), strings.Compare(a.js, b.js))
	})
	caps := make([]timemap.Capture, len(lines))
	for i, l := range lines {
		caps[i] = l.c
	}
	tm := timemap.Build(caps)
	cfg := similarity.Config{Options: opts, ArchiveURL: f.Cfg.ArchiveURL, ReadPayload: timemap.ReadPayload,
		OnError: func(err error) { log.Warnf(ctx, "offtopic: payload: %v", err) }}
	in, _ := similarity.Prepare(ctx, tm, &cfg, extract.NewCache(0))
	b, err := encodeInput(in)
	if err != nil {
		return fmt.Errorf("encode %s: %w", key, err)
	}
	emit(Encoded{Key: key, Input: b})
	return nil
}

// ModelCombineFn combines the partial model statistics of every TimeMap
// (similarity.ModelStats) into the collection's: the model step. The
// statistics merge exactly in any order, so workers may combine any subsets.
type ModelCombineFn struct {
	MinT0Words int `json:"min_t0_words"`
}

// CreateAccumulator implements beam's CombineFn.
func (f *ModelCombineFn) CreateAccumulator() *similarity.ModelStats {
	return similarity.NewModelStats()
}

// AddInput implements beam's CombineFn: one TimeMap's statistics.
func (f *ModelCombineFn) AddInput(acc *similarity.ModelStats, e Encoded) (*similarity.ModelStats, error) {
	in, err := decodeInput(e.Input)
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", e.Key, err)
	}
	acc.Add(*in, cmp.Or(f.MinT0Words, 20))
	return acc, nil
}

// MergeAccumulators implements beam's CombineFn.
func (f *ModelCombineFn) MergeAccumulators(a, b *similarity.ModelStats) *similarity.ModelStats {
	a.Merge(b)
	return a
}

// ExtractOutput implements beam's CombineFn.
func (f *ModelCombineFn) ExtractOutput(acc *similarity.ModelStats) *similarity.ModelStats { return acc }

// ScoreFn scores one TimeMap against the collection model (a side input):
// parallel over TimeMaps.
type ScoreFn struct {
	Cfg Config `json:"cfg"`

	model *similarity.Model
	stats *similarity.ModelStats
}

// ProcessElement implements the scoring step for one TimeMap.
func (f *ScoreFn) ProcessElement(ctx context.Context, e Encoded, stats *similarity.ModelStats, emit func(Result)) error {
	opts, err := f.Cfg.Options()
	if err != nil {
		return err
	}
	if f.model == nil || f.stats != stats {
		// The side input is the same for every element of a bundle: the
		// model is built from it once.
		f.model, f.stats = stats.Model(), stats
	}
	in, err := decodeInput(e.Input)
	if err != nil {
		return fmt.Errorf("decode %s: %w", e.Key, err)
	}
	r, err := similarity.Score(ctx, *in, f.model, opts.WithDefaults())
	if err != nil {
		return fmt.Errorf("score %s: %w", e.Key, err)
	}
	var buf bytes.Buffer
	rw, err := report.NewResultsWriter(&buf, nil)
	if err != nil {
		return err
	}
	if err := rw.Write(r); err != nil {
		return err
	}
	timeMapsDone.Inc(ctx, 1)
	emit(Result{Key: e.Key, Line: buf.String()})
	return nil
}

// WriteFn writes the results file: the run line, then the TimeMaps' results
// lines in key order (the lines only, not the TimeMaps' documents).
type WriteFn struct {
	Cfg     Config    `json:"cfg"`
	Started time.Time `json:"started"`
}

// ProcessElement implements the writing step; it emits the number of TimeMaps written.
func (f *WriteFn) ProcessElement(ctx context.Context, _ int, values func(*Result) bool, emit func(int)) error {
	var all []Result
	var r Result
	for values(&r) {
		all = append(all, r)
	}
	slices.SortFunc(all, func(a, b Result) int { return strings.Compare(a.Key, b.Key) })
	return f.Cfg.writeRun(ctx, f.Started, func(rw *report.ResultsWriter, w io.Writer) error {
		if err := rw.Close(); err != nil { // the run line alone: the result lines come rendered
			return err
		}
		for _, r := range all {
			if _, err := io.WriteString(w, r.Line); err != nil {
				return err
			}
		}
		emit(len(all))
		return nil
	})
}

// GatherScoreFn builds the collection model from every TimeMap in key order,
// scores each TimeMap against it and writes the results file, on one worker:
// the path taken when SEKernel is computed, since its search index holds
// every passage of the collection and is built in key order.
type GatherScoreFn struct {
	Cfg     Config    `json:"cfg"`
	Started time.Time `json:"started"`
}

// ProcessElement implements the model and scoring step over all TimeMaps.
func (f *GatherScoreFn) ProcessElement(ctx context.Context, _ int, values func(*Encoded) bool, emit func(int)) error {
	opts, err := f.Cfg.Options()
	if err != nil {
		return err
	}
	opts = opts.WithDefaults()
	var all []Encoded
	var e Encoded
	for values(&e) {
		all = append(all, e)
	}
	slices.SortFunc(all, func(a, b Encoded) int { return strings.Compare(a.Key, b.Key) })
	builder := similarity.NewModelBuilder(opts.Computes(similarity.MeasureSEKernel), opts.MinT0Words)
	for _, e := range all {
		in, err := decodeInput(e.Input)
		if err != nil {
			return fmt.Errorf("decode %s: %w", e.Key, err)
		}
		builder.Add(*in)
	}
	model := builder.Build()
	return f.Cfg.writeRun(ctx, f.Started, func(rw *report.ResultsWriter, _ io.Writer) error {
		for _, e := range all {
			in, err := decodeInput(e.Input)
			if err != nil {
				return fmt.Errorf("decode %s: %w", e.Key, err)
			}
			r, err := similarity.Score(ctx, *in, model, opts)
			if err != nil {
				return fmt.Errorf("score %s: %w", e.Key, err)
			}
			if err := rw.Write(r); err != nil {
				return err
			}
			timeMapsDone.Inc(ctx, 1)
		}
		emit(len(all))
		return rw.Close()
	})
}

// writeRun writes the results file at c.Output: its run line through rw,
// then what body writes.
func (c Config) writeRun(ctx context.Context, started time.Time, body func(rw *report.ResultsWriter, w io.Writer) error) error {
	run, err := c.Run(started)
	if err != nil {
		return err
	}
	return writeResults(ctx, c.Output, func(w io.Writer) error {
		rw, err := report.NewResultsWriter(w, run)
		if err != nil {
			return err
		}
		return body(rw, w)
	})
}

// writeResults writes path through Beam's file systems (local, gs://, ...);
// a local file is written beside its final path and renamed into place.
func writeResults(ctx context.Context, path string, write func(io.Writer) error) error {
	if !strings.Contains(path, "://") {
		f, err := atomicfile.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		bw := bufio.NewWriterSize(f, 1<<20)
		if err := write(bw); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		return f.Commit()
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if err := write(bw); err != nil {
		w.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// wireInput is a similarity.Input as gob carries it: gob cannot encode nil
// pointers in a slice, so documents are values with a mask of which exist.
type wireInput struct {
	In   similarity.Input
	Docs []extract.Document
	Has  []bool
}

func encodeInput(in *similarity.Input) ([]byte, error) {
	w := wireInput{In: *in, Docs: make([]extract.Document, len(in.Docs)), Has: make([]bool, len(in.Docs))}
	w.In.Docs = nil
	for i, d := range in.Docs {
		if d != nil {
			w.Docs[i], w.Has[i] = *d, true
		}
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&w); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decodeInput(b []byte) (*similarity.Input, error) {
	var w wireInput
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&w); err != nil {
		return nil, err
	}
	in := w.In
	in.Docs = make([]*extract.Document, len(w.Docs))
	for i := range w.Docs {
		if w.Has[i] {
			in.Docs[i] = &w.Docs[i]
		}
	}
	return &in, nil
}

// AbsInputs makes local input paths absolute (workers may run elsewhere).
func AbsInputs(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if strings.Contains(p, "://") {
			out[i] = p
		} else if a, err := filepath.Abs(p); err == nil {
			out[i] = a
		} else {
			out[i] = p
		}
	}
	return out
}
