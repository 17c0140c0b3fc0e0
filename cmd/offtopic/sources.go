package main

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/timemap"
)

// sourceFlags say where captures come from besides WARC/ARC files.
func sourceFlags() []cli.Flag {
	flags := []cli.Flag{
		&cli.StringSliceFlag{Name: "index", Usage: "read captures from CDX/CDXJ index `FILE`s (plain or .gz) instead of scanning WARCs"},
		&cli.StringFlag{Name: "warc-dir", Usage: "with --index: the `DIR` the index's file names are in"},
		&cli.StringFlag{Name: "seeds", Usage: "score only these URI-Rs: a `FILE` of URLs or SURT prefixes (URL* = prefix); needed by --cdx-server"},
		&cli.StringSliceFlag{Name: "timemap", Usage: "fetch TimeMaps by `URI-T` (link-format, JSON or CDXJ; repeatable, or @FILE of URI-Ts) and their mementos"},
		&cli.StringFlag{Name: "archiveit", Usage: "score Archive-It collection `ID` from Archive-It's public Wayback"},
	}
	flags = append(flags, cdxServerFlags()...)
	flags = append(flags, archiveItFlags()...)
	return append(flags, clientFlags()...)
}

// cdxServerFlags name a CDX server and its archive's Wayback endpoint.
func cdxServerFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cdx-server", Usage: "list captures from the CDX server at `URL`"},
		&cli.StringFlag{Name: "cdx-kind", Value: "wayback", Usage: "the CDX server's software: `wayback` (Internet Archive), pywb or outback (OutbackCDX)"},
		&cli.StringFlag{Name: "memento-prefix", Usage: "the archive's Wayback endpoint for mementos of --cdx-server captures, e.g. http://web.archive.org/web (`URL`)"},
	}
}

// clientFlags shape the polite client every remote request goes through.
func clientFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cache-dir", Usage: "disk cache of fetched TimeMaps and mementos (default: the user cache directory; an interrupted run resumes from it)"},
		&cli.BoolFlag{Name: "no-cache", Usage: "fetch everything anew and keep nothing"},
		&cli.IntFlag{Name: "per-host", Value: 4, Usage: "at most `N` requests in flight to one archive host (0: no limit)"},
		&cli.Float64Flag{Name: "rate", Value: 5, Usage: "at most `R` requests per second to one archive host (0: no limit)"},
		&cli.DurationFlag{Name: "timeout", Value: 30 * time.Second, Usage: "time limit of one request"},
		&cli.IntFlag{Name: "retries", Value: 4, Usage: "retries of a request after timeouts, 5xx and 429"},
		&cli.BoolFlag{Name: "not-raw", Usage: "fetch URI-Ms as given, for archives without the id_ (raw memento) modifier"},
	}
}

// newClient builds the polite client the client flags describe.
func newClient(c *cli.Context) (*timemap.Client, error) {
	// The client reads 0 as "the default"; on the command line 0 means none.
	opts := timemap.ClientOptions{Version: version, PerHost: c.Int("per-host"), RatePerHost: c.Float64("rate"),
		Timeout: c.Duration("timeout"), MaxRetries: c.Int("retries")}
	if opts.MaxRetries == 0 {
		opts.MaxRetries = -1
	}
	if opts.PerHost == 0 {
		opts.PerHost = -1
	}
	if opts.RatePerHost == 0 {
		opts.RatePerHost = -1
	}
	if !c.Bool("no-cache") {
		dir := c.String("cache-dir")
		if dir == "" {
			d, err := timemap.DefaultCacheDir()
			if err != nil {
				return nil, fmt.Errorf("cache: %w (give --cache-dir or --no-cache)", err)
			}
			dir = d
		}
		cache, err := timemap.OpenCache(dir)
		if err != nil {
			return nil, err
		}
		opts.Cache = cache
	}
	return timemap.NewClient(opts), nil
}

// cdxServer is the CDX server the flags name.
func cdxServer(c *cli.Context, doer timemap.Doer, canon timemap.CanonMode) (*timemap.CDXServer, error) {
	kind, err := timemap.ParseServerKind(c.String("cdx-kind"))
	if err != nil {
		return nil, err
	}
	return &timemap.CDXServer{Kind: kind, Endpoint: c.String("cdx-server"), Doer: doer, MementoPrefix: c.String("memento-prefix"), Canon: canon}, nil
}

// source is where a run's captures come from and how payloads are read.
type source struct {
	src   timemap.Source
	read  func(ctx context.Context, c timemap.Capture) (http.Header, []byte, error)
	close func()
	// inputs names the source in the results' run line.
	inputs []string
	// total is the number of captures when known in advance (for progress).
	total   int
	skipped int
	cut     int // payloads longer than the body cap (see timemap.Stats.Cut)
	client  *timemap.Client
}

// remote reports whether any remote source is selected.
func remote(c *cli.Context) bool {
	return len(c.StringSlice("timemap")) > 0 || c.String("cdx-server") != "" || c.String("archiveit") != ""
}

