package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// What a Wayback shows when it replays a capture is not always the page's
// visible markup: scripts render content from data the page carries, and
// <noscript> holds what a reader without scripts gets.

// ThinWords is the fewest words of visible content (Document.ContentWords
// before embedded text is added) that a page needs to be read as it is
// written. Below it, the page is thin: the text replay renders from the
// data it embeds is added to its content (see Document.Embedded). Every
// HTML page of real-1068 (Archive-It's human-rights collection, 1,617
// distinct pages in 25 languages) with fewer than 40 content words is a
// splash or language chooser, a redirect ("you will be forwarded in 10
// seconds"), a frameset, a blank or "under construction" page, a server
// error or a JavaScript application; the shortest page with text of its
// own (a 404 in Armenian, a news teaser) has 41 and 44. An article's lead
// paragraph alone is more than 40 words, and Options.MinMainWords, the
// shortest article readability may give, is 50.
const ThinWords = 40

// noticeWords is the most words a <noscript> (or <noframes>) may hold and
// still be a notice about scripts rather than content: one or two
// sentences ("You need to enable JavaScript to run this app.", 9 words;
// Vue's "We're sorry but this app doesn't work properly without JavaScript
// enabled. Please enable it to continue.", 16; the same in any language).
// A <noscript> that holds the page for readers without scripts is at
// least a paragraph. Shorter <noscript> text is never content.
const noticeWords = 25

// Embedded sources, the names Document.Embedded lists.
const (
	// EmbeddedJSONLD: the articleBody, text, description and headline of
	// JSON-LD (<script type="application/ld+json">).
	EmbeddedJSONLD = "json-ld"
	// EmbeddedState: the prose of a framework's state: JSON data scripts
	// (Next.js's __NEXT_DATA__...) and objects that inline scripts assign
	// (window.__INITIAL_STATE__ = {...}, __NUXT__, __APOLLO_STATE__...).
	EmbeddedState = "state"
	// EmbeddedNoscript: the text of <noscript>, when it is more than a
	// notice about scripts.
	EmbeddedNoscript = "noscript"
	// EmbeddedNoframes: the text of <noframes> on a page without frames,
	// when it is more than a notice about frames.
	EmbeddedNoframes = "noframes"
)

// replayScan gathers, in inspectAndPrune's single walk over the parsed
// page, what telling what replay shows needs: the elements pruned from the
// tree (scripts, <noscript>, <noframes>, kept with their content) and the
// frameset. Nothing is parsed until a page turns out to be thin.
type replayScan struct {
	scripts   []*html.Node // <script> elements, in page order
	noscripts []*html.Node
	noframes  []*html.Node
	frameset  bool // the page is a <frameset>
}

// keep records a <script>, <noscript> or <noframes> element, which
// inspectAndPrune then takes out of the tree.
func (r *replayScan) keep(n *html.Node) {
	if n.Namespace != "" {
		return
	}
	switch n.DataAtom {
	case atom.Script:
		r.scripts = append(r.scripts, n)
	case atom.Noscript:
		r.noscripts = append(r.noscripts, n)
	case atom.Noframes:
		r.noframes = append(r.noframes, n)
	}
}

// element records what an element that stays in the tree tells of replay.
func (r *replayScan) element(n *html.Node) {
	if n.DataAtom == atom.Frameset && n.Namespace == "" {
		r.frameset = true
	}
}

// apply reads what replay shows of a page whose visible content is words
// (fields words as pageWords counts them, toks tokenized) and sets doc's
// Embedded: on a thin page (see ThinWords), the text replay renders from
// embedded data, which it returns after words, tokenized again.
func (r *replayScan) apply(doc *Document, words string, fields int, toks *tokenized, opts Options) (string, *tokenized) {
	if toks.words >= ThinWords || fields >= opts.MaxWords {
		return words, toks
	}
	h := newHarvest(words, opts.MaxWords-fields)
	h.source(EmbeddedJSONLD, func() {
		for _, s := range r.scripts {
			if scriptKind(s) == scriptJSONLD {
				h.jsonLD(scriptText(s))
			}
		}
	})
	h.source(EmbeddedNoscript, func() {
		for _, n := range r.noscripts {
			h.markup(scriptText(n))
		}
	})
	if !r.frameset {
		h.source(EmbeddedNoframes, func() {
			for _, n := range r.noframes {
				h.markup(scriptText(n))
			}
		})
	}
	// A framework's state holds the page's text among its interface's
	// strings: it is read only when nothing better made the page whole.
	if toks.words+tokenize(h.w.b.String(), 0).words < ThinWords {
		h.source(EmbeddedState, func() {
			for _, s := range r.scripts {
				switch scriptKind(s) {
				case scriptData:
					h.state(scriptText(s))
				case scriptJS:
					if !hasAttr(s, "src") {
						h.inlineState(scriptText(s))
					}
				}
			}
		})
	}
	if h.w.n == 0 {
		return words, toks
	}
	doc.Embedded = strings.Join(h.from, ",")
	text := h.w.b.String()
	if words != "" {
		text = words + " " + text
	}
	return text, tokenize(text, 0)
}

// Kinds of <script>.
const (
	scriptUnknown = iota // templates and other data a browser does not run
	scriptJS             // JavaScript, run by the browser
	scriptJSONLD         // JSON-LD
	scriptData           // JSON data (application/json, __NEXT_DATA__)
)

// scriptKind tells a <script> by its type attribute.
func scriptKind(n *html.Node) int {
	t := strings.ToLower(strings.TrimSpace(attr(n, "type")))
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	switch {
	case t == "" || t == "module" || strings.Contains(t, "javascript") || strings.Contains(t, "ecmascript") ||
		t == "text/jsx" || t == "text/babel":
		return scriptJS
	case t == "application/ld+json":
		return scriptJSONLD
	case strings.HasSuffix(t, "/json") || strings.HasSuffix(t, "+json"):
		return scriptData
	}
	return scriptUnknown
}

// scriptText returns the text content of a raw-text element (<script>,
// <noscript>, <noframes>): its one text node, as the parser makes it.
func scriptText(n *html.Node) string {
	c := n.FirstChild
	if c == nil {
		return ""
	}
	if c.NextSibling == nil && c.Type == html.TextNode {
		return c.Data
	}
	var b strings.Builder
	for ; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}
