package similarity

import (
	"context"
	"errors"
	"iter"
	"sync/atomic"
	"testing"
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
