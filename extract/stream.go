package extract

import (
	"bytes"
	"hash/maphash"
	"slices"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// streamPage reads an HTML page (UTF-8) into r with one pass of the
// tokenizer and no tree: a builder follows the HTML parsing algorithm as
// x/net/html's parser implements it (its stack of open elements, list of
// active formatting elements and insertion modes) and hands r the events
// of the tree html.Parse would build, in document order, as the tree is
// built. That holds as long as the parser only ever appends to the tree;
// where it would change what it built (a node foster-parented before a
// table, misnested formatting elements adopted by a block, a <frameset>
// replacing the body, attributes of a second <body> that hide it), and
// for templates and pages nested deeper than the parser takes, streamPage
// stops and returns false: the caller parses the page instead. On the
// 1,617 distinct pages of real-1068, 11% take the parser.
func streamPage(text []byte, r *pageReader) bool {
	r.replay.src = text
	b := newBuilder(text, r)
	return b.run()
}

// whitespace is HTML's white space (what the parser trims).
const whitespace = " \t\r\n\f"

// maxOpen is the parser's limit of open elements: deeper pages are a parse
// error (see html.Parse).
const maxOpen = 512

// bElem is an element the builder has made. The stacks hold copies: an
// element is known by its id.
type bElem struct {
	tag
	id          int32
	key         uint64 // formatting elements: all attributes, for Noah's Ark
	hasChild    bool
	integration bool // an HTML integration point of foreign content
}

// Element ids count from 0; none is -1, and an entry of id -1 in the list
// of active formatting elements is a marker.
const (
	none   int32 = -1
	marker int32 = -1
)

// btoken is the builder's current token.
type btoken struct {
	typ         html.TokenType
	atom        atom.Atom
	name        string
	attrs       []html.Attribute
	key         uint64
	fontBreak   bool // a <font> with color, face or size (breaks out of foreign content)
	data        []byte
	selfClosing bool
}

// imode is an insertion mode: it handles the current token and reports
// whether it consumed it.
type imode func(*builder) bool

// builder follows the parser over one page.
type builder struct {
	z      *html.Tokenizer // while it reads (see next)
	tags   *tagTokenizer   // reads the tags readTag refuses
	text   []byte          // the page
	notRaw bool            // the current token's element is not raw text (see readRawText)
	r      *pageReader
	oe     []bElem // stack of open elements
	afe    []bElem // active formatting elements (and markers)
	dom    []int32 // the elements the reader has open: the insertion point's ancestors
	tok    btoken
	attrs  []html.Attribute
	spans  []attrSpan // where the current tag's attributes are
	seed   maphash.Seed
	im     imode
	origIM imode
	ids    int32 // ids given
	head   bElem // <head>, once made (id none before)
	form   int32

	framesetOK, fosterParenting bool
	quirks                      int8   // 1 quirks, 0 not, -1 not known yet (see isQuirks)
	doctype                     []byte // the doctype token as written

	pos           int32  // where the current token ends in the page
	tokFrom       int32  // where it starts
	pending       []byte // text not handed to the reader yet: pendBuf, or the page's bytes
	pendBuf       []byte
	textBuf       []byte // a text token's data when the page's bytes are not it (see textData)
	pendingOwned  bool   // pending is pendBuf
	textStable    bool   // the current token's text stays as it is (the page's bytes or a copy of them: not the tokenizer's, nor textBuf)
	pendingParent int32
	pendingFrom   int32 // where it is in the page when it is one token, else -1
	pendingTo     int32
	hasPending    bool
	unsafe        bool // the page needs the tree: stop
}

func newBuilder(text []byte, r *pageReader) *builder {
	return &builder{text: text, r: r, seed: maphash.MakeSeed(), im: initialIM, spans: make([]attrSpan, 0, 16),
		head: bElem{id: none}, form: none, framesetOK: true, pendingParent: none}
}

// run reads the page to its end; false when it needs the tree.
func (b *builder) run() bool {
	for !b.unsafe {
		tt := b.next()
		var raw atom.Atom // the element whose raw text comes next
		if (tt == html.StartTagToken || tt == html.SelfClosingTagToken) && readsRaw(b.tok.atom) {
			raw = b.tok.atom
		}
		b.notRaw = false
		b.parseCurrentToken()
		if tt == html.ErrorToken {
			break
		}
		switch {
		case raw == 0 || b.notRaw:
			b.z = nil // the tokenizer, if it read, is back in its data state
		case b.unsafe:
		case raw != atom.Plaintext && b.readRawText(raw):
			b.z = nil
		case b.z == nil:
			// The tokenizer reads the raw text: it reads the start tag again.
			b.z = html.NewTokenizer(bytes.NewReader(b.text[b.tokFrom:]))
			if b.z.Next() != tt || len(b.z.Raw()) != int(b.pos-b.tokFrom) {
				b.unsafe = true
			}
		}
	}
	if b.unsafe {
		return false
	}
	b.syncDom(none)
	return true
}

// readToken reads the tokenizer's current token into b.tok: what
// Tokenizer.Token gives, with only the attributes the reader looks at
// kept as strings (see readerAttr).
func (b *builder) readToken(tt html.TokenType) {
	t := &b.tok
	*t = btoken{typ: tt, attrs: b.attrs[:0]}
	switch tt {
	case html.TextToken:
		t.data = b.z.Text()
	case html.DoctypeToken:
		if b.doctype == nil {
			b.doctype = append([]byte(nil), b.z.Raw()...)
		}
	case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
		if !b.readTag(b.z.Raw(), tt == html.EndTagToken, nil) {
			t.attrs, t.key, t.fontBreak, t.atom = t.attrs[:0], 0, false, 0
			b.readTagSlow(b.z)
		}
		b.attrs = t.attrs
		if tt == html.SelfClosingTagToken {
			t.typ, t.selfClosing = html.StartTagToken, true
		}
	}
}

// readTagSlow reads the current tag with the tokenizer's TagName and
// TagAttr, which copy every name and value.
func (b *builder) readTagSlow(z *html.Tokenizer) {
	t := &b.tok
	name, more := z.TagName()
	t.setName(name)
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		b.addAttr(k, v)
	}
}

