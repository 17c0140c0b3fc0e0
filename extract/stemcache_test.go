package extract

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/blevesearch/snowballstem"
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

// TestStemForeignWords: a stemmer leaves a word of letters of other
// scripts as it is (what foreignWord lets appendTerms rely on): every such
// letter of the Basic Multilingual Plane alone, and words of them.
func TestStemForeignWords(t *testing.T) {
	var letters []rune
	for r := rune(0); r < 0x10000; r++ {
		if sc := scriptOf(r); sc != scriptNone && sc != scriptOther {
			letters = append(letters, r)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for code, l := range languages {
		if l.stem == nil {
			continue
		}
		var foreign []rune
		for _, r := range letters {
			if scriptOf(r) != l.script {
				foreign = append(foreign, r)
			}
		}
		var env *snowballstem.Env
		check := func(w string) {
			if !foreignWord(w, []rune(w)[0], l.script) {
				t.Fatalf("%s: foreignWord(%q) = false", code, w)
			}
			if got := l.term(w, &env); got != w && !l.stop[w] {
				t.Fatalf("%s: the term of %q is %q", code, w, got)
			}
		}
		for _, r := range foreign {
			check(string(r))
		}
		for range 5000 {
			w := make([]rune, 2+rng.IntN(6))
			for i := range w {
				w[i] = foreign[rng.IntN(len(foreign))]
			}
			check(string(w))
		}
	}
	if foreignWord("中文abc", '中', scriptLatin) || foreignWord("中1", '中', scriptLatin) || foreignWord("فـ", 'ف', scriptLatin) ||
		!foreignWord("中文", '中', scriptLatin) {
		t.Error("foreignWord: a word with a letter of the script, or a character of no script known, is not foreign")
	}
}
