package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/remote"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// sourceFlags say where captures come from besides WARC/ARC files.
func sourceFlags() []cli.Flag {
	flags := []cli.Flag{
		&cli.StringSliceFlag{Name: "index", Usage: "read captures from CDX/CDXJ index `FILE`s (plain or .gz) instead of scanning WARCs"},
		&cli.StringFlag{Name: "warc-dir", Usage: "with --index: the `DIR` the index's file names are in"},
		&cli.StringFlag{Name: "seeds", Usage: "score only these URI-Rs: a `FILE` of URLs or SURT prefixes (URL* = prefix); needed by --cdx-server and --timegate"},
		&cli.StringSliceFlag{Name: "timemap", Usage: "fetch TimeMaps by `URI-T` (link-format, JSON or CDXJ; repeatable, or @FILE of URI-Ts) and their mementos"},
		&cli.StringFlag{Name: "archiveit", Usage: "score Archive-It collection `ID` from Archive-It's public Wayback"},
		&cli.StringFlag{Name: "timegate", Usage: "find the TimeMaps of the --seeds URI-Rs through the TimeGate or Memento aggregator at `URL` (URI-Gs are URL + URI-R, e.g. http://web.archive.org/web/ or MemGator's http://localhost:1208/timegate/)"},
	}
	flags = append(flags, cdxServerFlags()...)
	flags = append(flags, cdxQueryFlags()...)
	flags = append(flags, archiveItFlags()...)
	return append(flags, clientFlags()...)
}

// cdxServerFlags name a CDX server and its archive's Wayback endpoint.
func cdxServerFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cdx-server", Usage: "list captures from the CDX server at `URL`"},
		&cli.StringFlag{Name: "cdx-kind", Value: "wayback", Usage: "the CDX server's software: `wayback` (Internet Archive), pywb or outback (OutbackCDX)"},
		&cli.StringFlag{Name: "memento-prefix", Usage: "the archive's Wayback endpoint for mementos of --cdx-server captures and of CDXJ TimeMaps, e.g. http://web.archive.org/web (`URL`)"},
	}
}

// cdxQueryFlags narrow what --cdx-server lists for each seed.
func cdxQueryFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cdx-from", Usage: "with --cdx-server: only captures at or after `TIMESTAMP` (1 to 14 digits, YYYYMMDDhhmmss)"},
		&cli.StringFlag{Name: "cdx-to", Usage: "with --cdx-server: only captures at or before `TIMESTAMP` (1 to 14 digits)"},
		&cli.IntFlag{Name: "cdx-limit", Usage: "with --cdx-server: at most `N` captures per seed (0: all)"},
		&cli.StringSliceFlag{Name: "cdx-filter", Usage: "with --cdx-server: only captures whose field matches, `[!]FIELD:REGEX` as the Internet Archive writes it (fields urlkey, timestamp, original, mimetype, statuscode, digest, length; repeatable, all must hold), e.g. statuscode:200"},
	}
}

// cdxQuery is the query the --cdx-* flags describe.
func cdxQuery(c *cli.Context) (remote.Query, error) {
	q := remote.Query{From: c.String("cdx-from"), To: c.String("cdx-to"), Limit: c.Int("cdx-limit"), Filters: c.StringSlice("cdx-filter")}
	if err := q.Check(); err != nil {
		return q, fmt.Errorf("--cdx-from/--cdx-to/--cdx-limit/--cdx-filter: %w", err)
	}
	return q, nil
}

// clientFlags shape the polite client every remote request goes through.
func clientFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cache-dir", Usage: "disk cache of fetched TimeMaps and mementos (default: the user cache directory; an interrupted run resumes from it)"},
		&cli.BoolFlag{Name: "no-cache", Usage: "fetch everything anew and keep nothing"},
		&cli.IntFlag{Name: "per-host", Value: 4, Usage: "at most `N` requests in flight to one archive host (0: no limit; not negative)"},
		&cli.Float64Flag{Name: "rate", Value: 5, Usage: "at most `R` requests per second to one archive host (0: no limit; not negative)"},
		&cli.DurationFlag{Name: "timeout", Value: 30 * time.Second, Usage: "time limit of one request (more than 0)"},
		&cli.IntFlag{Name: "retries", Value: 4, Usage: "retries of a request after timeouts, 5xx and 429 (0: none; not negative)"},
		&cli.BoolFlag{Name: "not-raw", Usage: "fetch URI-Ms as given, for archives without the id_ (raw memento) modifier"},
		&cli.BoolFlag{Name: "allow-private", Usage: "fetch URI-Ms and redirects that point at loopback, private or link-local addresses (refused by default, except on the archives named by --timemap, --cdx-server, --memento-prefix, --timegate and the Archive-It flags)"},
	}
}

