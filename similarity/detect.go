package similarity

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

// Input is one TimeMap with what extraction made of each capture's payload.
type Input struct {
	TimeMap *timemap.TimeMap
	// URIT is the TimeMap's URI; URIMs holds each capture's URI-M.
	URIT  string
	URIMs []string
	// Docs holds each capture's extracted document, nil where there is none.
	Docs []*extract.Document
	// Errs holds why a capture's payload could not be read or extracted.
	Errs []string
	// Refs are where replaying captures leads (HTTP redirects, client-side
	// redirects, frames), in capture order; Targets what the join found
	// for those that lead to other TimeMaps (see replayAll).
	Refs    []Ref
	Targets []Target
	// notes holds the binary form a document was read from (the index's
	// note), for the spill.
	notes map[*extract.Document]string
}

// Options control scoring.
type Options struct {
	// Rule is the thresholds whose crossing makes a capture off-topic.
	Rule Rule
	// Measures are the measures to compute; those of Rule are always computed.
	Measures []string
	// CollectionIDF fits IDF over the whole collection instead of the TimeMap.
	CollectionIDF bool
	// MinT0Words is the least number of words a capture needs to serve as t0.
	MinT0Words int
	// ExcerptWords is the number of words of text kept per capture.
	ExcerptWords int
	// TopicCheck passes over a first capture that is not the page (see
	// chooseT0) for the earliest that is.
	TopicCheck bool
	// Plain applies the rule as the paper does: a capture crossing any of
	// its thresholds is off-topic. Otherwise (the default) the curator's
	// reading applies (see reading.verdict): a page that switched language or
	// whose content is gone from the site's frame is off-topic whatever the
	// thresholds; a page that was trimmed but keeps t0's words, or whose
	// words changed but which keeps t0's title or changed step by step, is
	// not.
	Plain bool
	// Continuity is the least page cosine to the anchor (the latest capture
	// judged on-topic and continuous itself, t0 to begin with) at which a
	// page whose stories rotate stays on-topic though it shares little
	// with t0 any more: a front page or a blog changes step by step, each
	// capture sharing stories with the one before, while a replaced page
	// jumps. 0 = off.
	Continuity float64
}

// Defaults of Options.
const (
	// DefaultContinuity is the default Options.Continuity.
	DefaultContinuity = 0.10
	// DefaultMinT0Words is the default Options.MinT0Words.
	DefaultMinT0Words = 20
)

// WithDefaults fills zero fields with their defaults.
func (o Options) WithDefaults() Options {
	if len(o.Rule) == 0 {
		o.Rule, _ = ParseRule(DefaultMeasures)
	}
	if o.MinT0Words == 0 {
		o.MinT0Words = DefaultMinT0Words
	}
	if o.ExcerptWords == 0 {
		o.ExcerptWords = 60
	}
	return o
}

// Computes reports whether the measure is to be computed.
func (o Options) Computes(m string) bool {
	if o.Rule.Has(m) {
		return true
	}
	for _, x := range o.Measures {
		if x == m {
			return true
		}
	}
	return false
}

// IsHTML reports whether a media type is one the measures apply to.
func IsHTML(mime string) bool {
	return mime == "text/html" || mime == "application/xhtml+xml"
}

// scorable says why a capture cannot be scored, "" when it can.
func scorable(c timemap.Capture, doc *extract.Document, errText string) string {
	switch {
	case errText != "":
		return errText
	case c.Status != 200:
		if c.Status == 0 {
			return "no HTTP status"
		}
		return "HTTP status " + strconv.Itoa(c.Status)
	case !IsHTML(c.MIME):
		if c.MIME == "" {
			return "no media type"
		}
		return "not HTML (" + c.MIME + ")"
	case doc == nil:
		return "no payload"
	}
	return ""
}

// Score scores every capture of one TimeMap against its t0 and gives each a
// verdict. It is the per-TimeMap step shared by every way of running detection.
func Score(ctx context.Context, in Input, model *Model, opts Options) (*TimeMapResult, error) {
	return scoreAwaiting(ctx, in, func() *Model { return model }, nil, opts)
}

// scoreAwaiting is Score, asking for the model only once the captures'
// terms are counted, which needs none (the second pass counts while the
// models are built), and counting them in voc when it is not nil: an
// empty vocabulary (new, or reset), which a worker reuses from TimeMap to
// TimeMap for its tables. Nothing Score returns refers to the vocabulary.
func scoreAwaiting(ctx context.Context, in Input, model func() *Model, voc *vocab, opts Options) (*TimeMapResult, error) {
	opts = opts.WithDefaults()
	tm := in.TimeMap
	res := &TimeMapResult{Key: tm.Key, URIR: tm.URIR, URIT: in.URIT, Captures: make([]CaptureResult, len(tm.Captures))}
	if voc == nil {
		voc = newVocab()
	}
	prep := prepareCaptures(&in, res, voc, opts)
	sc := &scoring{ctx: ctx, prep: prep, model: model(), voc: voc, urir: tm.URIR, host: hostOf(tm.URIR), tm: tm}
	sc.weigh(opts.CollectionIDF)

	t0, why := chooseT0(in, sc, opts)
	if t0 < 0 {
		res.T0Reason = why
		judgeWithoutT0(sc, res, why, &opts)
		return res, nil
	}
	res.T0, res.T0Reason = res.Captures[t0].URIM, why
	res.Captures[t0].IsT0 = true
	sc.t0 = t0
	measures, err := prepareMeasures(sc, opts)
	if err != nil {
		return nil, err
	}
	judge(sc, res, measures, &opts)
	return res, nil
}

