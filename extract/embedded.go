package extract

import (
	"encoding/json"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Caps on what a thin page's embedded data may cost.
const (
	// maxBlob caps the bytes of one script, JSON document or state object
	// that is read (the longer are cut: their JSON then fails and their
	// string literals are harvested).
	maxBlob = 1 << 20
	// maxEmbeddedBytes caps the bytes of embedded data read for one page.
	maxEmbeddedBytes = 4 << 20
	// maxEmbeddedStrings caps the strings kept from one page's data.
	maxEmbeddedStrings = 1000
	// maxJSONTokens caps the tokens of one JSON document decoded.
	maxJSONTokens = 1 << 18
	// maxProse caps the bytes of one string read as prose.
	maxProse = 1 << 17
	// minProseWords is the fewest words a string of embedded data needs to
	// read as prose; minLeadWords those of a title (a headline, the name
	// of a JSON-LD main entity).
	minProseWords = 3
	minLeadWords  = 2
)

// harvest gathers the text of a page's embedded data: strings that read as
// prose (see proseText), in page order, each once, none that the page's
// visible text holds already.
type harvest struct {
	visible string          // the page's own (thin) visible text
	seen    map[string]bool // strings kept
	read    map[string]bool // strings read, as the data has them
	w       wordWriter      // the text gathered
	kept    int             // strings kept
	budget  int             // bytes of data left to read
	from    []string        // the sources that gave text, in order
}

// newHarvest returns a harvest of at most maxWords (> 0) words.
func newHarvest(visible string, maxWords int) *harvest {
	return &harvest{visible: visible, seen: map[string]bool{}, read: map[string]bool{}, w: wordWriter{max: maxWords}, budget: maxEmbeddedBytes}
}

// done reports whether the harvest is full.
func (h *harvest) done() bool { return h.w.full || h.kept >= maxEmbeddedStrings }

// source runs read, which harvests one source, and records name when it
// added text.
func (h *harvest) source(name string, read func()) {
	if h.done() {
		return
	}
	n := h.w.n
	read()
	if h.w.n > n {
		h.from = append(h.from, name)
	}
}

// take returns at most maxBlob bytes of a source of data, "" when the
// page's budget is spent.
func (h *harvest) take(src string) string {
	if h.done() || h.budget <= 0 {
		return ""
	}
	src = prefix(src, min(maxBlob, h.budget))
	h.budget -= len(src)
	return src
}

// add keeps s when it reads as prose of at least minWords words, and
// reports whether it did.
func (h *harvest) add(s string, minWords int) bool {
	if h.done() || h.read[s] {
		return false
	}
	h.read[s] = true
	t, ok := proseText(s, minWords)
	if !ok || h.seen[t] || strings.Contains(h.visible, t) {
		return false
	}
	h.seen[t] = true
	h.kept++
	h.w.brk()
	h.w.write(t)
	h.w.brk()
	return true
}

// markup harvests the text of raw markup (the content of <noscript> or
// <noframes>) when it is more than a notice (see noticeWords).
func (h *harvest) markup(raw string) {
	raw = h.take(raw)
	if strings.TrimSpace(raw) == "" {
		return
	}
	ctx := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(raw), ctx)
	if err != nil {
		return
	}
	holder := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	for _, c := range nodes {
		holder.AppendChild(c)
	}
	text, _, _ := pageWords(holder, 0)
	if tokenize(text, 0).words < noticeWords || h.seen[text] || strings.Contains(h.visible, text) {
		return
	}
	h.seen[text] = true
	h.kept++
	h.w.brk()
	h.w.write(text)
	h.w.brk()
}

// jsonScriptBody trims what pages wrap the JSON of a script in: HTML
// comments and CDATA sections.
func jsonScriptBody(src string) string {
	s := strings.TrimSpace(src)
	s = strings.TrimPrefix(s, "<!--")
	s = strings.TrimSuffix(s, "-->")
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "//<![CDATA[")
	s = strings.TrimSuffix(s, "//]]>")
	return strings.TrimSpace(s)
}

// jsonLDTextRE finds the text properties of JSON-LD that does not decode.
var jsonLDTextRE = regexp.MustCompile(`"(headline|description|articleBody|text)"\s*:\s*"((?:[^"\\]|\\.)*)"`)

// jsonLD harvests a JSON-LD script: see jsonLDWalkText. JSON-LD that does
// not decode gives the headline, description, articleBody and text
// string values it holds.
func (h *harvest) jsonLD(src string) {
	src = h.take(src)
	if !strings.Contains(src, `"`) {
		return
	}
	if v, err := decodeOrdered(jsonScriptBody(src)); err == nil {
		h.jsonLDNode(v, true)
		return
	}
	for _, m := range jsonLDTextRE.FindAllStringSubmatch(src, -1) {
		least := minProseWords
		if m[1] == "headline" {
			least = minLeadWords
		}
		h.add(jsUnescape(m[2]), least)
		if h.done() {
			return
		}
	}
}

