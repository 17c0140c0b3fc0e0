package crawl

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/offtopic/offtopic/remote"
	"github.com/offtopic/offtopic/timemap"
)

// Audit of an extracted collection: every document scored against the event
// (its reference documents, keywords and span) the way the crawl scores
// what it reads, and kept when it is about the event and published in the
// event's window. The topical threshold is learnt as in Klein's method, from
// random splits of examples that stand for the event (the reference
// documents' outlinks), here against a background sample of the archive,
// at the point where as many examples are flagged as background pages kept
// (LearnThresholdBalanced). The background's document frequencies also
// weigh the terms, so that a page scores the same in a focused collection
// as in a broad one. detect cannot do this on a crawl's output: each
// URL has one snapshot there, so each TimeMap is its own t0 and all are on
// topic.

// BackgroundSize is how many URLs of the archive an audit samples as the
// background its threshold is learnt against.
const BackgroundSize = 400

// Sampler is an archive that can draw a random sample of its URLs (see
// LocalArchive.Sample).
type Sampler interface {
	Sample(n int, seed int64) []string
}

// BackgroundSampler draws an audit's background sample: captures of the
// archive, one per URL, read as they are (no further lookup).
type BackgroundSampler interface {
	SampleCaptures(ctx context.Context, n int, seed int64) ([]timemap.Capture, error)
}

// SampleHosts is how many sites a CDXSampler samples at most.
const SampleHosts = 20

// CDXSampler draws an audit's background from a CDX server, which has no
// random sample: captures of the sites the collection was extracted from
// (at most SampleHosts of them, chosen at random), an equal share from
// each, drawn through the server's paging API (see
// remote.CDXServer.SampleCaptures). Those sites' other pages are what a
// focused crawl meets and must tell from the event's.
type CDXSampler struct {
	Server *remote.CDXServer
	// Hosts are the sites sampled (domain queries).
	Hosts []string
}

// SampleCaptures implements BackgroundSampler: the captures the server's
// sample lists, read without another query. A site the server cannot list
// is skipped (its error returned only when no site gave anything).
func (s *CDXSampler) SampleCaptures(ctx context.Context, n int, seed int64) ([]timemap.Capture, error) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x686f737473))
	hosts := slices.Clone(s.Hosts)
	rng.Shuffle(len(hosts), func(i, j int) { hosts[i], hosts[j] = hosts[j], hosts[i] })
	hosts = hosts[:min(len(hosts), SampleHosts)]
	var out []timemap.Capture
	var firstErr error
	for i, h := range hosts {
		left := len(hosts) - i
		share := (n - len(out) + left - 1) / left
		caps, err := s.Server.SampleCaptures(ctx, remote.Query{URL: h, MatchType: "domain", Filters: []string{"statuscode:200", "mimetype:text/html"}}, share, seed+int64(i))
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if firstErr == nil {
				firstErr = fmt.Errorf("background sample of %s: %w", h, err)
			}
			continue
		}
		out = append(out, caps...)
	}
	if len(out) == 0 && firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

// sampledArchive is an archive that draws its own sample of URLs.
type sampledArchive interface {
	Archive
	Sampler
}

// localSampler is a BackgroundSampler over a sampledArchive: of each URL of
// its sample, the capture a crawl of the event would read.
type localSampler struct {
	a  sampledArchive
	ev Event
}

// SampleCaptures implements BackgroundSampler.
func (l localSampler) SampleCaptures(ctx context.Context, n int, seed int64) ([]timemap.Capture, error) {
	var out []timemap.Capture
	for _, u := range l.a.Sample(n, seed) {
		caps, err := l.a.Resolve(ctx, u)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", u, err)
		}
		if snap, ok := SelectSnapshot(caps, l.ev); ok {
			out = append(out, snap)
		}
	}
	return out, nil
}

