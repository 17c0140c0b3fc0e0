package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/remote"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// sourceKind is one kind of source detect and model read captures from:
// how the command line names it, the option flags it honours, and how it
// opens (on this machine) or is built (through the polite client).
type sourceKind struct {
	// name names the source in messages: "WARC/ARC files", "--timemap".
	name string
	// given reports whether the command line names this source.
	given func(o *sourceOptions, files []string) bool
	// takes are the option flags the source honours (see sourceOptions.set).
	takes []string
	// local opens a source on this machine; remote builds a remote one,
	// recording its inputs in s.
	local  func(o *sourceOptions, ctx context.Context, st *setup, files []string, prog *progress, warn *warnings) (*source, error)
	remote func(o *sourceOptions, s *source, client *remote.Client, st *setup) (timemap.Source, error)
}

// sourceKinds is the registry of sources, one line each.
func sourceKinds() []sourceKind {
	cdx := []string{"cdx-from", "cdx-to", "cdx-limit", "cdx-filter", "memento-prefix"}
	return []sourceKind{
		{name: "WARC/ARC files", given: func(_ *sourceOptions, files []string) bool { return len(files) > 0 }, takes: []string{"seeds"}, local: (*sourceOptions).openFiles},
		{name: "--index", given: func(o *sourceOptions, _ []string) bool { return len(o.index) > 0 }, takes: []string{"seeds", "warc-dir"}, local: (*sourceOptions).openIndex},
		{name: "--timemap", given: func(o *sourceOptions, _ []string) bool { return len(o.timemaps) > 0 }, takes: []string{"memento-prefix"}, remote: (*sourceOptions).timeMapSource},
		{name: "--timegate", given: func(o *sourceOptions, _ []string) bool { return o.timegate != "" }, takes: []string{"seeds"}, remote: (*sourceOptions).timeGateSource},
		{name: "--cdx-server", given: func(o *sourceOptions, _ []string) bool { return o.cdx.server != "" }, takes: append([]string{"seeds"}, cdx...), remote: (*sourceOptions).cdxSource},
		{name: "--archiveit", given: func(o *sourceOptions, _ []string) bool { return o.archiveit != "" }, remote: (*sourceOptions).archiveItSource},
	}
}

// set are the option flags of sources given on the command line (those
// with defaults, such as --cdx-kind, are taken as not given).
func (o *sourceOptions) set() []string {
	var set []string
	for _, f := range []struct {
		name  string
		given bool
	}{
		{"seeds", o.seeds != ""}, {"warc-dir", o.warcDir != ""}, {"memento-prefix", o.cdx.mementoPrefix != ""},
		{"cdx-from", o.cdx.from != ""}, {"cdx-to", o.cdx.to != ""}, {"cdx-limit", o.cdx.limit != 0}, {"cdx-filter", len(o.cdx.filters) > 0},
	} {
		if f.given {
			set = append(set, f.name)
		}
	}
	return set
}

// kind is the one source the command line names; none, two, or an option
// flag the source cannot honour is a usage error (example: the command's
// usual form).
func (o *sourceOptions) kind(files []string, example string) (*sourceKind, error) {
	var given []sourceKind
	for _, k := range sourceKinds() {
		if k.given(o, files) {
			given = append(given, k)
		}
	}
	switch len(given) {
	case 0:
		return nil, usagef("no input: give WARC/ARC files or a folder of them, --index, --timemap, --timegate, --cdx-server or --archiveit (try: %s)", example)
	case 1:
	default:
		var names []string
		for _, k := range given {
			names = append(names, k.name)
		}
		return nil, usagef("%s name %d sources; a run reads one", strings.Join(names, " and "), len(given))
	}
	k := &given[0]
	for _, f := range o.set() {
		if !strings.Contains(" "+strings.Join(k.takes, " ")+" ", " "+f+" ") {
			return nil, usagef("--%s does not apply to %s", f, k.name)
		}
	}
	if k.remote != nil {
		if err := o.client.check(); err != nil {
			return nil, err
		}
	}
	return k, nil
}

// open opens the source k of the command line.
func (o *sourceOptions) open(ctx context.Context, k *sourceKind, st *setup, files []string, prog *progress, warn *warnings) (*source, error) {
	if k.local != nil {
		return k.local(o, ctx, st, files, prog, warn)
	}
	return o.openRemote(k, st, warn)
}

