package crawl

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

// Strategy names a crawl strategy.
type Strategy string

// The strategies of Gossen et al.: breadth-first, content-focused (alpha 1),
// time-focused (alpha 0) and content-and-time focused (the spec's alpha).
const (
	Unfocused Strategy = "unfocused"
	CF        Strategy = "c-f"
	TF        Strategy = "t-f"
	CTF       Strategy = "ct-f"
	// Gated is the default: content-and-time focused with time gated by
	// topic (see Gated relevance in the package comment).
	Gated Strategy = "ctg"
)

// ParseStrategy accepts "ctg" (the default), "ct-f", "c-f", "t-f", "unfocused" (also "bfs").
func ParseStrategy(s string) (Strategy, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "ctg", "ct-g", "gated":
		return Gated, nil
	case "ct-f", "ctf":
		return CTF, nil
	case "c-f", "cf":
		return CF, nil
	case "t-f", "tf":
		return TF, nil
	case "unfocused", "bfs", "breadth-first":
		return Unfocused, nil
	}
	return "", fmt.Errorf("unknown strategy %q (want ctg, ct-f, c-f, t-f or unfocused)", s)
}

// Options configure a crawl.
type Options struct {
	Spec    *Spec
	Archive Archive
	// DF is the background document-frequency table; nil builds it from the
	// reference documents and the crawled documents as they come.
	DF       *DocFreq
	Strategy Strategy
	// Out is the output folder.
	Out string
	// Resume continues the crawl whose state is in Out.
	Resume bool
	// Thresholds turns on Klein mode: documents below the threshold learnt
	// from the reference documents' outlinks are not kept nor followed.
	Thresholds bool
	// Seed drives the random splits of Klein mode.
	Seed int64
	// ArchivePrefix is the base of the URI-Ms in the written TimeMaps.
	ArchivePrefix string
	// Extract configures text extraction.
	Extract extract.Options
	// Progress, when set, hears the crawl's statistics after each document.
	Progress func(Stats)
	// SaveEvery is how many documents pass between saves of the crawl state
	// (default 25), and more when saving would take over a twentieth of the
	// crawl's time (the state grows with the crawl: see saveDue); the state
	// is always saved when the crawl stops.
	SaveEvery int
	// oracle, set by tests only, tells whether a page is relevant and
	// whether it is about the event: with it the default strategy reads
	// relevant pages first, then pages about the event, then the rest in its
	// own order. It measures how far perfect topical knowledge of the
	// frontier would go (see TestDevEvents).
	oracle func(url string) (relevant, topical bool)
}

// Stats describe a crawl in progress.
type Stats struct {
	Crawled  int
	Frontier int
	Missing  int
	Rejected int
	MeanTTR  float64
	Elapsed  time.Duration
	// Rate is documents crawled (collected or rejected) per second in this run.
	Rate float64
	// Threshold is Klein mode's threshold (0 otherwise).
	Threshold float64
}

// Entry is one line of the crawl log: one collected document.
type Entry struct {
	N            int       `json:"n"`
	URL          string    `json:"url"`
	Snapshot     string    `json:"snapshot"`
	SnapshotTime time.Time `json:"snapshot_time"`
	DocTime      time.Time `json:"doc_time"`
	// DocTimeFrom says where DocTime came from: "meta", "jsonld", "time",
	// "byline", "url" (the page states it; see extract.PublishedFrom*),
	// "last-modified" (its archived response) or "first-capture".
	DocTimeFrom string  `json:"doc_time_from"`
	TopicR      float64 `json:"topic_r"`
	TempR       float64 `json:"temp_r"`
	TTR         float64 `json:"ttr"`
	Depth       int     `json:"depth"`
	Parent      string  `json:"parent,omitempty"`
	Title       string  `json:"title,omitempty"`
	Links       int     `json:"links"`
	// Capture is the collected capture (where its record is).
	Capture timemap.Capture `json:"capture"`
}

// Missing is a URL the crawl wanted but the archive lacks.
type Missing struct {
	URL    string `json:"url"`
	Depth  int    `json:"depth"`
	Parent string `json:"parent,omitempty"`
	Reason string `json:"reason"`
}

