package extract

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// walk visits the subtree of root in document order without recursion (archived
// pages can nest absurdly deep). enter is called on every node reached; when
// it returns true the node's children are visited and then leave is called on
// the node. leave may be nil.
func walk(root *html.Node, enter func(*html.Node) bool, leave func(*html.Node)) {
	if root == nil {
		return
	}
	n := root
	for {
		if enter(n) {
			if n.FirstChild != nil {
				n = n.FirstChild
				continue
			}
			if leave != nil {
				leave(n)
			}
		}
		for {
			if n == root {
				return
			}
			if n.NextSibling != nil {
				n = n.NextSibling
				break
			}
			n = n.Parent
			if leave != nil {
				leave(n)
			}
		}
	}
}

// attr returns the value of the attribute key (lower-case) of n, "" if absent.
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

// hasAttr reports whether n carries the attribute key.
func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return true
		}
	}
	return false
}

// neverText are elements whose content is never page text. The parser keeps
// the content of <noscript> (scripting is on, as in a browser) and
// <noframes> as raw markup: no browser shows either.
func neverText(t *tag) bool {
	switch t.atom {
	case atom.Script, atom.Style, atom.Noscript, atom.Noframes, atom.Template, atom.Svg, atom.Math,
		atom.Iframe, atom.Object, atom.Embed, atom.Canvas, atom.Select, atom.Textarea,
		atom.Head, atom.Title, atom.Link, atom.Meta, atom.Base:
		return true
	}
	return t.ns == "svg" || t.ns == "math"
}

// neverTextNode is neverText of an element node.
func neverTextNode(n *html.Node) bool {
	t := nodeTag(n)
	return neverText(&t)
}

// inlineAtom reports whether elements named a are phrasing elements that
// do not separate words: "<b>foo</b>bar" is one word. Every other element
// is a word boundary.
func inlineAtom(a atom.Atom) bool {
	switch a {
	case atom.A, atom.Abbr, atom.B, atom.Bdi, atom.Bdo, atom.Big, atom.Cite, atom.Code,
		atom.Data, atom.Del, atom.Dfn, atom.Em, atom.Font, atom.I, atom.Ins, atom.Kbd,
		atom.Mark, atom.Nobr, atom.Q, atom.Rp, atom.Rt, atom.Ruby, atom.S, atom.Samp,
		atom.Small, atom.Span, atom.Strike, atom.Strong, atom.Sub, atom.Sup, atom.Time,
		atom.Tt, atom.U, atom.Var, atom.Wbr:
		return true
	}
	return false
}

// hidden reports whether n is hidden by markup: the hidden attribute,
// aria-hidden="true", or an inline style with display:none or
// visibility:hidden. Stylesheets are not evaluated.
func hidden(t *tag) bool {
	for _, a := range t.attrs {
		if a.Namespace != "" {
			continue
		}
		switch a.Key {
		case "hidden":
			return true
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "style":
			if styleHides(a.Val) {
				return true
			}
		case "type":
			if t.atom == atom.Input && strings.EqualFold(a.Val, "hidden") {
				return true
			}
		}
	}
	return false
}

