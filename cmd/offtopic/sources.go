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

// sourceOptions say where captures come from besides WARC/ARC files
// (detect, model).
type sourceOptions struct {
	index            cli.StringSlice
	warcDir, seeds   string
	timemaps         cli.StringSlice
	archiveit        string
	timegate         string
	archiveitWayback string
	archiveitSite    string
	cdx              cdxOptions
	client           clientOptions
}

func (o *sourceOptions) flags() []cli.Flag {
	flags := []cli.Flag{
		&cli.StringSliceFlag{Name: "index", Destination: &o.index, Category: catSources,
			Usage: "read captures from CDX/CDXJ `FILE`s, not WARCs"},
		&cli.StringFlag{Name: "warc-dir", Destination: &o.warcDir, Category: catSources,
			Usage: "with --index: the `DIR` the index's file names are in"},
		&cli.StringFlag{Name: "seeds", Destination: &o.seeds, Category: catSources,
			Usage: "score only these URI-Rs: `FILE` of URLs or prefixes (URL*)"},
		&cli.StringSliceFlag{Name: "timemap", Destination: &o.timemaps, Category: catSources,
			Usage: "fetch TimeMaps by `URI-T` (or @FILE) and their mementos"},
		&cli.StringFlag{Name: "archiveit", Destination: &o.archiveit, Category: catSources,
			Usage: "score Archive-It collection `ID` from its public Wayback"},
		&cli.StringFlag{Name: "timegate", Destination: &o.timegate, Category: catSources,
			Usage: "find the --seeds' TimeMaps via the TimeGate at `URL`"},
		&cli.StringFlag{Name: "archiveit-wayback", Value: remote.DefaultArchiveItWayback, Destination: &o.archiveitWayback, Category: catSources,
			Usage: "Archive-It's Wayback `URL`"},
		&cli.StringFlag{Name: "archiveit-site", Value: remote.DefaultArchiveItSite, Destination: &o.archiveitSite, Category: catSources,
			Usage: "Archive-It's collection pages `URL`"},
	}
	flags = append(flags, o.cdx.serverFlags()...)
	flags = append(flags, o.cdx.queryFlags()...)
	return append(flags, o.client.flags()...)
}

// isRemote reports whether any remote source is selected.
func (o *sourceOptions) isRemote() bool {
	return len(o.timemaps.Value()) > 0 || o.cdx.server != "" || o.archiveit != "" || o.timegate != ""
}

// check refuses flag values out of range (usage errors).
func (o *sourceOptions) check() error {
	if o.isRemote() {
		if err := o.client.check(); err != nil {
			return err
		}
	}
	if o.cdx.server != "" {
		if _, err := o.cdx.query(); err != nil {
			return err
		}
	}
	return nil
}

// archiveHosts are the archives the flags name, which the client may reach
// on non-public addresses (a local pywb, an intranet Wayback).
func (o *sourceOptions) archiveHosts() []string {
	hosts := o.cdx.hosts(o.timegate, o.archiveitWayback, o.archiveitSite)
	uris, _ := expandList(o.timemaps.Value()) // a list that cannot be read is reported where it is used
	return append(hosts, uris...)
}

// cdxOptions name a CDX server, its archive's Wayback endpoint and what to
// list for each seed.
type cdxOptions struct {
	server, kind, mementoPrefix string
	from, to                    string
	limit                       int
	filters                     cli.StringSlice
}

// serverFlags name the server (detect, crawl).
func (o *cdxOptions) serverFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cdx-server", Destination: &o.server, Category: catCDX,
			Usage: "list captures from the CDX server at `URL`"},
		&cli.StringFlag{Name: "cdx-kind", Value: "wayback", Destination: &o.kind, Category: catCDX,
			Usage: "CDX server software, `KIND`: wayback, pywb or outback"},
		&cli.StringFlag{Name: "memento-prefix", Destination: &o.mementoPrefix, Category: catCDX,
			Usage: "the archive's Wayback `URL` for mementos of CDX captures"},
	}
}

// queryFlags narrow what the server lists for each seed (detect).
func (o *cdxOptions) queryFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cdx-from", Destination: &o.from, Category: catCDX,
			Usage: "only captures at or after `TIMESTAMP` (1 to 14 digits)"},
		&cli.StringFlag{Name: "cdx-to", Destination: &o.to, Category: catCDX,
			Usage: "only captures at or before `TIMESTAMP` (1 to 14 digits)"},
		&cli.IntFlag{Name: "cdx-limit", Destination: &o.limit, Category: catCDX, DefaultText: "0: all",
			Usage: "at most `N` captures per seed"},
		&cli.StringSliceFlag{Name: "cdx-filter", Destination: &o.filters, Category: catCDX,
			Usage: "only captures matching [!]FIELD:REGEX (repeatable)"},
	}
}