// state is what --resume continues from.
type state struct {
	Spec      string    `json:"spec"`
	Strategy  Strategy  `json:"strategy"`
	Frontier  []Item    `json:"frontier"`
	Seq       int       `json:"seq"`
	Seen      []string  `json:"seen"`
	Log       []Entry   `json:"log"`
	Missing   []Missing `json:"missing"`
	Rejected  int       `json:"rejected"`
	Threshold *float64  `json:"threshold,omitempty"`
	Elapsed   float64   `json:"elapsed_seconds"`
	Done      bool      `json:"done"`
}

// Result is the outcome of a crawl.
type Result struct {
	Log       []Entry
	Missing   []Missing
	Stats     Stats
	Threshold *float64
	// Stopped says why the crawl ended: "target", "frontier", "runtime",
	// "interrupted".
	Stopped string
}

// crawler holds one crawl's working state.
type crawler struct {
	opts  Options
	ev    Event
	alpha float64
	df    *DocFreq
	ownDF bool
	ref   *Reference
	// topicScale brings a document's TopicR to the scale of the reference
	// documents' (their mean TopicR): its relevance. linkScale and
	// anchorScale do the same for the frontier's estimates, from the
	// reference documents' texts and titles scored leave one out (see
	// referenceScales).
	topicScale, linkScale, anchorScale float64
	// seedAnchor is the anchor text of each seed that a reference document links.
	seedAnchor map[string]string
	st         state
	front      frontier
	seen       map[string]bool
	sum        float64
	// lastSave is when the state was last saved and saveCost what that took (see saveDue).
	lastSave time.Time
	saveCost time.Duration
}

// Crawl runs (or with Options.Resume continues) a focused crawl and writes
// its output into Options.Out. When ctx is cancelled the crawl stops after
// the document in hand, saves its state and output, and returns ctx's error
// with the partial Result.
func Crawl(ctx context.Context, opts Options) (*Result, error) {
	if opts.Spec == nil || opts.Archive == nil {
		return nil, errors.New("crawl: spec and archive are required")
	}
	if err := opts.Spec.Validate(); err != nil {
		return nil, fmt.Errorf("crawl: spec: %w", err)
	}
	if opts.Strategy == "" {
		opts.Strategy = Gated
	}
	if opts.SaveEvery <= 0 {
		opts.SaveEvery = 25
	}
	if opts.ArchivePrefix == "" {
		opts.ArchivePrefix = "http://localhost:8080/" + opts.Spec.Name
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return nil, fmt.Errorf("crawl: %w", err)
	}
	c, refs, err := newCrawler(ctx, opts)
	if err != nil {
		return nil, err
	}
	if opts.Resume {
		if err := c.loadState(); err != nil {
			return nil, err
		}
	} else {
		c.st = state{Spec: opts.Spec.Name, Strategy: opts.Strategy}
		seeds := opts.Spec.Seeds
		if len(seeds) == 0 {
			for _, r := range refs {
				for _, l := range r.links {
					seeds = append(seeds, l.URL)
				}
			}
		}
		for _, s := range seeds {
			s = timemap.CleanURI(s)
			p := 1.0
			if c.opts.Strategy == Gated {
				it := c.estimate(-1, 1, extract.Link{URL: s, Anchor: c.seedAnchor[canon(s)]})
				it.Depth = 0
				c.enqueue(it)
				continue
			}
			c.enqueue(Item{URL: s, Priority: p, Depth: 0})
		}
		if opts.Thresholds {
			t, err := c.learnThreshold(ctx, refs)
			if err != nil {
				return nil, fmt.Errorf("crawl: %w", err)
			}
			c.st.Threshold = &t
		}
	}
	return c.run(ctx)
}

// newCrawler sets up the scoring of a crawl or an audit: the strategy's
// alpha, the document frequencies and the reference documents.
func newCrawler(ctx context.Context, opts Options) (*crawler, []refDoc, error) {
	c := &crawler{opts: opts, ev: opts.Spec.Event(), seen: map[string]bool{}, df: opts.DF}
	switch opts.Strategy {
	case CF:
		c.alpha = 1
	case TF:
		c.alpha = 0
	default:
		c.alpha = opts.Spec.AlphaOr()
	}
	if c.df == nil {
		c.df, c.ownDF = NewDocFreq(), true
	}
	refs, err := c.loadReferences(ctx)
	if err != nil {
		return nil, nil, err
	}
	return c, refs, nil
}

type refDoc struct {
	terms, title []string
	links        []extract.Link
}

