package crawl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/offtopic/offtopic/timemap"
)

// Audit of an extracted collection: every document scored against the event
// (its reference documents, keywords and span) the way the crawl scores
// what it reads, and flagged when below a threshold learnt as in Klein's
// method from the examples that look on topic (LearnThresholdMixed). detect cannot do this on a crawl's output: each URL has one
// snapshot there, so each TimeMap is its own t0 and all are on topic.

// AuditOptions configure AuditCollection.
type AuditOptions struct {
	Spec *Spec
	// Archive resolves the reference documents and their outlinks (the
	// examples the threshold is learnt from) and dates undated documents by
	// their first capture; nil uses the collection itself.
	Archive Archive
	// Strategy scores documents (default Gated: normalised TopicR x TempR).
	Strategy Strategy
	// Threshold, when set, replaces the learnt threshold.
	Threshold *float64
	// Seed drives the random splits of the threshold.
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
	// Relevance is the strategy's score, compared with the threshold.
	Relevance float64
	OnTopic   bool
}

// AuditReport is the outcome of an audit.
type AuditReport struct {
	// Threshold is the relevance below which a document is flagged; HeldOut
	// the share of held-out examples at or above it; Examples how many
	// examples it was learnt from (0 when given).
	Threshold float64
	HeldOut   float64
	Examples  int
	Documents []Audited
}

// AuditCollection scores every HTML document of a collection (one capture
// per distinct payload) against the event. IDF comes from the reference
// documents and the collection.
func AuditCollection(ctx context.Context, coll *LocalArchive, opts AuditOptions) (*AuditReport, error) {
	if opts.Spec == nil || coll == nil {
		return nil, errors.New("audit: spec and collection are required")
	}
	if err := opts.Spec.Validate(); err != nil {
		return nil, fmt.Errorf("audit: spec: %w", err)
	}
	if opts.Strategy == "" {
		opts.Strategy = Gated
	}
	src := opts.Archive
	if src == nil {
		src = coll
	}
	c, refs, err := newCrawler(ctx, Options{Spec: opts.Spec, Archive: src, Strategy: opts.Strategy, Seed: opts.Seed})
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
		c.df.Add(Features(s.terms))
		docs = append(docs, s)
	}
	// The table is complete: the examples and the documents are scored with
	// the same IDF.
	c.ownDF = false
	rep := &AuditReport{}
	if opts.Threshold != nil {
		rep.Threshold = *opts.Threshold
	} else {
		scores, err := c.exampleScores(ctx, refs)
		if err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		rep.Examples = len(scores)
		rep.Threshold, rep.HeldOut = LearnThresholdMixed(scores, opts.Seed)
	}
	for _, s := range docs {
		c.rate(s)
		r := c.relevance(s.topic, s.temp)
		rep.Documents = append(rep.Documents, Audited{
			Capture: s.snap, Title: s.title, Text: s.text, Extractor: s.extractor, Lang: s.lang, WordCount: s.words, ByteCount: s.bytes,
			DocTime: s.docTime, DocTimeFrom: s.docTimeFrom, TopicR: s.topic, Topic: c.norm(s.topic), TempR: s.temp,
			Relevance: r, OnTopic: r >= rep.Threshold,
		})
	}
	return rep, nil
}

// Reason says why an audited document got its verdict.
func (a Audited) Reason(threshold float64) string {
	cmp := ">="
	if !a.OnTopic {
		cmp = "<"
	}
	return fmt.Sprintf("relevance %.3f %s threshold %.3f (topic %.2f, time %.2f from %s %s)", a.Relevance, cmp, threshold, a.Topic, a.TempR, strings.ReplaceAll(a.DocTimeFrom, "-", " "), a.DocTime.Format("2006-01-02"))
}
