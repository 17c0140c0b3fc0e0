package similarity

import (
	"fmt"
	"hash/fnv"
	"iter"
	"maps"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

// Replay within the collection: a curator judges what a Wayback shows when
// a capture is replayed. An HTTP redirect (3xx) shows the capture its
// Location leads to, a meta refresh or a script that sets the location the
// same, and a frameset (or a page that is one full-page iframe) the pages in
// its frames. Those usually live in other TimeMaps: the first pass notes each
// such reference (Input.Refs), a join pass finds the capture each leads to
// (Input.Targets), and Score judges the referring capture by what it leads
// to.

// ReplayWindow is how far in time from a referring capture the capture of
// its target may be: a crawler captures a redirect's target and a frame's
// page in the same crawl, seconds to hours later (as a Wayback replays the
// nearest capture, one from another crawl shows something else).
const ReplayWindow = 24 * time.Hour

// maxHops is the longest chain of redirects followed.
const maxHops = 5

// How a capture leads to another when replayed.
const (
	HowRedirect = "redirect" // an HTTP 3xx response and its Location
	HowRefresh  = "refresh"  // a meta refresh or a script setting the location
	HowFrame    = "frame"    // a frame of a frameset, or a full-page iframe
)

// Ref is where replaying a capture leads: the capture, how, and the target
// URL with its canonical key.
type Ref struct {
	Capture int
	How     string
	URL     string
	Key     string
}

// Target is the capture a Ref leads to in the collection, as the join
// found it: its URI-R, URI-M and time, its document (nil when it has none)
// and the hops it took, or why there is none.
type Target struct {
	Ref     int // index in Input.Refs
	URIR    string
	URIM    string
	Time    time.Time
	Doc     *extract.Document
	Hops    int
	Problem string
	// Next, when set, is where the target leads on in other TimeMaps (a
	// redirect or meta refresh: one; a frameset: its frames): the join
	// follows them in its next round.
	Next []*Ref `json:"-"`
	// order places the target among those of one reference that a
	// frameset on the way fanned out to: the frames' indexes along the
	// chain, in page order.
	order string
	// docAt is where the join put Doc away until the TimeMap is scored
	// (see targetDocs), 0 when it did not.
	docAt int64
}

// Replay says what a capture showed when replayed: how it led elsewhere,
// where, the capture shown (or why none could be), and how many redirects
// it took.
type Replay struct {
	How string `json:"how"`
	URL string `json:"url"`
	// URIR and URIM are those of the capture shown (the last of a chain of
	// redirects, the first frame's page).
	URIR    string    `json:"uri_r,omitempty"`
	URIM    string    `json:"uri_m,omitempty"`
	Time    time.Time `json:"datetime,omitzero"`
	Hops    int       `json:"hops,omitempty"`
	Frames  int       `json:"frames,omitempty"`
	Problem string    `json:"problem,omitempty"`
	// Moved holds what a client-side redirect's own page says of a move
	// ("we have moved"), "" when it says nothing of it.
	Moved string `json:"moved,omitempty"`
}

// isRedirect reports whether a capture is an HTTP redirect that leads
// somewhere (304 Not Modified does not).
func isRedirect(status int) bool { return status >= 300 && status < 400 && status != 304 }

// refsOf returns the references of capture i: its HTTP redirect's Location
// (loc), else its document's client-side redirect or frames. URLs are
// resolved against the capture's URI-R; only http(s) targets count.
func refsOf(c timemap.Capture, i int, loc string, doc *extract.Document, canon timemap.CanonMode) []Ref {
	var out []Ref
	add := func(how, raw string) {
		u := resolveRef(c.URIR, raw)
		if u == "" {
			return
		}
		out = append(out, Ref{Capture: i, How: how, URL: u, Key: timemap.Canonicalize(u, canon)})
	}
	switch {
	case isRedirect(c.Status):
		if loc != "" {
			add(HowRedirect, loc)
		}
	case doc == nil:
	case doc.Redirect != "":
		add(HowRefresh, doc.Redirect)
	default:
		for _, f := range doc.Frames {
			if len(out) == maxFrames {
				break
			}
			add(HowFrame, f)
		}
	}
	return out
}

// maxFrames caps the frames followed of one capture: a frameset shows a
// handful; a page of thousands is not a frameset a reader replays.
const maxFrames = 16

// resolveRef resolves a reference against the URI it was found in; ""
// when it is not an http(s) URL.
func resolveRef(base, ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	if b, err := url.Parse(base); err == nil {
		r = b.ResolveReference(r)
	}
	if r.Scheme != "http" && r.Scheme != "https" || r.Host == "" {
		return ""
	}
	r.Fragment = ""
	return r.String()
}

// follow finds, in one TimeMap (in), the capture a reference made at time
// when leads to: the capture nearest in time within ReplayWindow (never the
// referring capture itself, skip), following what replaying it leads on to
// (an HTTP redirect, a meta refresh, a frameset's frames) while that stays
// in the TimeMap. It returns the target, with Next set where it leads on to
// other TimeMaps; a page that leads on keeps its document, which is what the
// reader sees when the rest of the chain was not captured.
func follow(in *Input, when time.Time, skip int, hops int, seen map[string]bool) Target {
	for {
		j := nearest(in.TimeMap, when, skip)
		if j < 0 {
			return Target{Hops: hops, Problem: "not captured within " + windowText}
		}
		c := in.TimeMap.Captures[j]
		id := fmt.Sprintf("%s %d", in.TimeMap.Key, j)
		if seen[id] {
			return Target{Hops: hops, Problem: "a redirect loop"}
		}
		seen[id] = true
		t := Target{URIR: c.URIR, URIM: at(in.URIMs, j), Time: c.Time, Doc: at(in.Docs, j), Hops: hops}
		next := leadsOn(in, j)
		switch {
		case isRedirect(c.Status) && len(next) == 0:
			return Target{Hops: hops, Problem: "a redirect without a Location"}
		case isRedirect(c.Status):
			t.Doc = nil
		case c.Status != 200:
			t.Doc = nil
			t.Problem = fmt.Sprintf("it shows HTTP status %d", c.Status)
			return t
		case t.Doc == nil:
			t.Problem = "it shows a capture without text"
			return t
		case len(next) == 0:
			return t
		}
		if hops+1 > maxHops {
			if t.Doc != nil {
				return t // the page a chain too long stops on
			}
			return Target{Hops: hops + 1, Problem: fmt.Sprintf("more than %d redirects", maxHops)}
		}
		if len(next) > 1 || next[0].How == HowFrame || next[0].Key != in.TimeMap.Key {
			t.Next = next // followed with one more hop
			return t
		}
		hops++
		when, skip = c.Time, j
	}
}

// leadsOn returns the references of capture j of in: where replaying it
// leads on to.
func leadsOn(in *Input, j int) []*Ref {
	var out []*Ref
	for k := range in.Refs {
		if in.Refs[k].Capture == j {
			out = append(out, &in.Refs[k])
		}
	}
	return out
}

// windowText is ReplayWindow in words.
const windowText = "a day of it"

// nearest is the index of tm's capture nearest in time to at, within
// ReplayWindow, other than skip (the later of two as near); -1 when none.
// Captures are in time order: only those within the window are looked at.
func nearest(tm *timemap.TimeMap, at time.Time, skip int) int {
	caps := tm.Captures
	best, bestD := -1, time.Duration(0)
	consider := func(j int) {
		if j == skip {
			return
		}
		d := caps[j].Time.Sub(at)
		if d < 0 {
			d = -d
		}
		if best < 0 || d < bestD || d == bestD && caps[j].Time.After(caps[best].Time) {
			best, bestD = j, d
		}
	}
	from := sort.Search(len(caps), func(k int) bool { return !caps[k].Time.Before(at.Add(-ReplayWindow)) })
	for j := from; j < len(caps) && !caps[j].Time.After(at.Add(ReplayWindow)); j++ {
		consider(j)
	}
	return best
}

// replayAll works out what each capture of in shows when replayed: its
// references followed within the TimeMap, or through in.Targets (found by
// the join in other TimeMaps). docs[i] becomes the document to judge and
// replays[i] says how; a redirect with nothing to show keeps a nil
// document and a Problem.
func replayAll(in *Input, docs []*extract.Document) []*Replay {
	if len(in.Refs) == 0 {
		return nil
	}
	replays := make([]*Replay, len(in.TimeMap.Captures))
	byRef := map[int][]Target{}
	for _, t := range in.Targets {
		byRef[t.Ref] = append(byRef[t.Ref], t)
	}
	for k := 0; k < len(in.Refs); {
		i := in.Refs[k].Capture
		end := k
		for end < len(in.Refs) && in.Refs[end].Capture == i {
			end++
		}
		refs := in.Refs[k:end]
		targets := make([]Target, len(refs))
		for n, r := range refs {
			switch ts := byRef[k+n]; {
			case ts != nil:
				targets[n] = combineTargets(ts)
			case r.Key == in.TimeMap.Key:
				seen := map[string]bool{fmt.Sprintf("%s %d", in.TimeMap.Key, i): true}
				targets[n] = follow(in, in.TimeMap.Captures[i].Time, i, 0, seen)
				if t := targets[n]; t.Next != nil && t.Doc == nil {
					// Leads to another TimeMap, which Score alone cannot see.
					targets[n] = Target{Hops: t.Hops + 1, Problem: "it leads to " + t.Next[0].URL + ", not followed here"}
				}
				if c := in.TimeMap.Captures[i]; targets[n].Problem == "not captured within "+windowText && r.URL == resolveRef(c.URIR, c.URIR) {
					targets[n].Problem = "it leads to itself, and no other capture of the page lies within " + windowText
				}
				targets[n].Next = nil
			default:
				targets[n] = Target{Problem: "not captured within " + windowText}
			}
		}
		replays[i], docs[i] = replayOne(refs, targets, docs[i])
		k = end
	}
	return replays
}

// combineTargets is what one reference shows when the join found several
// targets for it (a frameset on the way: one per frame, in page order): the
// first with a document, which holds the text of all of them; else the
// first.
func combineTargets(ts []Target) Target {
	if len(ts) == 1 {
		return ts[0]
	}
	sort.SliceStable(ts, func(a, b int) bool { return ts[a].order < ts[b].order })
	var parts []*extract.Document
	first := -1
	for i, t := range ts {
		if t.Doc != nil && t.Problem == "" {
			parts = append(parts, t.Doc)
			if first < 0 {
				first = i
			}
		}
	}
	if first < 0 {
		return ts[0]
	}
	t := ts[first]
	if len(parts) > 1 {
		t.Doc = mergeDocs(nil, parts)
	}
	return t
}

// replayOne combines what a capture's references lead to: a redirect shows
// its target (nil when it has none: the capture cannot be judged), frames
// add their pages' text to the frameset's own.
func replayOne(refs []Ref, targets []Target, own *extract.Document) (*Replay, *extract.Document) {
	r := &Replay{How: refs[0].How, URL: refs[0].URL}
	if refs[0].How == HowRefresh && own != nil {
		if k, cues := cueKind(own.Title, own.Text, ""); k == KindRedirected {
			r.Moved = quoteCues(cues)
		}
	}
	if refs[0].How != HowFrame {
		t := targets[0]
		r.URIR, r.URIM, r.Time, r.Hops, r.Problem = t.URIR, t.URIM, t.Time, t.Hops, t.Problem
		if t.Doc != nil && t.Problem == "" {
			return r, t.Doc
		}
		if refs[0].How == HowRedirect {
			return r, nil
		}
		return r, own // a client-side redirect that leads nowhere: the page itself
	}
	var parts []*extract.Document
	for n, t := range targets {
		if t.Doc != nil && t.Problem == "" {
			parts = append(parts, t.Doc)
			if r.URIM == "" {
				r.URIR, r.URIM, r.Time, r.URL = t.URIR, t.URIM, t.Time, refs[n].URL
			}
		}
	}
	r.Frames = len(parts)
	if len(parts) == 0 {
		r.Problem = targets[0].Problem
		return r, own
	}
	return r, mergeDocs(own, parts)
}

// mergeDocs is a frameset's document with its frames' pages: their content
// after its own, then every chrome; counts add up, and the language is that
// of the part with the most words.
func mergeDocs(own *extract.Document, parts []*extract.Document) *extract.Document {
	all := append([]*extract.Document{own}, parts...)
	m := &extract.Document{Extractor: "frames"}
	if own != nil {
		m.Canonical = own.Canonical // the frameset's address is the page's
	}
	var text []string
	var chrome [][]string
	most := -1
	for _, d := range all {
		if d == nil {
			continue
		}
		if m.Title == "" {
			m.Title = d.Title
		}
		if d.Text != "" {
			text = append(text, d.Text)
		}
		ct := d.ContentTerms
		if ct > len(d.Terms) {
			ct = len(d.Terms)
		}
		m.Terms = append(m.Terms, d.Terms[:ct]...)
		m.ContentTerms += ct
		chrome = append(chrome, d.Terms[ct:])
		m.WordCount += d.WordCount
		m.ContentWords += d.ContentWords
		m.ByteCount += d.ByteCount
		if d.WordCount > most {
			most = d.WordCount
			m.Lang, m.Langs, m.TermsLang, m.MediaType, m.Charset = d.Lang, d.Langs, d.TermsLang, d.MediaType, d.Charset
		}
		m.Copyright = max(m.Copyright, d.Copyright)
	}
	for _, c := range chrome {
		m.Terms = append(m.Terms, c...)
	}
	m.Text = strings.Join(text, " ")
	return m
}

// describeReplay says in plain words what a replayed capture showed.
func describeReplay(r *Replay) string {
	var what string
	switch r.How {
	case HowRedirect:
		what = "redirects to " + r.URL
	case HowRefresh:
		what = "sends the browser on to " + r.URL
	case HowFrame:
		if r.Frames > 1 {
			what = fmt.Sprintf("shows %d framed pages, the first %s", r.Frames, r.URL)
		} else {
			what = "shows the framed page " + r.URL
		}
	}
	if r.Problem != "" {
		return what + ": " + r.Problem
	}
	if r.Hops > 0 {
		what += fmt.Sprintf(" (after %d more redirects)", r.Hops)
	}
	if !r.Time.IsZero() {
		what += ", captured " + r.Time.UTC().Format("2006-01-02 15:04:05")
	}
	return what
}

// awayFrom reports whether a URL is on another site than a URI-R: another
// host, "www." aside.
func awayFrom(urir, u string) bool {
	a, b := siteHost(hostOf(urir)), siteHost(hostOf(u))
	return a != "" && b != "" && a != b
}

// MaxJoined bounds the targets the join keeps in memory for a run (each
// with its document): references beyond it are reported, not followed.
const MaxJoined = 200_000

// joiner finds the targets of references that lead from one TimeMap to
// another: noted in key order during the first pass, found in passes over
// the spilled TimeMaps, handed to each TimeMap's Input before scoring.
type joiner struct {
	waiting map[string][]pendingRef // by target key
	targets map[int][]Target        // by TimeMap ordinal
	kept    int
	// fanned counts the further targets of a reference (TimeMap ordinal,
	// reference) that framesets on its way fanned out to.
	fanned map[[2]int]int
	// docs, when set, holds the targets' documents until the TimeMaps are
	// scored: on disk, so that what a run holds does not grow with them.
	docs *targetDocs
	// keys holds every TimeMap's key: a reference to a key the collection
	// does not have needs no pass to be answered.
	keys keySet
}

// keySet is a set of keys that may answer yes for a key not added (which
// costs a pass that answers the reference): the 64-bit hashes of the keys
// up to maxExactKeys of them (a few megabytes, no false answer in
// practice), then a Bloom filter of keyBits bits and keyHashes hashes (16
// MiB, under 1% false positives up to about 10 million TimeMaps).
type keySet struct {
	exact map[uint64]struct{}
	bloom []uint64
}

const (
	maxExactKeys = 1 << 19
	keyBits      = 1 << 27
	keyHashes    = 5
)

func (s *keySet) add(k string) {
	h1, h2 := keyHash(k)
	if s.bloom == nil && len(s.exact) < maxExactKeys {
		if s.exact == nil {
			s.exact = map[uint64]struct{}{}
		}
		s.exact[h1] = struct{}{}
		return
	}
	if s.bloom == nil {
		s.bloom = make([]uint64, keyBits/64)
		for h := range s.exact {
			s.addBloom(h, h>>33|h<<31|1)
		}
		s.exact = nil
	}
	s.addBloom(h1, h2)
}

func (s *keySet) addBloom(h1, h2 uint64) {
	for i := range uint64(keyHashes) {
		bit := (h1 + i*h2) % keyBits
		s.bloom[bit/64] |= 1 << (bit % 64)
	}
}

func (s *keySet) has(k string) bool {
	h1, h2 := keyHash(k)
	if s.bloom == nil {
		_, ok := s.exact[h1]
		return ok
	}
	for i := range uint64(keyHashes) {
		bit := (h1 + i*h2) % keyBits
		if s.bloom[bit/64]&(1<<(bit%64)) == 0 {
			return false
		}
	}
	return true
}

// keyHash is two hashes of a key for the filter's double hashing.
func keyHash(k string) (uint64, uint64) {
	h := fnv.New64a()
	h.Write([]byte(k))
	a := h.Sum64()
	return a, a>>33 | a<<31 | 1
}

// pendingRef is a reference waiting for its target: from Input.Refs[ref]
// of TimeMap tm, made at time when, after hops redirects through the
// captures in seen.
type pendingRef struct {
	tm, ref int
	key     string
	when    time.Time
	hops    int
	seen    map[string]bool
	// order is the target's place among a frameset's (Target.order);
	// via, when set, is the page a meta refresh on the way showed: the
	// target when the rest of the chain was not captured.
	order string
	via   *Target
}

// note takes the references of the n-th TimeMap that lead elsewhere.
func (j *joiner) note(n int, in *Input) {
	j.keys.add(in.TimeMap.Key)
	for k, r := range in.Refs {
		if r.Key == in.TimeMap.Key {
			continue
		}
		if j.waiting == nil {
			j.waiting = map[string][]pendingRef{}
		}
		c := in.TimeMap.Captures[r.Capture]
		j.waiting[r.Key] = append(j.waiting[r.Key], pendingRef{tm: n, ref: k, key: r.Key, when: c.Time,
			seen: map[string]bool{fmt.Sprintf("%s %d", in.TimeMap.Key, r.Capture): true}})
	}
}

// pending reports whether references wait for a pass. Without others (the
// collection's TimeMaps that are not scored), those to keys the scored
// TimeMaps do not have are answered at once.
func (j *joiner) pending(others bool) bool {
	if !others {
		for k, ps := range j.waiting {
			if j.keys.has(k) {
				continue
			}
			for _, p := range ps {
				j.fail(p, "not captured within "+windowText)
			}
			delete(j.waiting, k)
		}
	}
	return len(j.waiting) > 0
}

// waitingKeys is the set of the keys references wait for.
func (j *joiner) waitingKeys() map[string]bool {
	keys := make(map[string]bool, len(j.waiting))
	for k := range j.waiting {
		keys[k] = true
	}
	return keys
}

// pass reads TimeMaps once and answers the references waiting for them; a
// chain that goes on to another TimeMap waits for the next round.
// References to keys that inputs did not hold are answered as not captured
// when final, and wait for another pass otherwise.
func (j *joiner) pass(inputs iter.Seq2[*Input, error], final bool) error {
	next := map[string][]pendingRef{}
	for in, err := range inputs {
		if err != nil {
			return err
		}
		for _, p := range j.waiting[in.TimeMap.Key] {
			t := follow(in, p.when, -1, p.hops, p.seen)
			t.Ref, t.order = p.ref, p.order
			switch {
			case t.Next != nil:
				for _, q := range j.leadOn(p, t) {
					next[q.key] = append(next[q.key], q)
				}
			case t.Problem != "" && p.via != nil:
				j.keep(p.tm, *p.via)
			default:
				j.keep(p.tm, t)
			}
		}
		delete(j.waiting, in.TimeMap.Key)
	}
	for k, ps := range j.waiting {
		if !final {
			next[k] = append(next[k], ps...)
			continue
		}
		for _, p := range ps { // targets not in the collection
			j.fail(p, "not captured within "+windowText)
		}
	}
	j.waiting = next
	return nil
}

// finish reports the references still waiting: chains too long.
func (j *joiner) finish() {
	for _, ps := range j.waiting {
		for _, p := range ps {
			j.fail(p, fmt.Sprintf("more than %d redirects", maxHops))
		}
	}
	j.waiting = nil
}

// leadOn returns the references p waits for next, where its target t
// leads on: one for a redirect or meta refresh (which keeps t as what the
// reader sees should the rest not be captured), one per frame for a
// frameset, each with the captures seen so far; at most maxFrames for p's
// reference in all.
func (j *joiner) leadOn(p pendingRef, t Target) []pendingRef {
	var out []pendingRef
	for i, r := range t.Next {
		if i > 0 {
			id := [2]int{p.tm, p.ref}
			if j.fanned[id]+1 >= maxFrames {
				break
			}
			if j.fanned == nil {
				j.fanned = map[[2]int]int{}
			}
			j.fanned[id]++
		}
		q := p
		q.key, q.when, q.hops, q.order = r.Key, t.Time, t.Hops+1, p.order+string(rune('a'+i))
		q.seen, q.via = maps.Clone(p.seen), nil
		if r.How == HowRefresh && t.Doc != nil {
			v := t
			v.Next = nil
			q.via = &v
		}
		out = append(out, q)
	}
	return out
}

// fail answers p with a problem, or with the page a meta refresh on the way
// showed.
func (j *joiner) fail(p pendingRef, problem string) {
	if p.via != nil {
		j.keep(p.tm, *p.via)
		return
	}
	j.keep(p.tm, Target{Ref: p.ref, Hops: p.hops, Problem: problem, order: p.order})
}

func (j *joiner) keep(tm int, t Target) {
	if j.targets == nil {
		j.targets = map[int][]Target{}
	}
	if t.Doc != nil {
		if j.kept >= MaxJoined {
			t = Target{Ref: t.Ref, Problem: fmt.Sprintf("not followed: more than %d redirects and frames lead elsewhere in this collection", MaxJoined)}
		} else {
			j.kept++
		}
	}
	if t.Doc != nil && j.docs != nil {
		j.docs.put(&t)
	}
	j.targets[tm] = append(j.targets[tm], t)
}