// openSource picks the source the flags name: remote TimeMaps, a CDX
// server, Archive-It, CDX/CDXJ indexes, or (by default) WARC/ARC files.
func openSource(c *cli.Context, st *setup, files []string, prog *progress, warn *warnings) (*source, error) {
	ctx := c.Context
	if remote(c) {
		return openRemote(c, st, warn)
	}
	if idx := c.StringSlice("index"); len(idx) > 0 {
		ci, err := timemap.OpenIndex(idx, timemap.CDXOptions{WARCDir: c.String("warc-dir"), Canon: st.canon, OnError: warn.add, TempDir: c.String("temp-dir")})
		if err != nil {
			return nil, err
		}
		if s := c.String("seeds"); s != "" {
			seeds, err := readSeedsFile(s, st.canon)
			if err != nil {
				return nil, err
			}
			ci.Select(seeds)
		}
		return &source{src: ci, read: timemap.ReadPayload, close: func() {}, inputs: idx}, nil
	}
	if len(files) == 0 {
		return nil, errors.New("no input: give WARC/ARC files, --index, --timemap, --cdx-server or --archiveit")
	}
	prog.begin("index", 0)
	idx, err := timemap.BuildIndex(ctx, files, timemap.IndexOptions{Canon: st.canon, TempDir: c.String("temp-dir"), OnError: warn.add,
		Progress: func(filesDone, captures int) {
			prog.update(captures, fmt.Sprintf("captures, %d/%d files", filesDone, len(files)))
		}})
	if err != nil {
		prog.end()
		return nil, err
	}
	is := idx.Stats()
	prog.finish(is.Captures, fmt.Sprintf("captures, %d/%d files", is.Files, len(files)))
	if is.Captures == 0 {
		idx.Close()
		return nil, errors.New("no captures found in the input")
	}
	var src timemap.Source = idx
	if s := c.String("seeds"); s != "" {
		seeds, err := readSeedsFile(s, st.canon)
		if err != nil {
			idx.Close()
			return nil, err
		}
		src = seedFilter{src, seeds}
	}
	return &source{src: src, read: timemap.ReadPayload, close: func() { idx.Close() }, inputs: files, total: is.Captures, skipped: is.Skipped, cut: is.Cut}, nil
}

func readSeedsFile(path string, canon timemap.CanonMode) (*timemap.Seeds, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return timemap.ReadSeeds(f, path, canon)
}

// openRemote sets up the polite client and the remote source.
func openRemote(c *cli.Context, st *setup, warn *warnings) (*source, error) {
	client, err := newClient(c)
	if err != nil {
		return nil, err
	}
	mopts := timemap.MementoOptions{NotRaw: c.Bool("not-raw")}
	s := &source{client: client, close: func() {}, read: timemap.MementoReader(client, mopts)}
	var src timemap.Source
	switch {
	case len(c.StringSlice("timemap")) > 0:
		uris, err := expandList(c.StringSlice("timemap"))
		if err != nil {
			return nil, err
		}
		s.inputs = uris
		src = timemap.NewTimeMapSource(client, uris, timemap.TimeMapOptions{Canon: st.canon})
	case c.String("cdx-server") != "":
		srv, err := cdxServer(c, client, st.canon)
		if err != nil {
			return nil, err
		}
		if c.String("seeds") == "" {
			return nil, errors.New("--cdx-server needs --seeds: the URLs whose captures to list")
		}
		seeds, err := expandList([]string{"@" + c.String("seeds")})
		if err != nil {
			return nil, err
		}
		s.inputs = []string{c.String("cdx-server")}
		src = sourceFunc(func(ctx context.Context) iter.Seq2[*timemap.TimeMap, error] {
			return srv.TimeMaps(ctx, seeds, timemap.Query{})
		})
	default:
		a, err := archiveItSource(c, client, st)
		if err != nil {
			return nil, err
		}
		s.inputs = []string{"archive-it:" + c.String("archiveit")}
		src = a
	}
	// Every capture's memento is fetched (once: the cache serves the second
	// read) to learn its archived status and type; failures are listed as
	// not scored with their reason.
	s.src = tolerant{timemap.ResolveMementos(src, client, mopts, func(c timemap.Capture, err error) {
		warn.add(fmt.Errorf("%s: %w", timemap.URIM("", c), err))
	}), warn}
	return s, nil
}

// expandList reads "@FILE" entries as one item per line.
func expandList(items []string) ([]string, error) {
	var out []string
	for _, it := range items {
		if !strings.HasPrefix(it, "@") {
			out = append(out, it)
			continue
		}
		b, err := os.ReadFile(it[1:])
		if err != nil {
			return nil, err
		}
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				out = append(out, l)
			}
		}
	}
	return out, nil
}

// sourceFunc adapts a function to timemap.Source.
type sourceFunc func(ctx context.Context) iter.Seq2[*timemap.TimeMap, error]

func (f sourceFunc) TimeMaps(ctx context.Context) iter.Seq2[*timemap.TimeMap, error] { return f(ctx) }

// tolerant reports a TimeMap that could not be fetched and goes on with the
// others; only the end of the context stops it.
type tolerant struct {
	src  timemap.Source
	warn *warnings
}

func (t tolerant) TimeMaps(ctx context.Context) iter.Seq2[*timemap.TimeMap, error] {
	return func(yield func(*timemap.TimeMap, error) bool) {
		for tm, err := range t.src.TimeMaps(ctx) {
			if err != nil && ctx.Err() == nil {
				t.warn.add(err)
				continue
			}
			if !yield(tm, err) {
				return
			}
		}
	}
}

// seedFilter keeps the TimeMaps whose keys match the seeds.
type seedFilter struct {
	src   timemap.Source
	seeds *timemap.Seeds
}

func (s seedFilter) TimeMaps(ctx context.Context) iter.Seq2[*timemap.TimeMap, error] {
	return func(yield func(*timemap.TimeMap, error) bool) {
		for tm, err := range s.src.TimeMaps(ctx) {
			if err == nil && !s.seeds.Match(tm.Key) {
				continue
			}
			if !yield(tm, err) {
				return
			}
		}
	}
}
