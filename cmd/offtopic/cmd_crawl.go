package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/crawl"
	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/internal/atomicfile"
	"github.com/offtopic/offtopic/remote"
	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/timemap"
)

func crawlCommand() *cli.Command {
	return &cli.Command{
		Name:      "crawl",
		Usage:     "extract an event collection from a web archive by focused re-crawl",
		ArgsUsage: " ",
		Description: `Crawls a local web archive (WARC files and their CDXJ index) from the seeds of a
collection specification, following the links of the documents most relevant
to the event first, and writes into --out:
   <name>.warc.gz     the collected records, copied byte for byte
   index.cdxj         their CDXJ index;  timemaps.link  their TimeMaps
   crawl.jsonl        the crawl log, one document per line in the order collected
   missing.tsv        linked URLs the archive lacks
   relevance.csv      accumulated relevance by documents crawled
   harvest.html       accumulated relevance (and relevant pages with --evaluate)
                      against documents crawled, one line per strategy
   crawl-state.json   frontier and seen set, for --resume

Strategies: ctg (default: topical relevance gating temporal relevance, links
estimated from the linking page, anchor text and date), and those of Gossen et
al. over TTR = alpha*TopicR + (1-alpha)*TempR: ct-f (the spec's alpha), c-f
(alpha 1), t-f (alpha 0), unfocused (breadth-first). IDF comes from the
reference documents and the documents the crawl reads, so the cost follows
the crawl; --archive-idf first reads every capture of a local archive.

With --evaluate a relevance list (URL and relevant columns), prints how many
relevant pages the crawl collected at each budget; with several --strategy
values each strategy crawls into --out/<strategy>.

Examples:
   offtopic crawl --spec election/spec.json --archive archive --out coll
   offtopic crawl --spec spec.json --archive archive --out cmp --strategy ctg,ct-f,c-f,t-f,unfocused --evaluate relevant.tsv
   offtopic detect coll/*.warc.gz`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "spec", Usage: "collection specification `FILE` (JSON)"},
			&cli.StringFlag{Name: "archive", Usage: "archive `DIR` of WARC files (with index.cdxj, else indexed once)"},
			&cli.StringFlag{Name: "timegate", Usage: "crawl through a Memento TimeGate or aggregator: `URL` to which each URI-R is appended (e.g. http://localhost:1208/timegate/); mementos are read from whichever archive holds them"},
			&cli.StringFlag{Name: "index", Usage: "CDXJ/CDX index `FILE` of the archive (default DIR/index.cdxj)"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Value: "offtopic-crawl", Usage: "output `DIR`"},
			&cli.StringFlag{Name: "strategy", Value: "ctg", Usage: "`ctg`, ct-f, c-f, t-f or unfocused (comma-separated to compare)"},
			&cli.BoolFlag{Name: "resume", Usage: "continue the interrupted crawl in --out"},
			&cli.BoolFlag{Name: "thresholds", Usage: "Klein mode: keep and follow only documents above a threshold learnt from the reference documents' outlinks"},
			&cli.Int64Flag{Name: "seed", Value: 1, Usage: "random seed of --thresholds' splits"},
			&cli.IntFlag{Name: "target", Usage: "collect `N` documents (overrides the spec)"},
			&cli.IntFlag{Name: "max-depth", Usage: "largest link depth (overrides the spec)"},
			&cli.DurationFlag{Name: "max-runtime", Usage: "stop after `DURATION` (overrides the spec)"},
			&cli.StringFlag{Name: "evaluate", Usage: "relevance list `TSV`: report relevant pages collected at each budget"},
			&cli.StringFlag{Name: "budgets", Value: "50,100,200", Usage: "budgets of --evaluate"},
			&cli.BoolFlag{Name: "archive-idf", Usage: "build IDF from every capture of the local archive first (cost grows with the archive)"},
			&cli.BoolFlag{Name: "local-idf", Hidden: true, Usage: "IDF from the reference and crawled documents (now the default)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on stderr"},
		}, append(cdxServerFlags(), clientFlags()...)...),
		Action:      runCrawl,
		Subcommands: []*cli.Command{crawlAuditCommand()},
	}
}