// styleHides reports whether an inline style hides its element from a
// reader, as injected SEO spam hides itself: display:none,
// visibility:hidden, opacity:0, font-size:0, a box of no height or width
// whose overflow is cut off or that is taken out of the flow
// (position:absolute), or a box placed far off the screen (left or top
// beyond -1000px).
func styleHides(style string) bool {
	if !strings.Contains(style, ":") {
		return false
	}
	// The declarations that matter, the last of each winning.
	var display, visibility, opacity, fontSize, overflow, position, height, width, left, top, indent string
	for d := range strings.SplitSeq(strings.ToLower(style), ";") {
		k, v, ok := strings.Cut(d, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important"))
		switch strings.TrimSpace(k) {
		case "display":
			display = v
		case "visibility":
			visibility = v
		case "opacity":
			opacity = v
		case "font-size":
			fontSize = v
		case "overflow":
			overflow = v
		case "position":
			position = v
		case "height":
			height = v
		case "width":
			width = v
		case "left":
			left = v
		case "top":
			top = v
		case "text-indent":
			indent = v
		}
	}
	switch {
	case display == "none", visibility == "hidden", isZeroLength(opacity), isZeroLength(fontSize):
		return true
	}
	out := position == "absolute" || position == "fixed"
	cut := overflow == "hidden" || overflow == "auto" || overflow == "scroll" || out
	if cut && (isZeroLength(height) || isZeroLength(width)) {
		return true
	}
	if out && (farOff(left) || farOff(top) || farOff(indent)) {
		return true
	}
	return farOff(indent)
}

// isZeroLength reports whether a CSS value is a zero length or number
// ("0", "0px", "0pt", "0.0em").
func isZeroLength(v string) bool {
	if v == "" {
		return false
	}
	num := strings.TrimRight(v, "abcdefghijklmnopqrstuvwxyz%")
	if num == "" {
		return false // a keyword (auto, inherit): no number, no error to make
	}
	f, err := strconv.ParseFloat(num, 64)
	return err == nil && f == 0
}

// farOff reports whether a CSS length puts a box beyond -1000px (or -100em).
func farOff(v string) bool {
	num := strings.TrimRight(v, "abcdefghijklmnopqrstuvwxyz%")
	if num == "" {
		return false // a keyword (auto, inherit): no number, no error to make
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return false
	}
	if strings.HasSuffix(v, "em") || strings.HasSuffix(v, "rem") {
		f *= 16
	}
	return f <= -1000
}

// chromeRoles are ARIA landmark roles of site chrome.
var chromeRoles = map[string]bool{
	"navigation": true, "banner": true, "contentinfo": true, "complementary": true,
	"menu": true, "menubar": true, "search": true,
}

// chromeWholeNames are id values or class names (whole, not split at hyphens)
// that mark a site header.
var chromeWholeNames = map[string]bool{
	"header": true, "masthead": true, "site-header": true, "siteheader": true,
	"site_header": true, "topbar": true, "top-bar": true, "banner": true,
	// Abbreviations of table-layout templates.
	"hdr": true, "ftr": true,
}

// chromePrefixes and chromeSuffixes match the parts of ids and class names
// (split at hyphens, underscores and case) that mark navigation, menus,
// footers, sidebars, breadcrumbs and cookie banners.
var (
	chromePrefixes = []string{"nav", "menu", "footer", "sidebar", "breadcrumb", "cookie", "skiplink"}
	chromeSuffixes = []string{"nav", "menu", "navigation", "footer", "sidebar", "breadcrumbs", "breadcrumb"}
	notChrome      = map[string]bool{"navy": true, "navarre": true}
	// chromeParts are whole parts that name chrome ("page-ftr").
	chromeParts = map[string]bool{"hdr": true, "ftr": true, "navbar": true}
)

// chrome reports whether element t is site chrome: nav, aside, a header or
// footer that is not inside an article or section (sectioned: inside an
// article, section, main, aside or nav; HTML's own rule for the banner and
// contentinfo landmarks), a chrome ARIA role, or an id/class that clearly
// names navigation, a menu, a footer, a sidebar, breadcrumbs or a cookie
// banner. html, body, main and article are never chrome.
// names, when not nil, remembers the answers for id and class values.
func chrome(t *tag, sectioned bool, names *chromeNames) bool {
	switch t.atom {
	case atom.Html, atom.Body, atom.Main, atom.Article:
		return false
	case atom.Nav, atom.Aside:
		return true
	case atom.Header, atom.Footer:
		return !sectioned
	}
	for _, a := range t.attrs {
		if a.Namespace != "" {
			continue
		}
		switch a.Key {
		case "role":
			if chromeRoles[strings.ToLower(strings.TrimSpace(a.Val))] {
				return true
			}
		case "id", "class":
			if names.is(a.Val) {
				return true
			}
		}
	}
	return false
}

// chromeNames remembers chromeName's answers for the id and class values
// of a page, whose elements repeat them (some thousands at most), and of
// the pages read before it by the same reader (see ReaderPool).
type chromeNames map[string]bool

// maxChromeNames is how many answers a chromeNames holds (some 1 MB): it
// learns no more past it, and a ReaderPool empties it. Pages of many sites
// fill it with names of their own, some thousands every hundred pages: at
// 4096, real-1068 asked chromeName 92,000 times in 351,000; at 16,384,
// 41,000 (at 65,536, 40,000).
const maxChromeNames = 16384

// is is chromeName(v), remembered.
func (m *chromeNames) is(v string) bool {
	if m == nil {
		return chromeName(v)
	}
	c, ok := (*m)[v]
	if ok {
		return c
	}
	c = chromeName(v)
	if *m == nil {
		*m = chromeNames{}
	}
	if len(*m) < maxChromeNames {
		(*m)[v] = c
	}
	return c
}

// chromeName reports whether an id or class attribute value names chrome.
// It looks at every class name (or id) whole, lower-cased, then at its
// parts (see nameParts), without allocating: it runs on every element.
func chromeName(v string) bool {
	if v == "" || len(v) > 512 {
		return false
	}
	var buf [16]byte
	for name := range strings.FieldsSeq(v) {
		if lower, ok := lowerASCII(buf[:0], name); ok && chromeWholeNames[string(lower)] ||
			!ok && !isASCII(name) && chromeWholeNames[strings.ToLower(name)] {
			return true
		}
		chromePart := false
		nameParts(name, func(part string) bool {
			chromePart = isChromePart(part, buf[:0])
			return !chromePart
		})
		if chromePart {
			return true
		}
	}
	return false
}

// isChromePart reports whether a part of a class name (ASCII letters, any
// case) names chrome; buf is room to lower-case it.
func isChromePart(part string, buf []byte) bool {
	match := false
	for _, p := range chromePrefixes {
		if len(part) >= len(p) && equalLetters(part[:len(p)], p) {
			match = true
			break
		}
	}
	for _, s := range chromeSuffixes {
		if match {
			break
		}
		match = len(part) >= len(s) && equalLetters(part[len(part)-len(s):], s)
	}
	// The whole parts: looked up only where they may be.
	if lower, ok := lowerASCII(buf, part); ok && (match || len(part) <= 6) {
		if notChrome[string(lower)] {
			return false
		}
		match = match || chromeParts[string(lower)]
	}
	return match
}

// equalLetters reports whether s, ASCII letters of any case, is lower, of
// lower-case letters.
func equalLetters(s, lower string) bool {
	for i := 0; i < len(s); i++ {
		if s[i]|0x20 != lower[i] {
			return false
		}
	}
	return true
}

// lowerASCII appends s lower-cased to buf when s is ASCII and fits in
// buf's capacity (false otherwise).
func lowerASCII(buf []byte, s string) ([]byte, bool) {
	if len(s) > cap(buf) {
		return nil, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return nil, false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf, true
}

// isASCII reports whether s is ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// nameParts calls yield with the parts of a class name or id, split at
// '-', '_', digits and any character but ASCII letters, and at
// lower-to-upper case changes ("mainNav-2" gives "main", "Nav"), until
// yield returns false. Parts keep their case.
func nameParts(s string, yield func(string) bool) {
	start := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		isLower := c >= 'a' && c <= 'z'
		isUpper := c >= 'A' && c <= 'Z'
		if !isLower && !isUpper {
			if start >= 0 {
				if !yield(s[start:i]) {
					return
				}
				start = -1
			}
			continue
		}
		if isUpper && start >= 0 && s[i-1] >= 'a' && s[i-1] <= 'z' {
			if !yield(s[start:i]) {
				return
			}
			start = -1
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		yield(s[start:])
	}
}

// pageWords returns the visible text under root (hidden elements and what
// is never text left out) split in two, each with its white space collapsed
// (see wordWriter) and at most maxWords words (0: no cap): the content, with
// its word count, and the text of the site's chrome (navigation, header,
// footer, sidebars: see chrome). Text nodes are separated at element
// boundaries (inline elements excepted) so that block elements never glue
// words.
func pageWords(root *html.Node, maxWords int) (content string, n int, chromeText string) {
	r := newPageReader(maxWords)
	readTree(root, r)
	pt := r.finish()
	return pt.content, pt.fields, pt.chrome
}

// crawlInfo is what a crawl needs of the parsed page besides its text.
type crawlInfo struct {
	elements int      // element count after pruning
	depth    int      // maximum element depth
	scan     pageScan // dates and links, gathered before pruning
}

// inspectAndPrune gathers what publication dates and links need (info.scan,
// when scan is set), counts the elements and the depth of the tree, and
// removes from the tree what never holds page text and only costs time
// later (scripts, styles, JSON-LD, noscript, noframes, templates, SVG,
// comments), so that readability's clones and scoring run on a smaller
// tree. It visits what pageReader inspects (see inspectLeaf).
func inspectAndPrune(doc *html.Node, scan bool) crawlInfo {
	var info crawlInfo
	var remove []*html.Node
	depth := 0
	enter := func(n *html.Node) bool {
		switch n.Type {
		case html.CommentNode, html.DoctypeNode:
			remove = append(remove, n)
			return false
		case html.DocumentNode:
			return true
		case html.ElementNode:
		default:
			return false
		}
		if scan {
			info.scan.element(n)
		}
		switch n.DataAtom {
		case atom.Title, atom.Meta:
			return false
		case atom.Script, atom.Noscript, atom.Noframes, atom.Style, atom.Template, atom.Svg, atom.Math, atom.Link:
			remove = append(remove, n)
			return false
		}
		info.elements++
		depth++
		if depth > info.depth {
			info.depth = depth
		}
		return true
	}
	leave := func(n *html.Node) {
		if n.Type == html.ElementNode {
			depth--
		}
	}
	walk(doc, enter, leave)
	for _, n := range remove {
		if n.Parent != nil {
			n.Parent.RemoveChild(n)
		}
	}
	return info
}

// nodeText concatenates the text nodes under n.
func nodeText(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) bool {
		if c.Type == html.TextNode {
			if b.Len() < 4096 {
				b.WriteString(c.Data)
			}
			return false
		}
		return true
	}, nil)
	return b.String()
}

// collapse collapses runs of white space to single spaces, trims, and caps
// the result at max bytes (dropping a rune cut in two).
func collapse(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		s = strings.ToValidUTF8(s[:max], "")
	}
	return s
}
