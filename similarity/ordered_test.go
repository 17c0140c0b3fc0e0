package similarity

import (
	"context"
	"errors"
	"iter"
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