// archiveHosts are the archives the flags name, which the client may reach
// on non-public addresses (a local pywb, an intranet Wayback).
func archiveHosts(c *cli.Context) []string {
	var hosts []string
	for _, name := range []string{"cdx-server", "memento-prefix", "timegate", "archiveit-wayback", "archiveit-site"} {
		if v := c.String(name); v != "" {
			hosts = append(hosts, v)
		}
	}
	uris, _ := expandList(c.StringSlice("timemap")) // a list that cannot be read is reported where it is used
	return append(hosts, uris...)
}

// checkClientFlags refuses client flag values out of range (a usage error):
// a timeout that is not positive, negative retries, rate or per-host limit.
func checkClientFlags(c *cli.Context) error {
	switch {
	case c.Duration("timeout") <= 0:
		return fmt.Errorf("--timeout %v: want more than 0", c.Duration("timeout"))
	case c.Int("retries") < 0:
		return fmt.Errorf("--retries %d: want 0 (none) or more", c.Int("retries"))
	case c.Float64("rate") < 0 || math.IsNaN(c.Float64("rate")):
		return fmt.Errorf("--rate %v: want 0 (no limit) or more", c.Float64("rate"))
	case c.Int("per-host") < 0:
		return fmt.Errorf("--per-host %d: want 0 (no limit) or more", c.Int("per-host"))
	}
	return nil
}

// newClient builds the polite client the client flags describe.
func newClient(c *cli.Context) (*remote.Client, error) {
	opts := clientOptions(c)
	if !c.Bool("no-cache") {
		dir := c.String("cache-dir")
		if dir == "" {
			d, err := remote.DefaultCacheDir()
			if err != nil {
				return nil, fmt.Errorf("cache: %w (give --cache-dir or --no-cache)", err)
			}
			dir = d
		}
		cache, err := remote.OpenCache(dir)
		if err != nil {
			return nil, err
		}
		opts.Cache = cache
	}
	return remote.NewClient(opts), nil
}

// clientOptions are the client flags as remote.ClientOptions.
func clientOptions(c *cli.Context) remote.ClientOptions {
	// The client reads 0 as "the default"; on the command line 0 means none.
	opts := remote.ClientOptions{Version: version, PerHost: c.Int("per-host"), RatePerHost: c.Float64("rate"),
		Timeout: c.Duration("timeout"), MaxRetries: c.Int("retries"),
		AllowPrivate: c.Bool("allow-private"), ArchiveHosts: archiveHosts(c)}
	if opts.MaxRetries == 0 {
		opts.MaxRetries = -1
	}
	if opts.PerHost == 0 {
		opts.PerHost = -1
	}
	if opts.RatePerHost == 0 {
		opts.RatePerHost = -1
	}
	return opts
}