func runCrawl(c *cli.Context) error {
	stderr := c.App.ErrWriter
	if c.String("spec") == "" || crawlSources(c) != 1 {
		return cli.Exit("crawl: --spec and one archive (--archive DIR, --cdx-server URL or --timegate URL) are required", 2)
	}
	spec, err := crawlSpec(c)
	if err != nil {
		return cli.Exit("crawl: "+err.Error(), 2)
	}
	var strategies []crawl.Strategy
	for _, s := range strings.Split(c.String("strategy"), ",") {
		st, err := crawl.ParseStrategy(s)
		if err != nil {
			return cli.Exit("crawl: --strategy: "+err.Error(), 2)
		}
		strategies = append(strategies, st)
	}
	budgets, err := parseBudgets(c.String("budgets"))
	if err != nil {
		return cli.Exit("crawl: --budgets: "+err.Error(), 2)
	}
	var relevant map[string]bool
	if p := c.String("evaluate"); p != "" {
		if relevant, err = crawl.ReadRelevant(p); err != nil {
			return cli.Exit("crawl: "+err.Error(), 2)
		}
	}
	quiet := c.Bool("quiet")
	t0 := time.Now()
	archive, df, code, err := openCrawlArchive(c, spec)
	if err != nil {
		return cli.Exit("crawl: "+err.Error(), code)
	}
	if local, ok := archive.(*crawl.LocalArchive); ok && !quiet {
		n := 0
		if df != nil {
			n = df.Docs()
		}
		fmt.Fprintf(stderr, "crawl: archive %d URLs, IDF from %d documents (%.1fs)\n", local.Len(), n, time.Since(t0).Seconds())
	}
	var rows []relevantRow
	harvest := &report.Harvest{Title: spec.Name, Budgets: budgets}
	for _, s := range strategies {
		out := c.String("out")
		if len(strategies) > 1 {
			out = filepath.Join(out, string(s))
		}
		var last time.Time
		t1 := time.Now()
		res, err := crawl.Crawl(c.Context, crawl.Options{
			Spec: spec, Archive: archive, DF: df, Strategy: s, Out: out, Resume: c.Bool("resume"),
			Thresholds: c.Bool("thresholds"), Seed: c.Int64("seed"),
			Progress: func(st crawl.Stats) {
				if quiet || time.Since(last) < 2*time.Second {
					return
				}
				last = time.Now()
				printCrawlStats(stderr, s, st)
			},
		})
		if err != nil {
			if res != nil && errors.Is(err, c.Context.Err()) {
				fmt.Fprintf(stderr, "crawl: interrupted after %d documents; continue with --resume\n", len(res.Log))
				return cli.Exit("", 130)
			}
			return cli.Exit("crawl: "+err.Error(), 1)
		}
		if !quiet {
			printCrawlStats(stderr, s, res.Stats)
			el := time.Since(t1)
			fmt.Fprintf(stderr, "crawl: %s stopped (%s): %d documents, %d missing in %.1fs (%.0f docs/s), peak memory %d MiB -> %s\n",
				s, res.Stopped, len(res.Log), len(res.Missing), el.Seconds(), float64(len(res.Log)+len(res.Missing)+res.Stats.Rejected)/el.Seconds(), peakRSS()>>20, out)
			if res.Threshold != nil {
				fmt.Fprintf(stderr, "crawl: threshold %.3f\n", *res.Threshold)
			}
		}
		if relevant != nil {
			rows = append(rows, relevantRow{s, crawl.RelevantAt(res.Log, relevant, budgets)})
		}
		harvest.Lines = append(harvest.Lines, harvestLine(string(s), res.Log, relevant))
	}
	if err := writeHarvest(filepath.Join(c.String("out"), "harvest.html"), harvest); err != nil {
		return cli.Exit("crawl: "+err.Error(), 1)
	}
	if relevant != nil {
		printRelevant(c.App.Writer, budgets, rows)
	}
	return nil
}

