package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/internal/atomicfile"
	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/state"
	"github.com/offtopic/offtopic/timemap"
)

// detectOptions are detect's flags.
type detectOptions struct {
	out     outputOptions
	scoring scoringOptions
	src     sourceOptions
	runOpts runOptions
	prof    profileOptions
	// oneCollection judges files of several Archive-It collections together.
	oneCollection bool
	// state is the collection's state file ("": none).
	state string
}

func detectCommand() *cli.Command {
	o := &detectOptions{}
	return &cli.Command{
		Name:      "detect",
		Usage:     "score every capture against its page's first on-topic capture and flag off-topic ones",
		ArgsUsage: "FILE.warc[.gz]|FILE.arc[.gz]...",
		Description: `Reads WARC and ARC files, groups captures into TimeMaps by canonical URI-R,
scores each capture against URI-R@t0 and writes, in --out-dir:
   results.jsonl  one JSON line per TimeMap (read by evaluate, report, prune)
   offtopic.json  OTMT's output schema
   offtopic.csv   one row per capture: scores, verdict and reason
With --report-dir it writes these and the reports to review in (offtopic.html,
offtopic.xlsx) into that directory instead. Files of several Archive-It
collections (named ARCHIVEIT-<id>-...) are judged each against its own
collection's model; --one-collection judges them against one.

Examples:
   offtopic detect --report-dir review \
       --archive-url https://wayback.archive-it.org/1234 collection/
   offtopic detect --out-dir out collection/*.warc.gz
   offtopic detect --plain --measures cosine=0.15 --csv scores.csv collection/
       (OTMT's rule alone)
   offtopic detect --format csv --output - collection/*.warc.gz > scores.csv
   offtopic detect --measures cosine,jaccard,sekernel --idf collection coll/`,
		Flags:  o.flags(),
		Action: action(o.run),
	}
}

func (o *detectOptions) flags() []cli.Flag {
	return slices.Concat(o.out.flags(), o.scoring.flags(), []cli.Flag{o.scoring.modelFlag(),
		&cli.BoolFlag{Name: "one-collection", Destination: &o.oneCollection, Category: catScoring,
			Usage: "judge files of several Archive-It collections as one (default: each against its own model)"},
		&cli.StringFlag{Name: "state", Destination: &o.state, Category: catOutputs,
			Usage: "keep the collection's state in `FILE` (" + state.DefaultName + " in the results folder): read only new files, judge again only what changed, remember decisions"}},
		o.src.flags(),
		o.runOpts.flags("exit 1 when any record or payload had to be skipped"), o.prof.flags())
}

// run1 is detect's action.
func (o *detectOptions) run(ctx context.Context, e env) error {
	stopProfiles, err := o.prof.start(e.stderr)
	if err != nil {
		return err
	}
	defer stopProfiles()
	start := time.Now()
	if err := o.out.check(); err != nil {
		return err
	}
	if o.state != "" {
		return o.runWithState(ctx, e, start)
	}
	// The output directories are taken before the input is read (that may
	// take long): a second run into them is refused at once.
	var reserved *report.Outputs
	defer func() {
		if reserved != nil {
			reserved.Abort()
		}
	}()
	in, err := openInput(ctx, e, &o.scoring, &o.src, o.runOpts.quiet, "offtopic detect --out-dir out collection/*.warc.gz", func() (err error) {
		reserved, err = o.out.reserve()
		return err
	})
	if err != nil {
		return err
	}
	defer in.src.close()
	st, src := in.st, in.src
	out, err := o.out.openReserved(reserved, st.run, e.stdout)
	if err != nil {
		return err
	}
	err = score(ctx, e, st.shard.Select(src.src), st, out, scoreRun{prog: in.prog, warn: in.warn, total: src.total, strict: o.runOpts.strict,
		skipped: src.skipped, cut: src.cut, read: src.read, others: src.others(st), eachCollection: !o.oneCollection, start: start})
	src.summary(e.stderr)
	if err == nil {
		err = src.unread()
	}
	return err
}

// warnings prints the first problems in full and counts the rest.
type warnings struct {
	mu    sync.Mutex
	w     io.Writer
	n     int // skips
	notes int // warnings of what was read but not whole
	shown int
}

// A capture judged on the part of its payload that decoded is shown as
// damaged, not skipped, and counted as a skip is.
func (w *warnings) add(err error) {
	what := "skipped"
	if errors.Is(err, similarity.ErrPartialPayload) {
		what = "damaged"
	}
	w.show(&w.n, what, err)
}

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
		fmt.Fprintln(w.w, "offtopic: "+what+":", printable(err.Error())) // a URI of the archive's cannot drive the terminal
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