// loadReferences reads the reference documents and builds the reference vector.
func (c *crawler) loadReferences(ctx context.Context) ([]refDoc, error) {
	var refs []refDoc
	var terms [][]string
	for _, r := range c.opts.Spec.ReferenceDocuments {
		var h http.Header
		var body []byte
		base := r
		path := strings.TrimPrefix(r, "file://")
		if fileExists(path) {
			b, err := os.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("crawl: reference document: %w", err)
			}
			ct := "text/html"
			if strings.HasSuffix(path, ".txt") {
				ct = "text/plain"
			}
			h, body, base = http.Header{"Content-Type": {ct}}, b, "file://"+filepath.ToSlash(path)
		} else {
			caps, err := c.opts.Archive.Resolve(ctx, r)
			if err != nil {
				return nil, fmt.Errorf("crawl: reference document %s: %w", r, err)
			}
			snap, ok := SelectSnapshot(caps, c.ev)
			if !ok {
				return nil, fmt.Errorf("crawl: reference document %s: not in the archive (nor a local file)", r)
			}
			if h, body, err = c.opts.Archive.Read(ctx, snap); err != nil {
				return nil, fmt.Errorf("crawl: reference document %s: %w", r, err)
			}
		}
		opts := articleOptions(c.opts.Extract)
		opts.BaseURL = base
		doc, _ := extract.Extract(h, body, opts)
		refs = append(refs, refDoc{terms: doc.TextTerms(), title: extract.Terms(doc.Title, "en"), links: pageLinks(doc.Links)})
		terms = append(terms, doc.TextTerms())
		if c.ownDF {
			c.df.Add(Features(doc.TextTerms()))
		}
	}
	keywords := StemKeywords(c.opts.Spec.Keywords, "en")
	c.ref = NewReference(terms, keywords, c.df)
	c.seedAnchor = map[string]string{}
	for _, r := range refs {
		for _, l := range r.links {
			if k := canon(l.URL); c.seedAnchor[k] == "" {
				c.seedAnchor[k] = l.Anchor
			}
		}
	}
	c.topicScale, c.linkScale, c.anchorScale = referenceScales(refs, terms, keywords, c.ref, c.df)
	return refs, nil
}

// referenceScales are the mean TopicR of the reference documents against
// the reference vector ref (topic), and of their texts (link) and titles
// (anchor) each against the vector of the other reference documents and the
// keywords (leave one out): how topical a page about the event scores when
// it is not itself a reference document. Against the full vector every
// reference document matches itself (TopicR 0.5-0.9, where other pages about
// the event score 0.1-0.2): on that scale copies of a reference document,
// and every random link on them, stood far above every other page in the
// frontier. A scale is 1 where nothing is known.
func referenceScales(refs []refDoc, terms, keywords [][]string, ref *Reference, df *DocFreq) (topic, link, anchor float64) {
	var ts, ls, as float64
	for i, r := range refs {
		ts += ref.TopicR(r.terms, df)
		others := NewReference(append(append([][]string{}, terms[:i]...), terms[i+1:]...), keywords, df)
		ls += others.TopicR(r.terms, df)
		as += others.TopicR(r.title, df)
	}
	mean := func(sum float64) float64 {
		if sum > 0 {
			return sum / float64(len(refs))
		}
		return 1
	}
	return mean(ts), mean(ls), mean(as)
}

// enqueue adds an unseen, allowed URL to the frontier.
func (c *crawler) enqueue(it Item) {
	k := timemap.Canonicalize(it.URL, timemap.CanonSURT)
	if c.seen[k] || !c.allowed(it.URL) {
		return
	}
	c.seen[k] = true
	c.st.Seen = append(c.st.Seen, k)
	it.Seq = c.st.Seq
	c.st.Seq++
	if c.opts.Strategy == Unfocused {
		it.Priority = 0 // first in, first out: breadth-first
	}
	c.front.push(it)
}

func (c *crawler) allowed(u string) bool {
	pu, err := url.Parse(u)
	if err != nil {
		return false
	}
	host := strings.ToLower(pu.Hostname())
	match := func(list []string) bool {
		for _, d := range list {
			d = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(d), "."))
			if host == d || strings.HasSuffix(host, "."+d) {
				return true
			}
		}
		return false
	}
	if match(c.opts.Spec.Deny) {
		return false
	}
	return len(c.opts.Spec.Allow) == 0 || match(c.opts.Spec.Allow)
}

