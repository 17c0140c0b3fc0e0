package similarity

import "fmt"

// offTopicShare is how far below the collection's typical similarity to its
// topic a first capture must fall before it is taken to be off-topic itself.
const offTopicShare = 0.35

// chooseT0 picks URI-R@t0: the earliest capture with HTTP 200, an HTML type
// and at least MinT0Words words. With TopicCheck, a first capture that sits far
// off the collection's topic (a parked domain, an error page) is passed over
// for the earliest capture that does not, and the reason says so.
func chooseT0(in Input, prep []*prepared, model *Model, opts Options) (int, string) {
	var cands []int
	for i, p := range prep {
		if p != nil && in.Docs[i].WordCount >= opts.MinT0Words {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return -1, fmt.Sprintf("no capture with HTTP 200, an HTML type and at least %d words", opts.MinT0Words)
	}
	first := cands[0]
	plain := "first capture with HTTP 200, an HTML type and text"
	if !opts.TopicCheck || model == nil || model.TypicalTopicSim == 0 {
		return first, plain
	}
	floor := offTopicShare * model.TypicalTopicSim
	sim0 := model.TopicSim(prep[first].tf)
	if sim0 >= floor {
		return first, plain
	}
	for _, i := range cands[1:] {
		if s := model.TopicSim(prep[i].tf); s >= floor {
			return i, fmt.Sprintf("first capture %s looks off the collection's topic (similarity %.3f, typical %.3f); using the earliest capture near the topic (%.3f)",
				in.URIMs[first], sim0, model.TypicalTopicSim, s)
		}
	}
	return first, fmt.Sprintf("every capture looks off the collection's topic (first: similarity %.3f, typical %.3f); using the first", sim0, model.TypicalTopicSim)
}