// auditHosts are the hosts of a collection's documents, the spec's seeds
// and reference documents, sorted.
func auditHosts(coll *LocalArchive, spec *Spec) []string {
	set := map[string]bool{}
	add := func(u string) {
		if pu, err := url.Parse(u); err == nil && pu.Hostname() != "" {
			set[strings.ToLower(pu.Hostname())] = true
		}
	}
	for _, c := range coll.Captures() {
		add(c.URIR)
	}
	for _, u := range spec.Seeds {
		add(u)
	}
	for _, u := range spec.ReferenceDocuments {
		add(u)
	}
	return slices.Sorted(maps.Keys(set))
}

// AuditOptions configure AuditCollection.
type AuditOptions struct {
	Spec *Spec
	// Archive resolves the reference documents and their outlinks (the
	// examples the threshold is learnt from), dates undated documents by
	// their first capture and reads the background sample; nil uses the
	// collection itself.
	Archive Archive
	// Background draws the background sample. Nil: a local archive's own
	// sample (a Sampler), a RemoteArchive's through its CDX server
	// (CDXSampler over the collection's sites), else none, and the
	// collection is its own background.
	Background BackgroundSampler
	// Threshold, when set, replaces the learnt topical threshold.
	Threshold *float64
	// Seed drives the background sample and the threshold's splits.
	Seed int64
}

// Audited is one audited document.
type Audited struct {
	Capture     timemap.Capture
	Title       string
	Text        string
	Extractor   string
	Lang        string
	WordCount   int
	ByteCount   int
	DocTime     time.Time
	DocTimeFrom string
	// TopicR is the cosine with the reference vector, Topic the same
	// normalised by the reference documents' own (1 = as topical as they are).
	TopicR, Topic, TempR float64
	// Relevance is Topic x TempR, the crawl's score (for ranking).
	Relevance float64
	// InWindow says whether DocTime lies in the span widened by the lead and
	// cool-down times.
	InWindow bool
	// OnTopic is Topic at or above the threshold and InWindow.
	OnTopic bool
}

// AuditReport is the outcome of an audit.
type AuditReport struct {
	// Threshold is the Topic below which a document is flagged. HeldOut is
	// the share of held-out examples at or above it and FalsePass that of the
	// held-out background; Examples and Background are how many documents
	// it was learnt from (0 when given), BackgroundFrom "archive" (a
	// sample the archive drew), "CDX server" (one drawn through its paging
	// API) or "collection".
	Threshold          float64
	HeldOut, FalsePass float64
	Examples           int
	Background         int
	BackgroundFrom     string
	// Event is the spec's time frame (its window decides InWindow).
	Event     Event
	Documents []Audited
}