// siteTypes are the JSON-LD types that describe the site, its publisher
// and its navigation rather than the page: what every page of a site,
// its error pages too, carries the same.
var siteTypes = map[string]bool{
	"WebSite": true, "Organization": true, "Corporation": true, "NewsMediaOrganization": true,
	"EducationalOrganization": true, "GovernmentOrganization": true, "NGO": true,
	"BreadcrumbList": true, "SiteNavigationElement": true, "WPHeader": true, "WPFooter": true,
	"WPSideBar": true, "WPAdBlock": true, "SearchAction": true, "EntryPoint": true,
	"ContactPoint": true, "PostalAddress": true,
}

// whoKeys are the JSON-LD properties that say who made or publishes a
// work (an author's biography is not the page), or what can be done.
var whoKeys = map[string]bool{
	"author": true, "publisher": true, "creator": true, "contributor": true, "editor": true,
	"copyrightHolder": true, "sourceOrganization": true, "provider": true, "brand": true,
	"potentialAction": true, "breadcrumb": true, "@context": true,
}

// jsonLDNode harvests the JSON-LD node v, depth first in document order:
// of every object that is not of a site type (siteTypes), its description
// (unless its articleBody or text holds it), articleBody and text, led by
// its headline, or the name of a main entity (a top-level or @graph node,
// a mainEntity), as a title; then the objects it holds.
func (h *harvest) jsonLDNode(v *jsonNode, main bool) {
	switch v.kind {
	case jsonArray:
		for _, c := range v.kids {
			h.jsonLDNode(c, main)
		}
	case jsonObject:
		if t := v.get("@type"); t != nil {
			for _, s := range t.strings() {
				if i := strings.LastIndexAny(s, "/:#"); i >= 0 {
					s = s[i+1:]
				}
				if siteTypes[s] {
					return
				}
			}
		}
		var body, texts []string
		for i, k := range v.keys {
			if k == "articleBody" || k == "text" {
				body = append(body, v.kids[i].strings()...)
			}
		}
		for i, k := range v.keys {
			switch k {
			case "description":
				for _, s := range v.kids[i].strings() {
					if t, ok := proseText(s, minProseWords); ok && !containedIn(t, body) {
						texts = append(texts, t)
					}
				}
			case "articleBody", "text":
				texts = append(texts, v.kids[i].strings()...)
			}
		}
		// The title leads the entity's text in: alone it is the page's
		// title again ("Page not found", "Log in").
		if h.fresh(texts) {
			lead := v.get("headline")
			if lead == nil && main {
				lead = v.get("name")
			}
			if lead != nil {
				for _, s := range lead.strings() {
					h.add(s, minLeadWords)
				}
			}
			for _, t := range texts {
				h.add(t, minProseWords)
			}
		}
		for i, k := range v.keys {
			if h.done() {
				return
			}
			switch {
			case k == "@graph" || k == "mainEntity":
				h.jsonLDNode(v.kids[i], true)
			case k == "headline" || k == "name" || k == "description" || k == "articleBody" || k == "text" || whoKeys[k]:
			default:
				h.jsonLDNode(v.kids[i], false)
			}
		}
	}
}

// fresh reports whether one of texts reads as prose that the harvest has
// not kept and the page does not show.
func (h *harvest) fresh(texts []string) bool {
	for _, s := range texts {
		if t, ok := proseText(s, minProseWords); ok && !h.seen[t] && !strings.Contains(h.visible, t) {
			return true
		}
	}
	return false
}

// containedIn reports whether one of texts (raw, as the data has them)
// holds the prose t.
func containedIn(t string, texts []string) bool {
	for _, s := range texts {
		if b, ok := proseText(s, 1); ok && strings.Contains(b, t) {
			return true
		}
	}
	return false
}

// stateSkipKeys are keys of framework state whose values are never the
// page's text: identifiers, links, styles and class names, image alt
// text, and the translation tables of the interface.
var stateSkipKeys = map[string]bool{
	"id": true, "key": true, "slug": true, "url": true, "href": true, "src": true, "srcset": true,
	"uri": true, "path": true, "hash": true, "token": true, "__typename": true, "classname": true,
	"class": true, "classes": true, "style": true, "styles": true, "css": true, "icon": true,
	"alt": true, "i18n": true, "translations": true, "locales": true, "localization": true,
	"intl": true, "dictionary": true,
}

