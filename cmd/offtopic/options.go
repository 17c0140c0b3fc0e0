package main

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// The commands' flags come in groups, each an options struct whose flags
// are bound to its fields (Destination) and shown under its category in
// --help; a group's methods turn it into the library's settings. A command
// is its groups plus its own flags: the struct of a command holds them all.
const (
	catSources = "Sources"
	catCDX     = "CDX server"
	catClient  = "Remote client"
	catScoring = "Scoring"
	catOutputs = "Outputs"
	catRun     = "Run"
	catArchive = "Archive"
)

// defaultResultsDir is where detect writes its results and where evaluate,
// report and prune look for them when not told.
const defaultResultsDir = "offtopic-out"

// defaultArchiveURL is the URI-M prefix of local captures when not told.
const defaultArchiveURL = "http://localhost:8080/collection"

// canonicalizeFlag is --canonicalize bound to dest.
func canonicalizeFlag(dest *string, category string) cli.Flag {
	return &cli.StringFlag{Name: "canonicalize", Value: "surt", Destination: dest, Category: category,
		Usage: "group captures by `MODE`: surt (canonical URI-R) or none"}
}

// tempDirFlag is --temp-dir bound to dest.
func tempDirFlag(dest *string, category string) cli.Flag {
	return &cli.StringFlag{Name: "temp-dir", Destination: dest, Category: category, DefaultText: "the system's",
		Usage: "`DIR` for temporary index and spill files"}
}

// archiveURLFlag is --archive-url bound to dest.
func archiveURLFlag(dest *string, category string) cli.Flag {
	return &cli.StringFlag{Name: "archive-url", Value: defaultArchiveURL, Destination: dest, Category: category,
		Usage: "the collection's Wayback `URL`: URI-Ms are URL/TIME/URI-R"}
}

// scoringOptions are the settings of detection (detect, model, reduce).
type scoringOptions struct {
	measures, score, idf, canonicalize, archiveURL string
	minT0Words                                     int
	noTopicCheck, plain                            bool
	continuity                                     float64
	shard                                          string
	workers                                        int
	tempDir                                        string
	// model is --model, a model file to score against ("": build one);
	// its flag is modelFlag, for the commands that take it.
	model string
}

func (o *scoringOptions) flags() []cli.Flag {
	def := similarity.DefaultSettings()
	return []cli.Flag{
		&cli.StringFlag{Name: "measures", Aliases: []string{"tm"}, Value: def.Measures, Destination: &o.measures, Category: catScoring,
			Usage: "measures that decide (OR), `RULE`: NAME[=THRESHOLD],..."},
		&cli.StringFlag{Name: "score", Value: def.Score, Destination: &o.score, Category: catScoring,
			Usage: "measures reported without deciding, `NAMES`"},
		&cli.StringFlag{Name: "idf", Value: def.IDF, Destination: &o.idf, Category: catScoring,
			Usage: "where IDF is fitted, `MODE`: timemap or collection"},
		canonicalizeFlag(&o.canonicalize, catScoring),
		archiveURLFlag(&o.archiveURL, catScoring),
		&cli.IntFlag{Name: "min-t0-words", Value: def.MinT0Words, Destination: &o.minT0Words, Category: catScoring,
			Usage: "`N` words of text a capture needs to serve as t0"},
		&cli.BoolFlag{Name: "no-topic-check", Destination: &o.noTopicCheck, Category: catScoring,
			Usage: "t0 is the first capture with text, even where it looks off-topic"},
		&cli.BoolFlag{Name: "plain", Destination: &o.plain, Category: catScoring,
			Usage: "apply the paper's rule alone, without the curator's reading"},
		&cli.Float64Flag{Name: "continuity", Value: def.Continuity, Destination: &o.continuity, Category: catScoring,
			Usage: "keep on-topic what is `X` (cosine) close to the last on-topic; 0: off"},
		&cli.StringFlag{Name: "shard", Destination: &o.shard, Category: catScoring,
			Usage: "score only the TimeMaps of shard `i/n` (0-based, by SURT-key hash)"},
		&cli.IntFlag{Name: "workers", Destination: &o.workers, Category: catScoring, DefaultText: "0: all cores",
			Usage: fmt.Sprintf("`N` goroutines on at most N cores; at most 4 per core and %d", workersCap)},
		tempDirFlag(&o.tempDir, catScoring),
	}
}

// modelFlag names a model file built beforehand (detect and reduce).
func (o *scoringOptions) modelFlag() cli.Flag {
	return &cli.StringFlag{Name: "model", Destination: &o.model, Category: catScoring,
		Usage: "score against the collection model in `FILE` (from 'offtopic model')"}
}

