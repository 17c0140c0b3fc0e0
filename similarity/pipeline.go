package similarity

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"runtime"
	"sync/atomic"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

// PayloadReader reads the HTTP response that holds a capture's payload:
// its headers and raw body (still chunked or content-encoded as recorded).
type PayloadReader func(ctx context.Context, c timemap.Capture) (http.Header, []byte, error)

// Config is everything a detection run needs besides its source.
type Config struct {
	Options
	// ArchiveURL prefixes URI-Ms: ArchiveURL/<14-digit time>/<URI-R>.
	ArchiveURL string
	// Workers is the number of goroutines extracting and scoring (all cores by default).
	Workers int
	// TempDir holds the spill file between the two passes ("" for the system's).
	TempDir string
	// Extract configures extraction.
	Extract extract.Options
	// ReadPayload reads one capture's payload.
	ReadPayload PayloadReader
	// CacheBytes bounds the memory of the extracted documents kept by
	// payload digest (0: extract.DefaultCacheBytes).
	CacheBytes int64
	// Progress, when set, is called as TimeMaps are done.
	Progress func(Progress)
	// OnError, when set, hears of every capture that could not be read or extracted.
	OnError func(error)
	// OnWarning, when set, hears of every capture that was scored on less
	// than its whole payload: one whose decoded text was cut at
	// extract.Options.MaxBytes (8 MiB by default).
	OnWarning func(error)
	// Canon is how URIs are keyed (as the source keyed its TimeMaps): the
	// targets of redirects and frames are looked up by it.
	Canon timemap.CanonMode
	// Others, when set, holds the collection's TimeMaps that the source
	// leaves out (it selects seeds): redirects and frames that lead out of
	// the selected TimeMaps are followed into them, which are read only for
	// that and never scored.
	Others timemap.Source
	// EachCollection judges each TimeMap against the model of its own
	// Archive-It collection: the one named by the file its first capture
	// was read from (timemap.ArchiveItCollection; files whose names carry
	// none make one collection). A collection's subject is its own: a
	// TimeMap wholly in one collection gets the verdicts of a run over that
	// collection's files alone. Not used with Model.
	EachCollection bool
	// Model, when set, is the collection model's statistics built beforehand
	// (by a model step over the whole collection): Detect then scores in one
	// pass against it instead of building the model from src, so that shards
	// and reducers scoring parts of a collection give the verdicts of a
	// single run over all of it. SEKernel needs a model built by Detect.
	Model *ModelStats
	// Prepared, when set, hears of each TimeMap's Input in key order once
	// its documents are extracted and its references found, before any is
	// scored (a collection's state notes where each TimeMap's replay
	// leads). Not called with Model.
	Prepared func(*Input)
}

// Progress is a snapshot of a detection run.
type Progress struct {
	// Stage is "extract" (first pass) or "score" (second pass).
	Stage    string
	TimeMaps int
	Captures int
}

// Stats sums up a detection run.
type Stats struct {
	TimeMaps  int `json:"timemaps"`
	Captures  int `json:"captures"`
	OnTopic   int `json:"on_topic"`
	OffTopic  int `json:"off_topic"`
	NotScored int `json:"not_scored"`
	// Failed counts captures whose payload could not be read or extracted.
	Failed int `json:"failed"`
	// Partial counts captures judged on the part of their payload that
	// decoded (CaptureResult.Partial).
	Partial int `json:"partial,omitempty"`
	// Collections counts the collection models built (Config.EachCollection).
	Collections int `json:"collections,omitempty"`
}

// withDefaults fills in what the caller left unset.
func (cfg Config) withDefaults() (Config, error) {
	cfg.Options = cfg.Options.WithDefaults()
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.NumCPU()
	}
	if cfg.ReadPayload == nil {
		return cfg, errors.New("no payload reader")
	}
	if cfg.Extract.Stems == nil {
		cfg.Extract.Stems = extract.NewStemCache(0)
	}
	if cfg.Extract.Readers == nil {
		cfg.Extract.Readers = extract.NewReaderPool()
	}
	return cfg, nil
}

