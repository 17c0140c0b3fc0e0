package extract

import (
	"hash/maphash"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/clipperhouse/uax29/v2/words"
)

// tokenized is a text cut into words.
type tokenized struct {
	// toks are the lower-cased, normalized words (see tokenize), in text
	// order; a run of letters of a script written without spaces (Chinese,
	// Japanese, Thai...) gives its overlapping character bigrams instead.
	toks []string
	// more are tokens that follow toks, for what reads a page as a whole
	// (language detection: see with).
	more []string
	// words counts the words: one per word of a spaced script, one per two
	// letters of an unspaced run (about the length of a Chinese or Japanese
	// word).
	words int
	// scripts counts the letters of each script.
	scripts [numScripts]int
	// sample is the text's beginning, at most trigramSample bytes, what
	// the trigram model of language detection reads.
	sample string
}

// tokenize cuts text into words at the word boundaries of Unicode's UAX #29
// (so "don't", "e-mail" and Persian words joined by a zero-width non-joiner
// come out as a reader sees them), then splits words at apostrophes (French
// and Italian elision: "l'opposition" gives "l" and "opposition"),
// lower-cases them, folds full-width forms, and strips Arabic and Hebrew
// vowel marks and the tatweel that stretches Arabic words, as Lucene's
// Arabic normalizer does. Runs of letters of unspaced scripts become
// overlapping character bigrams, as Lucene's CJK analyzer makes them (a run
// of one letter stays a unigram). Segments without a letter or digit
// (spaces, punctuation) are dropped; numbers are kept. max caps the tokens
// (0: no cap).
func tokenize(text string, max int) *tokenized {
	// About one token in five bytes of text: a word and a space, or a
	// bigram of an unspaced script (three bytes a letter).
	n := len(text)/5 + 1
	if max > 0 {
		n = min(n, max)
	}
	t := &tokenized{sample: prefix(text, trigramSample), toks: make([]string, 0, n)}
	var run unspacedRun
	seg := newSegmenter(text)
	for seg.next() && (max <= 0 || len(t.toks) < max) {
		w := seg.w
		if seg.letters >= 0 {
			// ASCII letters and digits: one word of Latin letters (or a
			// number), lower-cased as normalizeWord would.
			t.scripts[scriptLatin] += seg.letters
			run.flush(t, max)
			t.toks = append(t.toks, lower(w))
			t.words++
			continue
		}
		kind := segmentKind(w, &t.scripts)
		switch kind {
		case segSkip:
			continue
		case segUnspaced:
			run.add(w, max-len(t.toks))
			continue
		}
		run.flush(t, max)
		for part := range apostropheParts(w) {
			if tok := normalizeWord(part); tok != "" {
				t.toks = append(t.toks, tok)
			}
		}
		t.words++
	}
	run.flush(t, max)
	if max > 0 && len(t.toks) > max {
		t.toks = t.toks[:max]
	}
	return t
}

// segmenter cuts a text at the word boundaries of UAX #29, as the words
// package's iterator does, finding the commonest segments without it: an
// ASCII word (letters and digits) followed by a space or the end, which the
// iterator finds the same way, and a space followed by an ASCII byte other
// than a space or by the end (a segment of its own: no rule joins them),
// which it finds with its full rules. It asks the iterator for any other segment, from
// where the segment starts (the iterator restarts there too).
type segmenter struct {
	text    string
	pos     int
	w       string                  // the current segment
	letters int                     // its letters when it is ASCII letters and digits, else -1
	it      *words.Iterator[string] // made when first needed
}

func newSegmenter(text string) *segmenter {
	return &segmenter{text: text}
}