// openInput checks the scoring and source flags (usage errors) and opens
// the source they and the arguments name. example shows the command's
// usual form. ready, when set, is called once the command line is known
// good, before the input is read (detect takes its output directories
// there).
func openInput(ctx context.Context, e env, so *scoringOptions, src *sourceOptions, quiet bool, example string, ready func() error) (*input, error) {
	files := e.args
	kind, err := src.kind(files, example)
	if err != nil {
		return nil, err
	}
	if len(files) > 0 {
		// A folder stands for the WARC and ARC files in it, as for prune.
		if files, err = collectionFiles(files); err != nil {
			return nil, err
		}
	}
	st, err := so.setup(files, e.stderr)
	if err != nil {
		return nil, err
	}
	if ready != nil {
		if err := ready(); err != nil {
			return nil, err
		}
	}
	// The run's temporary files live in a directory of its own, removed
	// when the source closes; one left by a killed run is removed here.
	rd, err := atomicfile.NewRunDir(st.tempDir)
	if err != nil {
		return nil, err
	}
	st.tempDir = rd.Path()
	in := &input{st: st, prog: newProgress(e.stderr, quiet), warn: &warnings{w: e.stderr}}
	restoreCores := useCores(st.workers)
	if in.src, err = src.open(ctx, kind, st, files, in.prog, in.warn); err != nil {
		rd.Remove()
		restoreCores()
		in.warn.summary()
		return nil, err
	}
	closeSrc := in.src.close
	in.src.close = func() { closeSrc(); rd.Remove(); restoreCores() }
	st.run.Inputs = in.src.inputs
	return in, nil
}

func (w *warnings) summary() {
	if w.n+w.notes > w.shown {
		fmt.Fprintf(w.w, "offtopic: %d more skipped or warned of (not shown)\n", w.n+w.notes-w.shown)
	}
}

// detectConfig is the configuration of a detection (or model) run,
// reporting each stage's progress on prog (total: captures expected, 0 if
// unknown).
func detectConfig(st *setup, read similarity.PayloadReader, warn *warnings, prog *progress, total int) similarity.Config {
	cfg := similarity.Config{Options: st.opts, ArchiveURL: st.run.ArchiveURL, Workers: st.workers, TempDir: st.tempDir, Canon: st.canon,
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
	// eachCollection judges each TimeMap against its Archive-It
	// collection's model (similarity.Config.EachCollection).
	eachCollection bool
	start          time.Time
	// noSummary is true for line-oriented commands whose stdout is data.
	noSummary bool
	// strict fails the run when anything was skipped.
	strict bool
}

// score runs detection over src into out and reports how it went: the step
// shared by detect and reduce.
func score(ctx context.Context, e env, src timemap.Source, st *setup, out *report.Outputs, sr scoreRun) error {
	cfg := detectConfig(st, sr.read, sr.warn, sr.prog, sr.total)
	cfg.Others, cfg.EachCollection = sr.others, sr.eachCollection
	stats, err := similarity.Detect(ctx, src, cfg, out.Write)
	sr.prog.end()
	sr.warn.summary()
	if err != nil {
		return err
	}
	w := e.stderr
	empty := stats.Captures == 0 && st.shard.N <= 1 && !sr.noSummary
	if empty {
		// Nothing to score is a failed run: the outputs of an earlier one
		// stay as they were (out is abandoned, not committed).
		fmt.Fprintf(w, "offtopic: %d TimeMaps, 0 captures, %d records skipped: nothing written\n", stats.TimeMaps, sr.skipped)
		return errors.New("no captures to score")
	}
	if err := out.Commit(); err != nil {
		return err
	}
	return sr.summary(w, out, stats, sr.skipped)
}

// summary prints how a run went and says whether it failed: with --strict,
// when anything was skipped or damaged.
func (sr scoreRun) summary(w io.Writer, out *report.Outputs, stats similarity.Stats, skipped int) error {
	// Summary lines fit 80 columns.
	fmt.Fprintf(w, "offtopic: %d TimeMaps, %d captures: %d on-topic, %d off-topic, %d not scored\n",
		stats.TimeMaps, stats.Captures, stats.OnTopic, stats.OffTopic, stats.NotScored)
	fmt.Fprintf(w, "offtopic: %d records skipped, %d payloads failed", skipped, stats.Failed)
	if stats.Partial > 0 {
		fmt.Fprintf(w, ", %d judged on part of their payload", stats.Partial)
	}
	fmt.Fprintln(w)
	if stats.Collections > 1 {
		fmt.Fprintf(w, "offtopic: %d Archive-It collections (by the ids in the files' names),\n", stats.Collections)
		fmt.Fprintln(w, "offtopic: each judged against its own model (--one-collection: against one)")
	}
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
	if sr.strict && sr.warn.n > 0 {
		return fmt.Errorf("%d records or payloads were skipped or damaged (--strict)", sr.warn.n)
	}
	return nil
}