// setName sets the token's name (lower-case) and atom.
func (t *btoken) setName(name []byte) {
	if a := atom.Lookup(name); a != 0 {
		t.atom, t.name = a, a.String()
	} else {
		t.name = string(name)
	}
}

// addAttr adds an attribute (key lower-case, value unescaped) to the token.
func (b *builder) addAttr(k, v []byte) {
	t := &b.tok
	if keepsAttrs(t.atom) {
		var h maphash.Hash
		h.SetSeed(b.seed)
		h.Write(k)
		h.WriteByte(0)
		h.Write(v)
		t.key += h.Sum64()
	}
	if key := readerAttr(t.atom, k); key != "" {
		t.attrs = append(t.attrs, html.Attribute{Key: key, Val: string(v)})
	}
	switch string(k) {
	case "color", "face", "size":
		t.fontBreak = true
	}
}

// isTagSpace reports whether c ends a tag name or an attribute.
func isTagSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f'
}

// readTag reads the tag raw (as written, "<div class=x>") as the
// tokenizer reads it, without copying what the page reader does not keep;
// spans, when not nil, are where its attributes are (from tagEnd), else
// they are read here. It is false, and reads nothing, where only the
// tokenizer can tell what it makes of a name or a value (a NUL, a carriage
// return, some character references: see attrValue): the caller then asks
// the tokenizer.
func (b *builder) readTag(raw []byte, end bool, spans []attrSpan) bool {
	i := 1
	if end {
		i = 2
	}
	start := i
	for i < len(raw) && !isTagSpace(raw[i]) && raw[i] != '/' && raw[i] != '>' {
		i++
	}
	var buf [32]byte
	name, ok := lowerTagBytes(buf[:0], raw[start:i])
	if !ok {
		return false
	}
	b.tok.setName(name)
	if end {
		return true
	}
	if spans == nil {
		b.spans = attrSpans(b.spans[:0], raw, i)
		spans = b.spans
	}
	if keepsAttrs(b.tok.atom) {
		return b.readAllAttrs(raw, spans)
	}
	// Of other elements, the attributes the reader looks at: the others
	// are skipped unread (what the tokenizer would make of them matters
	// not), a key met again is the first's (as the tokenizer keeps it).
	for _, sp := range spans {
		key, val := raw[sp.k0:sp.k1], raw[sp.v0:sp.v1]
		var kbuf [16]byte
		lk, ok := lowerTagBytes(kbuf[:0], key)
		if !ok {
			if bytes.IndexByte(key, 0) >= 0 {
				return false // a NUL in a key becomes U+FFFD
			}
			continue // longer than any the reader looks at
		}
		k := readerAttr(b.tok.atom, lk)
		if k == "" || slices.ContainsFunc(b.tok.attrs, func(a html.Attribute) bool { return a.Key == k }) {
			continue
		}
		v, ok := attrValue(val)
		if !ok {
			return false
		}
		b.tok.attrs = append(b.tok.attrs, html.Attribute{Key: k, Val: string(v)})
	}
	return true
}

