package extract

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The insertion modes up to "in body", after x/net/html's parse.go
// (sections 12.2.6.4.1-8 of the HTML standard), element for element: what
// differs is that nodes are handed to the reader rather than linked into a
// tree, and that templates, which the detection of off-topic pages never
// reads, are left to the parser.

// Scopes (section 12.2.4.2).
const (
	defaultScope = iota
	listItemScope
	buttonScope
	tableScope
	tableRowScope
	tableBodyScope
)

// scopeStop reports whether element e ends the default (and list item and
// button) scopes.
func scopeStop(e *bElem) bool {
	switch e.ns {
	case "":
		switch e.atom {
		case atom.Applet, atom.Caption, atom.Html, atom.Table, atom.Td, atom.Th, atom.Marquee, atom.Object,
			atom.Template, atom.Select:
			return true
		}
	case "math":
		switch e.atom {
		case atom.AnnotationXml, atom.Mi, atom.Mn, atom.Mo, atom.Ms, atom.Mtext:
			return true
		}
	case "svg":
		switch e.atom {
		case atom.Desc, atom.ForeignObject, atom.Title:
			return true
		}
	}
	return false
}

// indexInScope returns the index in the stack of the highest element named
// one of match that is in scope s, -1 when none is.
func (b *builder) indexInScope(s int, match ...atom.Atom) int {
	for i := len(b.oe) - 1; i >= 0; i-- {
		e := &b.oe[i]
		if e.ns == "" {
			for _, t := range match {
				if t == e.atom {
					return i
				}
			}
			switch s {
			case listItemScope:
				if e.atom == atom.Ol || e.atom == atom.Ul {
					return -1
				}
			case buttonScope:
				if e.atom == atom.Button {
					return -1
				}
			case tableScope:
				if e.atom == atom.Html || e.atom == atom.Table || e.atom == atom.Template {
					return -1
				}
			}
		}
		if s <= buttonScope && scopeStop(e) {
			return -1
		}
	}
	return -1
}

func (b *builder) inScope(s int, match ...atom.Atom) bool { return b.indexInScope(s, match...) >= 0 }

// popUntil pops the stack down to the highest element named one of match
// in scope s, that element included; false (nothing popped) when none is.
func (b *builder) popUntil(s int, match ...atom.Atom) bool {
	if i := b.indexInScope(s, match...); i >= 0 {
		b.oe = b.oe[:i]
		return true
	}
	return false
}

// clearStackToContext pops elements until one that ends scope s.
func (b *builder) clearStackToContext(s int) {
	for i := len(b.oe) - 1; i >= 0; i-- {
		a := b.oe[i].atom
		switch {
		case a == atom.Html || a == atom.Template,
			s == tableScope && a == atom.Table,
			s == tableRowScope && a == atom.Tr,
			s == tableBodyScope && (a == atom.Tbody || a == atom.Tfoot || a == atom.Thead):
			b.oe = b.oe[:i+1]
			return
		}
	}
}

// generateImpliedEndTags pops dd, dt, li, optgroup, option, p, rb, rp, rt
// and rtc elements, except those named except.
func (b *builder) generateImpliedEndTags(except ...string) {
	i := len(b.oe) - 1
loop:
	for ; i >= 0; i-- {
		e := &b.oe[i]
		switch e.atom {
		case atom.Dd, atom.Dt, atom.Li, atom.Optgroup, atom.Option, atom.P, atom.Rb, atom.Rp, atom.Rt, atom.Rtc:
			for _, x := range except {
				if e.name == x {
					break loop
				}
			}
			continue
		}
		break
	}
	b.oe = b.oe[:i+1]
}

// special reports whether element e has special parsing rules.
func special(e *bElem) bool {
	switch e.ns {
	case "":
		return specialAtom(e.atom)
	case "math":
		switch e.name {
		case "mi", "mo", "mn", "ms", "mtext", "annotation-xml":
			return true
		}
	case "svg":
		switch e.name {
		case "foreignObject", "desc", "title":
			return true
		}
	}
	return false
}

// specialAtom reports whether HTML elements named a are special.
func specialAtom(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Applet, atom.Area, atom.Article, atom.Aside, atom.Base, atom.Basefont, atom.Bgsound,
		atom.Blockquote, atom.Body, atom.Br, atom.Button, atom.Caption, atom.Center, atom.Col, atom.Colgroup,
		atom.Dd, atom.Details, atom.Dir, atom.Div, atom.Dl, atom.Dt, atom.Embed, atom.Fieldset, atom.Figcaption,
		atom.Figure, atom.Footer, atom.Form, atom.Frame, atom.Frameset, atom.H1, atom.H2, atom.H3, atom.H4,
		atom.H5, atom.H6, atom.Head, atom.Header, atom.Hgroup, atom.Hr, atom.Html, atom.Iframe, atom.Img,
		atom.Input, atom.Keygen, atom.Li, atom.Link, atom.Listing, atom.Main, atom.Marquee, atom.Menu, atom.Meta,
		atom.Nav, atom.Noembed, atom.Noframes, atom.Noscript, atom.Object, atom.Ol, atom.P, atom.Param,
		atom.Plaintext, atom.Pre, atom.Script, atom.Section, atom.Select, atom.Source, atom.Style, atom.Summary,
		atom.Table, atom.Tbody, atom.Td, atom.Template, atom.Textarea, atom.Tfoot, atom.Th, atom.Thead,
		atom.Title, atom.Tr, atom.Track, atom.Ul, atom.Wbr, atom.Xmp:
		return true
	}
	return false
}

