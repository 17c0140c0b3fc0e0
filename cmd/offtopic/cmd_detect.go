package main

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

func detectCommand() *cli.Command {
	return &cli.Command{
		Name:      "detect",
		Usage:     "score every capture against its page's first on-topic capture and flag off-topic ones",
		ArgsUsage: "FILE.warc[.gz]|FILE.arc[.gz]...",
		Description: `Reads WARC and ARC files, groups captures into TimeMaps by canonical URI-R,
scores each capture against URI-R@t0 and writes, in --out-dir:
   results.jsonl  one JSON line per TimeMap (the input of 'evaluate' and of reports)
   offtopic.json  OTMT's output schema
   offtopic.csv   one row per capture: scores, verdict and reason
With --report-dir it writes these and the reports to review in (offtopic.html,
offtopic.xlsx) into that directory instead.

Examples:
   offtopic detect --report-dir review --archive-url https://wayback.archive-it.org/1234 collection/*.warc.gz
   offtopic detect --out-dir out collection/*.warc.gz
   offtopic detect --measures cosine=0.15 --csv scores.csv collection/*.warc.gz
   offtopic detect --format csv --output - collection/*.warc.gz > scores.csv
   offtopic detect --measures cosine,jaccard,sekernel --idf collection coll/*.warc.gz`,
		Flags:  append(append(append(outputFlags(), append(scoringFlags(), modelFlag())...), sourceFlags()...), append(strictQuietFlags(), profileFlags()...)...),
		Action: runDetect,
	}
}

// outputFlags say where a run's outputs go.
func outputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "out-dir", Aliases: []string{"d"}, Value: "offtopic-out", Usage: "write results.jsonl, offtopic.json and offtopic.csv into `DIR` (unless --format/--output, --results, --json or --csv say otherwise)"},
		&cli.StringFlag{Name: "report-dir", Usage: "also write every report (results, OTMT JSON, CSV, XLSX, HTML) into `DIR`"},
		&cli.StringFlag{Name: "format", Usage: "with --output: write only this format: jsonl (results), json (OTMT), csv, xlsx or html"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the --format output to `FILE` (- for stdout)"},
		&cli.StringFlag{Name: "results", Usage: "write the results file (JSON lines) to `FILE`"},
		&cli.StringFlag{Name: "json", Usage: "write OTMT-style JSON to `FILE`"},
		&cli.StringFlag{Name: "csv", Usage: "write the CSV report to `FILE`"},
	}
}

// scoringFlags are the settings of detection, shared by detect and reduce.
func scoringFlags() []cli.Flag {
	def := similarity.DefaultSettings()
	return []cli.Flag{
		&cli.StringFlag{Name: "measures", Aliases: []string{"tm"}, Value: def.Measures, Usage: "measures whose thresholds decide (OR), as `NAME[=THRESHOLD],...`; known: " + strings.Join(similarity.MeasureNames(), ", ")},
		&cli.StringFlag{Name: "score", Value: def.Score, Usage: "further measures to compute and report without deciding, `NAME,...` (sekernel builds a search index over the collection)"},
		&cli.StringFlag{Name: "idf", Value: def.IDF, Usage: "where IDF is fitted, `MODE`: timemap (each TimeMap, as in the paper) or collection"},
		&cli.StringFlag{Name: "canonicalize", Value: "surt", Usage: "group captures by `surt` canonical URI-R or by the exact URI (none)"},
		&cli.StringFlag{Name: "archive-url", Value: "http://localhost:8080/collection", Usage: "URI-Ms of local captures are `URL`/<14-digit time>/<URI-R>: the collection's Wayback, e.g. https://wayback.archive-it.org/1234 (the default works only while a local Wayback serves the collection)"},
		&cli.IntFlag{Name: "min-t0-words", Value: def.MinT0Words, Usage: "least number of words of text a capture needs to serve as t0"},
		&cli.BoolFlag{Name: "no-topic-check", Usage: "always use the first capture with text as t0, even where it looks off the collection's topic"},
		&cli.BoolFlag{Name: "plain", Usage: "apply the rule as the paper does (any threshold crossed is off-topic), without the curator's reading: language switches, content gone from the site's frame, trimmed pages, kept titles, rotating stories"},
		&cli.Float64Flag{Name: "continuity", Value: def.Continuity, Usage: "keep on-topic a capture that crosses only content-similarity thresholds when its page cosine to the latest on-topic capture before it is at least `X` (rotating stories change step by step, a replaced page jumps); 0 turns it off"},
		&cli.StringFlag{Name: "shard", Usage: "score only TimeMaps whose SURT-key hash falls in shard `i/n` (0-based)"},
		&cli.IntFlag{Name: "workers", Usage: "goroutines indexing, extracting and scoring; 0 = all cores; at most 4 per core and 256 (a larger value is lowered, with a word on stderr)"},
		&cli.StringFlag{Name: "temp-dir", Usage: "where temporary index and spill files go (default: the system's)"},
	}
}

func strictQuietFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "strict", Usage: "exit non-zero when any record or payload had to be skipped"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on stderr"},
	}
}

// setup is what the scoring flags say.
type setup struct {
	opts  similarity.Options
	canon timemap.CanonMode
	shard timemap.Shard
	run   *report.Run
	// model is the collection model given by --model, nil to build one.
	model *similarity.ModelStats
}

// workersCap bounds --workers whatever the number of cores: each worker
// holds a capture's decoded text and scores, so memory grows with them.
const workersCap = 256

// maxWorkers is the most --workers used: 4 per core, at most workersCap.
func maxWorkers() int { return min(4*runtime.NumCPU(), workersCap) }

// scoringSetup reads the scoring flags; inputs are recorded in the run.
func scoringSetup(c *cli.Context, inputs []string) (*setup, error) {
	set := similarity.Settings{Measures: c.String("measures"), Score: c.String("score"), IDF: c.String("idf"),
		MinT0Words: c.Int("min-t0-words"), NoTopicCheck: c.Bool("no-topic-check"), Plain: c.Bool("plain"),
		Continuity: c.Float64("continuity")}
	opts, err := set.Options()
	if err != nil {
		return nil, err
	}
	if n := c.Int("workers"); n < 0 {
		return nil, fmt.Errorf("--workers is %d: want 0 (all cores) or more", n)
	} else if m := maxWorkers(); n > m {
		fmt.Fprintf(c.App.ErrWriter, "offtopic: --workers %d is more than %d (4 per core, at most %d): using %d\n", n, m, workersCap, m)
		if err := c.Set("workers", strconv.Itoa(m)); err != nil {
			return nil, err
		}
	}
	canon, err := timemap.ParseCanonMode(c.String("canonicalize"))
	if err != nil {
		return nil, fmt.Errorf("--canonicalize: %w", err)
	}
	st := &setup{canon: canon, shard: timemap.Shard{I: 0, N: 1}}
	if s := c.String("shard"); s != "" {
		if st.shard, err = timemap.ParseShard(s); err != nil {
			return nil, err
		}
	}
	st.opts = opts
	st.run = &report.Run{Tool: "offtopic", Version: version, Started: time.Now().UTC(), Inputs: inputs, Measures: opts.Rule.String(),
		ArchiveURL: c.String("archive-url"), Options: set.Record(opts)}
	st.run.Options["canonicalize"] = canon.String()
	if st.shard.N > 1 {
		st.run.Options["shard"] = c.String("shard")
	}
	if c.IsSet("model") {
		st.run.Options["model"] = c.String("model")
	}
	return st, nil
}

