package similarity

import (
	"context"
	"errors"
	"iter"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func seqOf(n int, failAt int) iter.Seq2[int, error] {
	return func(yield func(int, error) bool) {
		for i := range n {
			if i == failAt {
				yield(0, errors.New("source broke"))
				return
			}
			if !yield(i, nil) {
				return
			}
		}
	}
}

func TestOrderedMap(t *testing.T) {
	tests := []struct {
		name     string
		n        int
		failAt   int
		fnFailAt int
		wantErr  bool
		wantLen  int
	}{
		{"keeps order", 500, -1, -1, false, 500},
		{"source error", 100, 40, -1, true, 40},
		{"worker error stops", 100, -1, 10, true, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []int
			err := orderedMap(context.Background(), 4, seqOf(tc.n, tc.failAt), func(_ context.Context, i int) (int, error) {
				if i == tc.fnFailAt {
					return 0, errors.New("worker broke")
				}
				return i * 2, nil
			}, func(v int) error { got = append(got, v); return nil })
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if len(got) != tc.wantLen {
				t.Fatalf("got %d results, want %d", len(got), tc.wantLen)
			}
			for i, v := range got {
				if v != 2*i {
					t.Fatalf("result %d = %d, out of order", i, v)
				}
			}
		})
	}
}

// TestOrderedMapWindow: while one worker holds the earliest item, the
// others go on through the window's worth of later items, and the results
// still come in order.
func TestOrderedMapWindow(t *testing.T) {
	const workers, window = 2, 8
	release := make(chan struct{})
	var ahead atomic.Int32
	done := make(chan error, 1)
	var got []int
	go func() {
		done <- orderedMapWindow(context.Background(), workers, window, seqOf(50, -1), func(_ context.Context, i int) (int, error) {
			if i == 0 {
				<-release
			} else {
				ahead.Add(1)
			}
			return i, nil
		}, func(v int) error { got = append(got, v); return nil })
	}()
	deadline := time.After(10 * time.Second)
	for ahead.Load() < window-1 {
		select {
		case <-deadline:
			t.Fatalf("%d items done past the held one, want %d", ahead.Load(), window-1)
		case <-time.After(time.Millisecond):
		}
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("result %d = %d, out of order", i, v)
		}
	}
	if len(got) != 50 {
		t.Fatalf("%d results, want 50", len(got))
	}
}

// TestParallelFor: every index is called once, whatever n.
func TestParallelFor(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		calls := make([]atomic.Int32, n)
		parallelFor(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Errorf("n=%d: index %d called %d times", n, i, c)
			}
		}
	}
}

