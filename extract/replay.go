package extract

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html/atom"
)

// What a Wayback shows when it replays a capture is not always the page's
// visible markup: scripts render content from data the page carries, and
// <noscript> holds what a reader without scripts gets.

// ThinWords is the fewest words of visible content (Document.ContentWords
// before embedded text is added) that a page needs to be read as it is
// written. Below it, the page is thin: the text replay renders from the
// data it embeds is added to its content (see Document.Embedded), and a
// script that sets the location or a full-page iframe makes it a
// redirect or a frame. Of the 1,617 distinct HTML pages of real-1068
// (Archive-It's human-rights collection, 2008-2013, in many languages),
// the 88 with fewer than 40 content words are splash pages and language
// choosers, redirects ("you will be forwarded in 10 seconds"),
// framesets, blank, "under construction" and error pages, directory
// listings, a JavaScript application, and home pages whose text is all
// menus; pages with a paragraph of their own start just above (a 404 in
// Armenian at 41 words, a news teaser at 44). An article's lead
// paragraph alone is longer, and Options.MinMainWords, the shortest
// article readability may give, is 50.
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

// maxRefreshDelay is the longest delay, in seconds, of a meta refresh that
// is a redirect: a page that leaves for another within ten seconds ("you
// will be forwarded in 10 seconds") is a way to that page; one that
// reloads every few minutes is a page of its own.
const maxRefreshDelay = 10

// maxMedia caps the images, videos and the like replayScan records.
const maxMedia = 8

// replayScan is what telling what replay shows needs, gathered as the
// page is read (see pageReader): the scripts, <noscript> and <noframes>
// with their content, the first meta refresh and <base href>, the
// frameset and its frames, the iframes, the first images, videos and the
// like, and the app mount points. Nothing is parsed or resolved until a
// page turns out to need it.
type replayScan struct {
	src        []byte    // the page, where the raw text of streamed scripts is
	raw        []rawElem // scripts, <noscript> and <noframes>, in page order
	frameset   bool      // the page is a <frameset>
	refresh    string    // content of the first <meta http-equiv="refresh">
	hasRefresh bool
	baseHref   string // the first <base href>
	hasBase    bool
	frames     []string // the src of each <frame>
	iframes    []frameElem
	media      [maxMedia]mediaInfo // the first <img>, <video>, <object>, <embed>, <canvas>
	mediaCount int                 // all of them
	mounts     []mountInfo         // app mount points (see mountPoint)
	own        []string            // the addresses the page names as its own (see Document.Canonical), as written
}

// rawElem is a <script>, <noscript> or <noframes> of the page.
type rawElem struct {
	atom atom.Atom
	kind int  // of a script: scriptKind
	src  bool // a script with a src attribute
	// Its text is text, or, when to > 0, the raw text src[from:to] of the
	// page (see replayScan.text).
	text     string
	from, to int32
}

// text returns the text of element e: the page's raw text as the tokenizer
// reads it (line breaks made "\n", NUL made U+FFFD), which is read only on
// the thin pages that need it.
func (r *replayScan) text(e *rawElem) string {
	if e.to == 0 {
		return e.text
	}
	s := string(r.src[e.from:e.to])
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	return strings.ReplaceAll(s, "\x00", "\ufffd")
}

// frameElem is an <iframe> of the page.
type frameElem struct {
	src string
	// tiny: hidden by markup or a pixel (see tinyOrHidden); full: as large
	// as the window (fullSize); small: given a size below a page's
	// (smallFrame).
	tiny, full, small bool
}

// mediaInfo is an image, video or the like of the page: whether it is
// hidden or a pixel (tinyOrHidden), and whether it is in a mount point.
type mediaInfo struct {
	tiny, inMount bool
}

// mountInfo is an app's mount point of the page: whether it is inside
// another, and the words it shows (as countWords counts them).
type mountInfo struct {
	nested bool
	words  int
}