// openSinks opens the outputs the output flags name. A wrong flag is a
// usage error (exit status 2); an output that cannot be created or written
// is a failure of the run (1): code says which.
func openSinks(c *cli.Context, run *report.Run) (_ *report.Outputs, code int, _ error) {
	out := &report.Outputs{}
	named := false
	if f, o := c.String("format"), c.String("output"); f != "" || o != "" {
		if f == "" || o == "" {
			out.Abort()
			return nil, 2, fmt.Errorf("--format and --output go together")
		}
		if !slices.Contains(report.ReportFormats, f) {
			out.Abort()
			return nil, 2, fmt.Errorf("--format %q: want one of %s", f, strings.Join(report.ReportFormats, ", "))
		}
		if err := out.Add(f, o, run, c.App.Writer); err != nil {
			out.Abort()
			return nil, 1, err
		}
		named = true
	}
	for _, fo := range [][2]string{{"jsonl", c.String("results")}, {"json", c.String("json")}, {"csv", c.String("csv")}} {
		if fo[1] != "" {
			if err := out.Add(fo[0], fo[1], run, c.App.Writer); err != nil {
				out.Abort()
				return nil, 1, err
			}
			named = true
		}
	}
	// --out-dir's default applies only when nothing else says where to write.
	if (!named && c.String("report-dir") == "") || c.IsSet("out-dir") {
		for _, f := range report.Formats {
			if err := out.Add(f, filepath.Join(c.String("out-dir"), report.FileName(f)), run, c.App.Writer); err != nil {
				out.Abort()
				return nil, 1, err
			}
		}
	}
	if rd := c.String("report-dir"); rd != "" {
		for _, f := range report.ReportFormats {
			if err := out.Add(f, filepath.Join(rd, report.FileName(f)), run, c.App.Writer); err != nil {
				out.Abort()
				return nil, 1, err
			}
		}
	}
	return out, 0, nil
}

// warnings prints the first problems in full and counts the rest.
type warnings struct {
	mu    sync.Mutex
	w     io.Writer
	n     int // skips
	notes int // warnings of what was read but not whole
	shown int
}

func (w *warnings) add(err error) { w.show(&w.n, "skipped", err) }

// note prints a warning about a capture that was read but not whole (its
// text cut at the decoded-payload cap): shown as skips are, not counted as
// one (--strict does not fail on it).
func (w *warnings) note(err error) { w.show(&w.notes, "warning", err) }

// show counts err in *n and prints the first 20 problems of either kind.
func (w *warnings) show(n *int, what string, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	*n++
	if w.shown < 20 {
		w.shown++
		fmt.Fprintln(w.w, "offtopic: "+what+":", err)
	}
}

// input is what detect and model open before they read captures: the
// settings, the source, progress and warnings.
type input struct {
	st   *setup
	src  *source
	prog *progress
	warn *warnings
}

// openInput reads the scoring flags (then check, when not nil, sees the
// settings) and opens the source the flags and arguments name; errors come
// as cli exits with their status. example shows the command's usual form.
func openInput(c *cli.Context, cmd, example string, check func(*setup) error) (*input, error) {
	files := c.Args().Slice()
	if len(files) == 0 && !isRemote(c) && len(c.StringSlice("index")) == 0 {
		return nil, cli.Exit(cmd+": no input files (try: "+example+")", 2)
	}
	st, err := scoringSetup(c, files)
	if err == nil && check != nil {
		err = check(st)
	}
	if err == nil && isRemote(c) {
		err = checkClientFlags(c)
	}
	if err == nil && c.String("cdx-server") != "" {
		_, err = cdxQuery(c)
	}
	if err != nil {
		return nil, cli.Exit(cmd+": "+err.Error(), 2)
	}
	in := &input{st: st, prog: newProgress(c.App.ErrWriter, c.Bool("quiet")), warn: &warnings{w: c.App.ErrWriter}}
	if in.src, err = openSource(c, st, files, in.prog, in.warn); err != nil {
		in.warn.summary()
		return nil, cli.Exit(cmd+": "+err.Error(), 1)
	}
	st.run.Inputs = in.src.inputs
	return in, nil
}

func (w *warnings) summary() {
	if w.n+w.notes > w.shown {
		fmt.Fprintf(w.w, "offtopic: %d more skipped or warned of (not shown)\n", w.n+w.notes-w.shown)
	}
}