// state harvests a JSON data script (application/json): see stateJSON.
func (h *harvest) state(src string) {
	src = h.take(src)
	if strings.Contains(src, `"`) {
		h.stateJSON(jsonScriptBody(src))
	}
}

// stateJSON harvests the strings of a framework's state s that read as
// prose, in document order, none under stateSkipKeys, and stops when the
// harvest is full. JSON that encoding/json finds valid is read by a scan
// of its strings, which keeps their order at a fraction of the cost of
// decoding it (its tokenizer allocates for every value); what is not JSON
// (a JavaScript object literal: unquoted keys, undefined, trailing commas)
// gives its string literals (see literals).
func (h *harvest) stateJSON(s string) {
	if !json.Valid([]byte(s)) {
		h.literals(s, 0)
		return
	}
	type frame struct {
		object bool
		key    string // the key of the value being read (an array's: its own)
		skip   bool   // the container is under a skipped key
	}
	var stack []frame
	for i := 0; i < len(s) && !h.done(); {
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		skip := top != nil && (top.skip || stateSkipKeys[strings.ToLower(top.key)])
		switch s[i] {
		case '{', '[':
			f := frame{object: s[i] == '{', skip: skip}
			if s[i] == '[' && top != nil {
				f.key = top.key
			}
			stack = append(stack, f)
			i++
		case '}', ']':
			stack = stack[:len(stack)-1]
			i++
		case '"':
			end, raw, _ := jsString(s, i) // valid JSON: closed, escapes JSON's
			i = end + 1
			j := i
			for j < len(s) && isJSSpace(s[j]) {
				j++
			}
			if top != nil && top.object && j < len(s) && s[j] == ':' {
				top.key, i = jsUnescape(raw), j+1
				continue
			}
			if !skip {
				h.add(jsUnescape(raw), minProseWords)
			}
		default: // numbers, true, false, null, commas, white space
			i++
		}
	}
}

// stateAssignRE finds where an inline script assigns a global or declares
// a variable: window.X =, window["X"] =, self.X =, globalThis.X =, var,
// let or const X =. The submatches name X.
var stateAssignRE = regexp.MustCompile(`(?:\b(?:window|self|globalThis)\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*["']([A-Za-z_$][\w$]*)["']\s*\])|\b(?:var|let|const)\s+([A-Za-z_$][\w$]*))\s*=[^=]`)

// inlineState harvests the state an inline script assigns: an object
// literal (window.__INITIAL_STATE__ = {...}, var data = {...}), read as
// JSON or, where it is not JSON, by its string literals; JSON.parse of a
// string literal; and, for the frameworks' __NAME__ globals, whatever
// expression makes them (Nuxt's __NUXT__ is a function call).
func (h *harvest) inlineState(src string) {
	if !strings.Contains(src, "=") {
		return
	}
	src = h.take(src)
	for start := 0; start < len(src) && !h.done(); {
		m := stateAssignRE.FindStringSubmatchIndex(src[start:])
		if m == nil {
			return
		}
		name := ""
		for i := 2; i < len(m); i += 2 {
			if m[i] >= 0 {
				name = src[start+m[i] : start+m[i+1]]
			}
		}
		i := start + m[1] - 1 // the character after '='
		for i < len(src) && isJSSpace(src[i]) {
			i++
		}
		end := i + 1
		switch {
		case i >= len(src):
		case src[i] == '{':
			expr := jsExpr(src, i)
			end = i + len(expr)
			h.stateJSON(h.take(expr))
		case strings.HasPrefix(src[i:], "JSON.parse("):
			j := i + len("JSON.parse(")
			for j < len(src) && isJSSpace(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '"' || src[j] == '\'') {
				k, raw, ok := jsString(src, j)
				end = k + 1
				if blob := h.take(raw); ok && blob != "" {
					h.stateJSON(jsUnescape(blob))
				}
			}
		case len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__"):
			expr := jsExpr(src, i)
			end = i + len(expr)
			h.literals(h.take(expr), 0)
		}
		start = max(end, start+m[1])
	}
}

// literals harvests the string literals of JavaScript (or of JSON that
// does not decode): those that read as prose; one that does not but
// holds quoted strings itself (serialized JSON) is searched in turn,
// depth counting how deep.
func (h *harvest) literals(src string, depth int) {
	for i := 0; i < len(src) && !h.done(); i++ {
		switch c := src[i]; c {
		case '"', '\'':
			j, raw, ok := jsString(src, i)
			i = j
			if !ok {
				continue
			}
			s := jsUnescape(raw)
			if !h.add(s, minProseWords) && depth < 2 && len(s) > 16 && strings.ContainsAny(s, `"'`) {
				h.literals(s, depth+1)
			}
		case '`':
			if j := strings.IndexByte(src[i+1:], '`'); j >= 0 {
				i += j + 1
			} else {
				return
			}
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
					i += j
				} else {
					return
				}
			} else if i+1 < len(src) && src[i+1] == '*' {
				if j := strings.Index(src[i+2:], "*/"); j >= 0 {
					i += j + 3
				} else {
					return
				}
			}
		}
	}
}

