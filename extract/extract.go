// Package extract owns turning an archived HTTP payload into text: de-chunking,
// content decoding, charset detection, main-text extraction, title, language,
// tokens, stems, word and byte counts, publication dates and outlinks, and
// what a Wayback shows when it replays a page: the text scripts render from
// the data a thin page embeds (JSON-LD, a framework's state, <noscript>),
// the page a client-side redirect leads to, the pages a page's frames
// show, and whether a page is a JavaScript application's empty shell.
//
// It imports no other package of this module.
package extract

import "time"

// Document is what extraction yields for one payload.
type Document struct {
	// Title is the page title, whitespace-collapsed.
	Title string `json:"title,omitempty"`
	// Text is the page's content: its visible text without site chrome (or,
	// with Options.Readability, the article go-readability finds), words
	// separated by single spaces (block elements never glue words together).
	// On a thin page (fewer than ThinWords words of visible content) the
	// text that replay renders from the data it embeds follows the visible
	// text (see Embedded).
	Text string `json:"text,omitempty"`
	// Embedded names, comma-separated, where the text that Text adds to a
	// thin page's visible text comes from: "json-ld", "noscript",
	// "noframes", "state" (the Embedded* constants), in the order they
	// come in Text; "" when Text is only what the page shows.
	Embedded string `json:"embedded,omitempty"`
	// Redirect is where the page sends its reader when it is replayed, ""
	// when it stays: the URL of a meta refresh (<meta http-equiv="refresh"
	// content="0; url=...">) that leaves at once, or, on a thin page, within
	// ten seconds; else, on a thin page, the string an inline script sets
	// the location to (location.href = "...", location.replace("...")...).
	// It is resolved against <base href> and Options.BaseURL, without its
	// fragment; without an absolute base a relative URL is kept as written
	// (the caller resolves it against the capture's URI-R).
	Redirect string `json:"redirect,omitempty"`
	// Frames are the pages that replay shows in the page's frames, which
	// are then what the page shows: the src of every <frame> of a
	// <frameset> page, or, on a thin page that is one large iframe
	// (domain forwarding "with masking", an embedded site), the src of
	// its iframes as large as the window (width and height 100%), or of
	// its one iframe when nothing else (words, images) is shown and the
	// iframe is not sized as an embedded player. Hidden and tracking
	// (0 or 1 pixel) iframes, about:blank, javascript: and empty src are
	// left out. Resolved as Redirect, each once, in page order. The text
	// of <noframes> is never the page's when it has frames.
	Frames []string `json:"frames,omitempty"`
	// Copyright is the latest year the page's copyright notices name
	// ("© 2002-2016 ..." names 2016), 0 when it has none: a page stating
	// a year long after it was captured is not the page as it was then.
	Copyright int `json:"copyright,omitempty"`
	// Canonical are the addresses the page names as its own: its <link
	// rel="canonical">, <meta property="og:url">, twitter:url and <meta
	// name="url"> (not microdata's itemprop="url", which names listed
	// posts and images too), at most three, resolved as Redirect (one
	// written as a host without its scheme, "www.example.org/", as that
	// host), each once, in page order. A page that names another address than the one it was
	// captured at may be another page served there.
	Canonical []string `json:"canonical,omitempty"`
	// Shell reports that the page is a JavaScript application's shell,
	// whose content its scripts fetch when it is replayed: it runs scripts
	// (external or inline) or has an app's mount point (<div id="root">,
	// <app-root>...); it shows no words (a notice in <noscript> such as
	// "You need to enable JavaScript to run this app" is not content),
	// or only a placeholder of a few words in its mount point
	// ("Loading…"), and no image outside it; and it embeds no text (see
	// Embedded), redirects nowhere and has no frames. A page without
	// scripts and words is blank, not a shell.
	Shell bool `json:"shell,omitempty"`
	// Chrome is the visible text of the site's chrome (navigation, header,
	// footer, sidebars), which Text leaves out: what a site's pages share
	// while their stories change. Empty where Text is readability's article.
	Chrome string `json:"chrome,omitempty"`
	// Extractor names what produced Text: "readability", "body" (visible body
	// text), "plain" (text/plain payload) or "none".
	Extractor string `json:"extractor"`
	// Lang is the ISO 639-1 code of the detected language, "" when unknown.
	Lang string `json:"lang,omitempty"`
	// Langs are the languages the page is written in, with how much of it
	// each holds, the largest share first (see LangShare): what tells a
	// page that switched language from a bilingual page.
	Langs []LangShare `json:"langs,omitempty"`
	// Terms are the normalized tokens of Text, then those of Chrome
	// (character bigrams for scripts written without spaces), with stop
	// words removed and stemmed where Lang has a Snowball stemmer, in text
	// order (see Terms).
	Terms []string `json:"terms,omitempty"`
	// ContentTerms is how many of Terms, the first, come from Text.
	ContentTerms int `json:"content_terms"`
	// WordCount is the number of words of the page, Text and Chrome
	// (before stop-word removal), as tokenize counts them: words at
	// Unicode's word boundaries, and one word per two letters of scripts
	// written without spaces (Chinese, Japanese, Thai...).
	WordCount int `json:"word_count"`
	// ContentWords is the number of words of Text alone.
	ContentWords int `json:"content_words"`
	// ByteCount is the size of the decoded payload in bytes (after de-chunking
	// and content decoding, before charset conversion).
	ByteCount int `json:"byte_count"`
	// TextCut reports that the decoded payload was longer than
	// Options.MaxBytes (8 MiB by default) and cut there: Text is what the
	// first MaxBytes hold.
	TextCut bool `json:"text_cut,omitempty"`
	// Partial, when not empty, says that the payload decoded only in part
	// (its compressed stream or its chunks end early: ErrPartial) and how:
	// Text is what the part holds.
	Partial string `json:"partial,omitempty"`
	// MediaType is the media type the payload was handled as ("text/html",
	// "text/plain", ...), lower-cased without parameters; for HTML sniffed
	// from a missing or wrong Content-Type it is "text/html".
	MediaType string `json:"media_type,omitempty"`
	// Charset is the WHATWG name of the character encoding the text was
	// decoded from ("utf-8", "windows-1252", ...), "" for non-text payloads.
	Charset string `json:"charset,omitempty"`
	// CharsetFrom says where Charset was found: "bom", "header", "meta" or
	// "sniff".
	CharsetFrom string `json:"charset_from,omitempty"`
	// TermsLang is the language whose stop words and stemmer made Terms:
	// Lang when known, else the <html lang> hint, else Options.DefaultLang;
	// "" when Terms are only lower-cased tokens.
	TermsLang string `json:"terms_lang,omitempty"`
	// Published is the publication date the page states (see
	// PublicationDate), in UTC; the zero time when unknown (then only the
	// capture date is known).
	Published time.Time `json:"published,omitzero"`
	// PublishedFrom says where Published was found: "meta", "jsonld",
	// "time", "byline", "url" or "last-modified" (the PublishedFrom*
	// constants); "" when unknown.
	PublishedFrom string `json:"published_from,omitempty"`
	// Links are the page's outlinks with their anchor text (see Links):
	// absolute http(s) URLs of every <a> and <area> of the whole page,
	// navigation included, in page order, de-duplicated, at most
	// Options.MaxLinks. Relative links need Options.BaseURL or an absolute
	// <base href>.
	Links []Link `json:"links,omitempty"`
}