// elements returns the scripts, <noscript> or <noframes> (a) of the page,
// in page order.
func (r *replayScan) elements(a atom.Atom) func(func(*rawElem) bool) {
	return func(yield func(*rawElem) bool) {
		for i := range r.raw {
			if r.raw[i].atom == a && !yield(&r.raw[i]) {
				return
			}
		}
	}
}

// shownMedia returns the images and the like recorded, and whether they
// are all the page has.
func (r *replayScan) shownMedia() ([]mediaInfo, bool) {
	n := min(r.mediaCount, maxMedia)
	return r.media[:n], r.mediaCount <= maxMedia
}

// meta records a <meta http-equiv="refresh">, and a <meta> naming the
// page's own address (og:url, twitter:url, url).
func (r *replayScan) meta(t *tag) {
	var equiv, content, name string
	for _, a := range t.attrs {
		switch {
		case a.Namespace != "":
		case a.Key == "http-equiv":
			equiv = a.Val
		case a.Key == "content":
			content = a.Val
		case a.Key == "property", a.Key == "name":
			if name == "" {
				name = a.Val
			}
		}
	}
	switch {
	case strings.EqualFold(strings.TrimSpace(equiv), "refresh"):
		if !r.hasRefresh {
			r.refresh, r.hasRefresh = content, true
		}
	case ownAddress(name):
		r.addOwn(content)
	}
}

// mountIDs are the ids of the elements that client-side frameworks render
// a page into (React's root, Vue's app, Next.js, Nuxt, Gatsby, Angular).
var mountIDs = map[string]bool{
	"root": true, "app": true, "__next": true, "__nuxt": true, "___gatsby": true, "svelte": true,
	"app-root": true, "react-root": true, "react-app": true, "vue-app": true,
}

// mountAttrs mark an element that a framework renders into.
var mountAttrs = map[string]bool{"ng-app": true, "ng-version": true, "data-reactroot": true, "data-v-app": true}

// mountPoint reports whether an element (of at most one child) is an app's
// mount point: a custom element (<app-root>), or a div, main, section or
// span with a framework's mount id or attribute.
func mountPoint(t *tag) bool {
	if t.atom == 0 {
		return t.ns == "" && strings.IndexByte(t.name, '-') > 0
	}
	for _, a := range t.attrs {
		if a.Namespace == "" && (a.Key == "id" && mountIDs[a.Val] || mountAttrs[a.Key]) {
			return true
		}
	}
	return false
}

// apply reads what replay shows of a page whose visible content is words
// (fields words as pageWords counts them, toks tokenized) and the text of
// whose chrome is chrome, and sets doc's Redirect, Frames, Embedded and
// Shell: on a thin page (see ThinWords), the text replay renders from
// embedded data, which it returns after words, tokenized again.
func (r *replayScan) apply(doc *Document, words string, fields int, toks *tokenized, chrome string, opts Options) (string, *tokenized) {
	thin := toks.words < ThinWords
	var base *url.URL
	based := false
	pageBase := func() *url.URL {
		if !based {
			base, based = r.base(opts.BaseURL), true
		}
		return base
	}
	if r.hasRefresh || thin {
		doc.Redirect = r.redirect(thin, opts.BaseURL, pageBase)
	}
	if len(r.own) > 0 {
		doc.Canonical = r.canonical(pageBase())
	}
	if r.frameset {
		doc.Frames = frameTargets(r.frames, pageBase())
	} else if thin && len(r.iframes) > 0 {
		doc.Frames = r.pageFrames(fields+fieldCount(chrome), pageBase())
	}
	if !thin || fields >= opts.MaxWords {
		return words, toks
	}
	h := newHarvest(words, opts.MaxWords-fields)
	h.source(EmbeddedJSONLD, func() {
		for s := range r.elements(atom.Script) {
			if s.kind == scriptJSONLD {
				h.jsonLD(r.text(s))
			}
		}
	})
	h.source(EmbeddedNoscript, func() {
		for n := range r.elements(atom.Noscript) {
			h.markup(r.text(n))
		}
	})
	if len(doc.Frames) == 0 {
		h.source(EmbeddedNoframes, func() {
			for n := range r.elements(atom.Noframes) {
				h.markup(r.text(n))
			}
		})
	}
	// A framework's state holds the page's text among its interface's
	// strings: it is read only when nothing better made the page whole.
	if toks.words+tokenize(h.w.b.String(), 0).words < ThinWords {
		h.source(EmbeddedState, func() {
			for s := range r.elements(atom.Script) {
				switch s.kind {
				case scriptData:
					h.state(r.text(s))
				case scriptJS:
					if !s.src {
						h.inlineState(r.text(s))
					}
				}
			}
		})
	}
	if h.w.n == 0 {
		doc.Shell = doc.Redirect == "" && len(doc.Frames) == 0 && r.shell(words, fields, chrome)
		return words, toks
	}
	doc.Embedded = strings.Join(h.from, ",")
	text := h.w.b.String()
	if words != "" {
		text = words + " " + text
	}
	return text, tokenize(text, opts.MaxWords)
}