// openFiles indexes WARC/ARC files, extracting payloads as it reads them.
func (o *sourceOptions) openFiles(ctx context.Context, st *setup, files []string, prog *progress, warn *warnings) (*source, error) {
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
	s := &source{src: src, read: pl.Read, close: func() { idx.Close(); pl.Close() }, inputs: absPaths(files), total: is.Captures, skipped: is.Skipped, cut: is.Cut,
		filesFailed: is.FilesFailed, files: len(files)}
	if src != timemap.Source(idx) {
		s.all = idx
	}
	return s, nil
}

// openIndex reads captures from CDX/CDXJ indexes of WARCs in --warc-dir.
func (o *sourceOptions) openIndex(_ context.Context, st *setup, _ []string, _ *progress, warn *warnings) (*source, error) {
	idx := o.index
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

// readSeedsFile reads --seeds; a file that cannot be read is a usage error
// (an option file).
func readSeedsFile(path string, canon timemap.CanonMode) (*timemap.Seeds, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("--seeds: %w", err)
	}
	defer f.Close()
	seeds, err := timemap.ReadSeeds(f, path, canon)
	return seeds, asUsage(err)
}

// openRemote sets up the polite client and the remote source k.
func (o *sourceOptions) openRemote(k *sourceKind, st *setup, warn *warnings) (_ *source, err error) {
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
	mopts.Wants = similarity.NeedsPayload // a stylesheet listed by a CDX server is not fetched
	counts := &remoteCounts{}
	s := &source{client: client, close: cleanup, read: remote.MementoReader(client, mopts), counts: counts}
	s.tmOpts = remote.TimeMapOptions{Canon: st.canon, ArchivePrefix: o.cdx.mementoPrefix, OnWarning: func(err error) {
		counts.pages.Add(1)
		warn.add(err)
	}}
	src, err := k.remote(o, s, client, st)
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

// timeMapSource fetches the TimeMaps --timemap names (@FILE: one a line).
func (o *sourceOptions) timeMapSource(s *source, client *remote.Client, _ *setup) (timemap.Source, error) {
	uris, err := expandList(o.timemaps)
	if err != nil {
		return nil, usagef("--timemap: %w", err)
	}
	s.inputs = uris
	return remote.NewTimeMapSource(client, uris, s.tmOpts), nil
}

// timeGateSource finds the TimeMaps of the --seeds through --timegate.
func (o *sourceOptions) timeGateSource(s *source, client *remote.Client, _ *setup) (timemap.Source, error) {
	if o.seeds == "" {
		return nil, usagef("--timegate needs --seeds: the URI-Rs to look up")
	}
	urirs, err := expandList([]string{"@" + o.seeds})
	if err != nil {
		return nil, usagef("--seeds: %w", err)
	}
	s.inputs = []string{o.timegate}
	return remote.NewTimeGateSource(client, o.timegate, urirs, time.Time{}, s.tmOpts), nil
}

// cdxSource lists the captures of the --seeds on --cdx-server.
func (o *sourceOptions) cdxSource(s *source, client *remote.Client, st *setup) (timemap.Source, error) {
	srv, err := o.cdx.open(client, st.canon)
	if err != nil {
		return nil, err
	}
	if o.seeds == "" {
		return nil, usagef("--cdx-server needs --seeds: the URLs whose captures to list")
	}
	seeds, err := expandList([]string{"@" + o.seeds})
	if err != nil {
		return nil, usagef("--seeds: %w", err)
	}
	q, err := o.cdx.query()
	if err != nil {
		return nil, err
	}
	s.inputs = []string{o.cdx.server}
	return srv.SeedSource(seeds, q), nil
}

// archiveItSource reads Archive-It collection --archiveit.
func (o *sourceOptions) archiveItSource(s *source, client *remote.Client, _ *setup) (timemap.Source, error) {
	s.inputs = []string{"archive-it:" + o.archiveit}
	return &remote.ArchiveIt{Collection: o.archiveit, Doer: client,
		BaseURL: o.archiveitWayback, CollectionBaseURL: o.archiveitSite}, nil
}