// Detect runs off-topic detection over every TimeMap of src and hands each
// result to emit in key order. The first pass reads and extracts payloads
// (each distinct digest once) on all cores, spills each TimeMap's documents
// to a temporary file and builds the collection model (one per collection
// with Config.EachCollection); the second pass scores each TimeMap against
// it. Memory is bounded by the largest TimeMap plus the models' aggregated
// statistics.
func Detect(ctx context.Context, src timemap.Source, cfg Config, emit func(*TimeMapResult) error) (Stats, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return Stats{}, fmt.Errorf("detect: %w", err)
	}
	if cfg.Model != nil {
		if cfg.Computes(MeasureSEKernel) {
			return Stats{}, errors.New("detect: sekernel needs the search index of a model built in the same run; it cannot come from a model file")
		}
		return scoreWith(ctx, src, &cfg, cfg.Model.Model(), emit)
	}
	r, err := newDetectRun(&cfg)
	if err != nil {
		return Stats{}, err
	}
	defer r.close()
	if err := r.firstPass(ctx, src); err != nil {
		return r.stats, err
	}
	if err := r.joinRounds(ctx); err != nil {
		return r.stats, err
	}
	// The second pass reads documents from the spill: the cache's go, so
	// that the collector does not trace them through the second pass.
	r.cache = nil
	err = r.secondPass(ctx, emit)
	r.awaitModels()
	if cfg.EachCollection {
		r.stats.Collections = len(r.models)
	}
	return r.stats, err
}

// collectionOf is the collection whose model judges in: with
// EachCollection, the Archive-It collection of the file its first capture
// was read from; "" otherwise.
func (cfg *Config) collectionOf(in *Input) string {
	if !cfg.EachCollection || len(in.TimeMap.Captures) == 0 {
		return ""
	}
	return timemap.ArchiveItCollection(in.TimeMap.Captures[0].Loc.File)
}

// prepareAll reads and extracts the TimeMaps of src one at a time, for the
// replay join (as Prepare does for scoring).
func prepareAll(ctx context.Context, src timemap.Source, cfg *Config, cache *extract.Cache) iter.Seq2[*Input, error] {
	return func(yield func(*Input, error) bool) {
		for tm, err := range src.TimeMaps(ctx) {
			var in *Input
			if err == nil {
				in, _ = Prepare(ctx, tm, cfg, cache)
			}
			if !yield(in, err) {
				return
			}
		}
	}
}

// counting wraps emit to count verdicts into stats and report progress.
func counting(stats *Stats, cfg *Config, emit func(*TimeMapResult) error) func(*TimeMapResult) error {
	done := Progress{Stage: "score"}
	return func(r *TimeMapResult) error {
		on, off, ns := r.Counts()
		stats.OnTopic += on
		stats.OffTopic += off
		stats.NotScored += ns
		for _, c := range r.Captures {
			if c.Partial != "" {
				stats.Partial++
			}
		}
		done.TimeMaps++
		done.Captures += len(r.Captures)
		if cfg.Progress != nil {
			cfg.Progress(done)
		}
		return emit(r)
	}
}

// scoreWith reads, extracts and scores every TimeMap of src against a model
// built beforehand: one pass, nothing spilled.
func scoreWith(ctx context.Context, src timemap.Source, cfg *Config, model *Model, emit func(*TimeMapResult) error) (Stats, error) {
	cache := extract.NewCache(cfg.CacheBytes)
	var stats Stats
	var failed atomic.Int64
	count := counting(&stats, cfg, emit)
	err := orderedMapWindow(ctx, cfg.Workers, resultWindow*cfg.Workers, src.TimeMaps(ctx), func(ctx context.Context, tm *timemap.TimeMap) (*TimeMapResult, error) {
		in, n := Prepare(ctx, tm, cfg, cache)
		failed.Add(int64(n))
		return scoreNoting(ctx, *in, func() *Model { return model }, nil, cfg.Options)
	}, func(r *TimeMapResult) error {
		stats.TimeMaps++
		stats.Captures += len(r.Captures)
		return count(r)
	})
	stats.Failed = int(failed.Load())
	return stats, err
}

// BuildModel reads and extracts every TimeMap of src (each distinct digest
// once, on all cores) and returns the collection model's statistics: the
// model step of a run split over shards, reducers or workers.
func BuildModel(ctx context.Context, src timemap.Source, cfg Config) (*ModelStats, Stats, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, Stats{}, fmt.Errorf("model: %w", err)
	}
	cache := extract.NewCache(cfg.CacheBytes)
	ms := NewModelStats()
	var stats Stats
	var failed atomic.Int64
	err = orderedMap(ctx, cfg.Workers, src.TimeMaps(ctx), func(ctx context.Context, tm *timemap.TimeMap) (*Input, error) {
		in, n := Prepare(ctx, tm, &cfg, cache)
		failed.Add(int64(n))
		return in, nil
	}, func(in *Input) error {
		ms.Add(*in, cfg.MinT0Words)
		stats.TimeMaps++
		stats.Captures += len(in.TimeMap.Captures)
		if cfg.Progress != nil {
			cfg.Progress(Progress{Stage: "model", TimeMaps: stats.TimeMaps, Captures: stats.Captures})
		}
		return nil
	})
	stats.Failed = int(failed.Load())
	return ms, stats, err
}