// Kinds of <script>.
const (
	scriptUnknown = iota // templates and other data a browser does not run
	scriptJS             // JavaScript, run by the browser
	scriptJSONLD         // JSON-LD
	scriptData           // JSON data (application/json, __NEXT_DATA__)
)

// scriptKind tells a <script> by its type attribute.
func scriptKind(n *tag) int {
	t := strings.ToLower(strings.TrimSpace(n.attr("type")))
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

// redirect returns where the page sends its reader (see
// Document.Redirect), "" when it does not.
func (r *replayScan) redirect(thin bool, pageURL string, pageBase func() *url.URL) string {
	resolve := func(ref string) string {
		base := pageBase()
		to := replayTarget(ref, base)
		if to != "" && base != nil && pageURL != "" {
			if self := absHTTP(pageURL, nil); self != nil && self.String() == to {
				return "" // a reload
			}
		}
		return to
	}
	if r.hasRefresh {
		if delay, ref, ok := parseRefresh(r.refresh); ok && (delay == 0 || thin && delay <= maxRefreshDelay) {
			if to := resolve(ref); to != "" {
				return to
			}
		}
	}
	if !thin {
		return ""
	}
	for s := range r.elements(atom.Script) {
		if s.kind != scriptJS || s.src {
			continue
		}
		if ref, ok := scriptLocation(r.text(s)); ok {
			if to := resolve(ref); to != "" {
				return to
			}
		}
	}
	return ""
}

// base returns the URL that the page's references are relative to: its
// <base href> resolved against pageURL, or pageURL; nil when neither is
// an absolute http(s) URL.
func (r *replayScan) base(pageURL string) *url.URL {
	base := absHTTP(pageURL, nil)
	if r.hasBase {
		if b := absHTTP(r.baseHref, base); b != nil {
			base = b
		}
	}
	return base
}

// maxTarget caps the bytes of a redirect or frame URL.
const maxTarget = 4096

// replayTarget returns the URL a redirect or a frame loads: ref resolved
// against base, or, when base is nil, ref as written (trimmed) if it is
// relative; an absolute URL comes as Links gives it (its fragment
// dropped, scheme and host lower-cased). It is "" for what loads no other
// page: an empty reference, a fragment, about:blank, javascript:, data:
// and every scheme but http and https.
func replayTarget(ref string, base *url.URL) string {
	ref = strings.TrimSpace(ref)
	if strings.ContainsAny(ref, "\t\n\r") {
		ref = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, ref)
	}
	if ref == "" || ref[0] == '#' || len(ref) > maxTarget {
		return ""
	}
	absolute := false
	if i := strings.IndexByte(ref, ':'); i > 0 && !strings.ContainsAny(ref[:i], "/?#") {
		switch strings.ToLower(ref[:i]) {
		case "http", "https":
			absolute = true
		default:
			return ""
		}
	}
	if base == nil && !absolute {
		return ref
	}
	if u := absHTTP(ref, base); u != nil {
		return u.String()
	}
	return ""
}

