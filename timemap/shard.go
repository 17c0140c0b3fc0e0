package timemap

import (
	"context"
	"fmt"
	"hash/fnv"
	"iter"
	"strconv"
	"strings"
)

// Shard is one of n parts of a run, split by a hash of the SURT key so that
// every TimeMap falls in exactly one part (for Kubernetes indexed Jobs, GNU
// parallel and the like).
type Shard struct {
	I, N int
}

// ParseShard reads "i/n" (0 <= i < n).
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 0 <= i < n", s)
	}
	return Shard{i, n}, nil
}

// Has reports whether the TimeMap of key belongs to this shard.
func (s Shard) Has(key string) bool {
	if s.N <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()%uint64(s.N) == uint64(s.I)
}

// Select keeps the TimeMaps of src that belong to the shard.
func (s Shard) Select(src Source) Source { return FilterKeys(src, s.Has) }

// FilterKeys is src without the TimeMaps whose keys keep rejects; errors pass.
func FilterKeys(src Source, keep func(key string) bool) Source {
	return keyFilter{src, keep}
}

type keyFilter struct {
	src  Source
	keep func(string) bool
}

func (f keyFilter) TimeMaps(ctx context.Context) iter.Seq2[*TimeMap, error] {
	return func(yield func(*TimeMap, error) bool) {
		for tm, err := range f.src.TimeMaps(ctx) {
			if err == nil && !f.keep(tm.Key) {
				continue
			}
			if !yield(tm, err) {
				return
			}
		}
	}
}