// settings are the detection settings the flags give.
func (o *scoringOptions) settings() similarity.Settings {
	return similarity.Settings{Measures: o.measures, Score: o.score, IDF: o.idf, MinT0Words: o.minT0Words,
		NoTopicCheck: o.noTopicCheck, Plain: o.plain, Continuity: o.continuity}
}

// setup is what the scoring flags say.
type setup struct {
	opts    similarity.Options
	canon   timemap.CanonMode
	shard   timemap.Shard
	run     *report.Run
	workers int
	tempDir string
	// model is the collection model given by --model, nil to build one.
	model *similarity.ModelStats
}

// workersCap bounds --workers whatever the number of cores: each worker
// holds a capture's decoded text and scores, so memory grows with them.
const workersCap = 256

// maxWorkers is the most --workers used: 4 per core, at most workersCap.
func maxWorkers() int { return min(4*runtime.NumCPU(), workersCap) }

// useCores makes the run use at most workers cores (GOMAXPROCS) when that
// is fewer than it has: --workers 1 is a run on one core, reading,
// extraction, scoring and the garbage collector together, as a batch
// scheduler that gave the job one core expects. More workers than cores
// (for a remote archive's latency) use every core. The returned function
// restores the setting.
func useCores(workers int) func() {
	if workers <= 0 || workers >= runtime.GOMAXPROCS(0) {
		return func() {}
	}
	old := runtime.GOMAXPROCS(workers)
	return func() { runtime.GOMAXPROCS(old) }
}

// setup checks the scoring flags (errors are usage errors) and returns the
// run's settings; inputs are recorded in the run, a lowered --workers is
// said on stderr.
func (o *scoringOptions) setup(inputs []string, stderr io.Writer) (*setup, error) {
	set := o.settings()
	opts, err := set.Options()
	if err != nil {
		return nil, asUsage(err)
	}
	workers := o.workers
	if m := maxWorkers(); workers < 0 {
		return nil, usagef("--workers is %d: want 0 (all cores) or more", workers)
	} else if workers > m {
		fmt.Fprintf(stderr, "offtopic: --workers %d is more than %d (4 per core, at most %d): using %d\n", workers, m, workersCap, m)
		workers = m
	}
	canon, err := timemap.ParseCanonMode(o.canonicalize)
	if err != nil {
		return nil, usagef("--canonicalize: %w", err)
	}
	st := &setup{opts: opts, canon: canon, shard: timemap.Shard{I: 0, N: 1}, workers: workers, tempDir: o.tempDir}
	if o.shard != "" {
		if st.shard, err = timemap.ParseShard(o.shard); err != nil {
			return nil, asUsage(err)
		}
	}
	st.run = &report.Run{Tool: "offtopic", Version: version, Started: time.Now().UTC(), Inputs: inputs, Measures: opts.Rule.String(),
		ArchiveURL: o.archiveURL, Options: set.Record(opts)}
	st.run.Options["canonicalize"] = canon.String()
	if st.shard.N > 1 {
		st.run.Options["shard"] = o.shard
	}
	if o.model != "" {
		st.run.Options["model"] = o.model
		if st.model, err = loadModel(o.model, st); err != nil {
			return nil, asUsage(err)
		}
	}
	return st, nil
}

// outputOptions say where a run's outputs go (detect, merge).
type outputOptions struct {
	outDir, reportDir, format, output, results, json, csv string
}

func (o *outputOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "out-dir", Aliases: []string{"d"}, Destination: &o.outDir, Category: catOutputs, DefaultText: defaultResultsDir + " if nothing else",
			Usage: "write results.jsonl, offtopic.json, offtopic.csv into `DIR`"},
		&cli.StringFlag{Name: "report-dir", Destination: &o.reportDir, Category: catOutputs,
			Usage: "write every output and report (XLSX, HTML) into `DIR`"},
		&cli.StringFlag{Name: "format", Destination: &o.format, Category: catOutputs,
			Usage: "`FORMAT` of --output: " + strings.Join(report.ReportFormats, ", ")},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Destination: &o.output, Category: catOutputs,
			Usage: "write the --format output to `FILE` (- for stdout)"},
		&cli.StringFlag{Name: "jsonl", Destination: &o.results, Category: catOutputs,
			Usage: "write the results file (JSON lines) to `FILE`"},
		renamedString("results", "jsonl", &o.results, "prune's --results names results to read"),
		&cli.StringFlag{Name: "json", Destination: &o.json, Category: catOutputs,
			Usage: "write OTMT-style JSON to `FILE`"},
		&cli.StringFlag{Name: "csv", Destination: &o.csv, Category: catOutputs,
			Usage: "write the CSV report to `FILE`"},
	}
}