// scored is one fetched and scored document.
type scored struct {
	snap        timemap.Capture
	title       string
	terms       []string
	links       []extract.Link
	docTime     time.Time
	docTimeFrom string
	topic, temp float64
	// What the audit reports besides.
	words, bytes    int
	extractor, lang string
	text            string
}

// fetch resolves, selects, reads and scores one URL; ok is false (with a
// reason) when the URL goes to the missing list.
func (c *crawler) fetch(ctx context.Context, u string) (*scored, string, error) {
	return c.fetchFrom(ctx, c.opts.Archive, u)
}

// fetchFrom is fetch from archive a.
func (c *crawler) fetchFrom(ctx context.Context, a Archive, u string) (*scored, string, error) {
	s, reason, err := c.readURL(ctx, a, u)
	if s == nil {
		return nil, reason, err
	}
	if c.ownDF {
		c.df.Add(Features(s.terms))
	}
	c.rate(s)
	return s, "", nil
}

// read reads and parses one capture (from archive a) of a URL whose
// captures are caps: its text, links and date (see pageTime), not yet its
// relevance. The page is parsed once, by extract.
func (c *crawler) read(ctx context.Context, a Archive, snap timemap.Capture, caps []timemap.Capture) (*scored, error) {
	h, body, err := a.Read(ctx, snap)
	if err != nil {
		return nil, err
	}
	opts := articleOptions(c.opts.Extract)
	opts.BaseURL = snap.URIR
	doc, _ := extract.Extract(h, body, opts)
	s := &scored{snap: snap, title: doc.Title, terms: doc.TextTerms(), links: pageLinks(doc.Links),
		words: doc.ContentWords, bytes: doc.ByteCount, extractor: doc.Extractor, lang: doc.Lang, text: doc.Text}
	s.docTime, s.docTimeFrom = pageTime(doc, caps)
	return s, nil
}

// rate sets a read document's topical and temporal relevance.
func (c *crawler) rate(s *scored) {
	s.topic = c.ref.TopicR(s.terms, c.df)
	s.temp = c.ev.TempR(s.docTime)
}

func (c *crawler) target() int {
	if c.opts.Spec.TargetSize > 0 {
		return c.opts.Spec.TargetSize
	}
	return DefaultTargetSize
}

func (c *crawler) run(ctx context.Context) (*Result, error) {
	start := time.Now()
	prior := time.Duration(c.st.Elapsed * float64(time.Second))
	runtimeLimit := c.opts.Spec.Runtime()
	done := 0
	stopped := ""
	for _, e := range c.st.Log {
		c.sum += e.TTR
	}
	for {
		if len(c.st.Log) >= c.target() {
			stopped = "target"
			break
		}
		if c.front.Len() == 0 {
			stopped = "frontier"
			break
		}
		if runtimeLimit > 0 && prior+time.Since(start) >= runtimeLimit {
			stopped = "runtime"
			break
		}
		if ctx.Err() != nil {
			stopped = "interrupted"
			break
		}
		it := c.front.pop()
		var (
			s      *scored
			reason string
			later  bool
			err    error
		)
		if c.opts.Strategy == Gated && !it.Dated {
			later, err = c.date(ctx, &it)
		}
		if later {
			continue
		}
		if err == nil {
			s, reason, err = c.fetch(ctx, it.URL)
		}
		if err != nil {
			c.front.push(it)
			if ctx.Err() != nil {
				stopped = "interrupted"
				break
			}
			return nil, fmt.Errorf("crawl: %w", err)
		}
		done++
		if s == nil {
			c.st.Missing = append(c.st.Missing, Missing{URL: it.URL, Depth: it.Depth, Parent: it.Parent, Reason: reason})
		} else {
			c.take(it, s)
		}
		if c.opts.Progress != nil {
			c.opts.Progress(c.stats(prior+time.Since(start), done, time.Since(start)))
		}
		if done%c.opts.SaveEvery == 0 && c.saveDue() {
			c.st.Elapsed = (prior + time.Since(start)).Seconds()
			if err := c.saveState(); err != nil {
				return nil, err
			}
		}
	}
	c.st.Elapsed = (prior + time.Since(start)).Seconds()
	c.st.Done = stopped != "interrupted"
	if err := c.saveState(); err != nil {
		return nil, err
	}
	res := &Result{Log: c.st.Log, Missing: c.st.Missing, Stats: c.stats(prior+time.Since(start), done, time.Since(start)), Threshold: c.st.Threshold, Stopped: stopped}
	if err := writeOutput(ctx, c.opts, c.st); err != nil {
		return res, err
	}
	if stopped == "interrupted" {
		return res, ctx.Err()
	}
	return res, nil
}

