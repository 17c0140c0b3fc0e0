package main

import (
	"context"
	"fmt"
	"iter"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/report"
)

// reportOptions are report's flags.
type reportOptions struct {
	format, output, outDir string
}

func reportCommand() *cli.Command {
	o := &reportOptions{}
	return &cli.Command{
		Name:      "report",
		Usage:     "render a saved results file as XLSX, HTML, OTMT JSON or CSV (nothing is recomputed)",
		ArgsUsage: "[RESULTS.jsonl|DIR]",
		Description: `Reads the results file written by 'detect' (or the directory holding
results.jsonl; default offtopic-out) and writes the reports asked for.

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

// run1 is report's action.
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