// Prepare reads and extracts the payload of every capture of tm that the
// measures apply to (HTTP 200 and HTML), each distinct digest once (cache may
// be shared between calls), and returns the Input that Score takes with the
// number of captures that could not be read or extracted. It is the first
// half of the per-TimeMap step; cfg's options must have their defaults.
func Prepare(ctx context.Context, tm *timemap.TimeMap, cfg *Config, cache *extract.Cache) (*Input, int) {
	failed := 0
	n := len(tm.Captures)
	in := &Input{TimeMap: tm, URIT: timemap.LinkOptions{ArchivePrefix: cfg.ArchiveURL}.LinkTimeMapURI(tm), URIMs: make([]string, n), Docs: make([]*extract.Document, n), Errs: make([]string, n)}
	for i, c := range tm.Captures {
		in.URIMs[i] = timemap.URIM(cfg.ArchiveURL, c)
		if c.Error != "" {
			in.Errs[i] = "fetch failed: " + c.Error
			failed++
			continue
		}
		if isRedirect(c.Status) {
			loc := c.Note // the index's note of a redirect is its Location
			if loc == "" {
				loc = readLocation(ctx, c, cfg)
			}
			tm.Captures[i].Note = ""
			in.Refs = append(in.Refs, refsOf(c, i, loc, nil, cfg.Canon)...)
			continue
		}
		if !measured(c) {
			continue
		}
		if c.Revisit && c.Payload.IsZero() && c.URIM == "" {
			in.Errs[i] = "revisit of a payload that is not in the input"
			continue
		}
		// The Input is spilled with its TimeMap: the note is no longer needed.
		tm.Captures[i].Note = ""
		if doc, ok := cache.Get(c.Digest); ok && c.Digest != "" {
			in.Docs[i] = doc
			in.Refs = append(in.Refs, refsOf(c, i, "", doc, cfg.Canon)...)
			continue
		}
		doc, err := noteDoc(c.Note)
		if err == nil {
			if in.notes == nil {
				in.notes = map[*extract.Document]string{}
			}
			in.notes[doc] = c.Note
		}
		if errors.Is(err, errDuplicate) {
			doc, err = notedLater(tm, i)
		}
		if err != nil {
			if doc, err = readAndExtract(ctx, c, cfg); err != nil {
				failed++
				in.Errs[i] = err.Error()
				if cfg.OnError != nil {
					cfg.OnError(fmt.Errorf("%s %s (%s offset %d): %w", c.URIR, c.Timestamp14(), c.Payload.File, c.Payload.Offset, err))
				}
				continue
			}
			trimDoc(doc, cfg.Options)
		}
		if doc.Partial != "" {
			// Judged on the part that decoded, or not at all (see damage.go).
			why := partialDoc(doc, cfg.MinT0Words)
			if cfg.OnError != nil {
				err := fmt.Errorf("%w: %s", ErrPartialPayload, doc.Partial)
				if why != "" {
					err = errors.New(why)
				}
				cfg.OnError(fmt.Errorf("%s %s (%s offset %d): %w", c.URIR, c.Timestamp14(), c.Payload.File, c.Payload.Offset, err))
			}
			if why != "" {
				failed++
				in.Errs[i] = why
				continue
			}
		}
		if doc.TextCut && cfg.OnWarning != nil {
			cut := cutSize(cfg.Extract.MaxBytes)
			cfg.OnWarning(fmt.Errorf("%s %s (%s offset %d): text cut at %s: the decoded payload is longer, only its first %s were scored",
				c.URIR, c.Timestamp14(), c.Payload.File, c.Payload.Offset, cut, cut))
		}
		if c.Digest != "" {
			cache.Put(c.Digest, doc)
		}
		in.Docs[i] = doc
		in.Refs = append(in.Refs, refsOf(c, i, "", doc, cfg.Canon)...)
	}
	return in, failed
}

// readLocation reads the Location header of a redirect capture, "" when it
// cannot be read or has none.
func readLocation(ctx context.Context, c timemap.Capture, cfg *Config) string {
	if c.Revisit && c.Payload.IsZero() && c.URIM == "" {
		return ""
	}
	h, _, err := cfg.ReadPayload(ctx, c)
	if err != nil || h == nil {
		return ""
	}
	return h.Get("Location")
}

// cutSize is the decoded-payload cap as extract applies it ("8 MiB").
func cutSize(max int64) string {
	if max <= 0 {
		max = extract.DefaultMaxBytes
	}
	if max%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", max>>20)
	}
	return fmt.Sprintf("%d bytes", max)
}