// AuditCollection scores every HTML document of a collection (one capture
// per distinct payload) against the event. IDF comes from the reference
// documents and the background (a sample of the archive, else the
// collection).
func AuditCollection(ctx context.Context, coll *LocalArchive, opts AuditOptions) (*AuditReport, error) {
	if opts.Spec == nil || coll == nil {
		return nil, errors.New("audit: spec and collection are required")
	}
	if err := opts.Spec.Validate(); err != nil {
		return nil, fmt.Errorf("audit: spec: %w", err)
	}
	var src Archive = coll
	if opts.Archive != nil {
		src = opts.Archive
	}
	sampler, from := opts.Background, "archive"
	if sampler == nil {
		switch a := opts.Archive.(type) {
		case sampledArchive:
			sampler = localSampler{a, opts.Spec.Event()}
		case *RemoteArchive:
			sampler, from = &CDXSampler{Server: a.server, Hosts: auditHosts(coll, opts.Spec)}, "CDX server"
		}
	}
	c, refs, err := newCrawler(ctx, Options{Spec: opts.Spec, Archive: src, Strategy: Gated, Seed: opts.Seed})
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	var docs []*scored
	for _, cp := range coll.Captures() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		caps, err := src.Resolve(ctx, cp.URIR)
		if err != nil || len(caps) == 0 {
			caps = []timemap.Capture{cp}
		}
		s, err := c.read(ctx, coll, cp, caps)
		if err != nil {
			return nil, fmt.Errorf("audit: %s at %s: %w", cp.URIR, cp.Timestamp14(), err)
		}
		docs = append(docs, s)
	}
	// The background is the archive's language: its document frequencies
	// weigh the terms (a focused collection, mostly about the event, would
	// make the event's own words common and its pages score low), and its
	// scores are what the threshold is learnt against.
	var background []*scored
	if sampler != nil {
		caps, err := sampler.SampleCaptures(ctx, BackgroundSize, opts.Seed)
		if err != nil {
			return nil, fmt.Errorf("audit: background: %w", err)
		}
		for _, cp := range caps {
			s, err := c.read(ctx, src, cp, []timemap.Capture{cp})
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				continue // a page of the sample that cannot be read is left out
			}
			background = append(background, s)
		}
	}
	if len(background) == 0 {
		background, from = docs, "collection"
	}
	for _, s := range background {
		c.df.Add(Features(s.terms))
	}
	// The table is complete: the examples, the background and the documents
	// are scored with the same IDF.
	c.ownDF = false
	for _, s := range background {
		c.rate(s)
	}
	rep := &AuditReport{Event: c.ev}
	if opts.Threshold != nil {
		rep.Threshold = *opts.Threshold
	} else {
		examples, err := c.exampleDocs(ctx, refs)
		if err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		rep.Examples, rep.Background, rep.BackgroundFrom = len(examples), len(background), from
		rep.Threshold, rep.HeldOut, rep.FalsePass = LearnThresholdBalanced(c.topics(examples), c.topics(background), opts.Seed)
	}
	for _, s := range docs {
		c.rate(s)
		topic := c.norm(s.topic)
		in := c.ev.InWindow(s.docTime)
		rep.Documents = append(rep.Documents, Audited{
			Capture: s.snap, Title: s.title, Text: s.text, Extractor: s.extractor, Lang: s.lang, WordCount: s.words, ByteCount: s.bytes,
			DocTime: s.docTime, DocTimeFrom: s.docTimeFrom, TopicR: s.topic, Topic: topic, TempR: s.temp,
			Relevance: c.relevance(s.topic, s.temp), InWindow: in, OnTopic: topic >= rep.Threshold && in,
		})
	}
	return rep, nil
}

// readURL resolves, selects and reads one URL of archive a, unrated; nil,
// with the reason, when it is not archived or cannot be read.
func (c *crawler) readURL(ctx context.Context, a Archive, u string) (*scored, string, error) {
	caps, err := a.Resolve(ctx, u)
	if err != nil {
		return nil, "", fmt.Errorf("resolve %s: %w", u, err)
	}
	if len(caps) == 0 {
		return nil, "not archived", nil
	}
	snap, ok := SelectSnapshot(caps, c.ev)
	if !ok {
		return nil, "no successful capture", nil
	}
	s, err := c.read(ctx, a, snap, caps)
	if err != nil {
		return nil, "unreadable: " + err.Error(), nil
	}
	return s, "", nil
}

// topics are the normalised TopicR of rated documents.
func (c *crawler) topics(docs []*scored) []float64 {
	out := make([]float64, len(docs))
	for i, s := range docs {
		out[i] = c.norm(s.topic)
	}
	return out
}

// Reason says why an audited document got its verdict.
func (a Audited) Reason(threshold float64, ev Event) string {
	cmp := ">="
	if a.Topic < threshold {
		cmp = "<"
	}
	where := "inside"
	if !a.InWindow {
		where = "outside"
	}
	from, to := ev.Window()
	topic, thr := apart(a.Topic, threshold)
	return fmt.Sprintf("topic %s %s threshold %s; published %s (from %s) %s the event's window %s to %s",
		topic, cmp, thr, a.DocTime.Format("2006-01-02"), strings.ReplaceAll(a.DocTimeFrom, "-", " "), where,
		from.Format("2006-01-02"), to.Format("2006-01-02"))
}

// apart writes a and b with 3 decimals, or as many more (up to 8) as they
// need to read differently when they differ: "0.0849 < 0.0850", never
// "0.085 < 0.085".
func apart(a, b float64) (string, string) {
	for p := 3; ; p++ {
		sa, sb := strconv.FormatFloat(a, 'f', p, 64), strconv.FormatFloat(b, 'f', p, 64)
		if sa != sb || a == b || p == 8 {
			return sa, sb
		}
	}
}
