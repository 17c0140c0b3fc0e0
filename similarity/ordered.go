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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type job struct {
		seq  int
		item T
		done chan result[U]
	}
	jobs := make(chan job)
	queue := make(chan chan result[U], max(window, workers))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				u, err := f(ctx, j.item)
				j.done <- result[U]{u, err}
			}
		}()
	}
	var feedErr error
	go func() {
		defer close(queue)
		defer close(jobs)
		seq := 0
		for item, err := range in {
			if err != nil {
				feedErr = err
				return
			}
			done := make(chan result[U], 1)
			select {
			case queue <- done:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- job{seq, item, done}:
			case <-ctx.Done():
				done <- result[U]{err: ctx.Err()}
				return
			}
			seq++
		}
	}()
	var firstErr error
	for done := range queue {
		r := <-done
		if firstErr != nil {
			continue
		}
		if r.err != nil {
			firstErr = r.err
			cancel()
			continue
		}
		if err := out(r.val); err != nil {
			firstErr = err
			cancel()
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

type result[U any] struct {
	val U
	err error
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
