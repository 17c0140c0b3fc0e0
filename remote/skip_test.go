package remote

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"testing"

	"github.com/offtopic/offtopic/timemap"
)

// listSource yields its TimeMaps and errors in order.
type listSource []any

func (l listSource) TimeMaps(ctx context.Context) iter.Seq2[*timemap.TimeMap, error] {
	return func(yield func(*timemap.TimeMap, error) bool) {
		for _, x := range l {
			var ok bool
			switch v := x.(type) {
			case error:
				if ctx.Err() != nil {
					v = ctx.Err()
				}
				ok = yield(nil, v)
			default:
				ok = yield(x.(*timemap.TimeMap), nil)
			}
			if !ok {
				return
			}
		}
	}
}

func TestSkipFailed(t *testing.T) {
	a, b := &timemap.TimeMap{Key: "a"}, &timemap.TimeMap{Key: "b"}
	notArchived := fmt.Errorf("http://x/: %w", ErrNotArchived)
	broken := errors.New("connection reset")
	tests := []struct {
		name     string
		src      listSource
		cancel   bool
		wantKeys string
		wantErrs int
		wantEnd  bool // the sequence ends with an error
	}{
		{"errors skipped", listSource{a, notArchived, broken, b}, false, "ab", 2, false},
		{"nothing fails", listSource{a, b}, false, "ab", 0, false},
		{"cancelled: the error ends it", listSource{a, broken, b}, true, "a", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var errs []error
			keys, ended := "", false
			for tm, err := range SkipFailed(tt.src, func(err error) { errs = append(errs, err) }).TimeMaps(ctx) {
				if err != nil {
					ended = true
					break
				}
				keys += tm.Key
				if tt.cancel {
					cancel()
				}
			}
			if keys != tt.wantKeys || len(errs) != tt.wantErrs || ended != tt.wantEnd {
				t.Errorf("keys %q, %d errors, ended %v; want %q, %d, %v", keys, len(errs), ended, tt.wantKeys, tt.wantErrs, tt.wantEnd)
			}
			if tt.wantErrs == 2 && (!errors.Is(errs[0], ErrNotArchived) || errors.Is(errs[1], ErrNotArchived)) {
				t.Errorf("errors %v: want the not-archived one first, as given", errs)
			}
		})
	}
}