// TestOrderedMapScheduledEarly: an item that costs far more than the
// others is started before its turn, while the other worker goes on in
// order, and the results still come in order. The items after the first
// two wait for the costly one to start (or give up after a while): in
// input order it would start after them.
func TestOrderedMapScheduledEarly(t *testing.T) {
	const n, costly = 40, 30
	sc := schedule[int]{cost: func(i int) int {
		if i == costly {
			return 1000
		}
		return 1
	}, ahead: 64, costly: 8, minCost: 100}
	started := make(chan struct{})
	var late atomic.Bool
	var got []int
	err := orderedMapScheduled(context.Background(), 2, 4, sc, seqOf(n, -1), func(_ context.Context, i int) (int, error) {
		switch {
		case i == costly:
			close(started)
		case i >= 2 && !late.Load():
			select {
			case <-started:
			case <-time.After(2 * time.Second):
				late.Store(true)
			}
		}
		return i, nil
	}, func(v int) error { got = append(got, v); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if late.Load() {
		t.Error("the costly item did not start before the items ahead of it")
	}
	if len(got) != n {
		t.Fatalf("%d results, want %d", len(got), n)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("result %d = %d, out of order", i, v)
		}
	}
}

// TestOrderedMapScheduledBounds: past the first 2*workers items, those in
// flight (started, not yet handed out) weigh at most maxWeight; an item
// started early is not held back by the bound, and none waits forever.
func TestOrderedMapScheduledBounds(t *testing.T) {
	tests := []struct {
		name   string
		weight func(int) int
		cost   func(int) int
		max    int
	}{
		{"weight bound", func(int) int { return 10 }, nil, 50},
		{"heavy items", func(i int) int { return 10 * (i%7 + 1) }, nil, 60},
		{"bound and costly items", func(int) int { return 10 }, func(i int) int {
			if i%13 == 12 {
				return 500
			}
			return 1
		}, 50},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			const workers = 2
			sc := schedule[int]{weight: tc.weight, maxWeight: tc.max, cost: tc.cost, ahead: 16, costly: 8, minCost: 100}
			var mu sync.Mutex
			inFlight := map[int]bool{}
			worst := 0
			var got []int
			err := orderedMapScheduled(context.Background(), workers, 100, sc, seqOf(200, -1), func(_ context.Context, i int) (int, error) {
				mu.Lock()
				defer mu.Unlock()
				inFlight[i] = true
				w := 0
				for k := range inFlight {
					if tc.cost == nil || tc.cost(k) < 100 {
						w += tc.weight(k)
					}
				}
				if len(inFlight) > 2*workers {
					worst = max(worst, w)
				}
				return i, nil
			}, func(v int) error {
				mu.Lock()
				delete(inFlight, v)
				mu.Unlock()
				got = append(got, v)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if worst > tc.max {
				t.Errorf("items in flight weighed %d, over the bound %d", worst, tc.max)
			}
			if !slices.Equal(got, slices.Collect(func(yield func(int) bool) {
				for i := range 200 {
					if !yield(i) {
						return
					}
				}
			})) {
				t.Errorf("results out of order or missing: %v", got)
			}
		})
	}
}

// TestOrderedMapScheduledCancel: an error from f stops the work even with
// items read ahead and one started early, and the call returns.
func TestOrderedMapScheduledCancel(t *testing.T) {
	sc := schedule[int]{weight: func(int) int { return 1 }, maxWeight: 4, cost: func(i int) int {
		if i == 20 {
			return 1000
		}
		return 1
	}, ahead: 32, costly: 8, minCost: 100}
	done := make(chan error, 1)
	go func() {
		done <- orderedMapScheduled(context.Background(), 2, 4, sc, seqOf(100, -1), func(_ context.Context, i int) (int, error) {
			if i == 5 {
				return 0, errors.New("worker broke")
			}
			return i, nil
		}, func(int) error { return nil })
	}()
	select {
	case err := <-done:
		if err == nil || err.Error() != "worker broke" {
			t.Fatalf("err = %v, want the worker's", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the work did not stop")
	}
}

// TestOrderedMapScheduledAheadWeight: the items read ahead weigh at most
// aheadWeight together (and one more), however far ahead may be read.
func TestOrderedMapScheduledAheadWeight(t *testing.T) {
	const workers, weight, aheadWeight = 2, 10, 50
	var pulled, started atomic.Int64
	in := func(yield func(int, error) bool) {
		for i := range 200 {
			pulled.Add(1)
			if !yield(i, nil) {
				return
			}
		}
	}
	sc := schedule[int]{weight: func(int) int { return weight }, maxWeight: 1000,
		cost: func(int) int { return 1 }, ahead: 100, aheadWeight: aheadWeight, costly: 8, minCost: 100}
	worst := int64(0)
	var mu sync.Mutex
	err := orderedMapScheduled(context.Background(), workers, 8, sc, in, func(_ context.Context, i int) (int, error) {
		s := started.Add(1)
		mu.Lock()
		worst = max(worst, pulled.Load()-s)
		mu.Unlock()
		time.Sleep(100 * time.Microsecond)
		return i, nil
	}, func(int) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	// Read and not started: what the bound lets wait, one more read
	// before the bound is checked, and the items handed to workers that
	// have not begun them.
	if limit := int64(aheadWeight/weight + 1 + workers); worst > limit {
		t.Errorf("%d items read ahead of those started, want at most %d", worst, limit)
	}
}