// take judges a read document: under Klein's threshold it is rejected;
// otherwise it joins the log and its outlinks join the frontier (within the
// spec's depth).
func (c *crawler) take(it Item, s *scored) {
	ttr := c.relevance(s.topic, s.temp)
	if c.st.Threshold != nil {
		grace := c.ev.End.Add(c.opts.Spec.Grace())
		if ttr < *c.st.Threshold || s.docTime.After(grace) {
			c.st.Rejected++
			return
		}
	}
	c.st.Log = append(c.st.Log, Entry{
		N: len(c.st.Log) + 1, URL: it.URL, Snapshot: s.snap.Timestamp14(), SnapshotTime: s.snap.Time,
		DocTime: s.docTime, DocTimeFrom: s.docTimeFrom, TopicR: s.topic, TempR: s.temp, TTR: ttr,
		Depth: it.Depth, Parent: it.Parent, Title: s.title, Links: len(s.links), Capture: s.snap,
	})
	c.sum += ttr
	if c.opts.Spec.MaxDepth > 0 && it.Depth >= c.opts.Spec.MaxDepth {
		return
	}
	for _, l := range s.links {
		var next Item
		if c.opts.Strategy == Gated {
			next = c.estimate(min(1, s.topic/c.linkScale), s.temp, l)
		} else {
			next = Item{URL: l.URL, Priority: c.priority(ttr, s, l)}
		}
		next.Depth, next.Parent = it.Depth+1, it.URL
		c.enqueue(next)
	}
}

// priority is the frontier priority of an outlink of a document with
// relevance ttr: the document's relevance (Algorithm 1), averaged with an
// estimate of the target's own relevance from what the link tells before it
// is fetched: the topical similarity of its anchor text to the reference
// vector, and the temporal relevance of a date in its URL (else the
// parent's).
func (c *crawler) priority(ttr float64, s *scored, l extract.Link) float64 {
	topic := 0.0
	if l.Anchor != "" {
		topic = c.ref.TopicR(extract.Terms(l.Anchor, "en"), c.df)
	}
	temp := s.temp
	if t, ok := extract.DateFromURL(l.URL); ok {
		temp = c.ev.TempR(t)
	}
	return (ttr + TTR(c.alpha, topic, temp)) / 2
}

// norm brings a document's TopicR to the scale of the reference documents'
// own (1 = as topical as they are on average), capped at 1.
func (c *crawler) norm(topic float64) float64 { return min(1, topic/c.topicScale) }

// relevance is a document's relevance under the crawl's strategy: TTR for
// the strategies of Gossen et al., and for the gated default the product of
// the normalised topical relevance and TempR (a page is relevant when it is
// about the event AND of its time: time alone earns nothing).
func (c *crawler) relevance(topic, temp float64) float64 {
	if c.opts.Strategy != Gated {
		return TTR(c.alpha, topic, temp)
	}
	return c.norm(topic) * temp
}

// Weights of the gated strategy's estimate of an unread page (see estimate).
const (
	// parentWeight weighs the linking page's topicality against the anchor
	// text's in the estimated topicality of the target (the parent's is the
	// better predictor: ROC AUC 0.79-0.90 for the target's relevance over
	// the links of the dev events, the anchor's 0.75-0.84).
	parentWeight = 0.6
	// uncertainFloor is what an estimated TempR of 0 still counts when the
	// estimate is uncertain (see gatedPriority).
	uncertainFloor = 0.5
)

// estimate is the gated strategy's guess, before fetching, of the relevance
// of the page a link leads to, as a frontier Item. Its topicality is the
// mean, weighted by parentWeight, of the linking page's (parentTopic: its
// TopicR over the linkScale, capped at 1; related stories are mostly about
// the same subject) and of the link's anchor text (its TopicR over the
// anchorScale of the reference documents' titles; anchors are mostly titles). Its time is the date in its URL when there is one (Item.Dated),
// else the linking page's (related stories are mostly of the same weeks)
// until the archive tells the first capture (see date). The priority is the
// topicality scaled by time (see gatedPriority). parentTopic < 0 marks a
// seed: the seeds are the reference documents' outlinks (or the curator's
// choice), so their linking page is as topical as can be (1).
func (c *crawler) estimate(parentTopic, parentTemp float64, l extract.Link) Item {
	anchor := 0.0
	if l.Anchor != "" {
		anchor = min(1, c.ref.TopicR(extract.Terms(l.Anchor, "en"), c.df)/c.anchorScale)
	}
	if parentTopic < 0 {
		parentTopic = 1
	}
	it := Item{URL: l.URL, Topic: parentWeight*parentTopic + (1-parentWeight)*anchor}
	if t, ok := extract.DateFromURL(l.URL); ok {
		it.Dated = true
		it.Priority = gatedPriority(it.Topic, c.ev.TempR(t), false) + c.known(l.URL)
		return it
	}
	it.Priority = gatedPriority(it.Topic, parentTemp, true) + c.known(l.URL)
	return it
}