// destination is one output: a format and where it goes ("-": stdout).
type destination struct{ format, path string }

// destinations are the outputs the flags name, in order; a wrong flag is a
// usage error.
func (o *outputOptions) destinations() ([]destination, error) {
	var ds []destination
	if o.format != "" || o.output != "" {
		if o.format == "" || o.output == "" {
			return nil, usagef("--format and --output go together")
		}
		if !slices.Contains(report.ReportFormats, o.format) {
			return nil, usagef("--format %q: want one of %s", o.format, strings.Join(report.ReportFormats, ", "))
		}
		ds = append(ds, destination{o.format, o.output})
	}
	for _, d := range []destination{{"jsonl", o.results}, {"json", o.json}, {"csv", o.csv}} {
		if d.path != "" {
			ds = append(ds, d)
		}
	}
	// --out-dir's default applies only when nothing else says where to write.
	dir := o.outDir
	if dir == "" && len(ds) == 0 && o.reportDir == "" {
		dir = defaultResultsDir
	}
	if dir != "" {
		for _, f := range report.Formats {
			ds = append(ds, destination{f, filepath.Join(dir, report.FileName(f))})
		}
	}
	if o.reportDir != "" {
		for _, f := range report.ReportFormats {
			ds = append(ds, destination{f, filepath.Join(o.reportDir, report.FileName(f))})
		}
	}
	return ds, nil
}

// open opens the outputs the flags name: a wrong flag is a usage error, an
// output that cannot be created a failure.
func (o *outputOptions) open(run *report.Run, stdout io.Writer) (*report.Outputs, error) {
	ds, err := o.destinations()
	if err != nil {
		return nil, err
	}
	return openOutputs(ds, run, stdout)
}

// reserve locks the directories of the outputs before the run reads its
// input (see report.Outputs.Reserve); openReserved then opens them.
func (o *outputOptions) reserve() (*report.Outputs, error) {
	ds, err := o.destinations()
	if err != nil {
		return nil, err
	}
	out := &report.Outputs{}
	for _, d := range ds {
		if err := out.Reserve(d.path); err != nil {
			out.Abort()
			return nil, err
		}
	}
	return out, nil
}

// openReserved opens the outputs whose directories out reserved.
func (o *outputOptions) openReserved(out *report.Outputs, run *report.Run, stdout io.Writer) (*report.Outputs, error) {
	ds, err := o.destinations()
	if err != nil {
		return nil, err
	}
	return openInto(out, ds, run, stdout)
}

// openOutputs opens ds; on an error nothing is left open.
func openOutputs(ds []destination, run *report.Run, stdout io.Writer) (*report.Outputs, error) {
	return openInto(&report.Outputs{}, ds, run, stdout)
}

// openInto opens ds into out; on an error nothing is left open.
func openInto(out *report.Outputs, ds []destination, run *report.Run, stdout io.Writer) (*report.Outputs, error) {
	for _, d := range ds {
		if err := out.Add(d.format, d.path, run, stdout); err != nil {
			out.Abort()
			return nil, err
		}
	}
	return out, nil
}

// runOptions are how a run reports: --strict and --quiet.
type runOptions struct {
	strict, quiet bool
}

// flags are --strict (what it fails on: strictUsage) and --quiet.
func (o *runOptions) flags(strictUsage string) []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "strict", Destination: &o.strict, Category: catRun, Usage: strictUsage},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Destination: &o.quiet, Category: catRun, Usage: "no progress on stderr"},
	}
}

// check refuses wrong output flags (usage errors) before anything is read.
func (o *outputOptions) check() error {
	_, err := o.destinations()
	return err
}

// renamedString is a flag's old name, hidden, still bound to dest: using it
// says the new name on stderr (why: what the old name now means elsewhere).
func renamedString(old, now string, dest *string, why string) cli.Flag {
	return &cli.StringFlag{Name: old, Destination: dest, Hidden: true, Usage: "the old name of --" + now,
		Action: func(c *cli.Context, _ string) error {
			fmt.Fprintf(c.App.ErrWriter, "offtopic: --%s is now --%s (%s)\n", old, now, why)
			return nil
		}}
}

// renamedInt64 is renamedString for a number whose default is def (the
// new flag's: both set dest to their default before the command line is
// read).
func renamedInt64(old, now string, dest *int64, def int64, why string) cli.Flag {
	return &cli.Int64Flag{Name: old, Destination: dest, Hidden: true, Value: def, Usage: "the old name of --" + now,
		Action: func(c *cli.Context, _ int64) error {
			fmt.Fprintf(c.App.ErrWriter, "offtopic: --%s is now --%s (%s)\n", old, now, why)
			return nil
		}}
}