// proseText returns s as a reader would read it (HTML in it reduced to its
// text, entities decoded, white space collapsed, URLs left out) and
// whether it reads as prose: at least minWords words (one per two letters
// of a script written without spaces, as tokenize counts), seven
// characters in ten letters (in any script), no character of code
// ({}<>=\|`^~_), at most half of the words identifiers (snake_case,
// kebab-case, camelCase, dotted names, which class lists and keys are
// made of), and not a CSS declaration list. Dates, numbers, ids, URLs,
// class names and code do not read as prose.
func proseText(s string, minWords int) (string, bool) {
	if len(s) < minWords {
		return "", false
	}
	s = prefix(s, maxProse)
	if looksLikeHTML(s) {
		s = htmlText(s)
	} else if strings.IndexByte(s, '&') >= 0 {
		s = html.UnescapeString(s)
	}
	var w wordWriter
	fields, spaced, idents := 0, 0, 0
	letters, others, unspacedLetters, colons, semicolons := 0, 0, 0, 0, 0
	for f := range strings.FieldsSeq(s) {
		if urlLike(f) {
			continue
		}
		fields++
		hasUnspaced, ident := false, false
		var prev rune
		prevClass := 0 // 0: none, 1: lower-case letter, 2: other letter, 3: digit, 4: joiner (- _ .)
		for _, r := range f {
			class := 0
			switch {
			case unicode.IsLetter(r) || unicode.IsMark(r):
				letters++
				if unspaced(r) {
					unspacedLetters++
					hasUnspaced = true
				}
				class = 2
				if unicode.IsLower(r) {
					class = 1
				} else if prevClass == 1 && unicode.IsUpper(r) {
					ident = true // camelCase
				}
			default:
				others++
				switch r {
				case '{', '}', '<', '>', '=', '\\', '|', '`', '^', '~', '_':
					return "", false
				case ':':
					colons++
				case ';':
					semicolons++
				}
				if unicode.IsDigit(r) {
					class = 3
				} else if r == '-' || r == '.' {
					class = 4
				}
			}
			if class != 4 && class != 0 && prevClass == 4 && (prev == '-' || prev == '.') {
				ident = true // kebab-case, dotted.name, 1.5
			}
			prev, prevClass = r, class
		}
		if ident {
			idents++
		}
		if !hasUnspaced {
			spaced++
		}
		w.write(f)
		w.brk()
	}
	words := spaced + (unspacedLetters+1)/2
	// Style rules hold a colon and a semicolon every word or two; prose
	// that quotes ("he said: ...; she said: ...") far fewer.
	css := colons >= 2 && semicolons >= 1 && (colons+semicolons)*4 >= fields
	if words < minWords || letters*10 < (letters+others)*7 || idents*2 > fields || css {
		return "", false
	}
	return w.b.String(), true
}

// urlLike reports whether a word is a URL or an e-mail address.
func urlLike(f string) bool {
	return strings.Contains(f, "://") || strings.HasPrefix(f, "www.") || strings.HasPrefix(f, "//") ||
		strings.IndexByte(f, '@') > 0 && strings.IndexByte(f, '.') > 0
}

// looksLikeHTML reports whether s holds a tag: '<' before a letter, '/'
// or '!'.
func looksLikeHTML(s string) bool {
	for i := strings.IndexByte(s, '<'); i >= 0 && i+1 < len(s); {
		c := s[i+1] | 0x20
		if c >= 'a' && c <= 'z' || s[i+1] == '/' || s[i+1] == '!' {
			return true
		}
		j := strings.IndexByte(s[i+1:], '<')
		if j < 0 {
			return false
		}
		i += j + 1
	}
	return false
}

// htmlText returns the text of an HTML snippet, entities decoded, words
// separated at the elements that separate them (see inline), scripts and
// styles left out.
func htmlText(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var w wordWriter
	skip := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return w.b.String()
		case html.TextToken:
			if skip == 0 {
				w.write(string(z.Text()))
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch a {
			case atom.Script, atom.Style, atom.Template, atom.Noscript:
				if z.Token().Type == html.StartTagToken {
					skip++
				} else if skip > 0 {
					skip--
				}
			}
			if !inlineAtom(a) {
				w.brk()
			}
		}
	}
}