// readAllAttrs reads every attribute of a tag raw, at spans (of a
// formatting element, all of them go into its key for Noah's Ark): false
// where only the tokenizer can tell what it makes of one (see readTag).
func (b *builder) readAllAttrs(raw []byte, spans []attrSpan) bool {
	var keys [16][2]int // the keys read, in raw
	nkeys := 0
	for _, sp := range spans {
		key, val := raw[sp.k0:sp.k1], raw[sp.v0:sp.v1]
		var kbuf [32]byte
		lk, ok := lowerTagBytes(kbuf[:0], key)
		if !ok || nkeys == len(keys) {
			return false
		}
		v, ok := attrValue(val)
		if !ok {
			return false
		}
		if slices.ContainsFunc(keys[:nkeys], func(k [2]int) bool { return equalLowerASCII(raw[k[0]:k[1]], lk) }) {
			continue
		}
		keys[nkeys] = [2]int{int(sp.k0), int(sp.k1)}
		nkeys++
		b.addAttr(lk, v)
	}
	return true
}

// attrSpan is where an attribute's key and value are in a tag, as offsets
// from its '<' (v0 == v1 when it has no value).
type attrSpan struct{ k0, k1, v0, v1 int32 }

// spanOf is the span of the attribute whose key is s[k0:k1] and whose value
// is val (a slice of s, or nil), in the tag that starts at s[from].
func spanOf(s []byte, from, k0, k1 int, val []byte) attrSpan {
	v0 := k1
	if val != nil {
		v0 = cap(s) - cap(val)
	}
	return attrSpan{int32(k0 - from), int32(k1 - from), int32(v0 - from), int32(v0 - from + len(val))}
}

// attrSpans appends to spans where the attributes of a tag raw are, read
// from raw[i] on as the tokenizer reads them.
func attrSpans(spans []attrSpan, raw []byte, i int) []attrSpan {
	for {
		key, val, next := tagAttr(raw, i)
		if next < 0 {
			return spans
		}
		k0 := cap(raw) - cap(key)
		spans = append(spans, spanOf(raw, 0, k0, k0+len(key), val))
		i = next
	}
}

// tagAttr reads the attribute of a tag raw that starts at raw[i] or after
// white space: its key (as written, not empty), its value and where the
// next one starts; next is -1 at the end of the tag.
func tagAttr(raw []byte, i int) (key, val []byte, next int) {
	for {
		for i < len(raw) && isTagSpace(raw[i]) {
			i++
		}
		if i >= len(raw) || raw[i] == '>' {
			return nil, nil, -1
		}
		k0 := i
		for i < len(raw) {
			if c := raw[i]; c == '=' && i > k0 || isTagSpace(c) || c == '/' || c == '>' {
				break
			}
			i++
		}
		key = raw[k0:i]
		val, i = tagAttrVal(raw, i)
		if len(key) > 0 {
			return key, val, i
		}
	}
}

// tagAttrVal reads the value of an attribute whose key ends at raw[i] (as
// the tokenizer's readTagAttrVal) and returns it and where reading goes on.
func tagAttrVal(raw []byte, i int) ([]byte, int) {
	for i < len(raw) && isTagSpace(raw[i]) {
		i++
	}
	if i >= len(raw) {
		return nil, i
	}
	if raw[i] == '/' {
		return nil, i + 1
	}
	if raw[i] != '=' {
		return nil, i
	}
	i++
	for i < len(raw) && isTagSpace(raw[i]) {
		i++
	}
	if i >= len(raw) {
		return nil, i
	}
	switch q := raw[i]; q {
	case '>':
		return nil, i
	case '\'', '"':
		j := bytes.IndexByte(raw[i+1:], q)
		if j < 0 {
			return raw[i+1:], len(raw)
		}
		return raw[i+1 : i+1+j], i + 2 + j
	}
	j := i
	for j < len(raw) && !isTagSpace(raw[j]) && raw[j] != '>' {
		j++
	}
	return raw[i:j], j
}