// next moves to the next segment (s.w); false at the end.
func (s *segmenter) next() bool {
	p, text := s.pos, s.text
	if p >= len(text) {
		return false
	}
	end, letters := p, 0
	switch c := text[p]; {
	case c == ' ':
		if p+1 == len(text) || text[p+1] != ' ' && text[p+1] < utf8.RuneSelf {
			end = p + 1
		}
	case isASCIIAlnum(c):
		e := p
		for ; e < len(text) && isASCIIAlnum(text[e]); e++ {
			if text[e] > '9' {
				letters++
			}
		}
		if e == len(text) || text[e] == ' ' {
			end = e
		}
	}
	s.letters = -1
	if end > p && text[p] != ' ' {
		s.letters = letters
	}
	if end == p {
		if s.it == nil {
			s.it = words.FromString("")
		}
		s.it.SetText(text[p:])
		s.it.Next()
		end = p + s.it.End()
	}
	s.w, s.pos = text[p:end], end
	return true
}

// isASCIIAlnum reports whether c is an ASCII letter or digit.
func isASCIIAlnum(c byte) bool {
	return c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '0' && c <= '9'
}

// unspacedRun is a run of letters of a script written without spaces
// between words, lower-cased, each with its vowel and tone marks.
type unspacedRun struct {
	b   []byte
	off []int // where each letter starts in b
	n   int   // the n-gram size of the run's script
}

// add adds the letters and marks of segment w, but no more letters than
// make room n-grams (when room > 0: the tokens a text may still give).
func (u *unspacedRun) add(w string, room int) {
	for i, r := range w {
		sc := scriptOf(r)
		switch {
		case sc != scriptNone: // a letter
			if len(u.off) == 0 {
				u.n = scriptInfo[sc].ngram
			} else if room > 0 && len(u.off) >= room+u.n {
				return
			}
			r = lowerRune(r)
			u.off = append(u.off, len(u.b))
			u.b = utf8.AppendRune(u.b, r)
		case len(u.off) > 0 && unicode.In(r, unicode.Mn, unicode.Mc):
			_, size := utf8.DecodeRuneInString(w[i:])
			u.b = append(u.b, w[i:i+size]...)
		}
	}
}

// flush adds the run's n-grams to t's tokens (the run itself when it is
// no longer than one; at most max tokens in all when max > 0) and its
// words, one per n letters, and empties it.
func (u *unspacedRun) flush(t *tokenized, max int) {
	k, n := len(u.off), u.n
	switch {
	case k == 0:
		return
	case k <= n:
		t.toks = append(t.toks, string(u.b))
	default:
		for i := 0; i+n <= k && (max <= 0 || len(t.toks) < max); i++ {
			end := len(u.b)
			if i+n < k {
				end = u.off[i+n]
			}
			t.toks = append(t.toks, string(u.b[u.off[i]:end]))
		}
	}
	t.words += (k + n - 1) / n
	u.b, u.off = u.b[:0], u.off[:0]
}

// with returns the tokens of t followed by those of u (as toks and more:
// not copied), for what reads a page as a whole (language detection); t
// and u have no more of their own.
func (t *tokenized) with(u *tokenized) *tokenized {
	if len(u.toks) == 0 {
		return t
	}
	w := &tokenized{toks: t.toks, more: u.toks, words: t.words + u.words,
		sample: prefix(t.sample+" "+u.sample, trigramSample)}
	for s := range w.scripts {
		w.scripts[s] = t.scripts[s] + u.scripts[s]
	}
	return w
}

// prefix returns at most n bytes of s, not cutting a rune in two.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Segment kinds.
const (
	segSkip     = iota // no letter or digit
	segWord            // a word of a spaced script, or a number
	segUnspaced        // letters of an unspaced script
)