func runDetect(c *cli.Context) error {
	stopProfiles, err := startProfiles(c)
	if err != nil {
		return cli.Exit("detect: "+err.Error(), 2)
	}
	defer stopProfiles()
	start := time.Now()
	in, err := openInput(c, "detect", "offtopic detect --out-dir out collection/*.warc.gz", func(st *setup) (err error) {
		st.model, err = loadModel(c, st)
		return err
	})
	if err != nil {
		return err
	}
	defer in.src.close()
	st, src, prog, warn := in.st, in.src, in.prog, in.warn
	st.run.Inputs = src.inputs
	out, code, err := openSinks(c, st.run)
	if err != nil {
		return cli.Exit("detect: "+err.Error(), code)
	}
	defer out.Abort()
	err = score(c, "detect", st.shard.Select(src.src), st, out, scoreRun{prog: prog, warn: warn, total: src.total,
		skipped: src.skipped, cut: src.cut, read: src.read, others: src.others(st), start: start})
	src.summary(c.App.ErrWriter)
	return err
}

// detectConfig is the configuration of a detection (or model) run from the
// flags, reporting each stage's progress on prog (total: captures expected,
// 0 if unknown).
func detectConfig(c *cli.Context, st *setup, read similarity.PayloadReader, warn *warnings, prog *progress, total int) similarity.Config {
	cfg := similarity.Config{Options: st.opts, ArchiveURL: st.run.ArchiveURL, Workers: c.Int("workers"), TempDir: c.String("temp-dir"), Canon: st.canon,
		ReadPayload: read, OnError: warn.add, OnWarning: warn.note, Model: st.model}
	cfg.Progress = func(p similarity.Progress) {
		if p.Stage != prog.stage {
			prog.end()
			prog.begin(p.Stage, total)
		}
		prog.update(p.Captures, fmt.Sprintf("%d TimeMaps", p.TimeMaps))
	}
	return cfg
}

// scoreRun is what score needs besides the source and the settings.
type scoreRun struct {
	prog    *progress
	warn    *warnings
	total   int // captures expected, for the progress bar (0 if unknown)
	skipped int // records skipped while reading the source
	cut     int // payloads cut at the body cap
	read    similarity.PayloadReader
	// others are the collection's TimeMaps that src leaves out (seeds,
	// shards), where redirects and frames are followed (nil: none).
	others timemap.Source
	start  time.Time
	// summary is false for line-oriented commands whose stdout is data.
	noSummary bool
}

// score runs detection over src into out and reports how it went: the step
// shared by detect and reduce.
func score(c *cli.Context, cmd string, src timemap.Source, st *setup, out *report.Outputs, sr scoreRun) error {
	cfg := detectConfig(c, st, sr.read, sr.warn, sr.prog, sr.total)
	cfg.Others = sr.others
	stats, err := similarity.Detect(c.Context, src, cfg, out.Write)
	sr.prog.end()
	sr.warn.summary()
	if err != nil {
		return cli.Exit(cmd+": "+err.Error(), 1)
	}
	if err := out.Commit(); err != nil {
		return cli.Exit(cmd+": "+err.Error(), 1)
	}
	w := c.App.ErrWriter
	fmt.Fprintf(w, "offtopic: %d TimeMaps, %d captures: %d on-topic, %d off-topic, %d not scored; %d records skipped, %d payloads failed\n",
		stats.TimeMaps, stats.Captures, stats.OnTopic, stats.OffTopic, stats.NotScored, sr.skipped, stats.Failed)
	if sr.cut > 0 {
		fmt.Fprintln(w, cutSummary(sr.cut))
	}
	if !sr.noSummary {
		elapsed := time.Since(sr.start)
		fmt.Fprintf(w, "offtopic: %.1f s, %.0f captures/s, peak memory %d MB\n",
			elapsed.Seconds(), float64(stats.Captures)/elapsed.Seconds(), peakRSS()>>20)
		for _, path := range out.Paths() {
			fmt.Fprintln(w, "offtopic: wrote", path)
		}
	}
	if stats.Captures == 0 && st.shard.N <= 1 && !sr.noSummary {
		return cli.Exit(cmd+": no captures to score", 1)
	}
	if c.Bool("strict") && sr.warn.n > 0 {
		return cli.Exit(fmt.Sprintf("%s: %d records or payloads were skipped (--strict)", cmd, sr.warn.n), 1)
	}
	return nil
}