func readAndExtract(ctx context.Context, c timemap.Capture, cfg *Config) (*extract.Document, error) {
	h, body, err := cfg.ReadPayload(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("read payload: %w", err)
	}
	return extractPayload(h, body, cfg.Extract)
}

// measured reports whether the measures apply to c's payload: HTTP 200 and
// HTML.
func measured(c timemap.Capture) bool { return c.Status == 200 && IsHTML(c.MIME) }

// NeedsPayload reports whether detection reads c's payload: one it measures
// (HTTP 200 and HTML) or a redirect, whose Location it follows. A remote
// source whose index gave a capture's status and type need not fetch the
// others (a stylesheet, a PDF, a 404).
func NeedsPayload(c timemap.Capture) bool { return measured(c) || isRedirect(c.Status) }

// extractPayload extracts a payload as detection needs it.
func extractPayload(h http.Header, body []byte, opts extract.Options) (*extract.Document, error) {
	opts.TextOnly = true // detection reads neither links nor publication dates
	doc, err := extract.Extract(h, body, opts)
	if errors.Is(err, extract.ErrUnreadable) {
		return nil, err // not the page: not scored, with the reason
	}
	if err != nil && doc == nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	return doc, nil
}

// trimDoc keeps of doc's text what results show: an excerpt (raw_simhash
// hashes the whole text).
func trimDoc(doc *extract.Document, opts Options) {
	doc.Chrome = ""
	if !opts.Computes(MeasureRawSimhash) {
		doc.Text = excerpt(doc.Text, opts.ExcerptWords)
	}
}

// spilled is an Input as the spill file holds it: each distinct document
// once, in its binary form (captures of an unchanged page share one; a
// document read from the index's note is spilled as the note was, not
// encoded again), and At says which is whose.
type spilled struct {
	In Input
	At []int32 // capture i's document is docs[At[i]-1], none when 0
	// DocLens are the documents' lengths: the gob holds the rest, the
	// documents follow it in the spill as they are (gob would copy them
	// into its message, and out of it again).
	DocLens []int
	docs    [][]byte
}

func toSpill(in *Input) (spilled, error) {
	sp := spilled{In: *in, At: make([]int32, len(in.Docs))}
	sp.In.Docs = nil
	seen := map[*extract.Document]int32{}
	for i, d := range in.Docs {
		if d == nil {
			continue
		}
		k, ok := seen[d]
		if !ok {
			b := []byte(in.notes[d])
			if len(b) == 0 {
				var err error
				if b, err = d.AppendBinary(nil); err != nil {
					return spilled{}, err
				}
			}
			sp.docs = append(sp.docs, b)
			sp.DocLens = append(sp.DocLens, len(b))
			k = int32(len(sp.docs))
			seen[d] = k
		}
		sp.At[i] = k
	}
	return sp, nil
}

func (sp *spilled) input() (*Input, error) {
	in := sp.In
	docs := make([]extract.Document, len(sp.docs))
	for i, b := range sp.docs {
		if err := docs[i].UnmarshalBinary(b); err != nil {
			return nil, err
		}
	}
	in.Docs = make([]*extract.Document, len(sp.At))
	for i, k := range sp.At {
		if k > 0 && int(k) <= len(docs) {
			in.Docs[i] = &docs[k-1]
		}
	}
	return &in, nil
}

// DefaultOptions are the settings detect uses by default: the paper's best
// rule read as a curator reads it, with t0 checked against the collection's
// topic.
func DefaultOptions() Options {
	return Options{TopicCheck: true, Continuity: DefaultContinuity}.WithDefaults()
}

// DetectFiles indexes local WARC/ARC files and runs Detect over them,
// returning every TimeMap's results in key order (cfg.ReadPayload defaults to
// reading payloads from the files). It holds all results in memory: for small
// collections and tests; Detect streams.
func DetectFiles(ctx context.Context, files []string, cfg Config) ([]*TimeMapResult, error) {
	notes := NewPayloadNotes(cfg.Options, cfg.Extract)
	idx, err := timemap.BuildIndex(ctx, files, timemap.IndexOptions{TempDir: cfg.TempDir, OnError: cfg.OnError, Workers: cfg.Workers,
		Note: notes.Note, WantsNote: notes.Wants})
	if err != nil {
		return nil, err
	}
	defer idx.Close()
	if cfg.ReadPayload == nil {
		pl := timemap.NewPayloads()
		defer pl.Close()
		cfg.ReadPayload = pl.Read
	}
	var out []*TimeMapResult
	_, err = Detect(ctx, idx, cfg, func(r *TimeMapResult) error { out = append(out, r); return nil })
	return out, err
}