// harvestLine is one crawl's curves: relevance accumulated over its log
// and, with a relevance list, the relevant pages collected.
func harvestLine(name string, log []crawl.Entry, relevant map[string]bool) report.HarvestLine {
	l := report.HarvestLine{Name: name}
	sum, n := 0.0, 0
	for _, e := range log {
		sum += e.TTR
		l.Relevance = append(l.Relevance, sum)
		if relevant != nil {
			if relevant[timemap.Canonicalize(e.URL, timemap.CanonSURT)] {
				n++
			}
			l.Relevant = append(l.Relevant, n)
		}
	}
	return l
}

func writeHarvest(path string, h *report.Harvest) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := report.WriteHarvestHTML(f, h); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

func printCrawlStats(w io.Writer, s crawl.Strategy, st crawl.Stats) {
	fmt.Fprintf(w, "crawl: %s %d documents, frontier %d, missing %d, rejected %d, mean TTR %.3f, %.0f docs/s\n",
		s, st.Crawled, st.Frontier, st.Missing, st.Rejected, st.MeanTTR, st.Rate)
}

func parseBudgets(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		var n int
		if _, err := fmt.Sscanf(strings.TrimSpace(f), "%d", &n); err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a positive number", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// crawlSpec reads --spec with the limits the flags override.
func crawlSpec(c *cli.Context) (*crawl.Spec, error) {
	spec, err := crawl.LoadSpec(c.String("spec"))
	if err != nil {
		return nil, err
	}
	if c.IsSet("target") {
		spec.TargetSize = c.Int("target")
	}
	if c.IsSet("max-depth") {
		spec.MaxDepth = c.Int("max-depth")
	}
	if c.IsSet("max-runtime") {
		spec.MaxRuntime = c.Duration("max-runtime").String()
	}
	return spec, nil
}

// crawlSources is how many of the archive flags (--archive, --cdx-server,
// --timegate) are given.
func crawlSources(c *cli.Context) int {
	n := 0
	for _, f := range []string{"archive", "cdx-server", "timegate"} {
		if c.String(f) != "" {
			n++
		}
	}
	return n
}

// openCrawlArchive opens the archive the flags name (--timegate,
// --cdx-server or a local --archive), with the whole archive's document
// frequencies when --archive-idf asks for them; code is the exit status of an
// error.
func openCrawlArchive(c *cli.Context, spec *crawl.Spec) (_ crawl.Archive, _ *crawl.DocFreq, code int, _ error) {
	if c.String("timegate") != "" || c.String("cdx-server") != "" {
		if err := checkClientFlags(c); err != nil {
			return nil, nil, 2, err
		}
	}
	switch {
	case c.String("timegate") != "":
		client, err := newClient(c)
		if err != nil {
			return nil, nil, 1, err
		}
		return crawl.NewTimeGateArchive(c.String("timegate"), spec.Event().Midpoint(), client, remote.MementoOptions{NotRaw: c.Bool("not-raw")}), nil, 0, nil
	case c.String("cdx-server") != "":
		client, err := newClient(c)
		if err != nil {
			return nil, nil, 1, err
		}
		srv, err := cdxServer(c, client, timemap.CanonSURT)
		if err != nil {
			return nil, nil, 2, err
		}
		return crawl.NewRemoteArchive(srv, client, remote.MementoOptions{NotRaw: c.Bool("not-raw")}), nil, 0, nil
	}
	local, err := crawl.OpenLocal(c.Context, c.String("archive"), c.String("index"), nil)
	if err != nil {
		return nil, nil, 1, err
	}
	var df *crawl.DocFreq
	if c.Bool("archive-idf") {
		if df, err = crawl.BuildDF(c.Context, local, extract.Options{}, 0); err != nil {
			return nil, nil, 1, err
		}
	}
	return local, df, 0, nil
}

// relevantRow is one strategy's relevant pages at each budget.
type relevantRow struct {
	s      crawl.Strategy
	counts []int
}

// printRelevant prints the table of relevant pages per strategy and budget.
func printRelevant(w io.Writer, budgets []int, rows []relevantRow) {
	fmt.Fprintf(w, "%-10s", "strategy")
	for _, b := range budgets {
		fmt.Fprintf(w, "\t@%d", b)
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		fmt.Fprintf(w, "%-10s", r.s)
		for _, n := range r.counts {
			fmt.Fprintf(w, "\t%d", n)
		}
		fmt.Fprintln(w)
	}
}