// prepareCaptures fills res with what each capture of in is (replay
// included: where it leads elsewhere, the document it leads to, now in
// in.Docs) and returns the term counts of those that can be scored (nil for
// the others, given VerdictNotScored and why) in voc, empty.
func prepareCaptures(in *Input, res *TimeMapResult, voc *vocab, opts Options) []*prepared {
	tm := in.TimeMap
	docs := make([]*extract.Document, len(tm.Captures))
	copy(docs, in.Docs)
	replays := replayAll(in, docs)
	in.Docs = docs
	prep := make([]*prepared, len(tm.Captures))
	// Captures of an unchanged page share their document: counted once.
	type counted struct{ tf, ctf sparse }
	counts := map[*extract.Document]counted{}
	for i, c := range tm.Captures {
		doc, errText := at(in.Docs, i), at(in.Errs, i)
		replay := at(replays, i)
		cr := &res.Captures[i]
		*cr = CaptureResult{URIR: c.URIR, URIM: at(in.URIMs, i), Datetime: c.Time, Status: c.Status, MIME: c.MIME,
			Digest: c.Digest, Revisit: c.Revisit, Loc: c.Loc}
		if c.Revisit {
			cr.Payload = c.Payload
		}
		if doc != nil {
			cr.Extractor, cr.Lang, cr.Title = doc.Extractor, doc.Lang, clip(doc.Title, MaxTitleBytes)
			cr.WordCount, cr.ByteCount = doc.WordCount, doc.ByteCount
			cr.Excerpt = clip(excerpt(doc.Text, opts.ExcerptWords), MaxExcerptBytes)
		}
		cr.Replay = replay
		if replay != nil && doc != nil && errText == "" {
			c.Status, c.MIME = 200, "text/html" // judged by what it shows
		}
		if why := scorable(c, doc, errText); why != "" {
			if replay != nil && isRedirect(c.Status) {
				why = "it " + describeReplay(replay)
			}
			cr.Verdict, cr.Reason = VerdictNotScored, why
			continue
		}
		p := &prepared{spam: -1, like: -1, doc: doc}
		n, ok := counts[doc]
		if !ok {
			n.tf, n.ctf = voc.counts(doc.Terms, doc.ContentTerms)
			counts[doc] = n
		}
		p.tf, p.ctf = n.tf, n.ctf
		prep[i] = p
	}
	return prep
}

// prepareMeasures returns the measures computed for sc, prepared: those
// opts asks for, topic (for the reports, where there is a model) and those
// always computed.
func prepareMeasures(sc *scoring, opts Options) ([]Measure, error) {
	var measures []Measure
	for _, m := range Measures() {
		if !opts.Computes(m.Name) && m.Family != TopicFamily && !m.always {
			continue
		}
		if m.prepare != nil {
			if err := m.prepare(sc); err != nil {
				return nil, fmt.Errorf("%s of %s: %w", m.Name, sc.urir, err)
			}
		}
		measures = append(measures, m)
	}
	return measures, nil
}

// roundScore keeps 6 decimals: sums over Go maps run in varying order, and
// rounding makes results (and verdicts, decided on the rounded scores) the
// same byte for byte however a run is split or scheduled.
func roundScore(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// describe renders crossed thresholds as "cosine 0.04 < 0.10; wordcount -0.91 < -0.85".
func describe(crossed []Threshold, scores map[string]float64) string {
	parts := make([]string, len(crossed))
	for i, t := range crossed {
		parts[i] = fmt.Sprintf("%s %.3f %s %s", t.Measure, scores[t.Measure], t.Op(), strconv.FormatFloat(t.Value, 'f', -1, 64))
	}
	return strings.Join(parts, "; ")
}

// The most bytes of a capture's title and excerpt in its result: a page of
// one enormous word (text without spaces, a decompression bomb) gives no
// line of megabytes.
const (
	MaxTitleBytes   = 1 << 10
	MaxExcerptBytes = 2 << 10
)

// clip is s cut to at most max bytes at a character boundary, "…" added
// where it was cut.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// excerpt is the first words words of text separated by single spaces,
// followed by "…" when there are more. An excerpt of an excerpt is the
// excerpt itself, returned without allocating.
func excerpt(text string, words int) string {
	if isExcerpt(text, words) {
		return text
	}
	var b strings.Builder
	n := 0
	for f := range strings.FieldsSeq(text) {
		if n > 0 {
			b.WriteByte(' ')
		}
		if n == words {
			b.WriteString("…")
			break
		}
		b.WriteString(f)
		n++
	}
	return b.String()
}

// isExcerpt reports whether excerpt(text, words) is text: its fields are
// separated by single spaces, and there are at most words of them, or one
// more that is "…".
func isExcerpt(text string, words int) bool {
	spaces := 0
	for i, r := range text {
		if !unicode.IsSpace(r) {
			continue
		}
		if r != ' ' || i == 0 || i == len(text)-1 || text[i-1] == ' ' || spaces == words {
			return false
		}
		spaces++
	}
	return spaces < words || spaces == words && strings.HasSuffix(text, " …")
}

// at is s[i], or the zero value where s is shorter.
func at[T any](s []T, i int) T {
	if i < len(s) {
		return s[i]
	}
	var zero T
	return zero
}
