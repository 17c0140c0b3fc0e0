package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/internal/atomicfile"
	"github.com/offtopic/offtopic/timemap"
)

// timemapOptions are timemap's flags.
type timemapOptions struct {
	outDir, canonicalize, archiveURL, tempDir string
	strict                                    bool
}

func timemapCommand() *cli.Command {
	o := &timemapOptions{}
	return &cli.Command{
		Name:      "timemap",
		Usage:     "index WARC/ARC files: TimeMaps (link-format and JSON) and a CDXJ index",
		ArgsUsage: "FILE.warc[.gz]|FILE.arc[.gz]...",
		Description: `Groups every capture by canonical URI-R and writes, in --out-dir:
   index.cdxj        a pywb-compatible CDXJ index of the input
   timemaps.link     every TimeMap in RFC 7089 link-format, blank lines between
   timemaps.jsonl    every TimeMap as JSON (MemGator's shape), one per line

Examples:
   offtopic timemap --out-dir idx collection/*.warc.gz
   offtopic timemap --canonicalize none \
       --archive-url https://wayback.example.org/web coll.warc.gz`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out-dir", Aliases: []string{"d"}, Value: "offtopic-timemaps", Destination: &o.outDir,
				Usage: "write the index and TimeMaps into `DIR`"},
			canonicalizeFlag(&o.canonicalize, ""),
			archiveURLFlag(&o.archiveURL, ""),
			tempDirFlag(&o.tempDir, ""),
			&cli.BoolFlag{Name: "strict", Destination: &o.strict, Usage: "exit 1 when any record had to be skipped"},
		},
		Action: action(o.run),
	}
}

// run1 is timemap's action.
func (o *timemapOptions) run(ctx context.Context, e env) error {
	files := e.args
	if len(files) == 0 {
		return usagef("no input files")
	}
	canon, err := timemap.ParseCanonMode(o.canonicalize)
	if err != nil {
		return usagef("--canonicalize: %w", err)
	}
	rd, err := atomicfile.NewRunDir(o.tempDir) // see openInput
	if err != nil {
		return err
	}
	defer rd.Remove()
	warn := &warnings{w: e.stderr}
	idx, err := timemap.BuildIndex(ctx, files, timemap.IndexOptions{Canon: canon, TempDir: rd.Path(), OnError: warn.add})
	warn.summary()
	if err != nil {
		return err
	}
	defer idx.Close()
	n, err := writeTimeMaps(ctx, idx, o.outDir, timemap.LinkOptions{ArchivePrefix: o.archiveURL})
	if err != nil {
		return err
	}
	st := idx.Stats()
	fmt.Fprintf(e.stderr, "offtopic: %d files, %d captures in %d TimeMaps, %d records skipped; wrote %s\n", st.Files, st.Captures, n, st.Skipped, o.outDir)
	if st.Cut > 0 {
		fmt.Fprintln(e.stderr, cutSummary(st.Cut))
	}
	switch {
	case st.FilesFailed > 0:
		return fmt.Errorf("%d of %d input files could not be read", st.FilesFailed, st.Files)
	case st.Captures == 0:
		return errors.New("no captures found in the input")
	case o.strict && warn.n > 0:
		return fmt.Errorf("%d records were skipped (--strict)", warn.n)
	}
	return nil
}

// writeTimeMaps writes the index and TimeMaps of idx into dir: index.cdxj,
// timemaps.link and timemaps.jsonl, put in place together; n is the number
// of TimeMaps.
func writeTimeMaps(ctx context.Context, idx *timemap.Index, dir string, lo timemap.LinkOptions) (n int, _ error) {
	cdxj, err := atomicfile.Create(filepath.Join(dir, "index.cdxj"))
	if err != nil {
		return 0, err
	}
	defer cdxj.Close()
	if err := timemap.WriteCDXJ(cdxj, idx.Captures()); err != nil {
		return 0, fmt.Errorf("write index.cdxj: %w", err)
	}
	link, err := atomicfile.Create(filepath.Join(dir, "timemaps.link"))
	if err != nil {
		return 0, err
	}
	defer link.Close()
	js, err := atomicfile.Create(filepath.Join(dir, "timemaps.jsonl"))
	if err != nil {
		return 0, err
	}
	defer js.Close()
	var buf, line bytes.Buffer
	for tm, err := range idx.TimeMaps(ctx) {
		if err != nil {
			return 0, err
		}
		n++
		if err := timemap.WriteLinkFormat(link, tm, lo); err != nil {
			return 0, fmt.Errorf("write timemaps.link: %w", err)
		}
		if _, err := link.WriteString("\n"); err != nil {
			return 0, fmt.Errorf("write timemaps.link: %w", err)
		}
		buf.Reset()
		if err := timemap.WriteTimeMapJSON(&buf, tm, lo); err != nil {
			return 0, fmt.Errorf("write timemaps.jsonl: %w", err)
		}
		line.Reset()
		if err := json.Compact(&line, buf.Bytes()); err != nil {
			return 0, fmt.Errorf("write timemaps.jsonl: %w", err)
		}
		line.WriteByte('\n')
		if _, err := js.Write(line.Bytes()); err != nil {
			return 0, fmt.Errorf("write timemaps.jsonl: %w", err)
		}
	}
	for _, f := range []*atomicfile.File{cdxj, link, js} {
		if err := f.Commit(); err != nil {
			return 0, err
		}
	}
	return n, nil
}