// query is the query the --cdx-* flags describe; an error is a usage error.
func (o *cdxOptions) query() (remote.Query, error) {
	q := remote.Query{From: o.from, To: o.to, Limit: o.limit, Filters: o.filters.Value()}
	if err := q.Check(); err != nil {
		return q, usagef("--cdx-from/--cdx-to/--cdx-limit/--cdx-filter: %w", err)
	}
	return q, nil
}

// hosts are the CDX server and memento prefix, then the others given that
// are not empty.
func (o *cdxOptions) hosts(others ...string) []string {
	var hosts []string
	for _, h := range append([]string{o.server, o.mementoPrefix}, others...) {
		if h != "" {
			hosts = append(hosts, h)
		}
	}
	return hosts
}

// open is the CDX server the flags name; an unknown --cdx-kind is a usage
// error.
func (o *cdxOptions) open(doer remote.Doer, canon timemap.CanonMode) (*remote.CDXServer, error) {
	kind, err := remote.ParseServerKind(o.kind)
	if err != nil {
		return nil, usagef("--cdx-kind: %w", err)
	}
	return &remote.CDXServer{Kind: kind, Endpoint: o.server, Doer: doer, MementoPrefix: o.mementoPrefix, Canon: canon}, nil
}

// clientOptions shape the polite client every remote request goes through.
type clientOptions struct {
	cacheDir             string
	noCache              bool
	perHost              int
	rate                 float64
	timeout              time.Duration
	retries              int
	notRaw, allowPrivate bool
}

func (o *clientOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cache-dir", Destination: &o.cacheDir, Category: catClient, DefaultText: "the user cache directory",
			Usage: "cache `DIR` of fetched TimeMaps and mementos"},
		&cli.BoolFlag{Name: "no-cache", Destination: &o.noCache, Category: catClient,
			Usage: "fetch everything anew and keep nothing"},
		&cli.IntFlag{Name: "per-host", Value: 4, Destination: &o.perHost, Category: catClient,
			Usage: "at most `N` requests in flight to one archive host (0: no limit)"},
		&cli.Float64Flag{Name: "rate", Value: 5, Destination: &o.rate, Category: catClient,
			Usage: "at most `R` requests per second to one archive host (0: no limit)"},
		&cli.DurationFlag{Name: "timeout", Value: 30 * time.Second, Destination: &o.timeout, Category: catClient,
			Usage: "time limit of one request (`DURATION`)"},
		&cli.IntFlag{Name: "retries", Value: 4, Destination: &o.retries, Category: catClient,
			Usage: "`N` retries of a request after timeouts, 5xx and 429 (0: none)"},
		&cli.BoolFlag{Name: "not-raw", Destination: &o.notRaw, Category: catClient,
			Usage: "fetch URI-Ms as given, for archives without the id_ modifier"},
		&cli.BoolFlag{Name: "allow-private", Destination: &o.allowPrivate, Category: catClient,
			Usage: "fetch URI-Ms and redirects to loopback or private addresses"},
	}
}

// check refuses client flag values out of range (a usage error): a timeout
// that is not positive, negative retries, rate or per-host limit.
func (o *clientOptions) check() error {
	switch {
	case o.timeout <= 0:
		return usagef("--timeout %v: want more than 0", o.timeout)
	case o.retries < 0:
		return usagef("--retries %d: want 0 (none) or more", o.retries)
	case o.rate < 0 || math.IsNaN(o.rate):
		return usagef("--rate %v: want 0 (no limit) or more", o.rate)
	case o.perHost < 0:
		return usagef("--per-host %d: want 0 (no limit) or more", o.perHost)
	}
	return nil
}