// segmentKind says what a UAX #29 segment is, counting its letters by
// script.
func segmentKind(w string, scripts *[numScripts]int) int {
	kind := segSkip
	for i := 0; i < len(w); {
		if c := w[i]; c < utf8.RuneSelf { // ASCII: a Latin letter, a digit or neither
			i++
			if l := c | 0x20; 'a' <= l && l <= 'z' {
				scripts[scriptLatin]++
			} else if c < '0' || c > '9' {
				continue
			}
			if kind == segSkip {
				kind = segWord
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(w[i:])
		i += size
		s := scriptOf(r)
		if s == scriptNone {
			if kind == segSkip && unicode.IsDigit(r) {
				kind = segWord
			}
			continue
		}
		scripts[s]++
		if scriptInfo[s].unspced {
			kind = segUnspaced
		} else if kind == segSkip {
			kind = segWord
		}
	}
	return kind
}

// apostropheParts yields the parts of a word between apostrophes (ASCII,
// typographic and modifier-letter apostrophes).
func apostropheParts(w string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for {
			i, size := apostrophe(w)
			if i < 0 {
				yield(w)
				return
			}
			if !yield(w[:i]) {
				return
			}
			w = w[i+size:]
		}
	}
}

// apostrophe returns where the first apostrophe of w is (-1: none) and
// its size: ' (U+0027), U+2019 (E2 80 99) or U+02BC (CA BC).
func apostrophe(w string) (int, int) {
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case '\'':
			return i, 1
		case 0xE2:
			if i+2 < len(w) && w[i+1] == 0x80 && w[i+2] == 0x99 {
				return i, 3
			}
		case 0xCA:
			if i+1 < len(w) && w[i+1] == 0xBC {
				return i, 2
			}
		}
	}
	return -1, 0
}

// normalizeWord lower-cases a word and folds what readers do not tell apart
// (see tokenize); "" when nothing is left.
func normalizeWord(w string) string {
	ascii := true
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return lower(w)
	}
	// strings.ToLower, then foldRune, in one pass.
	return strings.Map(func(r rune) rune { return foldRune(lowerRune(r)) }, w)
}

// foldRune is normalizeWord's mapping of one rune of a lower-cased word: -1
// drops it.
func foldRune(r rune) rune {
	switch {
	case r < 0x0591:
		return r
	case r <= 0x05C7: // Hebrew points and cantillation
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
	case r >= 0x0610 && r <= 0x06FF:
		switch {
		case r == 0x0640, // tatweel
			r >= 0x064B && r <= 0x065F, r == 0x0670, // harakat, superscript alef
			r >= 0x0610 && r <= 0x061A, r >= 0x06D6 && r <= 0x06ED: // Quranic marks
			return -1
		}
	case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
		return unicode.ToLower(r - 0xFF01 + '!')
	}
	return r
}

// unifyArabicLetters unifies the Arabic letters that writers interchange
// (alef forms, teh marbuta and heh, alef maksura and the yeh forms, keheh and
// kaf), as Lucene's Arabic and Persian normalizers do. Terms applies it to
// words without a stemmer: Snowball's Arabic stemmer does this itself and
// needs the letters as written to find suffixes.
func unifyArabicLetters(w string) string {
	if !hasArabicLetter(w) {
		return w
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case 'آ', 'أ', 'إ', 'ٱ':
			return 'ا'
		case 'ة':
			return 'ه'
		case 'ى', 'ی':
			return 'ي'
		case 'ک':
			return 'ك'
		}
		return r
	}, w)
}

// foreignWord reports whether every character of word w (whose first is
// r) is a letter of a script other than s that the package knows, and its
// last letter is not its letter before doubled: a stemmer of a language of
// script s leaves such a word as it is (TestStemForeignWords). Its rules
// are suffixes and letters of its own alphabet, read in regions that begin
// after a vowel of it, but for the Finnish stemmer's last step, which drops
// the last of two equal letters that are not its vowels, whatever their
// script; and a letter of no script the package knows may be one a
// stemmer reads (the tatweel that stretches Arabic words is of none). A
// page's words of a script without a language of its own (Chinese in an
// English page) are its language's terms.
func foreignWord(w string, r rune, s script) bool {
	if sc := scriptOf(r); sc == scriptNone || sc == scriptOther || sc == s {
		return false
	}
	last, before := rune(-1), rune(-1)
	for _, r := range w {
		if sc := scriptOf(r); sc == scriptNone || sc == scriptOther || sc == s {
			return false
		}
		before, last = last, r
	}
	return last != before
}

