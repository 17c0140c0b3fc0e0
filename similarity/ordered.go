package similarity

import (
	"context"
	"iter"
	"runtime"
	"sync"
	"sync/atomic"
)

// orderedMap applies f to every item of in on workers goroutines and hands
// the results to out in input order, keeping results waiting for an
// earlier one up to about 2*workers items in flight. The first error (from
// in, f or out) stops the work.
func orderedMap[T, U any](ctx context.Context, workers int, in iter.Seq2[T, error], f func(context.Context, T) (U, error), out func(U) error) error {
	return orderedMapWindow(ctx, workers, 2*workers, in, f, out)
}

// orderedMapWindow is orderedMap with up to window items in flight: at
// most workers of them being worked on, the others results waiting for an
// earlier one. A window of many workers keeps the other workers busy
// while one takes long over an item, where results are small beside the
// items.
func orderedMapWindow[T, U any](ctx context.Context, workers, window int, in iter.Seq2[T, error], f func(context.Context, T) (U, error), out func(U) error) error {
	return orderedMapScheduled(ctx, workers, window, schedule[T]{}, in, f, out)
}

// schedule says which items orderedMapScheduled lets in flight and which
// it starts before their turn; its zero value neither bounds nor reorders.
type schedule[T any] struct {
	// An item's result weighs weight(item) (a TimeMap's documents): past
	// the first 2*workers items in flight, no item goes in while those in
	// flight would weigh more than maxWeight together.
	weight    func(T) int
	maxWeight int
	// Where cost is not nil, the next ahead items are read in advance, as
	// long as they weigh at most aheadWeight together (0: no bound; an
	// item read holds some of what its result will: a TimeMap's notes),
	// and one that costs at least costly times the mean of the items read
	// so far, and at least minCost, is started before its turn, on at
	// most workers-1 workers: a TimeMap of long pages near the end would
	// keep the other workers idle while it is worked on.
	cost        func(T) int
	ahead       int
	aheadWeight int
	costly      int
	minCost     int
}

// orderedMapScheduled is orderedMapWindow with the items in flight bounded
// and the costly ones started early as sc says. Results still go to out in
// input order.
func orderedMapScheduled[T, U any](ctx context.Context, workers, window int, sc schedule[T], in iter.Seq2[T, error], f func(context.Context, T) (U, error), out func(U) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type job struct {
		item  T
		done  chan result[U]
		early bool
	}
	type slot struct {
		done   chan result[U]
		weight int
	}
	ahead, maxEarly := 0, 0
	if sc.cost != nil {
		ahead, maxEarly = max(sc.ahead, 1), max(workers-1, 1)
	}
	window = max(window, workers)
	gate := &weightGate{window: window, free: 2 * workers, max: sc.maxWeight, bounded: sc.weight != nil}
	gate.cond = sync.NewCond(&gate.mu)
	// The queue holds every item read and not yet handed to out: those
	// read ahead, those started early and the window's; the feeder never
	// waits on it.
	queue := make(chan slot, window+maxEarly+max(ahead, 1))
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				u, err := f(ctx, j.item)
				j.done <- result[U]{val: u, err: err, early: j.early}
			}
		})
	}
	var feedErr error
	go func() {
		defer close(queue)
		defer close(jobs)
		type pending struct {
			item         T
			done         chan result[U]
			weight, cost int
		}
		var waiting []pending // read, not started, in input order
		waitingWeight := 0
		costs, read := 0, 0 // of the items read
		next, stop := iter.Pull2(in)
		defer stop()
		more := true
		for {
			for more && (len(waiting) == 0 || len(waiting) < ahead && (sc.aheadWeight == 0 || waitingWeight < sc.aheadWeight)) {
				item, err, ok := next()
				if !ok || err != nil {
					feedErr, more = err, false
					break
				}
				p := pending{item: item, done: make(chan result[U], 1)}
				if sc.weight != nil {
					p.weight = sc.weight(item)
				}
				if sc.cost != nil {
					p.cost = sc.cost(item)
					costs += p.cost
					read++
				}
				queue <- slot{p.done, p.weight}
				waiting = append(waiting, p)
				waitingWeight += p.weight
			}
			if len(waiting) == 0 {
				return
			}
			k := 0
			if sc.cost != nil && gate.earlyRoom(maxEarly) {
				for i := 1; i < len(waiting); i++ {
					if c := waiting[i].cost; c >= sc.minCost && c*read >= sc.costly*costs {
						k = i
						break
					}
				}
			}
			p := waiting[k]
			gate.acquire(p.weight, k > 0)
			select {
			case jobs <- job{p.item, p.done, k > 0}:
				waiting = append(waiting[:k], waiting[k+1:]...)
				waitingWeight -= p.weight
			case <-ctx.Done():
				// Every slot queued gets a result, so that the collector
				// ends; p's room is given back, the others held none.
				p.done <- result[U]{err: ctx.Err(), early: k > 0}
				for i, w := range waiting {
					if i != k {
						w.done <- result[U]{err: ctx.Err(), unstarted: true}
					}
				}
				return
			}
		}
	}()
	var firstErr error
	for s := range queue {
		r := <-s.done
		switch {
		case firstErr != nil:
		case r.err != nil:
			firstErr = r.err
			cancel()
		default:
			if err := out(r.val); err != nil {
				firstErr = err
				cancel()
			}
		}
		if !r.unstarted {
			gate.release(s.weight, r.early)
		}
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if feedErr != nil {
		return feedErr
	}
	return ctx.Err()
}

// weightGate counts the items in flight (started, not yet handed to out)
// and what they weigh. Items started in their turn wait for room: the
// collector hands out every item before the earliest one not started, so
// those in flight leave. Items started early do not wait (they may hold
// room an earlier item needs) and are counted apart.
type weightGate struct {
	mu      sync.Mutex
	cond    *sync.Cond
	n       int  // items started in their turn in flight
	weight  int  // their weight
	early   int  // items started early in flight
	window  int  // the most items in flight in their turn
	free    int  // items always let in, whatever they weigh
	max     int  // the most weight past the first free items
	bounded bool // whether weight is bounded
}

// acquire waits until an item of weight w may start in its turn (early:
// starts it before its turn, at once).
func (g *weightGate) acquire(w int, early bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if early {
		g.early++
		return
	}
	for g.n >= g.window || g.bounded && g.n >= g.free && g.weight+w > g.max {
		g.cond.Wait()
	}
	g.n++
	g.weight += w
}

// earlyRoom reports whether fewer than maxEarly items started early are in
// flight.
func (g *weightGate) earlyRoom(maxEarly int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.early < maxEarly
}

// release takes an item of weight w out of flight.
func (g *weightGate) release(w int, early bool) {
	g.mu.Lock()
	if early {
		g.early--
	} else {
		g.n--
		g.weight -= w
	}
	g.mu.Unlock()
	g.cond.Signal()
}

type result[U any] struct {
	val       U
	err       error
	early     bool // the item was started before its turn
	unstarted bool // the item was not started (the work was cancelled)
}

// parallelFor calls f(i) for every i in [0, n) on all cores (GOMAXPROCS
// goroutines, each taking the next index), returning when every call has.
func parallelFor(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
}
