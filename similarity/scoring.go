package similarity

import (
	"context"

	"github.com/offtopic/offtopic/extract"
)

// prepared is a scorable capture: its document and term statistics.
type prepared struct {
	doc *extract.Document
	tf  map[string]int
	vec Vector
	// top are the 20 most frequent terms (tfintersection only), made once.
	top []string
	// ids are the first LevenshteinCap terms as integers (Levenshtein only).
	ids []int32
	// termHash and rawHash are the Simhashes of the term counts and of the
	// text (tf_simhash and raw_simhash only).
	termHash, rawHash uint64
	// cvec is the vector with the collection model's IDF, made once.
	cvec Vector
}

// collectionVec is the capture's vector with the collection's IDF.
func (p *prepared) collectionVec(m *Model) Vector {
	if p.cvec == nil {
		p.cvec = m.Vec(p.tf)
	}
	return p.cvec
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

	// kernel is SEKernel's expansion of t0's terms (nil: not computed).
	kernel map[string]bool
	// nbhd is the topic of t0's part of the collection, localT0 t0's
	// similarity to it (0: no topic).
	nbhd    Vector
	localT0 float64
	// idsDone says prepared captures have their ids.
	idsDone bool
	// lsi holds each capture's coordinates in the TimeMap's LSI space (nil:
	// no LSI score).
	lsi [][]float64
}

func prepareSEKernel(s *scoring) error {
	if s.model == nil || s.model.Engine == nil {
		return nil
	}
	var err error
	s.kernel, err = seKernelSet(s.ctx, s.model.Engine, s.prep[s.t0].tf)
	return err
}

func scoreSEKernel(s *scoring, i int) (float64, bool) {
	if s.kernel == nil {
		return 0, false
	}
	return Jaccard(s.prep[i].tf, s.kernel), true
}

func prepareTopic(s *scoring) error {
	if s.model == nil {
		return nil
	}
	if s.nbhd = s.model.LocalTopic(s.prep[s.t0].tf); len(s.nbhd) > 0 {
		s.localT0 = Cosine(s.prep[s.t0].collectionVec(s.model), s.nbhd)
	}
	return nil
}

func scoreTopic(s *scoring, i int) (float64, bool) {
	if s.localT0 <= 0 {
		return 0, false
	}
	return Cosine(s.prep[i].collectionVec(s.model), s.nbhd) / s.localT0, true
}

// topTerms are the capture's 20 most frequent terms, computed on first use.
func (p *prepared) topTerms() []string {
	if p.top == nil {
		p.top = topTerms(p.tf, 20)
	}
	return p.top
}