// hasArabicLetter reports whether w holds a letter unifyArabicLetters may
// change.
func hasArabicLetter(w string) bool {
	return strings.ContainsFunc(w, func(r rune) bool { return r >= 0x0622 && r <= 0x06CC })
}

// lower lower-cases s, without allocating when it is already lower-case ASCII.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || (c >= 'A' && c <= 'Z') {
			return strings.ToLower(s)
		}
	}
	return s
}

// keepToken reports whether a token may become a term: not a pure number
// and longer than one letter, unless it is one letter of an unspaced script
// (a Chinese word of one character).
func keepToken(t string) bool {
	if len(t) > 1 && t[0]|0x20 >= 'a' && t[0]|0x20 <= 'z' {
		return true // the commonest: a word that starts with an ASCII letter
	}
	r, size := utf8.DecodeRuneInString(t)
	if size == len(t) {
		return unspaced(r)
	}
	for _, r := range t {
		if !unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// StemCache remembers the terms of words across documents (their stems,
// and which are stop words), so that a word is stemmed once per run
// rather than once per page. It is safe for concurrent use and bounded in
// bytes: past its size it stops learning new words (a language's common
// words come first, so it keeps the words that matter). It holds no
// pointer per word, so that the garbage collector does not scan it: the
// words and terms of each batch learned are one string (a chunk), and the
// table finds them by chunk and offset.
type StemCache struct {
	mu     sync.RWMutex
	seed   maphash.Seed
	slots  []uint64 // open addressing: 0 empty, else a stemSlot
	n      int      // words held
	chunks []string // records: language index, word length, term length (stemSame: the word itself), word, term
	bytes  int64    // of the chunks and the slots
	max    int64
}

// DefaultStemCacheBytes is the size of a StemCache asked for 0 bytes: some
// 300,000 words.
const DefaultStemCacheBytes = 8 << 20

// A slot holds the top 16 bits of a word's hash, the chunk its record is
// in (plus one) and the record's offset in the chunk.
const (
	stemOffsetBits = 24
	stemChunkBits  = 24
	stemSame       = 0xFF // a term length that says the term is the word
	stemMaxWord    = 0xFE // longer words are not remembered
)

// stemKey is a word of a language.
type stemKey struct {
	l    *language
	word string
}

// NewStemCache returns a cache of at most maxBytes bytes (0:
// DefaultStemCacheBytes).
func NewStemCache(maxBytes int64) *StemCache {
	if maxBytes <= 0 {
		maxBytes = DefaultStemCacheBytes
	}
	return &StemCache{seed: maphash.MakeSeed(), max: maxBytes}
}

// hash is the hash of word w of the language of index li.
func (c *StemCache) hash(li int, w string) uint64 {
	return maphash.String(c.seed, w) ^ uint64(li+1)*0x9E3779B97F4A7C15
}

// get returns the term of word w of the language of index li, if the cache
// holds it (the caller holds c.mu). The term is a part of a chunk.
func (c *StemCache) get(li int, w string) (string, bool) {
	if c.n == 0 || len(w) > stemMaxWord {
		return "", false
	}
	h := c.hash(li, w)
	return c.find(li, w, h, c.slots[h&uint64(len(c.slots)-1)])
}

// find is get for a word of hash h whose search starts at slot s (its
// first slot, read beforehand: termsOf reads the first slots of several
// words before it looks any up, so that the processor fetches them from
// memory together).
func (c *StemCache) find(li int, w string, h, s uint64) (string, bool) {
	tag := h >> 48
	mask := uint64(len(c.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		if s == 0 {
			return "", false
		}
		if s>>48 == tag {
			chunk := c.chunks[(s>>stemOffsetBits)&(1<<stemChunkBits-1)-1]
			at := int(s & (1<<stemOffsetBits - 1))
			if int(chunk[at]) == li && int(chunk[at+1]) == len(w) && chunk[at+3:at+3+len(w)] == w {
				word := chunk[at+3 : at+3+len(w)]
				if tl := int(chunk[at+2]); tl != stemSame {
					return chunk[at+3+len(w) : at+3+len(w)+tl], true
				}
				return word, true
			}
		}
		s = c.slots[(i+1)&mask]
	}
}

// put learns the terms of words (those it has room for), copied into one
// new chunk: a word of a page's text would keep the whole text.
func (c *StemCache) put(learned map[stemKey]string) {
	if len(learned) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.chunks)+1 >= 1<<stemChunkBits {
		return
	}
	var b strings.Builder
	type rec struct {
		h  uint64
		at int
	}
	recs := make([]rec, 0, len(learned))
	for k, t := range learned {
		li := k.l.index
		if len(k.word) > stemMaxWord || len(t) >= stemSame || li >= stemSame {
			continue
		}
		if _, ok := c.get(li, k.word); ok {
			continue
		}
		size := 3 + len(k.word)
		if t != k.word {
			size += len(t)
		}
		// What the table will take: its slots are doubled at three quarters full.
		grow := int64(0)
		if 4*(c.n+len(recs)+1) > 3*len(c.slots) {
			grow = 8 * int64(max(2*len(c.slots), 1024))
		}
		if c.bytes+int64(b.Len()+size)+grow > c.max || b.Len()+size > 1<<stemOffsetBits {
			break
		}
		recs = append(recs, rec{c.hash(li, k.word), b.Len()})
		tl := byte(len(t))
		if t == k.word {
			tl = stemSame
		}
		b.WriteByte(byte(li))
		b.WriteByte(byte(len(k.word)))
		b.WriteByte(tl)
		b.WriteString(k.word)
		if t != k.word {
			b.WriteString(t)
		}
	}
	if len(recs) == 0 {
		return
	}
	c.chunks = append(c.chunks, b.String())
	c.bytes += int64(b.Len())
	chunk := uint64(len(c.chunks))
	for _, r := range recs {
		if 4*(c.n+1) > 3*len(c.slots) {
			c.grow()
		}
		c.insert(r.h>>48<<48|chunk<<stemOffsetBits|uint64(r.at), r.h)
		c.n++
	}
}

// insert puts slot s of hash h into the table.
func (c *StemCache) insert(s, h uint64) {
	mask := uint64(len(c.slots) - 1)
	i := h & mask
	for c.slots[i] != 0 {
		i = (i + 1) & mask
	}
	c.slots[i] = s
}

// grow doubles the table (at least 1024 slots), its slots put anew.
func (c *StemCache) grow() {
	old := c.slots
	c.slots = make([]uint64, max(2*len(old), 1024))
	c.bytes += 8 * int64(len(c.slots)-len(old))
	for _, s := range old {
		if s == 0 {
			continue
		}
		chunk := c.chunks[(s>>stemOffsetBits)&(1<<stemChunkBits-1)-1]
		at := int(s & (1<<stemOffsetBits - 1))
		c.insert(s, c.hash(int(chunk[at]), chunk[at+3:at+3+int(chunk[at+1])]))
	}
}

// Terms turns text into index terms for the language code: the tokens of
// tokenize without pure numbers and one-letter tokens, without the
// language's stop words, Snowball-stemmed where the language has a stemmer.
// For a code the package does not know, tokens are only filtered for numbers
// and length. Terms keep text order.
func Terms(text, code string) []string {
	return termsOf(tokenize(text, 0).toks, code, nil)
}

// scriptLanguage is the language that reads the words of a script other
// than that of the document's language: the Arabic of an English page's
// Arabic menu is stemmed as Arabic, so that a bilingual site's captures
// have the same terms whichever of its languages detection named.
var scriptLanguage = map[script]string{
	scriptLatin: "en", scriptCyrillic: "ru", scriptArabic: "ar", scriptGreek: "el",
	scriptArmenian: "hy", scriptDevanagari: "hi",
}

// term returns the term of a word t of language l: "" for a stop word,
// else its Snowball stem (env, made when first needed, stems it), or,
// where l has no stemmer, the word with its Arabic letters unified.
func (l *language) term(t string, env **snowballstem.Env) string {
	if l.stop[t] {
		return ""
	}
	if l.stem == nil {
		return unifyArabicLetters(t)
	}
	if *env == nil {
		*env = snowballstem.NewEnv("")
	}
	(*env).SetCurrent(t)
	l.stem(*env)
	if s := (*env).Current(); s != "" {
		return s
	}
	return t
}

// termsOf is Terms over tokens from tokenize, read in the language code,
// words of another script in that script's language (scriptLanguage);
// cache, when not nil, holds the terms of words met in earlier documents
// (it is read under one lock for the whole document) and learns this
// one's. The cache is asked stemBatch words at a time (see
// StemCache.find).
func termsOf(toks []string, code string, cache *StemCache) []string {
	return appendTerms(make([]string, 0, len(toks)/2), toks, code, cache)
}

// appendTerms is termsOf appending to out.
func appendTerms(out, toks []string, code string, cache *StemCache) []string {
	base := languages[code]
	if base == nil {
		for _, t := range toks {
			if keepToken(t) {
				out = append(out, unifyArabicLetters(t))
			}
		}
		return out
	}
	var learned map[stemKey]string // this document's words the cache lacks
	var env *snowballstem.Env
	cached := cache != nil
	if cached {
		cache.mu.RLock()
		defer func() {
			cache.mu.RUnlock()
			cache.put(learned)
		}()
		cached = cache.n > 0
	}
	var langs [stemBatch]*language // nil: the token is not kept
	var asked [stemBatch]bool      // the cache is asked for it
	var plain [stemBatch]bool      // its term is itself (none if a stop word): no stemmer and no Arabic letter, or a foreignWord
	var hashes, slots [stemBatch]uint64
	for from := 0; from < len(toks); from += stemBatch {
		batch := toks[from:min(len(toks), from+stemBatch)]
		for i, t := range batch {
			langs[i], asked[i], plain[i] = nil, false, false
			if !keepToken(t) {
				continue
			}
			l := base
			r, _ := utf8.DecodeRuneInString(t)
			if sc := scriptOf(r); sc != scriptNone && sc != base.script {
				if alt := languages[scriptLanguage[sc]]; alt != nil {
					l = alt
				}
			}
			langs[i] = l
			if plain[i] = l.stem == nil && !hasArabicLetter(t) || foreignWord(t, r, l.script); plain[i] {
				continue
			}
			if asked[i] = cached && len(t) <= stemMaxWord; asked[i] {
				hashes[i] = cache.hash(l.index, t)
			}
		}
		if cached {
			// A tight loop of independent loads, which the processor
			// overlaps: the table is larger than the caches.
			mask := uint64(len(cache.slots) - 1)
			for i := range batch {
				if asked[i] {
					slots[i] = cache.slots[hashes[i]&mask]
				}
			}
		}
		for i, t := range batch {
			l := langs[i]
			if l == nil {
				continue
			}
			term, ok := "", false
			switch {
			case plain[i]:
				if !l.stop[t] {
					term = t
				}
				ok = true
			case asked[i]:
				term, ok = cache.find(l.index, t, hashes[i], slots[i])
			}
			if !ok {
				k := stemKey{l, t}
				if term, ok = learned[k]; !ok {
					term = l.term(t, &env)
					if learned == nil {
						learned = make(map[stemKey]string)
					}
					learned[k] = term
				}
			}
			if term != "" {
				out = append(out, term)
			}
		}
	}
	return out
}

// stemBatch is how many words termsOf asks the stem cache for at once.
const stemBatch = 16
