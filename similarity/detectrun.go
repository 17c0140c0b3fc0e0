package similarity

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

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
	mu       sync.Mutex
	samples  map[string]*sharedSample // each collection's, shared by the workers
}

func newStatsSets(workers, minT0Words int) *statsSets {
	s := &statsSets{free: make(chan map[string]*ModelStats, workers), minWords: t0MinWords(minT0Words), samples: map[string]*sharedSample{}}
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
		s.mu.Lock()
		if s.samples[id] == nil {
			s.samples[id] = &sharedSample{}
		}
		m[id].shared = s.samples[id]
		s.mu.Unlock()
	}
	m[id].Add(*in, s.minWords)
}

// mergeInto hands the statistics gathered to the builders of their
// collections (the sets are not used after).
func (s *statsSets) mergeInto(builders map[string]*ModelBuilder) {
	for _, m := range s.all {
		for id, st := range m {
			if b := builders[id]; b != nil {
				b.takeStats(st)
			}
		}
	}
	for id, p := range s.samples {
		if b := builders[id]; b != nil {
			b.takeStats(&ModelStats{Sample: p.docs})
		}
	}
}

// resultWindow is how many TimeMaps a worker may score ahead of the
// earliest one not done (see orderedMapWindow).
const resultWindow = 16

// The first pass's schedule: past its first two TimeMaps per worker, its
// window holds at most resultWindow TimeMaps per worker whose documents
// take firstPassBytes (see docBytes); it reads up to firstPassAhead
// TimeMaps per worker ahead, their notes at most firstPassAheadBytes
// (the index may hold them on disk), and starts early one whose captures'
// notes (their documents) are costlyTimeMap times as long as the mean and
// at least costlyTimeMapBytes.
const (
	firstPassBytes      = 2 << 20
	firstPassAhead      = 64
	firstPassAheadBytes = 4 << 20
	costlyTimeMap       = 8
	costlyTimeMapBytes  = 1 << 20
)

// notesBytes is how long the notes of tm's captures are: what its
// documents take to read and count.
func notesBytes(tm *timemap.TimeMap) int {
	n := 0
	for _, c := range tm.Captures {
		n += len(c.Note)
	}
	return n
}

// noteGuess is what docBytes counts for a capture the index made no note
// of (its payload is read and extracted in the first pass, if at all).
const noteGuess = 16 << 10

// docBytes is about what tm's documents take once read: its captures'
// notes, noteGuess for each capture without one.
func docBytes(tm *timemap.TimeMap) int {
	n := 0
	for _, c := range tm.Captures {
		if c.Note != "" {
			n += len(c.Note)
		} else {
			n += noteGuess
		}
	}
	return n
}

// detectRun is one run of Detect without a model given: its first pass,
// the replay join's rounds and its second pass.
type detectRun struct {
	cfg      *Config
	cache    *extract.Cache
	f, tf    *os.File // the spill and the replay targets' files
	spill    *spillFile
	join     joiner
	builders map[string]*ModelBuilder
	models   map[string]*Model
	built    chan struct{} // closed once models is built (nil before the first pass's end): see awaitModels
	vocabs   sync.Pool     // the second pass's vocabularies, reused from TimeMap to TimeMap
	stats    Stats
}

func newDetectRun(cfg *Config) (*detectRun, error) {
	r := &detectRun{cfg: cfg, cache: extract.NewCache(cfg.CacheBytes), builders: map[string]*ModelBuilder{}}
	var err error
	if r.f, err = os.CreateTemp(cfg.TempDir, "offtopic-spill-*.gob"); err != nil {
		return nil, fmt.Errorf("create spill file: %w", err)
	}
	if r.tf, err = os.CreateTemp(cfg.TempDir, "offtopic-targets-*.bin"); err != nil {
		r.close()
		return nil, fmt.Errorf("create the replay targets' file: %w", err)
	}
	r.join.docs = &targetDocs{f: r.tf}
	return r, nil
}

// close waits for the models and removes the run's files.
func (r *detectRun) close() {
	r.awaitModels()
	for _, f := range []*os.File{r.f, r.tf} {
		if f != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}
}