// known is what Options.oracle adds to a page's priority: 3 for a relevant
// page, 2 for another page about the event, 0 otherwise or without oracle.
func (c *crawler) known(u string) float64 {
	if c.opts.oracle == nil {
		return 0
	}
	switch rel, top := c.opts.oracle(u); {
	case rel:
		return 3
	case top:
		return 2
	}
	return 0
}

// gatedPriority scales an estimated topicality by an estimated TempR. A
// date the page's URL states (or a first capture before the event's end:
// the page was published before it) is taken at its word: the priority is
// topicality × TempR. An uncertain time (the linking page's, or a first
// capture after the event's end: the page may be older) scales it from
// uncertainFloor (TempR 0) to 1, so that a misdated page stays reachable.
func gatedPriority(topic, temp float64, uncertain bool) float64 {
	if !uncertain {
		return topic * temp
	}
	return topic * (uncertainFloor + (1-uncertainFloor)*temp)
}

// date refines the time of an undated frontier item from the archive's
// index before the page is read: its first successful capture, an upper
// bound of its publication (in archives that visit a site often, close to
// it). It costs a lookup, not a fetch. later reports that the item, now
// less promising than the frontier's best, went back into the frontier.
func (c *crawler) date(ctx context.Context, it *Item) (later bool, err error) {
	caps, err := c.opts.Archive.Resolve(ctx, it.URL)
	if err != nil {
		return false, fmt.Errorf("resolve %s: %w", it.URL, err)
	}
	it.Dated = true
	first := firstCapture(caps)
	if first.IsZero() {
		return false, nil // not archived: the fetch puts it on the missing list
	}
	it.Priority = gatedPriority(it.Topic, c.ev.TempR(first), first.After(c.ev.End)) + c.known(it.URL)
	if c.front.Len() > 0 && it.Priority < c.front[0].Priority {
		c.front.push(*it)
		return true, nil
	}
	return false, nil
}

func (c *crawler) stats(elapsed time.Duration, done int, run time.Duration) Stats {
	s := Stats{Crawled: len(c.st.Log), Frontier: c.front.Len(), Missing: len(c.st.Missing), Rejected: c.st.Rejected, Elapsed: elapsed}
	if n := len(c.st.Log); n > 0 {
		s.MeanTTR = c.sum / float64(n)
	}
	if run > 0 {
		s.Rate = float64(done) / run.Seconds()
	}
	if c.st.Threshold != nil {
		s.Threshold = *c.st.Threshold
	}
	return s
}

// BuildDF builds the background document-frequency table from the texts of
// a local archive: every distinct HTML payload extracted once, in parallel.
func BuildDF(ctx context.Context, a *LocalArchive, opts extract.Options, workers int) (*DocFreq, error) {
	opts = articleOptions(opts)
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	caps := a.Captures()
	df := NewDocFreq()
	ch := make(chan timemap.Capture)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for cp := range ch {
				h, body, err := a.Read(ctx, cp)
				if err != nil {
					continue
				}
				doc, _ := extract.Extract(h, body, opts)
				df.Add(Features(doc.TextTerms()))
			}
		}()
	}
	var err error
	for _, cp := range caps {
		if err = ctx.Err(); err != nil {
			break
		}
		ch <- cp
	}
	close(ch)
	wg.Wait()
	if err != nil {
		return nil, fmt.Errorf("document frequencies: %w", err)
	}
	return df, nil
}

// articleOptions are the extraction options a crawl reads documents with:
// what it weighs is a document's article (go-readability's, where it finds
// one), not the site's chrome around it.
func articleOptions(o extract.Options) extract.Options {
	o.Readability = true
	return o
}