// TextTerms returns the Terms that come from Text, without the chrome's.
func (d *Document) TextTerms() []string { return d.Terms[:d.ContentTerms] }

// Extractor names, the values of Document.Extractor.
const (
	// ExtractorReadability: Text is the article go-readability found.
	ExtractorReadability = "readability"
	// ExtractorBody: Text is the visible body text without site chrome.
	ExtractorBody = "body"
	// ExtractorPlain: Text is a text/plain payload.
	ExtractorPlain = "plain"
	// ExtractorNone: the payload is not text (image, PDF, CSS...); Text is empty.
	ExtractorNone = "none"
)

// Defaults of Options.
const (
	// DefaultMinMainWords is the default Options.MinMainWords.
	DefaultMinMainWords = 50
	// DefaultMinMainShare is the default Options.MinMainShare.
	DefaultMinMainShare = 0.25
	// DefaultMaxElements is the default Options.MaxElements.
	DefaultMaxElements = 50000
	// DefaultMaxDepth is the default Options.MaxDepth.
	DefaultMaxDepth = 400
	// DefaultMaxWords is the default Options.MaxWords.
	DefaultMaxWords = 200000
	// DefaultLang is the default Options.DefaultLang.
	DefaultLang = "en"
)

// Options tune extraction. The zero value means every default.
type Options struct {
	// MaxBytes caps the decoded payload (DefaultMaxBytes, 8 MiB, when <= 0).
	// Longer payloads are cut, not rejected.
	MaxBytes int64
	// MinMainWords is the fewest words readability's text must have to be
	// used (with Readability); below it, or below MinMainShare of the
	// visible body words, the visible body text is used instead
	// (DefaultMinMainWords when <= 0). Pages whose visible body text has
	// fewer words skip readability.
	MinMainWords int
	// MinMainShare is the least share of the visible body words that
	// readability's text must reach (DefaultMinMainShare when <= 0).
	MinMainShare float64
	// MaxElements and MaxDepth bound the parsed tree handed to readability
	// (DefaultMaxElements, DefaultMaxDepth when <= 0); larger or deeper pages
	// use the visible body text.
	MaxElements int
	MaxDepth    int
	// MaxWords caps the words kept in Text, and the tokens of Text and of
	// Chrome that make Terms (DefaultMaxWords when <= 0): what a page
	// costs is bounded, whatever it holds (the longest of real-1068's
	// pages gives 78,782 tokens). Text and Chrome also keep at most ten
	// bytes a word of it (2 MB by default), however long their words.
	MaxWords int
	// Readability takes Text from go-readability's article where it finds
	// one, leaving Chrome empty: what a crawl weighs is the article. Without
	// it, Text is the visible body text without chrome, and Chrome the rest,
	// which is what off-topic detection compares: measured on a real
	// Archive-It collection, readability's article keeps under half of the
	// page's words on 30% of its pages (the visible text without chrome on
	// 8%), and a site's rotating front page is still the site by its chrome.
	Readability bool
	// DefaultLang is the language whose stop words and stemmer make Terms
	// when neither detection nor <html lang> names a known language
	// (DefaultLang, "en", when ""; "-" for none: tokens are then only
	// lower-cased and filtered).
	DefaultLang string
	// BaseURL is the URL the payload was captured from (the capture's
	// URI-R). Relative links are resolved against it (and the page's <base
	// href>), and a date in its path is the last resort for Published. When
	// "", relative links are dropped.
	BaseURL string
	// TextOnly skips what only a crawl needs: Links and Published stay
	// empty (detection reads neither, and gathering anchor texts and dates
	// walks the page again).
	TextOnly bool
	// MaxLinks caps Document.Links (DefaultMaxLinks when <= 0).
	MaxLinks int
	// Stems, when set, shares stems across the documents of a run.
	Stems *StemCache
	// Readers, when set, keeps page readers for the documents of a run to
	// reuse (their buffers, and what they learned of class names).
	Readers *ReaderPool
}

func (o Options) withDefaults() Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MinMainWords <= 0 {
		o.MinMainWords = DefaultMinMainWords
	}
	if o.MinMainShare <= 0 {
		o.MinMainShare = DefaultMinMainShare
	}
	if o.MaxElements <= 0 {
		o.MaxElements = DefaultMaxElements
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxWords <= 0 {
		o.MaxWords = DefaultMaxWords
	}
	if o.MaxLinks <= 0 {
		o.MaxLinks = DefaultMaxLinks
	}
	if o.DefaultLang == "" {
		o.DefaultLang = DefaultLang
	}
	return o
}