// parseRefresh reads the content of a meta refresh as HTML's declarative
// refresh steps do: a delay in seconds (digits, a fraction ignored), then,
// after ';' or ',' and white space, an optional "url=" (any case, spaces
// around '=') and the URL, quotes around it dropped. ok is false when the
// content is not a refresh or names no URL (a reload of the page).
func parseRefresh(s string) (delay int, ref string, ok bool) {
	i := 0
	skip := func() {
		for i < len(s) && isJSSpace(s[i]) {
			i++
		}
	}
	skip()
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if delay < 1<<20 {
			delay = delay*10 + int(s[i]-'0')
		}
		i++
	}
	if i == start && (i >= len(s) || s[i] != '.') {
		return 0, "", false
	}
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	if i < len(s) && !isJSSpace(s[i]) && s[i] != ';' && s[i] != ',' {
		return 0, "", false
	}
	skip()
	if i < len(s) && (s[i] == ';' || s[i] == ',') {
		i++
	}
	skip()
	ref = s[i:]
	if len(s)-i >= 3 && strings.EqualFold(s[i:i+3], "url") {
		j := i + 3
		for j < len(s) && isJSSpace(s[j]) {
			j++
		}
		if j < len(s) && s[j] == '=' {
			j++
			for j < len(s) && isJSSpace(s[j]) {
				j++
			}
			ref = s[j:]
		}
	}
	if ref != "" && (ref[0] == '"' || ref[0] == '\'') {
		q := ref[0]
		ref = ref[1:]
		if k := strings.IndexByte(ref, q); k >= 0 {
			ref = ref[:k]
		}
	}
	ref = strings.TrimSpace(ref)
	return delay, ref, ref != ""
}

// locationRE finds an inline script that sends the reader elsewhere: an
// assignment to location or location.href (of window, self, top, parent
// or document), or a call of location.replace or location.assign, of a
// string literal or a variable (submatch 1: the opening quote or the
// variable's name). location must not be another object's property
// (place.location = "Paris"), nor its href a string being worked on
// (location.href.replace(...)); == and != are comparisons.
var locationRE = regexp.MustCompile(`(?:^|[^\w$.])(?:(?:window|self|top|parent|document)\s*\.\s*)*location\s*(?:(?:\.\s*href\s*)?=\s*|\.\s*(?:replace|assign)\s*\(\s*)(["']|[A-Za-z_$][\w$]*)`)

// notVariables are names that locationRE may find after "location =" that
// are no variable holding a URL.
var notVariables = map[string]bool{
	"location": true, "window": true, "document": true, "self": true, "top": true, "parent": true,
	"this": true, "null": true, "undefined": true, "new": true, "true": true, "false": true,
}

// scriptLocation returns the URL an inline script sends the reader to
// (see locationRE): the first string literal assigned or passed, or the
// literal the script assigns to the variable assigned or passed, when the
// literal is the whole expression (not "/search?q=" + q); assignments in
// // comments left out.
func scriptLocation(src string) (string, bool) {
	if !strings.Contains(src, "location") {
		return "", false
	}
	for start := 0; start < len(src); {
		m := locationRE.FindStringSubmatchIndex(src[start:])
		if m == nil {
			return "", false
		}
		v := start + m[2] // the quote or the variable
		start += m[1]
		line := strings.TrimSpace(src[strings.LastIndexByte(src[:v], '\n')+1 : v])
		if strings.HasPrefix(line, "//") || strings.Contains(line, " //") {
			continue
		}
		if c := src[v]; c == '"' || c == '\'' {
			if ref, ok := wholeLiteral(src, v); ok {
				return ref, true
			}
			continue
		}
		if name := src[v:start]; !notVariables[name] {
			if ref, ok := variableLiteral(src, name); ok {
				return ref, true
			}
		}
	}
	return "", false
}

