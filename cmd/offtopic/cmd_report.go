package main

import (
	"context"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/state"
)

// reportOptions are report's flags.
type reportOptions struct {
	format, output, outDir, state string
}

func reportCommand() *cli.Command {
	o := &reportOptions{}
	return &cli.Command{
		Name:      "report",
		Usage:     "render a saved results file as XLSX, HTML, OTMT JSON or CSV (nothing is recomputed)",
		ArgsUsage: "[RESULTS.jsonl|DIR]",
		Description: `Reads the results file written by 'detect' (or the directory holding
results.jsonl; default offtopic-out) and writes the reports asked for.
The HTML and XLSX reports show the curator's decisions and what was new
in the run that wrote the results, as the collection's state beside the
results (` + state.DefaultName + `) or named by --state holds them.

Examples:
   offtopic report --format html out
   offtopic report --format xlsx -o review.xlsx out/results.jsonl
   offtopic report --format all --out-dir reports out`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "html", Destination: &o.format,
				Usage: "`FORMAT`s, comma-separated: " + strings.Join(report.ReportFormats, ", ") + " or all"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Destination: &o.output,
				Usage: "write the one format to `FILE` (- for stdout)"},
			&cli.StringFlag{Name: "out-dir", Aliases: []string{"d"}, Value: ".", Destination: &o.outDir,
				Usage: "write each format under its usual name into `DIR`"},
			&cli.StringFlag{Name: "state", Destination: &o.state,
				Usage: "the collection's state `FILE` (default: " + state.DefaultName + " beside the results, when there is one)"},
		},
		Action: action(o.run),
	}
}

// destinations are the outputs the flags name; a wrong flag is a usage
// error.
func (o *reportOptions) destinations() ([]destination, error) {
	formats := strings.Split(o.format, ",")
	if o.format == "all" {
		formats = report.ReportFormats
	}
	if o.output != "" && len(formats) != 1 {
		return nil, usagef("--output takes one --format")
	}
	var ds []destination
	for _, f := range formats {
		f = strings.TrimSpace(f)
		if !slices.Contains(report.ReportFormats, f) {
			return nil, usagef("--format %q: want %s or all", f, strings.Join(report.ReportFormats, ", "))
		}
		dest := o.output
		if dest == "" {
			dest = filepath.Join(o.outDir, report.FileName(f))
		}
		ds = append(ds, destination{f, dest})
	}
	return ds, nil
}

// run is report's action.
func (o *reportOptions) run(ctx context.Context, e env) error {
	ds, err := o.destinations()
	if err != nil {
		return err
	}
	rf, err := openResults(e.first(), e.stderr)
	if err != nil {
		return err
	}
	defer rf.Close()
	// The run line comes first in a results file: read it before opening writers.
	next, stop := iter.Pull2(rf.all())
	defer stop()
	first, err, ok := next()
	if err != nil {
		return err
	}
	if err := o.review(ctx, e.stderr, ds, rf); err != nil {
		return err
	}
	out, err := openOutputs(ds, &rf.run, e.stdout)
	if err != nil {
		return err
	}
	defer out.Abort()
	n := 0
	for ; ok; first, err, ok = next() {
		if err != nil {
			return err
		}
		if err := out.Write(first); err != nil {
			return err
		}
		n++
	}
	if err := out.Commit(); err != nil {
		return err
	}
	for _, path := range out.Paths() {
		fmt.Fprintf(e.stderr, "offtopic: wrote %s (%d TimeMaps)\n", path, n)
	}
	return nil
}

// review adds to the run of the results what the collection's state says
// of it, for the HTML and XLSX reports: the state --state names, else the
// one beside the results (none: nothing is added).
func (o *reportOptions) review(ctx context.Context, w io.Writer, ds []destination, rf *resultsFile) error {
	if !slices.ContainsFunc(ds, func(d destination) bool { return d.format == "html" || d.format == "xlsx" }) {
		return nil
	}
	var db *state.State
	var err error
	if o.state != "" {
		if _, err := os.Stat(o.state); err != nil {
			return usagef("--state: %w", err)
		}
		db, err = state.Open(o.state)
	} else {
		db, err = state.Beside(rf.dir)
	}
	if err != nil || db == nil {
		return err
	}
	defer db.Close()
	rv, news, err := db.Review(ctx, rf.run.Started)
	if err != nil {
		return err
	}
	rf.run.Review = rv
	switch {
	case !news:
		fmt.Fprintf(w, "offtopic: no run of %s wrote these results, or it has judged again since: the reports show its %d curator decisions, not what was new\n",
			db.Path(), len(rv.Decisions))
	case rv.Since.IsZero():
		fmt.Fprintf(w, "offtopic: %d curator decisions from %s (the results are of its first run: nothing to call new)\n", len(rv.Decisions), db.Path())
	default:
		fmt.Fprintf(w, "offtopic: what was new since %s and %d curator decisions from %s\n",
			rv.Since.Local().Format("2006-01-02 15:04"), len(rv.Decisions), db.Path())
	}
	return nil
}
