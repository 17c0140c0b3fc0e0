// Command offtopic-beam runs offtopic's detection as an Apache Beam pipeline
// (see package offtopicbeam): locally on Beam's Prism runner by default, or
// on Dataflow, Flink or Spark by Beam's own flags (--runner, --endpoint,
// --project, ...). Beam parses the global flag set and starts this binary
// again as a worker, so it is a main of its own rather than an offtopic
// subcommand.
//
//	offtopic-beam --input warc-paths.txt --output results.jsonl
//
// --input names text files of WARC/ARC paths (one per line), CDX/CDXJ index
// paths or lines, or `offtopic map` capture lines. The results file is the
// one `offtopic detect --jsonl` writes; `offtopic merge` or `offtopic
// report` render it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	offtopicbeam "github.com/offtopic/offtopic/beam"
	"github.com/offtopic/offtopic/similarity"
)

var (
	def          = offtopicbeam.DefaultConfig()
	input        = flag.String("input", "", "text file(s), comma-separated, of WARC/ARC paths, CDX/CDXJ paths or lines, or capture lines (one per line)")
	output       = flag.String("output", "", "results file to write (JSON lines, as results.jsonl)")
	measures     = flag.String("measures", def.Measures, "measures whose thresholds decide (OR), as NAME[=THRESHOLD],...; known: "+strings.Join(similarity.MeasureNames(), ", "))
	score        = flag.String("score", def.Score, "further measures to compute and report without deciding")
	idf          = flag.String("idf", def.IDF, "fit IDF over each timemap or the whole collection")
	canonicalize = flag.String("canonicalize", def.Canonicalize, "group captures by surt canonical URI-R or by the exact URI (none)")
	archiveURL   = flag.String("archive-url", def.ArchiveURL, "URI-Ms of local captures are URL/<14-digit time>/<URI-R>")
	minT0Words   = flag.Int("min-t0-words", def.MinT0Words, "least number of words of text a capture needs to serve as t0")
	noTopicCheck = flag.Bool("no-topic-check", false, "always use the first capture with text as t0")
	plain        = flag.Bool("plain", def.Plain, "apply the rule as the paper does, without the curator's reading")
	continuity   = flag.Float64("continuity", def.Continuity, "least page cosine to the latest on-topic capture at which a capture crossing only content thresholds stays on-topic; 0 turns it off")
	warcDir      = flag.String("warc-dir", "", "directory the file names of CDX/CDXJ input are resolved against")
	tempDir      = flag.String("temp-dir", "", "where workers put temporary index files")
)

func main() {
	flag.Parse()
	beam.Init()
	ctx := context.Background()
	if *input == "" || *output == "" {
		fmt.Fprintln(os.Stderr, "usage: offtopic-beam --input PATHS.txt --output results.jsonl [--runner prism|dataflow|flink|spark ...]")
		os.Exit(2)
	}
	cfg := def
	cfg.Inputs = offtopicbeam.AbsInputs(strings.Split(*input, ","))
	cfg.Output = offtopicbeam.AbsInputs([]string{*output})[0]
	cfg.Measures, cfg.Score, cfg.IDF, cfg.Canonicalize = *measures, *score, *idf, *canonicalize
	cfg.ArchiveURL, cfg.MinT0Words, cfg.NoTopicCheck, cfg.Plain = *archiveURL, *minT0Words, *noTopicCheck, *plain
	cfg.Continuity, cfg.WARCDir, cfg.TempDir = *continuity, *warcDir, *tempDir
	p, s := beam.NewPipelineWithRoot()
	if _, err := offtopicbeam.Build(s, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "offtopic-beam:", err)
		os.Exit(2)
	}
	if err := beamx.Run(ctx, p); err != nil {
		log.Exitf(ctx, "offtopic-beam: %v", err)
	}
	fmt.Fprintln(os.Stderr, "offtopic-beam: wrote", cfg.Output)
}
