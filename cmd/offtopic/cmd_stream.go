package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// The line-oriented commands follow the Hadoop Streaming contract: they read
// stdin, write stdout, and log to stderr, so the same binary runs in a shell
// pipeline, under Hadoop Streaming and through Spark's RDD.pipe.

// mapOptions are map's flags.
type mapOptions struct {
	canonicalize, tempDir string
}

func mapCommand() *cli.Command {
	o := &mapOptions{}
	return &cli.Command{
		Name:  "map",
		Usage: "turn WARC/ARC paths (one per line on stdin) into capture lines: SURT<TAB>timestamp<TAB>capture",
		Description: `The map step of map | sort | reduce | merge. Each input line names a WARC or
ARC file; every capture in it becomes one line "SURT key<TAB>14-digit time<TAB>
capture as JSON" on stdout. Sorting the output as text groups it by TimeMap.

Examples:
   ls coll/*.warc.gz | offtopic map | LC_ALL=C sort | offtopic reduce |
       offtopic merge --out-dir out`,
		Flags:  []cli.Flag{canonicalizeFlag(&o.canonicalize, ""), tempDirFlag(&o.tempDir, "")},
		Action: action(o.run),
	}
}

// run1 is map's action.
func (o *mapOptions) run(ctx context.Context, e env) error {
	canon, err := timemap.ParseCanonMode(o.canonicalize)
	if err != nil {
		return usagef("--canonicalize: %w", err)
	}
	warn := &warnings{w: e.stderr}
	out := bufio.NewWriterSize(e.stdout, 1<<20)
	sc := bufio.NewScanner(e.stdin)
	files, captures := 0, 0
	colls := map[string]bool{} // the Archive-It collections of the files
	for sc.Scan() {
		path := strings.TrimSpace(sc.Text())
		if path == "" {
			continue
		}
		files++
		colls[timemap.ArchiveItCollection(path)] = true
		idx, err := timemap.BuildIndex(ctx, []string{path}, timemap.IndexOptions{Canon: canon, TempDir: o.tempDir, OnError: warn.add})
		if err != nil {
			warn.add(err)
			continue
		}
		for cap := range idx.Captures() {
			if err := timemap.WriteCaptureLine(out, cap); err != nil {
				idx.Close()
				return fmt.Errorf("write: %w", err)
			}
			captures++
		}
		idx.Close()
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read stdin: %w", err)
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	warn.summary()
	if len(colls) > 1 {
		fmt.Fprintf(e.stderr, "offtopic: warning: files of %d Archive-It collections, which reduce models as one (detect judges each against its own model): for detect's verdicts, map each collection apart\n", len(colls))
	}
	fmt.Fprintf(e.stderr, "offtopic: map: %d files, %d captures\n", files, captures)
	if files > 0 && captures == 0 {
		return errors.New("no captures found")
	}
	return nil
}

// reduceOptions are reduce's flags.
type reduceOptions struct {
	scoring scoringOptions
	stats   bool
	runOpts runOptions
}

func reduceCommand() *cli.Command {
	o := &reduceOptions{}
	return &cli.Command{
		Name:  "reduce",
		Usage: "score TimeMaps from sorted capture lines on stdin; one JSON line of results per TimeMap on stdout",
		Description: `The reduce step of map | sort | reduce | merge. Input: the lines of 'map',
grouped by key and ordered by time (sort them as text). Output: one results line
per TimeMap, as in results.jsonl. Payloads are read from the files the capture
lines name, so reducers need the WARCs at the same paths (a shared file system).
The collection's model (topic, document frequencies) is built from the
reducer's own input unless --model names the whole collection's model file:
one reducer, or any number of reducers with --model, gives exactly the
single-process result. With --stats, the reducer writes the partial model
statistics of its TimeMaps instead (one line; 'offtopic model --merge' makes
the model file of them): the model job of a split run.

Examples:
   ... | offtopic reduce --stats | offtopic model --merge -o model.json.gz
   ... | offtopic reduce --model model.json.gz`,
		Flags: slices.Concat(o.scoring.flags(), []cli.Flag{o.scoring.modelFlag(),
			&cli.BoolFlag{Name: "stats", Destination: &o.stats, Usage: "write the partial model statistics of the input's TimeMaps, not results"}},
			o.runOpts.flags("exit 1 when any record or payload had to be skipped")),
		Action: action(o.run),
	}
}

// run1 is reduce's action.
func (o *reduceOptions) run(ctx context.Context, e env) error {
	st, err := o.scoring.setup(nil, e.stderr)
	if err != nil {
		return err
	}
	defer useCores(st.workers)()
	warn := &warnings{w: e.stderr}
	src := timemap.NewLineSource(e.stdin, "stdin", warn.add)
	if o.stats {
		return writeStats(ctx, e, st.shard.Select(src), st, warn)
	}
	// The run line carries the options and the archive URL on to merge.
	rw, err := report.NewResultsWriter(e.stdout, st.run)
	if err != nil {
		return err
	}
	out := &report.Outputs{}
	out.AddWriter(rw)
	pl := timemap.NewPayloads()
	defer pl.Close()
	return score(ctx, e, st.shard.Select(src), st, out, scoreRun{prog: newProgress(e.stderr, true), warn: warn,
		read: pl.Read, start: time.Now(), noSummary: true, strict: o.runOpts.strict})
}

// mergeOptions are merge's flags.
type mergeOptions struct {
	out      outputOptions
	measures string
	tempDir  string
}

func mergeCommand() *cli.Command {
	o := &mergeOptions{}
	return &cli.Command{
		Name:      "merge",
		Usage:     "merge results lines (stdin or files) into the usual outputs and reports",
		ArgsUsage: "[RESULTS-PART...]",
		Description: `The last step of map | sort | reduce | merge: reads the reducers' results lines
(stdin, or the part files given) and writes results.jsonl, offtopic.json,
offtopic.csv (and with --report-dir XLSX and HTML). Give the same --measures as
the reducers so that reports mark the same thresholds. Parts in key order give
the same files as a single-process run: sort them first (LC_ALL=C sort) when
they come from several reducers.`,
		Flags: append(o.out.flags(),
			&cli.StringFlag{Name: "measures", Aliases: []string{"tm"}, Destination: &o.measures, DefaultText: "the reducers' rule, else " + similarity.DefaultMeasures,
				Usage: "the reducers' `RULE`"},
			tempDirFlag(&o.tempDir, "")),
		Action: action(o.run),
	}
}

// run1 is merge's action.
func (o *mergeOptions) run(ctx context.Context, e env) error {
	if err := o.out.check(); err != nil {
		return err
	}
	var in0 io.Reader = e.stdin
	names := e.args
	if len(names) > 0 {
		var rs []io.Reader
		for _, n := range names {
			f, err := os.Open(n)
			if err != nil {
				return asUsage(err)
			}
			defer f.Close()
			rs = append(rs, f)
		}
		in0 = io.MultiReader(rs...)
	}
	// Outputs start with the run, which the reducers' run lines (anywhere in
	// the input once it is sorted) and the captures' files make: spool the
	// results first.
	spool, err := os.CreateTemp(o.tempDir, "offtopic-merge-*.jsonl")
	if err != nil {
		return err
	}
	defer os.Remove(spool.Name())
	defer spool.Close()
	sw := bufio.NewWriterSize(spool, 1<<20)
	rw, _ := report.NewResultsWriter(sw, nil)
	var in report.Run
	files := map[string]bool{}
	for r, err := range report.ReadResults(in0, "input", &in) {
		if err != nil {
			return err
		}
		for i := range r.Captures {
			files[r.Captures[i].Loc.File] = true
		}
		if err := rw.Write(r); err != nil {
			return fmt.Errorf("spool: %w", err)
		}
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	run := &report.Run{Tool: "offtopic", Version: version, Started: time.Now().UTC(), Measures: o.measures,
		ArchiveURL: in.ArchiveURL, Options: in.Options}
	if run.Measures == "" {
		run.Measures = cmp.Or(in.Measures, similarity.DefaultMeasures)
	}
	delete(files, "")
	run.Inputs = slices.Sorted(maps.Keys(files)) // the WARCs, for prune --results
	if _, err := run.Rule(); err != nil {
		return asUsage(err)
	}
	out, err := o.out.open(run, e.stdout)
	if err != nil {
		return err
	}
	defer out.Abort()
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	n := 0
	for r, err := range report.ReadResults(spool, spool.Name(), nil) {
		if err != nil {
			return err
		}
		if err := out.Write(r); err != nil {
			return err
		}
		n++
	}
	if err := out.Commit(); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "offtopic: merge: %d TimeMaps\n", n)
	for _, path := range out.Paths() {
		fmt.Fprintln(e.stderr, "offtopic: wrote", path)
	}
	return nil
}
