package extract

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"reflect"
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

// TestStemForeignWords: a stemmer leaves a word that foreignWord finds
// foreign as it is: every letter of other scripts of the Basic
// Multilingual Plane alone, and words of them, their letters often
// repeated (the Finnish stemmer drops the last of two equal letters of any
// script: foreignWord leaves such words to the stemmer).
func TestStemForeignWords(t *testing.T) {
	var letters []rune
	for r := rune(0); r < 0x10000; r++ {
		if sc := scriptOf(r); sc != scriptNone && sc != scriptOther {
			letters = append(letters, r)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, code := range languageOrder {
		l := languages[code]
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
		check := func(w []rune) {
			doubled := len(w) > 1 && w[len(w)-1] == w[len(w)-2]
			if got := foreignWord(string(w), w[0], l.script); got == doubled {
				t.Fatalf("%s: foreignWord(%q) = %v", code, string(w), got)
			}
			if doubled {
				return
			}
			if got := l.term(string(w), &env); got != string(w) && !l.stop[string(w)] {
				t.Fatalf("%s: the term of %q is %q", code, string(w), got)
			}
		}
		for _, r := range foreign {
			check([]rune{r})
		}
		for range 20000 {
			w := make([]rune, 2+rng.IntN(6))
			for i := range w {
				w[i] = foreign[rng.IntN(len(foreign))]
				if i > 0 && rng.IntN(3) == 0 {
					w[i] = w[rng.IntN(i)] // a letter again
				}
			}
			check(w)
		}
	}
	if foreignWord("中文abc", '中', scriptLatin) || foreignWord("中1", '中', scriptLatin) || foreignWord("فـ", 'ف', scriptLatin) ||
		foreignWord("中文文", '中', scriptLatin) || !foreignWord("中文", '中', scriptLatin) || !foreignWord("文中文", '文', scriptLatin) {
		t.Error("foreignWord: a word with a letter of the script, a character of no script known or a doubled last letter is not foreign")
	}
}

// TestReaderPool: pages read with a ReaderPool shared by goroutines, past
// the class names a reader remembers, read as they do without one.
func TestReaderPool(t *testing.T) {
	var pages []string
	for i := range 60 {
		var b strings.Builder
		b.WriteString("<html><body>")
		for j := range 200 {
			// Some names repeat across pages, some are each page's own.
			fmt.Fprintf(&b, `<div class="c%d %s"><p id="x%d-%d">words %d of page %d</p></div>`, j%50,
				[]string{"main-nav", "content", "site_footer", "navy", "sideBar", "story"}[(i+j)%6], i, j, j, i)
		}
		b.WriteString("</body></html>")
		pages = append(pages, b.String())
	}
	opts := Options{TextOnly: true}
	shared := opts
	shared.Readers = NewReaderPool()
	h := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	for round := range 3 {
		var wg sync.WaitGroup
		for i, page := range pages {
			wg.Go(func() {
				want, err := Extract(h, []byte(page), opts)
				if err != nil {
					t.Error(err)
					return
				}
				got, err := Extract(h, []byte(page), shared)
				if err != nil {
					t.Error(err)
					return
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("round %d page %d: read otherwise with a ReaderPool", round, i)
				}
			})
		}
		wg.Wait()
	}
}

// TestReaderPoolReal: real pages of every kind (framesets, apps, pages the
// stream hands to the parser, pages of other charsets), read one after the
// other by the readers of one pool, read as each does alone.
func TestReaderPoolReal(t *testing.T) {
	opts := Options{TextOnly: true}
	shared := opts
	shared.Readers = NewReaderPool()
	for _, name := range []string{"real-1068", "dev"} {
		recs := loadCollection(t, name)
		var wg sync.WaitGroup
		for w := range 2 {
			wg.Go(func() {
				for i := w; i < len(recs); i += 2 {
					r := recs[i]
					want, err := Extract(r.header, r.body, opts)
					got, err2 := Extract(r.header, r.body, shared)
					if (err == nil) != (err2 == nil) || !reflect.DeepEqual(got, want) {
						t.Errorf("%s %s: read otherwise with a ReaderPool", name, r.uri)
						return
					}
				}
			})
		}
		wg.Wait()
	}
}
