package similarity

import (
	"fmt"
	"testing"
)

// TestFrozenCounts: a frozen table gives every term of its map its count,
// and 0 for terms it does not hold, whatever its size.
func TestFrozenCounts(t *testing.T) {
	for _, size := range []int{0, 1, 2, 7, 1000} {
		m := map[string]int{}
		for i := range size {
			m[fmt.Sprintf("term%d", i*7919)] = i + 1
		}
		if size == 7 {
			m[""] = 42 // the empty term is a term like another
			m["ünïcödé"] = 3
		}
		f := freezeCounts(m)
		if len(f.n) != len(m) {
			t.Fatalf("size %d: %d terms frozen, want %d", size, len(f.n), len(m))
		}
		for k, v := range m {
			if got := f.get(k); got != v {
				t.Errorf("size %d: get(%q) = %d, want %d", size, k, got, v)
			}
		}
		for _, k := range []string{"term1", "absent", "term00", "terM0"} {
			if _, ok := m[k]; !ok && f.get(k) != 0 {
				t.Errorf("size %d: get(%q) = %d for a term not held", size, k, f.get(k))
			}
		}
	}
}
