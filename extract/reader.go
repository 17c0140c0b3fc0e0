package extract

import (
	"strings"
	"sync"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A page is read in document order as a sequence of events, the pre-order
// walk of its parsed tree: an element starts, its children follow, it
// ends; text nodes and comments come where they stand. pageReader turns
// these events into what extraction needs (the visible text split into
// content and chrome, the title, and what replay needs), whether they come
// from a tree html.Parse built (readTree) or from one streaming pass of the
// tokenizer (streamPage).

// tag is an element as the reader sees it.
type tag struct {
	atom  atom.Atom
	name  string // the element's name as the parser gives it (lower-case)
	ns    string // "" for HTML, "svg", "math"
	attrs []html.Attribute
}

// attr returns the value of the attribute key (lower-case) of t, "" if absent.
func (t *tag) attr(key string) string {
	for _, a := range t.attrs {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

// has reports whether t carries the attribute key.
func (t *tag) has(key string) bool {
	for _, a := range t.attrs {
		if a.Namespace == "" && a.Key == key {
			return true
		}
	}
	return false
}

// nodeTag is the tag of an element node.
func nodeTag(n *html.Node) tag {
	return tag{atom: n.DataAtom, name: n.Data, ns: n.Namespace, attrs: n.Attr}
}

// readerElem is an element the reader has open.
type readerElem struct {
	atom atom.Atom
	// inspect: the element is visited by the page's inspection (title,
	// meta, replay), which does not descend into leaf elements (scripts,
	// styles, <title>, <meta>...: see inspectLeaf).
	inspect, leaf bool
	// skip: the element or an ancestor is never text or hidden: nothing
	// under it is visible text. hidden: it or an ancestor is hidden by
	// markup (tinyOrHidden).
	skip, hidden bool
	inline       bool
	sectioned    bool  // an ancestor is an article, section, main, aside or nav
	region       int32 // the chrome region the element opens, -1 if none
	hideIdx      int32 // stack index of the innermost element (this or an ancestor) never text or hidden, -1
	linkIdx      int32 // stack index of the innermost <a> (this or an ancestor), -1
	children     int32
	mount        int32 // the mount candidate the element is, -1 if none
	capture      int8  // where its text goes: captureNone, captureTitle, captureRaw
}

// What an element's text is captured for.
const (
	captureNone = iota
	captureTitle
	captureRaw
)

// inspectLeaf reports whether the page's inspection stops at elements named
// a: it reads <title> and <meta> without descending, and leaves out
// scripts, styles, JSON-LD, <noscript>, <noframes>, templates, SVG, MathML
// and <link> (the scripts, <noscript> and <noframes> kept for replay).
func inspectLeaf(a atom.Atom) bool {
	switch a {
	case atom.Title, atom.Meta, atom.Script, atom.Noscript, atom.Noframes, atom.Style, atom.Template,
		atom.Svg, atom.Math, atom.Link:
		return true
	}
	return false
}

// chromeRegion is an element that names site chrome (see chrome): its text
// is the chrome's unless it holds the page (see holdsThePage), which is
// known once the page is read.
type chromeRegion struct {
	parent       int32 // the enclosing region, -1
	start        int32 // stack index of its element
	words, links int   // words of its text and of its text in links (countWords)
	open         bool
}

// wordOp is one write to the page's word writers, into the writer of
// region's destination: a break (start < 0) or the text arena[start:end],
// its white space collapsed (see appendCollapsed), of words words.
type wordOp struct {
	region            int32
	start, end, words int32
}

// mountCandidate is an element that may be an app's mount point (see
// mountPoint): one when it has at most one child.
type mountCandidate struct {
	outer []int32 // the candidates it is nested in
	words int     // countWords of it
	index int32   // its stack index while open
	ok    bool
}

// pageReader reads the events of one page. The zero value is not ready:
// use newPageReader (or a ReaderPool).
type pageReader struct {
	maxWords int
	stack    []readerElem
	ops      []wordOp
	arena    []byte // the visible text
	regions  []chromeRegion
	open     []int32 // open chrome regions, outermost first
	region   int32   // innermost open region, -1
	words    int     // visible words (countWords of the whole page)
	mounts   []mountCandidate
	openMnt  []int32 // open mount candidates
	capture  []byte
	capIdx   int // index in stack of the capturing element
	capKind  int8
	capFrom  int32 // where the captured raw text is in the page, when it is one piece of it
	capTo    int32

	title, ogTitle      string
	lang, xmlLang       string
	hasLang, hasXMLLang bool
	replay              replayScan
	media               [maxMedia]mediaElem
	chromeNames         chromeNames
}

// mediaElem is an image, video or the like that replay records.
type mediaElem struct {
	tiny   bool    // tinyOrHidden
	mounts []int32 // the mount candidates it is in
}

func newPageReader(maxWords int) *pageReader {
	r := &pageReader{maxWords: maxWords, region: -1, capIdx: -1}
	r.stack = append(r.stack, readerElem{inspect: true, region: -1, hideIdx: -1, linkIdx: -1, mount: -1})
	return r
}

// reuse readies r, whose page is read, for another page: what
// newPageReader returns, with r's buffers and what it learned of class
// names (emptied once full).
func (r *pageReader) reuse(maxWords int) {
	old := *r
	if len(old.chromeNames) >= maxChromeNames {
		clear(old.chromeNames)
	}
	*r = pageReader{maxWords: maxWords, region: -1, capIdx: -1, chromeNames: old.chromeNames,
		ops: old.ops[:0], arena: old.arena[:0], regions: old.regions[:0], open: old.open[:0],
		openMnt: old.openMnt[:0], capture: old.capture[:0]}
	r.stack = append(old.stack[:0], readerElem{inspect: true, region: -1, hideIdx: -1, linkIdx: -1, mount: -1})
}

// ReaderPool keeps the page readers of a run for its pages to reuse: their
// buffers, and what the pages they read taught them about id and class
// names (whether each names site chrome), which a site's pages repeat. It
// is safe for concurrent use.
type ReaderPool struct{ pool sync.Pool }

// NewReaderPool returns an empty ReaderPool.
func NewReaderPool() *ReaderPool { return &ReaderPool{} }

// get returns a reader ready for a page (a new one when p is nil).
func (p *ReaderPool) get(maxWords int) *pageReader {
	if p != nil {
		if r, ok := p.pool.Get().(*pageReader); ok {
			r.reuse(maxWords)
			return r
		}
	}
	return newPageReader(maxWords)
}

// put gives back a reader get returned, once nothing of its page is used.
func (p *ReaderPool) put(r *pageReader) {
	if p != nil {
		p.pool.Put(r)
	}
}

// start reads the start of element t, a child of the element on top.
func (r *pageReader) start(t *tag) {
	p := &r.stack[len(r.stack)-1]
	p.children++
	idx := int32(len(r.stack))
	e := readerElem{atom: t.atom, inspect: p.inspect && !p.leaf, region: -1, hideIdx: p.hideIdx, linkIdx: p.linkIdx,
		mount: -1, inline: inlineAtom(t.atom), hidden: p.hidden, sectioned: p.sectioned || sectioning(p.atom)}
	e.leaf = e.inspect && inspectLeaf(t.atom)
	h := hidden(t)
	e.hidden = e.hidden || h
	// <html> hides nothing: the visible text is the body's.
	if neverText(t) || h && t.atom != atom.Html {
		e.hideIdx = idx
	}
	if t.atom == atom.A {
		e.linkIdx = idx
	}
	e.skip = p.skip || e.hideIdx == idx
	if e.inspect {
		r.inspectElement(t, &e, idx)
	}
	if !e.skip && chrome(t, e.sectioned, &r.chromeNames) {
		e.region = int32(len(r.regions))
		r.regions = append(r.regions, chromeRegion{parent: r.region, start: idx, open: true})
		r.region = e.region
		r.open = append(r.open, e.region)
	}
	r.stack = append(r.stack, e)
	if !e.skip && !e.inline {
		r.ops = append(r.ops, wordOp{region: r.region, start: -1})
	}
}

// sectioning reports whether a header or footer inside an element named a
// is the article's or section's own rather than the site's.
func sectioning(a atom.Atom) bool {
	switch a {
	case atom.Article, atom.Section, atom.Main, atom.Aside, atom.Nav:
		return true
	}
	return false
}

// end reads the end of the element on top.
func (r *pageReader) end() {
	e := r.stack[len(r.stack)-1]
	r.stack = r.stack[:len(r.stack)-1]
	if !e.skip && !e.inline {
		r.ops = append(r.ops, wordOp{region: r.region, start: -1})
	}
	if e.region >= 0 {
		r.regions[e.region].open = false
		r.open = r.open[:len(r.open)-1]
		r.region = r.regions[e.region].parent
	}
	if e.mount >= 0 {
		m := &r.mounts[e.mount]
		m.ok = e.children <= 1
		r.openMnt = r.openMnt[:len(r.openMnt)-1]
	}
	if e.capture != captureNone && r.capIdx == len(r.stack) {
		r.endCapture()
	}
}

// adopt reads the adoption of the element on top (a block) out of its
// parent (a formatting element) by the element below them (see
// builder.adopt): the block becomes the formatting element's next sibling
// and its children so far those of a copy of the formatting element, its
// only child. It returns false, changing nothing, unless the formatting
// element is an inline element that hides nothing, opens no chrome
// region or mount candidate and captures nothing (an <a> may be one):
// then what was read of the block read the same under the new order of
// its ancestors, and only the stack indexes that name the two elements
// and the counts of children and links that their order sets change.
func (r *pageReader) adopt() bool {
	n := len(r.stack)
	if n < 4 {
		return false
	}
	fi, bi := int32(n-2), int32(n-1)
	ca, fe, blk := &r.stack[fi-1], r.stack[fi], r.stack[bi]
	if !fe.inline || fe.region >= 0 || fe.mount >= 0 || fe.capture != captureNone || r.capIdx >= int(fi) ||
		fe.hideIdx != ca.hideIdx || fe.hidden != ca.hidden || fe.skip != ca.skip ||
		(fe.linkIdx != fi && fe.linkIdx != ca.linkIdx) {
		return false
	}
	ca.children++ // the block
	if blk.hideIdx == bi {
		blk.hideIdx = fi
	}
	if blk.linkIdx == fi {
		blk.linkIdx = ca.linkIdx
	}
	if blk.region >= 0 {
		g := &r.regions[blk.region]
		g.start = fi
		if fe.linkIdx == fi {
			g.links = g.words // all of it is in the copy of the <a>
		}
	}
	if blk.mount >= 0 {
		r.mounts[blk.mount].index = fi
	}
	blk.children = 1 // the copy
	r.stack = append(r.stack[:fi], blk)
	return true
}

// text reads a text node, a child of the element on top.
func (r *pageReader) text(s string) {
	if r.textStart(s == "") {
		captureText(r, s, -1, -1)
	}
	if r.wantsText() {
		start := len(r.arena)
		var n int
		r.arena, n = appendCollapsed(r.arena, s)
		r.countText(start, n)
	}
}

// textBytes is text of bytes, from (when >= 0) the span [from, to) of the
// page, where raw text (a script) can be read again when it is needed.
func (r *pageReader) textBytes(s []byte, from, to int32) {
	if r.textStart(len(s) == 0) {
		captureText(r, s, from, to)
	}
	if r.wantsText() {
		start := len(r.arena)
		var n int
		r.arena, n = appendCollapsed(r.arena, s)
		r.countText(start, n)
	}
}

// textStart counts a text node as a child and reports whether its text is
// being captured.
func (r *pageReader) textStart(empty bool) bool {
	r.stack[len(r.stack)-1].children++
	return r.capIdx >= 0 && !empty && (r.capKind == captureRaw || len(r.capture) < 4096)
}

// captureText adds s (from the span [from, to) of the page when from >=
// 0) to the text captured.
func captureText[T string | []byte](r *pageReader, s T, from, to int32) {
	if r.capKind == captureRaw && r.capTo == 0 && len(r.capture) == 0 && from >= 0 {
		r.capFrom, r.capTo = from, to
		return
	}
	if r.capTo > 0 {
		r.capture = append(r.capture, r.replay.text(&rawElem{from: r.capFrom, to: r.capTo})...)
		r.capFrom, r.capTo = 0, 0
	}
	r.capture = append(r.capture, s...)
}

// wantsText reports whether the text of the element on top is counted:
// visible text, or text in a mount point.
func (r *pageReader) wantsText() bool {
	return !r.stack[len(r.stack)-1].skip || len(r.openMnt) > 0
}

// countText counts the text node arena[start:], of n words, kept there
// when visible.
func (r *pageReader) countText(start, n int) {
	top := &r.stack[len(r.stack)-1]
	for _, m := range r.openMnt {
		if c := &r.mounts[m]; c.index > top.hideIdx {
			c.words += n
		}
	}
	if top.skip {
		r.arena = r.arena[:start]
		return
	}
	r.ops = append(r.ops, wordOp{region: r.region, start: int32(start), end: int32(len(r.arena)), words: int32(n)})
	r.words += n
	for _, g := range r.open {
		c := &r.regions[g]
		c.words += n
		if top.linkIdx >= c.start {
			c.links += n
		}
	}
}

// fosterChild reads an empty element t (a <br>, an <input>...) that the
// parser foster-parented into the element at stack index level (before a
// table open below it): a child there, and a break in the text there.
func (r *pageReader) fosterChild(level int, t *tag) {
	p := &r.stack[level]
	p.children++
	if p.skip || neverText(t) || hidden(t) || inlineAtom(t.atom) {
		return
	}
	region := int32(-1)
	for i := level; i >= 0 && region < 0; i-- {
		region = r.stack[i].region
	}
	sectioned := false
	for i := 1; i <= level; i++ {
		sectioned = sectioned || sectioning(r.stack[i].atom)
	}
	if chrome(t, sectioned, &r.chromeNames) {
		// An empty chrome element is the chrome's.
		r.regions = append(r.regions, chromeRegion{parent: region, start: int32(level + 1)})
		region = int32(len(r.regions) - 1)
	}
	r.ops = append(r.ops, wordOp{region: region, start: -1})
}

// comment reads a comment node, a child of the element on top.
func (r *pageReader) comment() { r.stack[len(r.stack)-1].children++ }

// inspectElement records what element t, visited by the page's inspection,
// tells: the title, <meta> (refresh, og:title), <html lang>, the scripts,
// <noscript> and <noframes> replay reads, and, of the other elements, what
// replay needs (see replayElement).
func (r *pageReader) inspectElement(t *tag, e *readerElem, idx int32) {
	switch t.atom {
	case atom.Title:
		if r.title == "" && t.ns == "" && r.capIdx < 0 {
			r.startCapture(e, idx, captureTitle)
		}
	case atom.Meta:
		r.replay.meta(t)
		if r.ogTitle == "" {
			p := strings.ToLower(t.attr("property"))
			if p == "" {
				p = strings.ToLower(t.attr("name"))
			}
			if p == "og:title" {
				r.ogTitle = t.attr("content")
			}
		}
	case atom.Html:
		r.htmlAttrs(t)
	case atom.Link:
		r.replay.link(t)
	case atom.Body, atom.Style, atom.Template, atom.Svg, atom.Math:
	case atom.Script, atom.Noscript, atom.Noframes:
		if t.ns == "" {
			kind := scriptUnknown
			if t.atom == atom.Script {
				kind = scriptKind(t)
			}
			r.replay.raw = append(r.replay.raw, rawElem{atom: t.atom, kind: kind, src: t.has("src")})
			if r.capIdx < 0 {
				r.startCapture(e, idx, captureRaw)
			}
		}
	default:
		r.replayElement(t, e, idx)
	}
}

// htmlAttrs records the language attributes of <html> (of the first
// <html> tag that carries each: the parser merges the attributes of later
// <html> tags into the first).
func (r *pageReader) htmlAttrs(t *tag) {
	for _, a := range t.attrs {
		switch {
		case a.Namespace != "":
		case a.Key == "lang" && !r.hasLang:
			r.lang, r.hasLang = a.Val, true
		case a.Key == "xml:lang" && !r.hasXMLLang:
			r.xmlLang, r.hasXMLLang = a.Val, true
		}
	}
}

// replayElement records what an element of the page tells of replay: a
// frameset, <base href>, frames and iframes, images and the like, app
// mount points.
func (r *pageReader) replayElement(t *tag, e *readerElem, idx int32) {
	if t.ns != "" {
		return
	}
	rs := &r.replay
	switch t.atom {
	case atom.Frameset:
		rs.frameset = true
	case atom.Base:
		if !rs.hasBase && t.has("href") {
			rs.baseHref, rs.hasBase = t.attr("href"), true
		}
	case atom.Frame:
		rs.frames = append(rs.frames, t.attr("src"))
	case atom.Iframe:
		rs.iframes = append(rs.iframes, frameElem{src: t.attr("src"), tiny: tinyOrHidden(t, e.hidden), full: fullSize(t), small: smallFrame(t)})
	case atom.Img, atom.Video, atom.Object, atom.Embed, atom.Canvas:
		if rs.mediaCount < maxMedia {
			r.media[rs.mediaCount] = mediaElem{tiny: tinyOrHidden(t, e.hidden), mounts: append([]int32(nil), r.openMnt...)}
		}
		rs.mediaCount++
	case atom.Div, atom.Main, atom.Section, atom.Span, 0:
		if mountPoint(t) {
			e.mount = int32(len(r.mounts))
			r.mounts = append(r.mounts, mountCandidate{outer: append([]int32(nil), r.openMnt...), index: idx})
			r.openMnt = append(r.openMnt, e.mount)
		}
	}
}

// startCapture starts gathering the text of element e (at stack index idx).
func (r *pageReader) startCapture(e *readerElem, idx int32, kind int8) {
	e.capture = kind
	r.capIdx, r.capKind = int(idx), kind
	r.capture, r.capFrom, r.capTo = r.capture[:0], 0, 0
}

// endCapture hands the text gathered to what it was gathered for.
func (r *pageReader) endCapture() {
	if r.capKind == captureTitle {
		r.title = string(r.capture)
	} else {
		e := &r.replay.raw[len(r.replay.raw)-1]
		if r.capTo > 0 {
			e.from, e.to = r.capFrom, r.capTo
		} else {
			e.text = string(r.capture)
		}
	}
	r.capIdx, r.capKind = -1, captureNone
}

// pageText is what reading a page gives.
type pageText struct {
	title, lang string
	// content is the visible text without chrome (collapsed, at most the
	// reader's maxWords words), fields its words; chrome the chrome's text.
	content string
	fields  int
	chrome  string
	replay  replayScan
}

// finish ends the page (closing what is open) and returns what was read.
func (r *pageReader) finish() *pageText {
	for len(r.stack) > 1 {
		r.end()
	}
	pt := &pageText{title: collapse(r.title, 1000), lang: r.lang}
	if pt.title == "" {
		pt.title = collapse(r.ogTitle, 1000)
	}
	if pt.lang == "" {
		pt.lang = r.xmlLang
	}
	// A chrome region is the chrome's unless it holds the page; one inside
	// the chrome is the chrome's.
	chromeOf := make([]bool, len(r.regions))
	for i, g := range r.regions {
		chromeOf[i] = g.parent >= 0 && chromeOf[g.parent] || !holdsThePage(g.words, g.links, r.words)
	}
	cw, sw := wordWriter{max: r.maxWords}, wordWriter{max: r.maxWords}
	for _, op := range r.ops {
		w := &cw
		if op.region >= 0 && chromeOf[op.region] {
			w = &sw
		}
		if op.start < 0 {
			w.brk()
		} else {
			w.writeCollapsed(r.arena[op.start:op.end], int(op.words))
		}
	}
	pt.content, pt.fields, pt.chrome = cw.b.String(), cw.n, sw.b.String()
	r.resolveReplay(&pt.replay)
	return pt
}

// resolveReplay completes the replay scan with what is known only at the
// end of the page: which candidates are mount points, and which images
// are in one.
func (r *pageReader) resolveReplay(rs *replayScan) {
	*rs = r.replay
	inMount := func(outer []int32) bool {
		for _, o := range outer {
			if r.mounts[o].ok {
				return true
			}
		}
		return false
	}
	for _, m := range r.mounts {
		if m.ok {
			rs.mounts = append(rs.mounts, mountInfo{nested: inMount(m.outer), words: m.words})
		}
	}
	for i := range min(rs.mediaCount, maxMedia) {
		rs.media[i] = mediaInfo{tiny: r.media[i].tiny, inMount: inMount(r.media[i].mounts)}
	}
}

// holdsThePage reports whether an element that looks like chrome, of words
// words (links of them in links) on a page of total words, holds most of
// the page's words, few of them in links: a wrapper whose class merely
// mentions a sidebar ("one-sidebar sidebar-right", a common theme's page
// wrapper) around the page's content. Real chrome (menus, footers, link
// lists) is a small or link-dense part of the page. Words are counted as
// strings.Fields counts them in each text node.
func holdsThePage(words, links, total int) bool {
	return words > 0 && links*2 < words && words*2 > total
}

// readTree feeds the tree under root (root included, unless it is a
// document) to r in document order.
func readTree(root *html.Node, r *pageReader) {
	walk(root, func(n *html.Node) bool {
		switch n.Type {
		case html.ElementNode:
			t := nodeTag(n)
			r.start(&t)
			return true
		case html.TextNode:
			r.text(n.Data)
		case html.CommentNode:
			r.comment()
		case html.DocumentNode:
			return true
		}
		return false
	}, func(n *html.Node) {
		if n.Type == html.ElementNode {
			r.end()
		}
	})
}
