package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/internal/atomicfile"
	"github.com/offtopic/offtopic/timemap"
)

func timemapCommand() *cli.Command {
	return &cli.Command{
		Name:      "timemap",
		Usage:     "index WARC/ARC files: TimeMaps (link-format and JSON) and a CDXJ index",
		ArgsUsage: "FILE.warc[.gz]|FILE.arc[.gz]...",
		Description: `Groups every capture by canonical URI-R and writes, in --out-dir:
   index.cdxj        a pywb-compatible CDXJ index of the input
   timemaps.link     every TimeMap in RFC 7089 link-format, separated by blank lines
   timemaps.jsonl    every TimeMap as JSON (MemGator's shape), one per line

Examples:
   offtopic timemap --out-dir idx collection/*.warc.gz
   offtopic timemap --canonicalize none --archive-url https://wayback.example.org/web coll.warc.gz`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out-dir", Aliases: []string{"d"}, Value: "offtopic-timemaps", Usage: "write the index and TimeMaps into `DIR`"},
			&cli.StringFlag{Name: "canonicalize", Value: "surt", Usage: "group captures by `surt` canonical URI-R or by the exact URI (none)"},
			&cli.StringFlag{Name: "archive-url", Value: "http://localhost:8080/collection", Usage: "URI-Ms are `URL`/<14-digit time>/<URI-R>"},
			&cli.StringFlag{Name: "temp-dir", Usage: "where temporary index files go"},
			&cli.BoolFlag{Name: "strict", Usage: "exit non-zero when any record had to be skipped"},
		},
		Action: runTimemap,
	}
}

func runTimemap(c *cli.Context) error {
	files := c.Args().Slice()
	if len(files) == 0 {
		return cli.Exit("timemap: no input files", 2)
	}
	canon, err := timemap.ParseCanonMode(c.String("canonicalize"))
	if err != nil {
		return cli.Exit("timemap: --canonicalize: "+err.Error(), 2)
	}
	warn := &warnings{w: c.App.ErrWriter}
	idx, err := timemap.BuildIndex(c.Context, files, timemap.IndexOptions{Canon: canon, TempDir: c.String("temp-dir"), OnError: warn.add})
	warn.summary()
	if err != nil {
		return cli.Exit("timemap: "+strings.TrimPrefix(err.Error(), "timemap: "), exitFailed)
	}
	defer idx.Close()
	dir := c.String("out-dir")
	cdxj, err := atomicfile.Create(filepath.Join(dir, "index.cdxj"))
	if err != nil {
		return cli.Exit("timemap: "+err.Error(), 1)
	}
	defer cdxj.Close()
	if err := timemap.WriteCDXJ(cdxj, idx.Captures()); err != nil {
		return cli.Exit("timemap: write index.cdxj: "+err.Error(), 1)
	}
	link, err := atomicfile.Create(filepath.Join(dir, "timemaps.link"))
	if err != nil {
		return cli.Exit("timemap: "+err.Error(), 1)
	}
	defer link.Close()
	js, err := atomicfile.Create(filepath.Join(dir, "timemaps.jsonl"))
	if err != nil {
		return cli.Exit("timemap: "+err.Error(), 1)
	}
	defer js.Close()
	lo := timemap.LinkOptions{ArchivePrefix: c.String("archive-url")}
	n := 0
	var buf, line bytes.Buffer
	for tm, err := range idx.TimeMaps(c.Context) {
		if err != nil {
			return cli.Exit("timemap: "+err.Error(), 1)
		}
		n++
		if err := timemap.WriteLinkFormat(link, tm, lo); err != nil {
			return cli.Exit("timemap: write timemaps.link: "+err.Error(), 1)
		}
		if _, err := link.WriteString("\n"); err != nil {
			return cli.Exit("timemap: write timemaps.link: "+err.Error(), 1)
		}
		buf.Reset()
		if err := timemap.WriteTimeMapJSON(&buf, tm, lo); err != nil {
			return cli.Exit("timemap: write timemaps.jsonl: "+err.Error(), 1)
		}
		line.Reset()
		if err := json.Compact(&line, buf.Bytes()); err != nil {
			return cli.Exit("timemap: write timemaps.jsonl: "+err.Error(), 1)
		}
		line.WriteByte('\n')
		if _, err := js.Write(line.Bytes()); err != nil {
			return cli.Exit("timemap: write timemaps.jsonl: "+err.Error(), 1)
		}
	}
	for _, f := range []*atomicfile.File{cdxj, link, js} {
		if err := f.Commit(); err != nil {
			return cli.Exit("timemap: "+err.Error(), 1)
		}
	}
	st := idx.Stats()
	fmt.Fprintf(c.App.ErrWriter, "offtopic: %d files, %d captures in %d TimeMaps, %d records skipped; wrote %s\n", st.Files, st.Captures, n, st.Skipped, dir)
	if st.Cut > 0 {
		fmt.Fprintln(c.App.ErrWriter, cutSummary(st.Cut))
	}
	switch {
	case st.FilesFailed > 0:
		return cli.Exit(fmt.Sprintf("timemap: %d of %d input files could not be read", st.FilesFailed, st.Files), exitFailed)
	case st.Captures == 0:
		return cli.Exit("timemap: no captures found in the input", exitFailed)
	case c.Bool("strict") && warn.n > 0:
		return cli.Exit(fmt.Sprintf("timemap: %d records were skipped (--strict)", warn.n), exitFailed)
	}
	return nil
}
