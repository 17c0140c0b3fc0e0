package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/remote"
	"github.com/offtopic/offtopic/timemap"
)

// sourceOptions say where captures come from besides WARC/ARC files
// (detect, model).
type sourceOptions struct {
	index            []string
	warcDir, seeds   string
	timemaps         []string
	archiveit        string
	timegate         string
	archiveitWayback string
	archiveitSite    string
	cdx              cdxOptions
	client           clientOptions
}

func (o *sourceOptions) flags() []cli.Flag {
	flags := []cli.Flag{
		&cli.StringSliceFlag{Name: "index", Action: setSlice(&o.index), Category: catSources,
			Usage: "read captures from CDX/CDXJ `FILE`s, not WARCs"},
		&cli.StringFlag{Name: "warc-dir", Destination: &o.warcDir, Category: catSources,
			Usage: "with --index: the `DIR` the index's file names are in"},
		&cli.StringFlag{Name: "seeds", Destination: &o.seeds, Category: catSources,
			Usage: "score only these URI-Rs: `FILE` of URLs or prefixes (URL*)"},
		&cli.StringSliceFlag{Name: "timemap", Action: setSlice(&o.timemaps), Category: catSources,
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

// archiveHosts are the archives the flags name, which the client may reach
// on non-public addresses (a local pywb, an intranet Wayback).
func (o *sourceOptions) archiveHosts() []string {
	hosts := o.cdx.hosts(o.timegate, o.archiveitWayback, o.archiveitSite)
	uris, _ := expandList(o.timemaps) // a list that cannot be read is reported where it is used
	return append(hosts, uris...)
}

// cdxOptions name a CDX server, its archive's Wayback endpoint and what to
// list for each seed.
type cdxOptions struct {
	server, kind, mementoPrefix string
	from, to                    string
	limit                       int
	filters                     []string
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
		&cli.StringSliceFlag{Name: "cdx-filter", Action: setSlice(&o.filters), Category: catCDX,
			Usage: "only captures matching `[!]FIELD:REGEX` (repeatable)"},
	}
}

// query is the query the --cdx-* flags describe; an error is a usage error.
func (o *cdxOptions) query() (remote.Query, error) {
	q := remote.Query{From: o.from, To: o.to, Limit: o.limit, Filters: o.filters}
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
	cacheMaxAge          time.Duration
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
		&cli.DurationFlag{Name: "cache-max-age", Value: remote.DefaultCacheMaxAge, Destination: &o.cacheMaxAge, Category: catClient,
			Usage: "ask again for cached answers but mementos older than `DURATION` (0: now)"},
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
	case o.cacheMaxAge < 0:
		return usagef("--cache-max-age %v: want 0 (ask again now) or more", o.cacheMaxAge)
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
	if opts.CacheMaxAge = o.cacheMaxAge; opts.CacheMaxAge == 0 {
		opts.CacheMaxAge = -1
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
	// filesFailed of files could not be read (each reported as it was met).
	filesFailed, files int
	client             *remote.Client
	// counts are what the remote sources lost (nil for local sources).
	counts *remoteCounts
	// all is every TimeMap of local files when src selects some (seeds):
	// redirects and frames are followed into the others.
	all timemap.Source
	// tmOpts are how a remote source reads TimeMaps.
	tmOpts remote.TimeMapOptions
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

// unread is the error of a run some of whose input files could not be read
// (each was reported as it was met), nil when all could.
func (s *source) unread() error {
	if s.filesFailed == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d input files could not be read (see above); the others' results are written", s.filesFailed, s.files)
}

// summary prints the remote source's figures: what the client did and what
// was lost.
func (s *source) summary(w io.Writer) {
	if s.client == nil {
		return
	}
	cs := s.client.Stats()
	fmt.Fprintf(w, "offtopic: %d requests (%d retries, %d failed), %d cache hits, %d cache misses, %d cached answers asked for again, %d bytes fetched\n",
		cs.Requests, cs.Retries, cs.Failures, cs.CacheHits, cs.CacheMisses, cs.CacheRevalidated, cs.Bytes)
	fmt.Fprintf(w, "offtopic: %d TimeMaps dropped for errors, %d without mementos, %d linked TimeMap pages skipped\n",
		s.counts.dropped.Load(), s.counts.noMementos.Load(), s.counts.pages.Load())
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

// setSlice binds a repeatable flag to a plain slice (options hold no
// urfave/cli types, so that actions run without the library).
func setSlice(dest *[]string) func(*cli.Context, []string) error {
	return func(_ *cli.Context, v []string) error {
		*dest = v
		return nil
	}
}