// addFormattingElement adds a formatting element of the current token and
// records it in the list of active formatting elements, keeping at most
// three of the same name and attributes after the last marker (Noah's
// Ark).
func (b *builder) addFormattingElement() {
	a, key := b.tok.atom, b.tok.key
	b.addElement()
	identical := 0
	for i := len(b.afe) - 1; i >= 0; i-- {
		e := &b.afe[i]
		if e.id == marker {
			break
		}
		if e.ns == "" && e.atom == a && e.key == key {
			if identical++; identical >= 3 {
				b.afe = remove(b.afe, e.id)
			}
		}
	}
	b.afe = append(b.afe, *b.top())
}

// clearActiveFormattingElements clears the list down to the last marker.
func (b *builder) clearActiveFormattingElements() {
	for len(b.afe) > 0 {
		n := b.afe[len(b.afe)-1].id
		b.afe = b.afe[:len(b.afe)-1]
		if len(b.afe) == 0 || n == marker {
			return
		}
	}
}

// reconstructActiveFormattingElements reopens the formatting elements
// that were closed (by a block, a cell...) before what they format ended.
func (b *builder) reconstructActiveFormattingElements() {
	if len(b.afe) == 0 {
		return
	}
	n := b.afe[len(b.afe)-1].id
	if n == marker || index(b.oe, n) >= 0 {
		return
	}
	i := len(b.afe) - 1
	for n != marker && index(b.oe, n) < 0 {
		if i == 0 {
			i = -1
			break
		}
		i--
		n = b.afe[i].id
	}
	for {
		i++
		old := &b.afe[i]
		b.ids++
		clone := bElem{tag: tag{atom: old.atom, name: old.name, attrs: old.attrs}, id: b.ids - 1, key: old.key}
		b.addChild(clone)
		b.afe[i] = *b.top()
		if i == len(b.afe)-1 || b.unsafe {
			break
		}
	}
}

// resetInsertionMode (section 12.2.4.1).
func (b *builder) resetInsertionMode() {
	for i := len(b.oe) - 1; i >= 0; i-- {
		e := &b.oe[i]
		switch e.atom {
		case atom.Td, atom.Th:
			b.im = inCellIM
		case atom.Tr:
			b.im = inRowIM
		case atom.Tbody, atom.Thead, atom.Tfoot:
			b.im = inTableBodyIM
		case atom.Caption:
			b.im = inCaptionIM
		case atom.Colgroup:
			b.im = inColumnGroupIM
		case atom.Table:
			b.im = inTableIM
		case atom.Template:
			if e.ns != "" {
				continue
			}
			b.unsafe = true
		case atom.Head:
			b.im = inHeadIM
		case atom.Body:
			b.im = inBodyIM
		case atom.Frameset:
			b.im = inFramesetIM
		case atom.Html:
			if b.head.id == none {
				b.im = beforeHeadIM
			} else {
				b.im = afterHeadIM
			}
		default:
			if i == 0 {
				b.im = inBodyIM
				return
			}
			continue
		}
		return
	}
}

// isQuirks reports whether the page is read in quirks mode (which only
// decides whether a <table> closes an open <p>): a page without a
// doctype, or with one the parser reads as such. The parser's reading of
// a doctype is learnt by parsing it before "<p><table>".
func (b *builder) isQuirks() bool {
	if b.quirks < 0 {
		b.quirks = 0
		doc, err := html.Parse(bytes.NewReader(append(b.doctype, "<p><table>"...)))
		if err == nil {
			walk(doc, func(n *html.Node) bool {
				if n.DataAtom == atom.Table && n.Parent != nil && n.Parent.DataAtom == atom.P {
					b.quirks = 1
				}
				return true
			}, nil)
		}
	}
	return b.quirks == 1
}

// trimWS returns s without leading HTML white space.
func trimWS(s []byte) []byte {
	return bytes.TrimLeft(s, whitespace)
}

// Section 12.2.6.4.1.
func initialIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		b.tok.data = trimWS(b.tok.data)
		if len(b.tok.data) == 0 {
			return true
		}
	case html.CommentToken:
		return true
	case html.DoctypeToken:
		b.quirks = -1
		b.im = beforeHTMLIM
		return true
	}
	b.quirks = 1
	b.im = beforeHTMLIM
	return false
}