// wholeLiteral reads the string literal that opens at src[q] when it is a
// whole expression: what follows it ends the expression.
func wholeLiteral(src string, q int) (string, bool) {
	end, raw, ok := jsString(src, q)
	if !ok {
		return "", false
	}
	rest := strings.TrimLeft(src[end+1:], " \t")
	if rest != "" && !strings.ContainsRune(";)},\r\n", rune(rest[0])) {
		return "", false // an expression: "..." + x
	}
	return jsUnescape(raw), true
}

// variableLiteral returns the string literal that src first assigns to the
// variable name as a whole expression (var url = "...", url = '...').
func variableLiteral(src, name string) (string, bool) {
	for i := 0; ; {
		k := strings.Index(src[i:], name)
		if k < 0 {
			return "", false
		}
		p := i + k
		i = p + len(name)
		if p > 0 && (isIdentByte(src[p-1]) || src[p-1] == '.') || i < len(src) && isIdentByte(src[i]) {
			continue
		}
		j := i
		for j < len(src) && isJSSpace(src[j]) {
			j++
		}
		if j+1 >= len(src) || src[j] != '=' || src[j+1] == '=' {
			continue
		}
		for j++; j < len(src) && isJSSpace(src[j]); j++ {
		}
		if j < len(src) && (src[j] == '"' || src[j] == '\'') {
			if ref, ok := wholeLiteral(src, j); ok {
				return ref, true
			}
		}
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Frames.

// A frame of at least minPageWidth by minPageHeight pixels may be the page;
// one smaller is embedded in it (a video player, 560 by 315 or 640 by 360,
// a map, 600 by 450). An iframe without a size (the stylesheet sizes it)
// or sized in percent is sized as a page.
const (
	minPageWidth  = 640
	minPageHeight = 400
)

// frameTargets returns the URLs that frames (the src of <frame> or
// <iframe> elements) load (see replayTarget), each once, in page order.
func frameTargets(srcs []string, base *url.URL) []string {
	var out []string
	for _, src := range srcs {
		if to := replayTarget(src, base); to != "" && !slices.Contains(out, to) {
			out = append(out, to)
		}
	}
	return out
}

// pageFrames returns the URLs of the iframes that are a thin page of
// words visible words: the iframes shown as large as the window (width
// and height 100%), or else the one iframe shown, when the page has next
// to no words (fewer than noticeWords), no image or video, and the iframe
// is not given a small size. An iframe that is hidden, tiny (a tracker's
// 0 or 1 pixel) or loads no page (about:blank, javascript:) is not shown.
func (r *replayScan) pageFrames(words int, base *url.URL) []string {
	var shown, full []string
	small := false
	for _, f := range r.iframes {
		if f.tiny || replayTarget(f.src, base) == "" {
			continue
		}
		shown = append(shown, f.src)
		small = f.small
		if f.full {
			full = append(full, f.src)
		}
	}
	if len(full) > 0 {
		return frameTargets(full, base)
	}
	if len(shown) != 1 || words >= noticeWords || small {
		return nil
	}
	media, all := r.shownMedia()
	if !all {
		return nil
	}
	for _, m := range media {
		if !m.tiny {
			return nil
		}
	}
	return frameTargets(shown, base)
}

// tinyOrHidden reports whether an element is hidden by markup, itself or
// an ancestor (hidden: see hidden), or is a pixel: 0 or 1 pixels wide or
// high.
func tinyOrHidden(t *tag, hidden bool) bool {
	for _, dim := range [2]string{"width", "height"} {
		if v, unit, ok := frameSize(t, dim); ok && unit == "px" && v <= 1 {
			return true
		}
	}
	return hidden
}

// fullSize reports whether a frame is as wide and as high as the window:
// 100% (or 100vw, 100vh) in its attributes or inline style.
func fullSize(t *tag) bool {
	for _, dim := range [2]string{"width", "height"} {
		v, unit, ok := frameSize(t, dim)
		if !ok || v < 100 || unit != "%" && unit != "vw" && unit != "vh" {
			return false
		}
	}
	return true
}

// smallFrame reports whether a frame is given a size in pixels below a
// page's (see minPageWidth), or under 90% of the window.
func smallFrame(t *tag) bool {
	for _, dim := range [2]string{"width", "height"} {
		least := float64(minPageWidth)
		if dim == "height" {
			least = minPageHeight
		}
		if v, unit, ok := frameSize(t, dim); ok && (unit == "px" && v < least || unit == "%" && v < 90) {
			return true
		}
	}
	return false
}

// frameSize returns an element's width or height (dim) as its inline
// style (which wins) or its attribute gives it: the number and its unit
// ("px" for an attribute's bare number, "%", "vw"...).
func frameSize(t *tag, dim string) (float64, string, bool) {
	if style := t.attr("style"); style != "" {
		var val string
		for decl := range strings.SplitSeq(style, ";") {
			if k, v, ok := strings.Cut(decl, ":"); ok && strings.EqualFold(strings.TrimSpace(k), dim) {
				val = v
			}
		}
		if v, unit, ok := parseLength(strings.TrimSuffix(strings.TrimSpace(val), "!important")); ok {
			return v, unit, true
		}
	}
	return parseLength(t.attr(dim))
}

// parseLength reads a CSS or attribute length: a number and a unit, "px"
// when there is none.
func parseLength(s string) (float64, string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if i == 0 || err != nil {
		return 0, "", false
	}
	unit := strings.TrimSpace(s[i:])
	if unit == "" {
		unit = "px"
	}
	return v, unit, true
}

// fieldCount counts the words of collapsed text (see wordWriter).
func fieldCount(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(s, " ") + 1
}

// JavaScript shells.

// maxPlaceholderWords is the most words an app's mount point may show
// while its scripts load ("Loading…", "Please wait…", in any language)
// for the page to be a shell: a page rendered on the server says more,
// be it that the page was not found.
const maxPlaceholderWords = 3

// shell reports whether a thin page that embeds nothing and goes nowhere
// is a JavaScript application's shell (see Document.Shell): it runs
// scripts or has an app's mount point, and shows no words (visible
// content words, fields of them, chrome the text of its chrome), or only
// a placeholder in its mount points, and no image outside them. A
// <noscript> notice is never content, and a page without scripts is
// blank, not a shell.
func (r *replayScan) shell(words string, fields int, chrome string) bool {
	runs := len(r.mounts) > 0
	for s := range r.elements(atom.Script) {
		if runs {
			break
		}
		runs = s.kind == scriptJS
	}
	if !runs || r.showsMedia() {
		return false
	}
	if !hasWordChar(words) && !hasWordChar(chrome) {
		return true
	}
	total := fields + fieldCount(chrome)
	if len(r.mounts) == 0 || total > maxPlaceholderWords || tokenize(words+" "+chrome, 0).words > maxPlaceholderWords {
		return false
	}
	inMounts := 0
	for _, m := range r.mounts {
		if !m.nested {
			inMounts += m.words
		}
	}
	return inMounts >= total
}

// showsMedia reports whether the page shows an image, a video or the like
// outside its mount points (an image splash page runs analytics scripts
// too).
func (r *replayScan) showsMedia() bool {
	media, all := r.shownMedia()
	if !all {
		return true
	}
	for _, m := range media {
		if !m.tiny && !m.inMount {
			return true
		}
	}
	return false
}

// hasWordChar reports whether s holds a letter or a digit.
func hasWordChar(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}