// options are the flags as remote.ClientOptions; hosts are the archives
// named on the command line.
func (o *clientOptions) options(hosts []string) remote.ClientOptions {
	// The client reads 0 as "the default"; on the command line 0 means none.
	opts := remote.ClientOptions{Version: version, PerHost: o.perHost, RatePerHost: o.rate,
		Timeout: o.timeout, MaxRetries: o.retries, AllowPrivate: o.allowPrivate, ArchiveHosts: hosts}
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

// mementoOptions say how mementos are fetched.
func (o *clientOptions) mementoOptions() remote.MementoOptions {
	return remote.MementoOptions{NotRaw: o.notRaw}
}

// newClient builds the polite client the flags describe.
func (o *clientOptions) newClient(hosts []string) (*remote.Client, error) {
	opts := o.options(hosts)
	if !o.noCache {
		dir := o.cacheDir
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

// newRunClient is newClient for a detect run, which reads every memento
// twice (its status while the TimeMap is resolved, its payload when it is
// scored): with --no-cache the run gets a cache of its own in a temporary
// directory (in tempDir), removed by cleanup, so that nothing is fetched
// twice and nothing is kept.
func (o *clientOptions) newRunClient(hosts []string, tempDir string) (client *remote.Client, cleanup func(), err error) {
	if !o.noCache {
		client, err = o.newClient(hosts)
		return client, func() {}, err
	}
	dir, err := os.MkdirTemp(tempDir, "offtopic-run-cache-")
	if err != nil {
		return nil, nil, fmt.Errorf("--no-cache: %w", err)
	}
	cache, err := remote.OpenCache(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	opts := o.options(hosts)
	opts.Cache = cache
	return remote.NewClient(opts), func() { os.RemoveAll(dir) }, nil
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

// open opens the source the flags name: remote TimeMaps, a CDX server,
// Archive-It, CDX/CDXJ indexes, or (by default) WARC/ARC files.
func (o *sourceOptions) open(ctx context.Context, st *setup, files []string, prog *progress, warn *warnings) (*source, error) {
	if o.isRemote() {
		return o.openRemote(st, warn)
	}
	if idx := o.index.Value(); len(idx) > 0 {
		ci, err := timemap.OpenIndex(idx, timemap.CDXOptions{WARCDir: o.warcDir, Canon: st.canon, OnError: warn.add, TempDir: st.tempDir})
		if err != nil {
			return nil, err
		}
		if o.seeds != "" {
			seeds, err := readSeedsFile(o.seeds, st.canon)
			if err != nil {
				ci.Close()
				return nil, err
			}
			ci.Select(seeds)
		}
		pl := timemap.NewPayloads()
		return &source{src: ci, read: pl.Read, close: func() { pl.Close(); ci.Close() }, inputs: absPaths(idx)}, nil
	}
	if len(files) == 0 {
		return nil, usagef("no input: give WARC/ARC files, --index, --timemap, --cdx-server, --timegate or --archiveit")
	}
	prog.begin("index", 0)
	// Payloads are extracted as the index reads them, not read again.
	notes := similarity.NewPayloadNotes(st.opts, extract.Options{})
	idx, err := timemap.BuildIndex(ctx, files, timemap.IndexOptions{Canon: st.canon, TempDir: st.tempDir, OnError: warn.add, Workers: st.workers,
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
	if o.seeds != "" {
		seeds, err := readSeedsFile(o.seeds, st.canon)
		if err != nil {
			idx.Close()
			return nil, err
		}
		src = seeds.Select(src)
	}
	pl := timemap.NewPayloads()
	s := &source{src: src, read: pl.Read, close: func() { idx.Close(); pl.Close() }, inputs: absPaths(files), total: is.Captures, skipped: is.Skipped, cut: is.Cut}
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
func (o *sourceOptions) openRemote(st *setup, warn *warnings) (_ *source, err error) {
	client, cleanup, err := o.client.newRunClient(o.archiveHosts(), st.tempDir)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			cleanup()
		}
	}()
	mopts := o.client.mementoOptions()
	counts := &remoteCounts{}
	s := &source{client: client, close: cleanup, read: remote.MementoReader(client, mopts), counts: counts}
	src, err := o.remoteSource(s, client, st, warn)
	if err != nil {
		return nil, err
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

// remoteSource is the remote source the flags name, whose inputs it
// records in s.
func (o *sourceOptions) remoteSource(s *source, client *remote.Client, st *setup, warn *warnings) (timemap.Source, error) {
	tmOpts := remote.TimeMapOptions{Canon: st.canon, ArchivePrefix: o.cdx.mementoPrefix, OnWarning: func(err error) {
		s.counts.pages.Add(1)
		warn.add(err)
	}}
	switch {
	case len(o.timemaps.Value()) > 0:
		uris, err := expandList(o.timemaps.Value())
		if err != nil {
			return nil, err
		}
		s.inputs = uris
		return remote.NewTimeMapSource(client, uris, tmOpts), nil
	case o.timegate != "":
		if o.seeds == "" {
			return nil, usagef("--timegate needs --seeds: the URI-Rs to look up")
		}
		urirs, err := expandList([]string{"@" + o.seeds})
		if err != nil {
			return nil, err
		}
		s.inputs = []string{o.timegate}
		return remote.NewTimeGateSource(client, o.timegate, urirs, time.Time{}, tmOpts), nil
	case o.cdx.server != "":
		srv, err := o.cdx.open(client, st.canon)
		if err != nil {
			return nil, err
		}
		if o.seeds == "" {
			return nil, usagef("--cdx-server needs --seeds: the URLs whose captures to list")
		}
		seeds, err := expandList([]string{"@" + o.seeds})
		if err != nil {
			return nil, err
		}
		q, err := o.cdx.query()
		if err != nil {
			return nil, err
		}
		s.inputs = []string{o.cdx.server}
		return srv.SeedSource(seeds, q), nil
	}
	s.inputs = []string{"archive-it:" + o.archiveit}
	return &remote.ArchiveIt{Collection: o.archiveit, Doer: client,
		BaseURL: o.archiveitWayback, CollectionBaseURL: o.archiveitSite}, nil
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
