package extract

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The terms read through a StemCache, of any size, shared by goroutines,
// are those read without one; the cache stays within its bytes.
func TestStemCache(t *testing.T) {
	var texts []string
	for i := range 40 {
		var b strings.Builder
		for j := range 400 {
			fmt.Fprintf(&b, "the running runners ran quickly %s word%dx%d café Москва бегущий ", strings.Repeat("z", (i*j)%300), i%7, j)
		}
		b.WriteString("مكتبة المدرسة والكتاب")
		texts = append(texts, b.String())
	}
	for _, size := range []int64{1, 4 << 10, 64 << 10, 0} {
		c := NewStemCache(size)
		for round := range 2 {
			var wg sync.WaitGroup
			for i, text := range texts {
				wg.Go(func() {
					code := []string{"en", "ru", "fr", "xx"}[i%4]
					toks := tokenize(text, 0).toks
					want := termsOf(toks, code, nil)
					if got := termsOf(toks, code, c); !slices.Equal(got, want) {
						t.Errorf("size %d round %d text %d: terms differ with the cache", size, round, i)
					}
				})
			}
			wg.Wait()
		}
		limit := size
		if limit == 0 {
			limit = DefaultStemCacheBytes
		}
		if c.bytes > limit {
			t.Errorf("size %d: the cache holds %d bytes", size, c.bytes)
		}
		if size == 0 && c.n < 1000 {
			t.Errorf("the default cache holds %d words", c.n)
		}
	}
}
