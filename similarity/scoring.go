package similarity

import (
	"context"
	"slices"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

// prepared is a scorable capture: its document and term statistics, as
// sparse vectors over its TimeMap's vocabulary.
type prepared struct {
	doc *extract.Document
	// tf is the term counts of the whole page (content and chrome); ctf
	// those of its content alone.
	tf, ctf sparse
	// vec is the TF-IDF vector scores compare, with the TimeMap's or the
	// collection's IDF as the options say; norm is its length.
	vec  sparse
	norm float64
	// cvec is the content's vector with the collection model's IDF and
	// cnorm its length (both zero without a model): what is compared with
	// the collection's subject, which site chrome is not part of.
	cvec  sparse
	cnorm float64
	// content is the content's TF-IDF vector (the page's IDF) and
	// contentNorm its length; frame is the chrome's (the page's vector less
	// the content's; nil until needed) and frameNorm its length.
	content     sparse
	contentNorm float64
	frame       sparse
	frameNorm   float64
	// titles are the title read in each language asked for (see titleOf).
	titles map[string]title
	// message is why the capture is a message page ("" when it is not;
	// nil until worked out), spam the share of its terms that are spam's
	// (-1 until worked out).
	message *string
	spam    float64
	// like is the capture's likeness to the collection's subject (see
	// likeness; -1 until worked out).
	like float64
	// top are the 20 most frequent terms (tfintersection only), made once.
	top []int32
	// ids are the first LevenshteinCap terms (Levenshtein only).
	ids []int32
	// termHash and rawHash are the Simhashes of the term counts and of the
	// text (tf_simhash and raw_simhash only).
	termHash, rawHash uint64
}

// scoring is the context a measure scores a capture in: every prepared
// capture of one TimeMap (nil where a capture is not scorable), which of them
// is t0, and the collection model. A measure's prepare step keeps its
// per-TimeMap work here, done once for all captures.
type scoring struct {
	ctx   context.Context
	prep  []*prepared
	t0    int
	model *Model
	// voc numbers the TimeMap's terms: prep's vectors are over its ids.
	voc *vocab
	// urir and host are the TimeMap's URI-R and its host (parking pages are
	// titled by it); tm is the TimeMap.
	urir, host string
	tm         *timemap.TimeMap
	// site is the site's registered name (see siteName) and habit whether
	// t0 named another article as its own (see namesOthers), nil until
	// worked out.
	site  *string
	habit *bool
	// topic is the collection's topic at voc's ids (nil until needed).
	topic []float64

	// kernel is SEKernel's expansion of t0's terms: the ids of those in voc,
	// and the number of terms in all (kernel nil: not computed).
	kernel    []int32
	kernelLen int
	// nbhd is the topic of t0's part of the collection at voc's ids and
	// nbhdNorm its length; localT0 is t0's similarity to it (0: no topic).
	nbhd     []float64
	nbhdNorm float64
	localT0  float64
	// idsDone says prepared captures have their ids.
	idsDone bool
	// lsi holds each capture's coordinates in the TimeMap's LSI space (nil:
	// no LSI score).
	lsi [][]float64
}

// weigh gives every prepared capture its vectors: vec (the page) and
// content with the IDF of the TimeMap's own captures, or the collection's
// when collectionIDF is set, and cvec (the content) with the model's IDF
// (where there is a model).
func (s *scoring) weigh(collectionIDF bool) {
	var cidf []float64
	if s.model != nil && s.model.DF != nil {
		cidf = make([]float64, len(s.voc.terms))
		for id, t := range s.voc.terms {
			cidf[id] = s.model.DF.IDF(t)
		}
	}
	idf := cidf
	if !collectionIDF || cidf == nil {
		df := make([]int, len(s.voc.terms))
		n := 0
		for _, p := range s.prep {
			if p != nil {
				n++
				for _, id := range p.tf.ids {
					df[id]++
				}
			}
		}
		idf = make([]float64, len(df))
		for id, d := range df {
			idf[id] = smoothIDF(n, d)
		}
	}
	for _, p := range s.prep {
		if p == nil {
			continue
		}
		p.vec = p.tf.weigh(idf, &s.voc.wChunk)
		p.norm = p.vec.norm()
		p.content = p.ctf.weigh(idf, &s.voc.wChunk)
		p.contentNorm = p.content.norm()
		if cidf != nil {
			p.cvec = p.ctf.weigh(cidf, &s.voc.wChunk)
			p.cnorm = p.cvec.norm()
		}
	}
}

// pageCosine and contentCosine are the cosines of two prepared captures'
// pages and contents (the options' IDF).
func pageCosine(a, b *prepared) float64 { return cosine(a.vec, a.norm, b.vec, b.norm) }
func contentCosine(a, b *prepared) float64 {
	return cosine(a.content, a.contentNorm, b.content, b.contentNorm)
}

// frameCosine is the cosine of two prepared captures' chrome: how much of
// the site's frame (navigation, header, footer, sidebars) they share.
func (s *scoring) frameCosine(a, b *prepared) float64 {
	s.frame(a)
	s.frame(b)
	return cosine(a.frame, a.frameNorm, b.frame, b.frameNorm)
}

// frame makes p's frame vector (see prepared.frame) if it has none yet.
func (s *scoring) frame(p *prepared) {
	if p.frame.ids == nil {
		p.frame = minus(p.vec, p.content, &s.voc.idChunk, &s.voc.wChunk)
		p.frameNorm = p.frame.norm()
	}
}

// ownTerms is how many of a's content's terms b's frame does not hold:
// the words a page shows of its own beyond the site's navigation, header
// and footer (a page with an empty main part can have its footer taken
// for its content).
func (s *scoring) ownTerms(a, b *prepared) int {
	s.frame(b)
	return len(a.ctf.ids) - common(a.ctf.ids, b.frame.ids)
}

// collectionCosine is the cosine of two prepared captures' contents with the
// collection's IDF.
func collectionCosine(a, b *prepared) float64 { return cosine(a.cvec, a.cnorm, b.cvec, b.cnorm) }

// likeness is capture i's likeness to the collection's subject: its
// similarity to the collection's topic over a typical first capture's
// (Model.TypicalTopicSim), rounded; ok is false without a model. Worked
// out once.
func (s *scoring) likeness(i int) (float64, bool) {
	m, p := s.model, s.prep[i]
	if m == nil || m.TypicalTopicSim <= 0 {
		return 0, false
	}
	if p.like < 0 {
		p.like = roundScore(s.topicSim(i) / m.TypicalTopicSim)
	}
	return p.like, true
}

// topicSim is the cosine of capture i (collection IDF) with the collection's
// topic; 0 without a model.
func (s *scoring) topicSim(i int) float64 {
	m, p := s.model, s.prep[i]
	if m == nil || m.topicNorm == 0 || p.cnorm == 0 {
		return 0
	}
	if s.topic == nil {
		s.topic = make([]float64, len(s.voc.terms))
		for id, t := range s.voc.terms {
			s.topic[id] = m.Topic[t]
		}
	}
	return p.denseCosine(s.topic, m.topicNorm)
}

func prepareSEKernel(s *scoring) error {
	if s.model == nil || s.model.Engine == nil {
		return nil
	}
	t0 := s.prep[s.t0].tf
	terms := make([]string, len(t0.ids))
	for k, id := range t0.ids {
		terms[k] = s.voc.terms[id]
	}
	query := make([]string, 0, 5)
	for _, id := range topIDs(t0, s.voc.terms, 5) {
		query = append(query, s.voc.terms[id])
	}
	set, err := seKernelSet(s.ctx, s.model.Engine, terms, query)
	if err != nil {
		return err
	}
	s.kernel, s.kernelLen = make([]int32, 0, len(set)), len(set)
	for t := range set {
		if id, ok := s.voc.ids[t]; ok {
			s.kernel = append(s.kernel, id)
		}
	}
	slices.Sort(s.kernel)
	return nil
}

func scoreSEKernel(s *scoring, i int) (float64, bool) {
	if s.kernel == nil {
		return 0, false
	}
	ids := s.prep[i].tf.ids
	return jaccard(common(ids, s.kernel), len(ids), s.kernelLen), true
}

func prepareTopic(s *scoring) error {
	t0 := s.prep[s.t0]
	if s.nbhd, s.nbhdNorm = s.model.localTopic(t0.cvec, t0.cnorm, s.voc); s.nbhd != nil {
		s.localT0 = s.nbhdCosine(t0)
	}
	return nil
}

// nbhdCosine is the cosine of p (collection IDF) with the TimeMap's topic.
func (s *scoring) nbhdCosine(p *prepared) float64 { return p.denseCosine(s.nbhd, s.nbhdNorm) }

// denseCosine is the cosine of p's content (collection IDF) with a dense
// vector d over the TimeMap's vocabulary of length dn, in [0, 1]; 0 when
// either is empty.
func (p *prepared) denseCosine(d []float64, dn float64) float64 {
	if p.cnorm == 0 || dn == 0 {
		return 0
	}
	return clamp(p.cvec.dotDense(d)/(p.cnorm*dn), 0, 1)
}

func scoreTopic(s *scoring, i int) (float64, bool) {
	if s.localT0 <= 0 {
		return 0, false
	}
	return s.nbhdCosine(s.prep[i]) / s.localT0, true
}

// newText is the share of capture i's content words whose terms t0's
// content does not have.
func (s *scoring) newText(i int) float64 {
	p, t0 := s.prep[i], s.prep[s.t0]
	var all, fresh float64
	for a, b := 0, 0; a < len(p.ctf.ids); a++ {
		id := p.ctf.ids[a]
		for b < len(t0.ctf.ids) && t0.ctf.ids[b] < id {
			b++
		}
		all += p.ctf.w[a]
		if b == len(t0.ctf.ids) || t0.ctf.ids[b] != id {
			fresh += p.ctf.w[a]
		}
	}
	if all == 0 {
		return 0
	}
	return roundScore(fresh / all)
}

// topTerms are the capture's 20 most frequent terms, computed on first use.
func (s *scoring) topTerms(i int) []int32 {
	p := s.prep[i]
	if p.top == nil {
		p.top = topIDs(p.tf, s.voc.terms, 20)
	}
	return p.top
}

// topIDs returns the ids of the k most frequent terms of tf, most frequent
// first, ties broken by term so that results do not depend on numbering.
// It keeps the best k seen so far in order, inserting each better one: k is
// small (20), so this costs far less than sorting every term.
func topIDs(tf sparse, terms []string, k int) []int32 {
	better := func(a, b int32) bool { // positions in tf
		if tf.w[a] != tf.w[b] {
			return tf.w[a] > tf.w[b]
		}
		return terms[tf.ids[a]] < terms[tf.ids[b]]
	}
	if k <= 0 {
		return nil
	}
	top := make([]int32, 0, min(k, len(tf.ids)))
	for pos := range int32(len(tf.ids)) {
		if len(top) == k {
			if !better(pos, top[k-1]) {
				continue
			}
			top = top[:k-1]
		}
		j := len(top)
		top = append(top, pos)
		for ; j > 0 && better(pos, top[j-1]); j-- {
			top[j] = top[j-1]
		}
		top[j] = pos
	}
	for j, pos := range top {
		top[j] = tf.ids[pos]
	}
	return top
}
