package similarity

import (
	"hash/maphash"
	"strings"
)

// frozenCounts is a read-only table from terms to counts, made once from a
// map: the terms are one string and the rest slices of numbers, so that the
// garbage collector has nothing in it to trace (a model's document
// frequencies hold a collection's whole vocabulary, hundreds of thousands
// of terms, and live through the second pass, traced at every collection:
// a tenth of detect's CPU on a multilingual collection), and it takes
// about half the memory of the map.
type frozenCounts struct {
	seed  maphash.Seed
	slots []uint32 // open addressing: 0 empty, else 1 + an entry's index; a power of two long
	terms string   // every term, one after another
	ends  []uint64 // entry i's term ends at ends[i] in terms, and starts where entry i-1's ends
	n     []int
}

// freezeCounts returns m as a frozenCounts.
func freezeCounts(m map[string]int) *frozenCounts {
	f := &frozenCounts{seed: maphash.MakeSeed(), ends: make([]uint64, 0, len(m)), n: make([]int, 0, len(m))}
	size := 1
	for size < 2*len(m) {
		size <<= 1
	}
	f.slots = make([]uint32, size)
	total := 0
	for t := range m {
		total += len(t)
	}
	var b strings.Builder
	b.Grow(total)
	for t, n := range m {
		b.WriteString(t)
		f.ends = append(f.ends, uint64(b.Len()))
		f.n = append(f.n, n)
	}
	f.terms = b.String()
	mask := uint64(size - 1)
	for i := range f.ends {
		j := maphash.String(f.seed, f.term(i)) & mask
		for f.slots[j] != 0 {
			j = (j + 1) & mask
		}
		f.slots[j] = uint32(i + 1)
	}
	return f
}

// term is entry i's term.
func (f *frozenCounts) term(i int) string {
	start := uint64(0)
	if i > 0 {
		start = f.ends[i-1]
	}
	return f.terms[start:f.ends[i]]
}

// get returns the count of t, 0 when the table does not hold it.
func (f *frozenCounts) get(t string) int {
	mask := uint64(len(f.slots) - 1)
	for j := maphash.String(f.seed, t) & mask; ; j = (j + 1) & mask {
		s := f.slots[j]
		if s == 0 {
			return 0
		}
		if f.term(int(s-1)) == t {
			return f.n[s-1]
		}
	}
}