// attrValue returns an attribute value as the tokenizer gives it, its
// character references unescaped, where that can be told without the
// tokenizer: false for a NUL (which it makes U+FFFD) or a carriage return
// (which it makes a newline), and for a reference that it may read
// otherwise in an attribute than in text (see attrRefAsInText).
func attrValue(v []byte) ([]byte, bool) {
	amp := false
	for _, c := range v {
		switch c {
		case 0, '\r':
			return nil, false
		case '&':
			amp = true
		}
	}
	if !amp {
		return v, true
	}
	for i := range v {
		if v[i] == '&' && !attrRefAsInText(v[i:]) {
			return nil, false
		}
	}
	return []byte(html.UnescapeString(string(v))), true
}

// attrRefAsInText reports whether the tokenizer reads the character
// reference that s starts ('&' and what follows) in an attribute value as
// html.UnescapeString reads it in text. They differ only for a name
// (letters and digits) not followed by ';', which in an attribute is left
// as it is before '=' and is looked up whole only, and for a name followed
// by ';' that is no reference, whose first letters text reads as one (the
// names of the references written without ';': "&ampx;" is "&x;" in
// text). So: a numeric reference, '&' before no name, a name and ';' that
// unescape whole (to one or two characters) or not at all, or a name
// without ';' that does not unescape.
func attrRefAsInText(s []byte) bool {
	if len(s) < 2 || s[1] == '#' {
		return true
	}
	i := 1
	for i < len(s) && (isASCIILetter(s[i]) || '0' <= s[i] && s[i] <= '9') {
		i++
	}
	if i == 1 {
		return true
	}
	if i < len(s) && s[i] == ';' {
		ref := string(s[:i+1])
		u := html.UnescapeString(ref)
		return u == ref || utf8.RuneCountInString(u) <= 2
	}
	ref := string(s[:i])
	return html.UnescapeString(ref) == ref
}

