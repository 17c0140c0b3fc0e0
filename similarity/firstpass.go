package similarity

// The first pass of Detect reads and extracts every TimeMap on all
// workers, gathers the collection model's statistics and spills the
// TimeMaps for the second pass. Only what needs key order runs in order
// (the replay join, the search index, progress); the statistics are
// gathered by the workers themselves (their sums do not depend on order)
// and the spill is encoded on a goroutine of its own, so that no stage
// waits for another while a core is free.

// statsSets holds the model statistics the first pass's workers gather:
// a set of statistics by collection for each worker, merged at the end
// (see ModelStats.Merge), which gives the statistics of adding every
// TimeMap in key order.
type statsSets struct {
	free     chan map[string]*ModelStats
	all      []map[string]*ModelStats
	minWords int
}

func newStatsSets(workers, minT0Words int) *statsSets {
	s := &statsSets{free: make(chan map[string]*ModelStats, workers), minWords: t0MinWords(minT0Words)}
	for range workers {
		m := map[string]*ModelStats{}
		s.all = append(s.all, m)
		s.free <- m
	}
	return s
}

// add takes in into the statistics of its collection (id).
func (s *statsSets) add(id string, in *Input) {
	m := <-s.free
	defer func() { s.free <- m }()
	if m[id] == nil {
		m[id] = NewModelStats()
	}
	m[id].Add(*in, s.minWords)
}

// mergeInto hands the statistics gathered to the builders of their
// collections.
func (s *statsSets) mergeInto(builders map[string]*ModelBuilder) {
	for _, m := range s.all {
		for id, st := range m {
			if b := builders[id]; b != nil {
				b.MergeStats(st)
			}
		}
	}
}
