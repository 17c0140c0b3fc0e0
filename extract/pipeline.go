package extract

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"mime"
	"net/http"
	"strings"

	readability "codeberg.org/readeck/go-readability/v2"
	"golang.org/x/net/html"
)

// Extract turns an archived HTTP response (its header and raw body, as
// recorded) into a Document.
//
// It decodes the body (see Decode), then by media type: HTML (text/html,
// XHTML, or HTML sniffed when the type is missing, generic or text/plain) is
// decoded to UTF-8 (charset from the HTTP header, else <meta>, else
// sniffing), parsed once, and its main text taken from readability's
// article, or from the visible body text without site chrome when the
// article is too short (see Options.MinMainWords); with TextOnly (and
// without Readability) the page is read in one pass of the tokenizer as
// the parser would build it, without the tree, unless it needs the tree
// (a tenth of real pages: see streamPage); text/plain is taken as is;
// anything else yields Extractor "none" and no text. What replay shows
// of an HTML page is read in the same pass: a thin page's text gains what
// scripts render from the data it embeds (Document.Embedded), and the
// Document says where a client-side redirect and the page's frames lead
// and whether the page is a JavaScript application's empty shell.
//
// Extract never fails on bad input: the returned Document is always usable.
// A non-nil error reports what was lenient about it and wraps the cause: a
// payload cut at Options.MaxBytes (ErrTooLarge, Document.TextCut), a
// compressed stream or chunks that end early (ErrPartial,
// Document.Partial), a content coding that could not be undone
// (ErrUnreadable: the Document is made of bytes that are not the page).
func Extract(h http.Header, body []byte, opts Options) (*Document, error) {
	opts = opts.withDefaults()
	if h == nil {
		h = http.Header{}
	}
	payload, decErr := Decode(h, body, opts.MaxBytes)
	doc := &Document{ByteCount: len(payload), Extractor: ExtractorNone, TextCut: errors.Is(decErr, ErrTooLarge)}
	if errors.Is(decErr, ErrPartial) {
		doc.Partial = partialWhy(decErr)
	}
	ct := h.Get("Content-Type")
	doc.MediaType = mediaType(ct, payload)
	switch doc.MediaType {
	case "text/html":
		extractHTML(doc, payload, ct, opts)
	case "text/plain":
		text, cs, from := toUTF8(payload, ct, false)
		doc.Charset, doc.CharsetFrom = cs, from
		words, _ := collapseSpace(string(text), opts.MaxWords)
		doc.Extractor = ExtractorPlain
		finish(doc, words, nil, "", "", opts)
	}
	if opts.TextOnly {
		return doc, decErr
	}
	if doc.PublishedFrom == "" && opts.BaseURL != "" {
		if t, ok := DateFromURL(opts.BaseURL); ok {
			doc.Published, doc.PublishedFrom = t, PublishedFromURL
		}
	}
	if doc.PublishedFrom == "" {
		if t, ok := LastModified(h); ok {
			doc.Published, doc.PublishedFrom = t, PublishedFromLastModified
		}
	}
	return doc, decErr
}

// partialWhy is what a Decode error wrapping ErrPartial says of the part:
// its message, without the package's prefix.
func partialWhy(err error) string {
	for _, e := range flatten(err) {
		if errors.Is(e, ErrPartial) {
			return strings.TrimPrefix(e.Error(), "extract: ")
		}
	}
	return ErrPartial.Error()
}

// flatten lists the errors errors.Join put together (err itself otherwise).
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// mediaType decides how a payload is handled: "text/html", "text/plain", or
// its declared media type (lower-cased, without parameters) for anything
// else. HTML is sniffed when the declared type is missing, unparseable,
// generic (application/octet-stream, unknown), XML or text/plain.
func mediaType(ct string, payload []byte) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(strings.SplitN(ct, ";", 2)[0]))
	}
	switch mt {
	case "text/html", "application/xhtml+xml":
		return "text/html"
	case "", "application/octet-stream", "unknown/unknown", "application/unknown", "*/*",
		"text/plain", "text/xml", "application/xml", "binary/octet-stream":
		sniffed := http.DetectContentType(payload)
		switch {
		case strings.HasPrefix(sniffed, "text/html"):
			return "text/html"
		case strings.HasPrefix(sniffed, "text/plain") && (mt == "" || mt == "text/plain"):
			return "text/plain"
		}
	}
	if mt == "" {
		return "application/octet-stream"
	}
	return mt
}

