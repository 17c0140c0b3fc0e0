package extract

import (
	"unicode"
	"unicode/utf8"
)

// script is a writing system as the tokenizer and language detection need to
// tell them apart.
type script uint8

// Scripts. The order is only that of scriptInfo.
const (
	scriptNone script = iota // digits, symbols, punctuation
	scriptLatin
	scriptCyrillic
	scriptArabic
	scriptDevanagari
	scriptHebrew
	scriptGreek
	scriptArmenian
	scriptGeorgian
	scriptHangul
	scriptKana // Hiragana and Katakana
	scriptHan
	scriptThai
	scriptLao
	scriptKhmer
	scriptMyanmar
	scriptEthiopic
	scriptBengali
	scriptGurmukhi
	scriptGujarati
	scriptOriya
	scriptTamil
	scriptTelugu
	scriptKannada
	scriptMalayalam
	scriptSinhala
	scriptTibetan
	scriptThaana
	scriptOther // a letter of any other script
	numScripts
)

// scriptInfo says, for each script, its Unicode table, the language a text
// in it is written in when the script is used by one language (or by one
// far more than by any other), and whether its words are written without
// spaces between them: then the tokenizer makes overlapping character
// n-grams of ngram letters (with their vowel and tone marks), bigrams for
// Chinese and Japanese as Lucene's CJK analyzer does, trigrams for the
// scripts of South-East Asia, whose words are longer and whose few dozen
// letters make bigrams that any two texts share.
var scriptInfo = [numScripts]struct {
	table   *unicode.RangeTable
	lang    string
	unspced bool
	ngram   int
}{
	scriptLatin:      {table: unicode.Latin},
	scriptCyrillic:   {table: unicode.Cyrillic},
	scriptArabic:     {table: unicode.Arabic},
	scriptDevanagari: {table: unicode.Devanagari},
	scriptHebrew:     {table: unicode.Hebrew, lang: "he"},
	scriptGreek:      {table: unicode.Greek, lang: "el"},
	scriptArmenian:   {table: unicode.Armenian, lang: "hy"},
	scriptGeorgian:   {table: unicode.Georgian, lang: "ka"},
	scriptHangul:     {table: unicode.Hangul, lang: "ko"},
	scriptKana:       {lang: "ja", unspced: true, ngram: 2},
	scriptHan:        {table: unicode.Han, lang: "zh", unspced: true, ngram: 2},
	scriptThai:       {table: unicode.Thai, lang: "th", unspced: true, ngram: 3},
	scriptLao:        {table: unicode.Lao, lang: "lo", unspced: true, ngram: 3},
	scriptKhmer:      {table: unicode.Khmer, lang: "km", unspced: true, ngram: 3},
	scriptMyanmar:    {table: unicode.Myanmar, lang: "my", unspced: true, ngram: 3},
	scriptEthiopic:   {table: unicode.Ethiopic, lang: "am"},
	scriptBengali:    {table: unicode.Bengali, lang: "bn"},
	scriptGurmukhi:   {table: unicode.Gurmukhi, lang: "pa"},
	scriptGujarati:   {table: unicode.Gujarati, lang: "gu"},
	scriptOriya:      {table: unicode.Oriya, lang: "or"},
	scriptTamil:      {table: unicode.Tamil, lang: "ta"},
	scriptTelugu:     {table: unicode.Telugu, lang: "te"},
	scriptKannada:    {table: unicode.Kannada, lang: "kn"},
	scriptMalayalam:  {table: unicode.Malayalam, lang: "ml"},
	scriptSinhala:    {table: unicode.Sinhala, lang: "si"},
	scriptTibetan:    {table: unicode.Tibetan, lang: "bo"},
	scriptThaana:     {table: unicode.Thaana, lang: "dv"},
}

// bmpScripts holds scriptOf for every rune of the Basic Multilingual Plane,
// computed once: a page of Chinese looks up thousands of letters.
// It is filled from the range tables, not by a search of them for each of
// the 65,536 runes: letters first, then each script's letters, the scripts
// lookupScript tries first written last, Kana over all.
var bmpScripts = func() *[0x10000]script {
	var t [0x10000]script
	each := func(tab *unicode.RangeTable, f func(r rune)) {
		for _, g := range tab.R16 {
			for r := rune(g.Lo); r <= rune(g.Hi); r += rune(g.Stride) {
				f(r)
			}
		}
	}
	each(unicode.Letter, func(r rune) { t[r] = scriptOther })
	for s := scriptOther - 1; s >= scriptLatin; s-- {
		if tab := scriptInfo[s].table; tab != nil {
			each(tab, func(r rune) {
				if t[r] != scriptNone {
					t[r] = s
				}
			})
		}
	}
	kana := func(r rune) {
		if t[r] != scriptNone {
			t[r] = scriptKana
		}
	}
	each(unicode.Hiragana, kana)
	each(unicode.Katakana, kana)
	kana('ー')
	for r := range rune(utf8.RuneSelf) {
		t[r] = lookupScript(r)
	}
	return &t
}()

// scriptOf returns the script of a letter, scriptNone for anything else
// (digits, punctuation, symbols and combining marks).
func scriptOf(r rune) script {
	if r < 0x10000 {
		return bmpScripts[r]
	}
	return lookupScript(r)
}

func lookupScript(r rune) script {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return scriptLatin
		}
		return scriptNone
	}
	if !unicode.IsLetter(r) {
		return scriptNone
	}
	if unicode.In(r, unicode.Hiragana, unicode.Katakana) || r == 'ー' {
		return scriptKana
	}
	for s := scriptLatin; s < scriptOther; s++ {
		if t := scriptInfo[s].table; t != nil && unicode.Is(t, r) {
			return s
		}
	}
	return scriptOther
}

// unspaced reports whether r is a letter of a script written without spaces
// between words.
func unspaced(r rune) bool {
	return r >= 0x0E00 && scriptInfo[scriptOf(r)].unspced
}

// caseless are the scripts whose letters have no case: lowerRune leaves
// them as they are without unicode.ToLower's search of the case tables.
var caseless = func() (c [numScripts]bool) {
	for _, s := range []script{scriptArabic, scriptDevanagari, scriptHebrew, scriptHangul, scriptKana, scriptHan,
		scriptThai, scriptLao, scriptKhmer, scriptMyanmar, scriptEthiopic, scriptBengali, scriptGurmukhi, scriptGujarati,
		scriptOriya, scriptTamil, scriptTelugu, scriptKannada, scriptMalayalam, scriptSinhala, scriptTibetan, scriptThaana} {
		c[s] = true
	}
	return c
}()

// lowerRune is unicode.ToLower, quicker on the letters of scripts without
// case.
func lowerRune(r rune) rune {
	if r < 0x10000 && caseless[bmpScripts[r]] {
		return r
	}
	return unicode.ToLower(r)
}