// newRunClient is newClient for a detect run, which reads every memento
// twice (its status while the TimeMap is resolved, its payload when it is
// scored): with --no-cache the run gets a cache of its own in a temporary
// directory, removed by cleanup, so that nothing is fetched twice and
// nothing is kept.
func newRunClient(c *cli.Context) (client *remote.Client, cleanup func(), err error) {
	if !c.Bool("no-cache") {
		client, err = newClient(c)
		return client, func() {}, err
	}
	dir, err := os.MkdirTemp(c.String("temp-dir"), "offtopic-run-cache-")
	if err != nil {
		return nil, nil, fmt.Errorf("--no-cache: %w", err)
	}
	cache, err := remote.OpenCache(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	opts := clientOptions(c)
	opts.Cache = cache
	return remote.NewClient(opts), func() { os.RemoveAll(dir) }, nil
}

// cdxServer is the CDX server the flags name.
func cdxServer(c *cli.Context, doer remote.Doer, canon timemap.CanonMode) (*remote.CDXServer, error) {
	kind, err := remote.ParseServerKind(c.String("cdx-kind"))
	if err != nil {
		return nil, err
	}
	return &remote.CDXServer{Kind: kind, Endpoint: c.String("cdx-server"), Doer: doer, MementoPrefix: c.String("memento-prefix"), Canon: canon}, nil
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
	client  *remote.Client
	// counts are what the remote sources lost (nil for local sources).
	counts *remoteCounts
	// all is every TimeMap of local files when src selects some (seeds):
	// redirects and frames are followed into the others.
	all timemap.Source
}

// others is where redirects and frames that leave the TimeMaps scored are
// followed: the local files' TimeMaps that seeds or a shard leave out (nil
// when every TimeMap is scored).
func (s *source) others(st *setup) timemap.Source {
	if s.all == nil && st.shard.N > 1 {
		return s.src
	}
	return s.all
}

// remoteCounts count what remote sources could not deliver.
type remoteCounts struct {
	dropped    atomic.Int64 // TimeMaps lost to an error
	noMementos atomic.Int64 // TimeMaps the archive does not have, or empty
	pages      atomic.Int64 // linked TimeMap pages skipped
}

// summary prints the remote source's figures: what the client did and what
// was lost.
func (s *source) summary(w io.Writer) {
	if s.client == nil {
		return
	}
	cs := s.client.Stats()
	fmt.Fprintf(w, "offtopic: %d requests (%d retries, %d failed), %d cache hits, %d cache misses, %d bytes fetched\n",
		cs.Requests, cs.Retries, cs.Failures, cs.CacheHits, cs.CacheMisses, cs.Bytes)
	fmt.Fprintf(w, "offtopic: %d TimeMaps dropped for errors, %d without mementos, %d linked TimeMap pages skipped\n",
		s.counts.dropped.Load(), s.counts.noMementos.Load(), s.counts.pages.Load())
}

// isRemote reports whether any remote source is selected.
func isRemote(c *cli.Context) bool {
	return len(c.StringSlice("timemap")) > 0 || c.String("cdx-server") != "" || c.String("archiveit") != "" || c.String("timegate") != ""
}

// openSource picks the source the flags name: remote TimeMaps, a CDX
// server, Archive-It, CDX/CDXJ indexes, or (by default) WARC/ARC files.
func openSource(c *cli.Context, st *setup, files []string, prog *progress, warn *warnings) (*source, error) {
	ctx := c.Context
	if isRemote(c) {
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
		pl := timemap.NewPayloads()
		return &source{src: ci, read: pl.Read, close: func() { pl.Close(); ci.Close() }, inputs: idx}, nil
	}
	if len(files) == 0 {
		return nil, errors.New("no input: give WARC/ARC files, --index, --timemap, --cdx-server, --timegate or --archiveit")
	}
	prog.begin("index", 0)
	// Payloads are extracted as the index reads them, not read again.
	notes := similarity.NewPayloadNotes(st.opts, extract.Options{})
	idx, err := timemap.BuildIndex(ctx, files, timemap.IndexOptions{Canon: st.canon, TempDir: c.String("temp-dir"), OnError: warn.add, Workers: c.Int("workers"),
		Note: notes.Note, WantsNote: notes.Wants,
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
		src = seeds.Select(src)
	}
	pl := timemap.NewPayloads()
	s := &source{src: src, read: pl.Read, close: func() { idx.Close(); pl.Close() }, inputs: files, total: is.Captures, skipped: is.Skipped, cut: is.Cut}
	if src != timemap.Source(idx) {
		s.all = idx
	}
	return s, nil
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
func openRemote(c *cli.Context, st *setup, warn *warnings) (_ *source, err error) {
	client, cleanup, err := newRunClient(c)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			cleanup()
		}
	}()
	mopts := remote.MementoOptions{NotRaw: c.Bool("not-raw")}
	counts := &remoteCounts{}
	s := &source{client: client, close: cleanup, read: remote.MementoReader(client, mopts), counts: counts}
	tmOpts := remote.TimeMapOptions{Canon: st.canon, ArchivePrefix: c.String("memento-prefix"), OnWarning: func(err error) {
		counts.pages.Add(1)
		warn.add(err)
	}}
	var src timemap.Source
	switch {
	case len(c.StringSlice("timemap")) > 0:
		uris, err := expandList(c.StringSlice("timemap"))
		if err != nil {
			return nil, err
		}
		s.inputs = uris
		src = remote.NewTimeMapSource(client, uris, tmOpts)
	case c.String("timegate") != "":
		if c.String("seeds") == "" {
			return nil, errors.New("--timegate needs --seeds: the URI-Rs to look up")
		}
		urirs, err := expandList([]string{"@" + c.String("seeds")})
		if err != nil {
			return nil, err
		}
		s.inputs = []string{c.String("timegate")}
		src = remote.NewTimeGateSource(client, c.String("timegate"), urirs, time.Time{}, tmOpts)
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
		q, err := cdxQuery(c)
		if err != nil {
			return nil, err
		}
		s.inputs = []string{c.String("cdx-server")}
		src = srv.SeedSource(seeds, q)
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
	resolved := remote.ResolveMementos(src, client, mopts, func(c timemap.Capture, err error) {
		warn.add(fmt.Errorf("%s: %w", timemap.URIM("", c), err))
	})
	s.src = remote.SkipFailed(resolved, func(err error) {
		if errors.Is(err, remote.ErrNotArchived) {
			counts.noMementos.Add(1)
		} else {
			counts.dropped.Add(1)
		}
		warn.add(err)
	})
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