// extractHTML fills doc from an HTML payload.
func extractHTML(doc *Document, payload []byte, ct string, opts Options) {
	text, cs, from := toUTF8(payload, ct, true)
	doc.Charset, doc.CharsetFrom = cs, from
	text = shownComments(text)
	doc.Extractor = ExtractorBody
	// A page of more tags than MaxElements is read only up to there, so
	// that what a worker holds is bounded whatever the payload.
	text = cutAtElements(text, opts.MaxElements)
	// The reader goes back to the pool when this returns: what doc keeps of
	// the page is copied out of it.
	r := opts.Readers.get(opts.MaxWords)
	defer opts.Readers.put(r)
	if opts.TextOnly && !opts.Readability {
		// Detection reads the page as the parser would build it, without
		// the tree, unless the page needs it.
		if streamPage(text, r) {
			page := r.finish()
			doc.Title = page.title
			words, toks := page.replay.apply(doc, page.content, page.fields, tokenize(page.content, opts.MaxWords), page.chrome, opts)
			finish(doc, words, toks, page.chrome, page.lang, opts)
			return
		}
	}
	// The tree is what costs memory (a few hundred bytes a node).
	root, err := html.Parse(bytes.NewReader(text))
	if err != nil || root == nil {
		finish(doc, "", nil, "", "", opts)
		return
	}
	r.reuse(opts.MaxWords) // the stream may have read part of the page
	readTree(root, r)
	page := r.finish()
	doc.Title = page.title
	words, toks := page.replay.apply(doc, page.content, page.fields, tokenize(page.content, opts.MaxWords), page.chrome, opts)
	chrome := page.chrome
	if opts.TextOnly && !opts.Readability {
		finish(doc, words, toks, chrome, page.lang, opts)
		return
	}
	info := inspectAndPrune(root, !opts.TextOnly)
	if !opts.TextOnly {
		doc.Published, doc.PublishedFrom = info.scan.published(opts.BaseURL, root)
		doc.Links = info.scan.links(opts.BaseURL, opts.MaxLinks)
	}
	// Readability reads the visible page; an article it finds there is
	// what replay shows rather than what a thin page embeds.
	if opts.Readability && info.elements <= opts.MaxElements && info.depth <= opts.MaxDepth {
		if _, n := collapseSpace(page.content+" "+chrome, 0); n >= opts.MinMainWords {
			need := max(opts.MinMainWords, int(math.Ceil(opts.MinMainShare*float64(n))))
			if main, mn, err := readabilityWords(root, opts.MaxWords); err == nil && mn >= need {
				words, toks, chrome = main, nil, ""
				doc.Extractor, doc.Embedded = ExtractorReadability, ""
			}
		}
	}
	finish(doc, words, toks, chrome, page.lang, opts)
}

// readabilityWords runs go-readability (readeck's maintained fork) on the
// parsed (and pruned) page and returns the visible text of the article it
// finds (collapsed, see pageWords) and its word count. It works on root
// itself, which saves cloning every page, so it runs after everything else
// that reads the tree.
func readabilityWords(root *html.Node, maxWords int) (words string, n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			words, n, err = "", 0, fmt.Errorf("extract: readability panicked: %v", r)
		}
	}()
	p := readability.NewParser()
	art, err := p.ParseAndMutate(root, nil)
	if err != nil {
		return "", 0, err
	}
	if art.Node == nil {
		return "", 0, fmt.Errorf("extract: readability found no article")
	}
	words, n, _ = pageWords(art.Node, maxWords)
	return words, n, nil
}

// finish sets Text, Chrome, the word counts, Lang, Terms and TermsLang from
// the collapsed content and chrome words (toks: the content's tokens when
// already made, else nil). The language is that of the whole page.
func finish(doc *Document, words string, toks *tokenized, chrome string, langHint string, opts Options) {
	doc.Text, doc.Chrome = words, chrome
	doc.Copyright = max(copyrightYear(words), copyrightYear(chrome))
	if toks == nil {
		toks = tokenize(words, opts.MaxWords)
	}
	ctoks := tokenize(chrome, opts.MaxWords)
	doc.ContentWords = toks.words
	doc.WordCount = toks.words + ctoks.words
	whole := toks.with(ctoks)
	ev := whole.evidence()
	doc.Lang = ev.lang(whole, langHint)
	doc.Langs = ev.shares(doc.Lang)
	tl := doc.Lang
	if tl == "" {
		tl = primaryTag(langHint)
	}
	if languages[tl] == nil {
		tl = opts.DefaultLang
	}
	if languages[tl] == nil {
		tl = ""
	}
	doc.TermsLang = tl
	// One slice for both, as long as the tokens (stop words and numbers
	// make terms fewer).
	doc.Terms = appendTerms(make([]string, 0, len(toks.toks)+len(ctoks.toks)), toks.toks, tl, opts.Stems)
	doc.ContentTerms = len(doc.Terms)
	doc.Terms = appendTerms(doc.Terms, ctoks.toks, tl, opts.Stems)
}

// cutAtElements returns the prefix of an HTML text that holds at most max
// start tags ("<" followed by a letter).
func cutAtElements(text []byte, max int) []byte {
	if len(text) <= 2*max {
		return text // a start tag takes two bytes at least
	}
	n := 0
	for i := 0; i < len(text)-1; i++ {
		if text[i] != '<' {
			j := bytes.IndexByte(text[i:], '<')
			if j < 0 {
				return text
			}
			i += j - 1
			continue
		}
		if c := text[i+1] | 0x20; c >= 'a' && c <= 'z' {
			if n++; n > max {
				return text[:i]
			}
		}
	}
	return text
}