// firstPass reads and extracts every TimeMap of src, spills it, notes its
// references for the join and builds the models.
func (r *detectRun) firstPass(ctx context.Context, src timemap.Source) error {
	cfg := r.cfg
	var failed atomic.Int64
	sets := newStatsSets(cfg.Workers, cfg.MinT0Words)
	sw := newSpillWriter(r.f, 2*cfg.Workers)
	// A TimeMap of long pages is read early, so that it does not keep the
	// other workers idle at the end.
	sched := schedule[*timemap.TimeMap]{weight: docBytes, maxWeight: firstPassBytes,
		cost: notesBytes, ahead: firstPassAhead * cfg.Workers, aheadWeight: firstPassAheadBytes, costly: costlyTimeMap, minCost: costlyTimeMapBytes}
	err := orderedMapScheduled(ctx, cfg.Workers, resultWindow*cfg.Workers, sched, src.TimeMaps(ctx), func(ctx context.Context, tm *timemap.TimeMap) (*Input, error) {
		in, n := Prepare(ctx, tm, cfg, r.cache)
		failed.Add(int64(n))
		sets.add(cfg.collectionOf(in), in)
		return in, nil
	}, func(in *Input) error {
		// In key order, so that the search index and the join are the same
		// however work was split.
		id := cfg.collectionOf(in)
		if r.builders[id] == nil {
			r.builders[id] = NewModelBuilder(cfg.Computes(MeasureSEKernel), cfg.MinT0Words)
		}
		r.builders[id].AddSearch(*in)
		if cfg.Prepared != nil {
			cfg.Prepared(in)
		}
		r.join.note(r.stats.TimeMaps, in)
		r.stats.TimeMaps++
		r.stats.Captures += len(in.TimeMap.Captures)
		if cfg.Progress != nil {
			cfg.Progress(Progress{Stage: "extract", TimeMaps: r.stats.TimeMaps, Captures: r.stats.Captures})
		}
		return sw.write(in)
	})
	if err != nil {
		sw.close()
		return err
	}
	// The models are built while the spill writer finishes, and on
	// through the replay join and the second pass's first term counts
	// (see awaitModels).
	built := make(chan struct{})
	r.built = built
	go func() {
		defer close(built)
		sets.mergeInto(r.builders)
		r.models = make(map[string]*Model, len(r.builders))
		for id, b := range r.builders {
			r.models[id] = b.Build()
		}
		// The statistics go (the models keep what they need: the
		// document frequencies, the topic, the sample's reference
		// vectors), so that the topic's counts and the sample's terms
		// are neither held nor traced through the second pass.
		r.builders = nil
	}()
	spill, werr := sw.close()
	if werr != nil {
		return werr
	}
	r.spill = spill
	r.stats.Failed = int(failed.Load())
	return nil
}

// awaitModels waits until the first pass has built the models (at once
// when it has not started them).
func (r *detectRun) awaitModels() {
	if r.built != nil {
		<-r.built
	}
}

// model returns collection id's model, once built.
func (r *detectRun) model(id string) *Model {
	r.awaitModels()
	return r.models[id]
}

// joinRounds finds the targets of redirects and frames that lead to other
// TimeMaps: a pass over the spill finds them (and the next hop of a
// chain), then one over the TimeMaps not scored, for those it did not
// hold.
func (r *detectRun) joinRounds(ctx context.Context) error {
	cfg, join := r.cfg, &r.join
	for round := 0; round < maxHops && join.pending(cfg.Others != nil); round++ {
		if cfg.Progress != nil {
			cfg.Progress(Progress{Stage: "replay", TimeMaps: r.stats.TimeMaps, Captures: r.stats.Captures})
		}
		if err := join.pass(r.spill.read(ctx, cfg.Workers, join.waitingKeys()), cfg.Others == nil); err != nil {
			return err
		}
		if cfg.Others != nil && join.pending(true) {
			keys := join.waitingKeys()
			others := timemap.FilterKeys(cfg.Others, func(k string) bool { return keys[k] })
			if err := join.pass(prepareAll(ctx, others, cfg, r.cache), true); err != nil {
				return err
			}
		}
	}
	join.finish()
	return join.docs.err
}

// secondPass scores every spilled TimeMap, with the targets the join
// found, against its collection's model, and hands the results to emit in
// key order. Each worker decodes and scores a segment of the spill at a
// time; a segment far longer than the others (a TimeMap of long pages) is
// started early, and results wait for one that takes long while the other
// workers go on (a result is a tenth of its Input or less).
func (r *detectRun) secondPass(ctx context.Context, emit func(*TimeMapResult) error) error {
	cfg := r.cfg
	var mu sync.Mutex
	targets := func(n int) []Target {
		mu.Lock()
		defer mu.Unlock()
		// Taken out of the join, so that the documents load reads into
		// them go with the TimeMap once it is scored.
		t := r.join.targets[n]
		delete(r.join.targets, n)
		return t
	}
	// The window holds the results of resultWindow TimeMaps per worker, as
	// many segments as hold them.
	sched := schedule[segment]{weight: func(s segment) int { return s.count }, maxWeight: resultWindow * cfg.Workers,
		cost: func(s segment) int { return int(s.n) }, ahead: firstPassAhead * cfg.Workers,
		costly: costlyTimeMap, minCost: costlyTimeMapBytes}
	count := counting(&r.stats, cfg, emit)
	return orderedMapScheduled(ctx, cfg.Workers, resultWindow*cfg.Workers, sched, r.spill.segments(nil), func(ctx context.Context, s segment) ([]*TimeMapResult, error) {
		ins, err := r.spill.decode(ctx, s)
		if err != nil {
			return nil, err
		}
		res := make([]*TimeMapResult, len(ins))
		for k, in := range ins {
			ins[k] = nil
			in.Targets = targets(s.start + k)
			if err := r.join.docs.load(in.Targets); err != nil {
				return nil, err
			}
			model := func() *Model { return r.model(cfg.collectionOf(in)) }
			voc, _ := r.vocabs.Get().(*vocab) // empty: see below
			if voc == nil {
				voc = newVocab()
			}
			res[k], err = scoreNoting(ctx, *in, model, voc, cfg.Options)
			voc.reset() // emptied as it goes back, holding none of the TimeMap's documents
			r.vocabs.Put(voc)
			if err != nil {
				return nil, err
			}
		}
		return res, nil
	}, func(res []*TimeMapResult) error {
		for _, tr := range res {
			if err := count(tr); err != nil {
				return err
			}
		}
		return nil
	})
}
