package main

import (
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/report"
)

func reportCommand() *cli.Command {
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
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "html", Usage: "`FORMAT`s to write, comma-separated: " + strings.Join(report.ReportFormats, ", ") + ", or all"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the one format to `FILE` (- for stdout)"},
			&cli.StringFlag{Name: "out-dir", Aliases: []string{"d"}, Value: ".", Usage: "write each format under its usual name into `DIR`"},
		},
		Action: runReport,
	}
}

func runReport(c *cli.Context) error {
	path := c.Args().First()
	if path == "" {
		path = "offtopic-out"
	}
	path = resultsPath(path)
	formats := strings.Split(c.String("format"), ",")
	if c.String("format") == "all" {
		formats = report.ReportFormats
	}
	if c.String("output") != "" && len(formats) != 1 {
		return cli.Exit("report: --output takes one --format", 2)
	}
	var run report.Run
	f, err := os.Open(path)
	if err != nil {
		return cli.Exit("report: "+err.Error(), 2)
	}
	defer f.Close()
	// The run line comes first in a results file: read it before opening writers.
	next, stop := iter.Pull2(report.ReadResults(f, path, &run))
	defer stop()
	first, err, ok := next()
	if err != nil {
		return cli.Exit("report: "+err.Error(), 1)
	}
	out := &report.Outputs{}
	defer out.Abort()
	for _, fm := range formats {
		fm = strings.TrimSpace(fm)
		dest := c.String("output")
		if dest == "" {
			dest = filepath.Join(c.String("out-dir"), report.FileName(fm))
		}
		if err := out.Add(fm, dest, &run, c.App.Writer); err != nil {
			return cli.Exit("report: "+err.Error(), 2)
		}
	}
	n := 0
	for ; ok; first, err, ok = next() {
		if err != nil {
			return cli.Exit("report: "+err.Error(), 1)
		}
		if err := out.Write(first); err != nil {
			return cli.Exit("report: "+err.Error(), 1)
		}
		n++
	}
	if err := out.Commit(); err != nil {
		return cli.Exit("report: "+err.Error(), 1)
	}
	for _, path := range out.Paths() {
		fmt.Fprintf(c.App.ErrWriter, "offtopic: wrote %s (%d TimeMaps)\n", path, n)
	}
	return nil
}