// equalLowerASCII reports whether s, its ASCII letters lower-cased, is
// lower.
func equalLowerASCII(s, lower []byte) bool {
	if len(s) != len(lower) {
		return false
	}
	for i, c := range s {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// lowerTagBytes appends s, its ASCII letters lower-cased, to buf: false
// when s holds NUL (which the tokenizer replaces) or does not fit.
func lowerTagBytes(buf, s []byte) ([]byte, bool) {
	if len(s) > cap(buf) {
		return nil, false
	}
	for _, c := range s {
		switch {
		case c == 0:
			return nil, false
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf, true
}

// readerAttr returns, as a constant string, an attribute key (lower-case)
// that the page reader or the builder looks at on elements named a, ""
// for the others: what hides an element or names it chrome on any
// element, and what replay reads of <meta>, <link>, <html>, <base>,
// frames, images, scripts and mount points.
func readerAttr(a atom.Atom, k []byte) string {
	switch string(k) {
	case "hidden":
		return "hidden"
	case "aria-hidden":
		return "aria-hidden"
	case "style":
		return "style"
	case "type":
		return "type"
	case "role":
		return "role"
	case "id":
		return "id"
	case "class":
		return "class"
	}
	switch a {
	case atom.Meta:
		switch string(k) {
		case "http-equiv":
			return "http-equiv"
		case "content":
			return "content"
		case "property":
			return "property"
		case "name":
			return "name"
		case "itemprop":
			return "itemprop"
		}
	case atom.Link:
		switch string(k) {
		case "rel":
			return "rel"
		case "href":
			return "href"
		}
	case atom.Html:
		switch string(k) {
		case "lang":
			return "lang"
		case "xml:lang":
			return "xml:lang"
		}
	case atom.Base:
		if string(k) == "href" {
			return "href"
		}
	case atom.Frame, atom.Iframe, atom.Script, atom.Img, atom.Video, atom.Object, atom.Embed, atom.Canvas:
		switch string(k) {
		case "src":
			return "src"
		case "width":
			return "width"
		case "height":
			return "height"
		}
	case atom.Div, atom.Main, atom.Section, atom.Span, 0:
		switch string(k) { // mountAttrs
		case "ng-app":
			return "ng-app"
		case "ng-version":
			return "ng-version"
		case "data-reactroot":
			return "data-reactroot"
		case "data-v-app":
			return "data-v-app"
		}
	case atom.AnnotationXml:
		if string(k) == "encoding" {
			return "encoding"
		}
	}
	return ""
}

// parseCurrentToken runs the current token through the insertion modes
// until one consumes it.
func (b *builder) parseCurrentToken() {
	for consumed := false; !consumed && !b.unsafe; {
		if b.inForeignContent() {
			consumed = parseForeignContent(b)
		} else {
			consumed = b.im(b)
		}
	}
	b.tok.selfClosing = false
}

// parseImpliedToken handles a token the input implies.
func (b *builder) parseImpliedToken(t html.TokenType, a atom.Atom) {
	real := b.tok
	b.tok = btoken{typ: t, atom: a, name: a.String()}
	b.parseCurrentToken()
	b.tok = real
}

// top returns the current node, nil when the stack is empty.
func (b *builder) top() *bElem {
	if len(b.oe) == 0 {
		return nil
	}
	return &b.oe[len(b.oe)-1]
}

// topID is the id of the current node, none when there is none.
func (b *builder) topID() int32 {
	if t := b.top(); t != nil {
		return t.id
	}
	return none
}

// topAtom is the atom of the current node, 0 when there is none.
func (b *builder) topAtom() atom.Atom {
	if t := b.top(); t != nil {
		return t.atom
	}
	return 0
}

// pop pops the stack of open elements.
func (b *builder) pop() bElem {
	e := b.oe[len(b.oe)-1]
	b.oe = b.oe[:len(b.oe)-1]
	return e
}

// index returns the index of element id in s, -1 when absent.
func index(s []bElem, id int32) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i].id == id {
			return i
		}
	}
	return -1
}

// remove removes element id from s.
func remove(s []bElem, id int32) []bElem {
	if i := index(s, id); i >= 0 {
		return append(s[:i], s[i+1:]...)
	}
	return s
}

// newElement makes an element of the current token (namespace ns).
func (b *builder) newElement(ns string) bElem {
	t := &b.tok
	b.ids++
	return bElem{tag: tag{atom: t.atom, name: t.name, ns: ns, attrs: t.attrs}, id: b.ids - 1, key: t.key}
}

// keepsAttrs reports whether the builder reads the attributes of an
// element named a after making it: formatting elements (reopened with
// them), <html> and <body> (given more by later tags).
func keepsAttrs(a atom.Atom) bool {
	switch a {
	case atom.A, atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I, atom.Nobr, atom.S, atom.Small,
		atom.Strike, atom.Strong, atom.Tt, atom.U, atom.Html, atom.Body:
		return true
	}
	return false
}

// setHasChild records that the open element id has a child.
func (b *builder) setHasChild(id int32) {
	if i := index(b.oe, id); i >= 0 {
		b.oe[i].hasChild = true
	}
}

// addElement adds an element of the current token to the current node (or
// its foster parent) and pushes it on the stack of open elements.
func (b *builder) addElement() { b.addChild(b.newElement("")) }

// addChild inserts element e at the insertion point and opens it.
func (b *builder) addChild(e bElem) {
	if b.shouldFosterParent() {
		b.fosterParent(&e)
	} else {
		b.appendChild(b.topID(), &e)
	}
	if len(e.attrs) > 0 {
		if keepsAttrs(e.atom) {
			e.attrs = append([]html.Attribute(nil), e.attrs...)
		} else {
			e.attrs = nil
		}
	}
	b.oe = append(b.oe, e)
	if len(b.oe) > maxOpen {
		b.unsafe = true
	}
}

// appendChild appends element e to element parent: the reader hears of
// it now, which is document order since parent is open.
func (b *builder) appendChild(parent int32, e *bElem) {
	if !b.syncDom(parent) {
		return
	}
	b.flushText()
	b.setHasChild(parent)
	b.r.start(&e.tag)
	b.dom = append(b.dom, e.id)
}

// addComment adds a comment to the current node.
func (b *builder) addComment() {
	if b.shouldFosterParent() {
		b.unsafe = true
		return
	}
	parent := b.topID()
	if !b.syncDom(parent) {
		return
	}
	b.flushText()
	if parent != none {
		b.setHasChild(parent)
		b.r.comment()
	}
}

// addText adds text to the current node (or its foster parent), merged
// with the text node before it as the parser merges them.
func (b *builder) addText(s []byte) {
	if len(s) == 0 {
		return
	}
	if b.shouldFosterParent() {
		b.unsafe = true
		return
	}
	parent := b.topID()
	if b.hasPending && b.pendingParent == parent {
		if !b.pendingOwned {
			b.pendBuf = append(b.pendBuf[:0], b.pending...)
		}
		b.pendBuf = append(b.pendBuf, s...)
		b.pending, b.pendingOwned = b.pendBuf, true
		b.pendingFrom = -1
		return
	}
	if !b.syncDom(parent) {
		return
	}
	b.flushText()
	b.setHasChild(parent)
	if b.textStable {
		b.pending, b.pendingOwned = s, false
	} else {
		b.pendBuf = append(b.pendBuf[:0], s...)
		b.pending, b.pendingOwned = b.pendBuf, true
	}
	b.pendingParent, b.hasPending = parent, true
	b.pendingFrom, b.pendingTo = -1, 0
}

// addRawText adds the text token of a raw text element (a script), whose
// text the reader may read again from the page (see replayScan.text).
func (b *builder) addRawText() {
	b.addText(b.tok.data)
	if b.hasPending && len(b.pending) == len(b.tok.data) {
		b.pendingFrom, b.pendingTo = b.tokFrom, b.pos
	}
}

// flushText hands the pending text node to the reader.
func (b *builder) flushText() {
	if b.hasPending {
		b.hasPending = false
		if b.pendingParent != none {
			b.r.textBytes(b.pending, b.pendingFrom, b.pendingTo)
		}
	}
}

// syncDom ends the elements the reader has open below parent, so that
// what comes next is parent's child. An element the reader does not have
// open is <head>, which "after head" content goes back into: its content
// is then read where it comes (<meta>, <title>, scripts and styles read
// the same anywhere). Anything else would be inserted out of document
// order, which streaming cannot do.
func (b *builder) syncDom(parent int32) bool {
	if parent != none && (len(b.dom) == 0 || b.dom[len(b.dom)-1] != parent) && slices.Index(b.dom, parent) < 0 {
		if parent == b.head.id {
			return true
		}
		b.unsafe = true
		return false
	}
	for len(b.dom) > 0 && b.dom[len(b.dom)-1] != parent {
		b.flushText()
		b.dom = b.dom[:len(b.dom)-1]
		b.r.end()
	}
	return true
}

// shouldFosterParent reports whether what is inserted next is foster
// parented: in a table, outside its cells.
func (b *builder) shouldFosterParent() bool {
	if b.fosterParenting {
		switch b.topAtom() {
		case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
			return true
		}
	}
	return false
}

// fosterParent inserts element i before the open table. Streaming can
// only do it for an empty element that shows nothing (a <br> among table
// rows): the reader counts it as a child of the table's parent, and a
// break there, which the table's own break makes no different.
func (b *builder) fosterParent(e *bElem) {
	t := &e.tag
	switch t.atom {
	case atom.Br, atom.Hr, atom.Input, atom.Wbr, atom.Keygen, atom.Param, atom.Source, atom.Track, atom.Link,
		atom.Basefont, atom.Bgsound, atom.Area:
	default:
		b.unsafe = true
		return
	}
	table := none
	for j := len(b.oe) - 1; j >= 0; j-- {
		if b.oe[j].atom == atom.Table {
			table = b.oe[j].id
			break
		}
	}
	at := slices.Index(b.dom, table)
	if at <= 0 {
		b.unsafe = true
		return
	}
	b.syncDom(b.topID())
	b.flushText()
	b.r.fosterChild(at, t)
}