// Section 12.2.6.4.2.
func beforeHTMLIM(b *builder) bool {
	switch b.tok.typ {
	case html.DoctypeToken, html.CommentToken:
		return true
	case html.TextToken:
		b.tok.data = trimWS(b.tok.data)
		if len(b.tok.data) == 0 {
			return true
		}
	case html.StartTagToken:
		if b.tok.atom == atom.Html {
			b.addElement()
			b.im = beforeHeadIM
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Head, atom.Body, atom.Html, atom.Br:
			b.parseImpliedToken(html.StartTagToken, atom.Html)
			return false
		}
		return true
	}
	b.parseImpliedToken(html.StartTagToken, atom.Html)
	return false
}

// Section 12.2.6.4.3.
func beforeHeadIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		b.tok.data = trimWS(b.tok.data)
		if len(b.tok.data) == 0 {
			return true
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Head:
			b.addElement()
			b.head = *b.top()
			b.im = inHeadIM
			return true
		case atom.Html:
			return inBodyIM(b)
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Head, atom.Body, atom.Html, atom.Br:
			b.parseImpliedToken(html.StartTagToken, atom.Head)
			return false
		}
		return true
	case html.CommentToken:
		b.addComment()
		return true
	case html.DoctypeToken:
		return true
	}
	b.parseImpliedToken(html.StartTagToken, atom.Head)
	return false
}

// splitWS adds the leading white space of a text token to the current
// node and leaves the rest as the token; true when nothing is left.
func (b *builder) splitWS() bool {
	s := trimWS(b.tok.data)
	if len(s) < len(b.tok.data) {
		b.addText(b.tok.data[:len(b.tok.data)-len(s)])
		if len(s) == 0 {
			return true
		}
		b.tok.data = s
	}
	return false
}

// Section 12.2.6.4.4.
func inHeadIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		if b.splitWS() {
			return true
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Html:
			return inBodyIM(b)
		case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta:
			b.addElement()
			b.pop()
			return true
		case atom.Noscript, atom.Noframes, atom.Style, atom.Script, atom.Title:
			b.addElement()
			b.origIM, b.im = b.im, textIM
			return true
		case atom.Head:
			return true
		case atom.Template:
			b.unsafe = true
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Head:
			b.pop()
			b.im = afterHeadIM
			return true
		case atom.Body, atom.Html, atom.Br:
			b.parseImpliedToken(html.EndTagToken, atom.Head)
			return false
		}
		return true // </template> closes no template: none is open
	case html.CommentToken:
		b.addComment()
		return true
	case html.DoctypeToken:
		return true
	}
	b.parseImpliedToken(html.EndTagToken, atom.Head)
	return false
}

// Section 12.2.6.4.6.
func afterHeadIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		if b.splitWS() {
			return true
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Html:
			return inBodyIM(b)
		case atom.Body:
			b.addElement()
			b.framesetOK = false
			b.im = inBodyIM
			return true
		case atom.Frameset:
			b.addElement()
			b.im = inFramesetIM
			return true
		case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes, atom.Script, atom.Style,
			atom.Template, atom.Title:
			b.oe = append(b.oe, b.head)
			defer func() { b.oe = remove(b.oe, b.head.id) }()
			return inHeadIM(b)
		case atom.Head:
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Body, atom.Html, atom.Br:
		case atom.Template:
			return inHeadIM(b)
		default:
			return true
		}
	case html.CommentToken:
		b.addComment()
		return true
	case html.DoctypeToken:
		return true
	}
	b.parseImpliedToken(html.StartTagToken, atom.Body)
	b.framesetOK = true
	return b.tok.typ == html.ErrorToken
}

// Section 12.2.6.4.8.
func textIM(b *builder) bool {
	switch b.tok.typ {
	case html.ErrorToken:
		b.pop()
	case html.TextToken:
		if t := b.top(); t.atom == atom.Textarea {
			if !t.hasChild {
				b.tok.data = trimNewline(b.tok.data)
			}
			b.addText(b.tok.data)
		} else {
			b.addRawText()
		}
		return true
	case html.EndTagToken:
		b.pop()
	}
	b.im, b.origIM = b.origIM, nil
	return b.tok.typ == html.EndTagToken
}

// trimNewline drops one newline ("\n", "\r" or "\r\n") that starts s.
func trimNewline(s []byte) []byte {
	if len(s) > 0 && s[0] == '\r' {
		s = s[1:]
	}
	if len(s) > 0 && s[0] == '\n' {
		s = s[1:]
	}
	return s
}

// dropNUL returns s without NUL bytes.
func dropNUL(s []byte) []byte {
	if bytes.IndexByte(s, 0) < 0 {
		return s
	}
	return bytes.ReplaceAll(s, []byte{0}, nil)
}

// hasNonWS reports whether s holds a character other than white space.
func hasNonWS(s []byte) bool { return len(bytes.Trim(s, whitespace)) > 0 }

// isHiddenInput reports whether the current token is <input type=hidden>.
func (b *builder) isHiddenInput() bool {
	for _, a := range b.tok.attrs {
		if a.Key == "type" {
			return strings.EqualFold(a.Val, "hidden")
		}
	}
	return false
}
