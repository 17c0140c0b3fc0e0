package extract

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The insertion modes of tables, of what follows the body and of framesets,
// and foreign content (sections 12.2.6.4.9-23 and 12.2.6.5), after
// x/net/html's parse.go.

// Section 12.2.6.4.9.
func inTableIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		b.tok.data = dropNUL(b.tok.data)
		switch b.topAtom() {
		case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
			if !hasNonWS(b.tok.data) {
				b.addText(b.tok.data)
				return true
			}
		}
	case html.StartTagToken:
		if done, ok := inTableStart(b); ok {
			return done
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Table:
			if b.popUntil(tableScope, atom.Table) {
				b.resetInsertionMode()
			}
			return true
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Tbody, atom.Td, atom.Tfoot, atom.Th,
			atom.Thead, atom.Tr:
			return true
		case atom.Template:
			return inHeadIM(b)
		}
	case html.CommentToken:
		b.addComment()
		return true
	case html.DoctypeToken:
		return true
	case html.ErrorToken:
		return inBodyIM(b)
	}
	b.fosterParenting = true
	defer func() { b.fosterParenting = false }()
	return inBodyIM(b)
}

// inTableStart handles a start tag in a table: ok is false when it is
// handled as in body (foster parented).
func inTableStart(b *builder) (done, ok bool) {
	switch b.tok.atom {
	case atom.Caption:
		b.clearStackToContext(tableScope)
		b.afe = append(b.afe, bElem{id: marker})
		b.addElement()
		b.im = inCaptionIM
		return true, true
	case atom.Colgroup:
		b.clearStackToContext(tableScope)
		b.addElement()
		b.im = inColumnGroupIM
		return true, true
	case atom.Col:
		b.parseImpliedToken(html.StartTagToken, atom.Colgroup)
		return false, true
	case atom.Tbody, atom.Tfoot, atom.Thead:
		b.clearStackToContext(tableScope)
		b.addElement()
		b.im = inTableBodyIM
		return true, true
	case atom.Td, atom.Th, atom.Tr:
		b.parseImpliedToken(html.StartTagToken, atom.Tbody)
		return false, true
	case atom.Table:
		if b.popUntil(tableScope, atom.Table) {
			b.resetInsertionMode()
			return false, true
		}
		return true, true
	case atom.Style, atom.Script, atom.Template:
		return inHeadIM(b), true
	case atom.Input:
		if b.isHiddenInput() {
			b.addElement()
			b.pop()
			return true, true
		}
	case atom.Form:
		if b.form != none {
			return true, true
		}
		b.addElement()
		b.form = b.pop().id
		return true, true
	}
	return false, false
}

// Section 12.2.6.4.11.
func inCaptionIM(b *builder) bool {
	switch b.tok.typ {
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Td, atom.Tfoot, atom.Thead, atom.Tr:
			if !b.popUntil(tableScope, atom.Caption) {
				return true
			}
			b.clearActiveFormattingElements()
			b.im = inTableIM
			return false
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Caption:
			if b.popUntil(tableScope, atom.Caption) {
				b.clearActiveFormattingElements()
				b.im = inTableIM
			}
			return true
		case atom.Table:
			if !b.popUntil(tableScope, atom.Caption) {
				return true
			}
			b.clearActiveFormattingElements()
			b.im = inTableIM
			return false
		case atom.Body, atom.Col, atom.Colgroup, atom.Html, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead,
			atom.Tr:
			return true
		}
	}
	return inBodyIM(b)
}

// Section 12.2.6.4.12.
func inColumnGroupIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		if b.splitWS() {
			return true
		}
	case html.CommentToken:
		b.addComment()
		return true
	case html.DoctypeToken:
		return true
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Html:
			return inBodyIM(b)
		case atom.Col:
			b.addElement()
			b.pop()
			return true
		case atom.Template:
			return inHeadIM(b)
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Colgroup:
			if b.topAtom() == atom.Colgroup {
				b.pop()
				b.im = inTableIM
			}
			return true
		case atom.Col:
			return true
		case atom.Template:
			return inHeadIM(b)
		}
	case html.ErrorToken:
		return inBodyIM(b)
	}
	if b.topAtom() != atom.Colgroup {
		return true
	}
	b.pop()
	b.im = inTableIM
	return false
}

// Section 12.2.6.4.13.
func inTableBodyIM(b *builder) bool {
	switch b.tok.typ {
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Tr:
			b.clearStackToContext(tableBodyScope)
			b.addElement()
			b.im = inRowIM
			return true
		case atom.Td, atom.Th:
			b.parseImpliedToken(html.StartTagToken, atom.Tr)
			return false
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Tfoot, atom.Thead:
			if b.popUntil(tableScope, atom.Tbody, atom.Thead, atom.Tfoot) {
				b.im = inTableIM
				return false
			}
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Tbody, atom.Tfoot, atom.Thead:
			if b.inScope(tableScope, b.tok.atom) {
				b.clearStackToContext(tableBodyScope)
				b.pop()
				b.im = inTableIM
			}
			return true
		case atom.Table:
			if b.popUntil(tableScope, atom.Tbody, atom.Thead, atom.Tfoot) {
				b.im = inTableIM
				return false
			}
			return true
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Td, atom.Th, atom.Tr:
			return true
		}
	case html.CommentToken:
		b.addComment()
		return true
	}
	return inTableIM(b)
}

// Section 12.2.6.4.14.
func inRowIM(b *builder) bool {
	switch b.tok.typ {
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Td, atom.Th:
			b.clearStackToContext(tableRowScope)
			b.addElement()
			b.afe = append(b.afe, bElem{id: marker})
			b.im = inCellIM
			return true
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
			return b.closeRow(false)
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Tr:
			return b.closeRow(true)
		case atom.Table:
			return b.closeRow(false)
		case atom.Tbody, atom.Tfoot, atom.Thead:
			if b.inScope(tableScope, b.tok.atom) {
				return b.closeRow(false)
			}
			return true
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Td, atom.Th:
			return true
		}
	}
	return inTableIM(b)
}

// closeRow closes the open row, if any, returning consumed when there is
// none (the token is ignored).
func (b *builder) closeRow(consumed bool) bool {
	if !b.inScope(tableScope, atom.Tr) {
		return true
	}
	b.clearStackToContext(tableRowScope)
	b.pop()
	b.im = inTableBodyIM
	return consumed
}

// Section 12.2.6.4.15.
func inCellIM(b *builder) bool {
	switch b.tok.typ {
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
			if b.popUntil(tableScope, atom.Td, atom.Th) {
				b.clearActiveFormattingElements()
				b.im = inRowIM
				return false
			}
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Td, atom.Th:
			if !b.popUntil(tableScope, b.tok.atom) {
				return true
			}
			b.clearActiveFormattingElements()
			b.im = inRowIM
			return true
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html:
			return true
		case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
			if !b.inScope(tableScope, b.tok.atom) {
				return true
			}
			if b.popUntil(tableScope, atom.Td, atom.Th) {
				b.clearActiveFormattingElements()
			}
			b.im = inRowIM
			return false
		}
	}
	return inBodyIM(b)
}

// Section 12.2.6.4.19.
func afterBodyIM(b *builder) bool {
	switch b.tok.typ {
	case html.ErrorToken:
		return true
	case html.TextToken:
		if len(trimWS(b.tok.data)) == 0 {
			return inBodyIM(b)
		}
	case html.StartTagToken:
		if b.tok.atom == atom.Html {
			return inBodyIM(b)
		}
	case html.EndTagToken:
		if b.tok.atom == atom.Html {
			b.im = afterAfterBodyIM
			return true
		}
	case html.CommentToken:
		return true // on <html>, after the body: no child of what the reader has open
	}
	b.im = inBodyIM
	return false
}

// onlyWS returns the white space characters of s.
func onlyWS(s []byte) []byte {
	return bytes.Map(func(c rune) rune {
		if strings.ContainsRune(whitespace, c) {
			return c
		}
		return -1
	}, s)
}

// Section 12.2.6.4.20.
func inFramesetIM(b *builder) bool {
	switch b.tok.typ {
	case html.CommentToken:
		b.addComment()
	case html.TextToken:
		if s := onlyWS(b.tok.data); len(s) > 0 {
			b.addText(s)
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Html:
			return inBodyIM(b)
		case atom.Frameset:
			b.addElement()
		case atom.Frame:
			b.addElement()
			b.pop()
		case atom.Noframes:
			return inHeadIM(b)
		}
	case html.EndTagToken:
		if b.tok.atom == atom.Frameset && b.topAtom() != atom.Html {
			b.pop()
			if b.topAtom() != atom.Frameset {
				b.im = afterFramesetIM
			}
		}
	}
	return true
}

// Section 12.2.6.4.21.
func afterFramesetIM(b *builder) bool {
	switch b.tok.typ {
	case html.CommentToken:
		b.addComment()
	case html.TextToken:
		if s := onlyWS(b.tok.data); len(s) > 0 {
			b.addText(s)
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Html:
			return inBodyIM(b)
		case atom.Noframes:
			return inHeadIM(b)
		}
	case html.EndTagToken:
		if b.tok.atom == atom.Html {
			b.im = afterAfterFramesetIM
		}
	}
	return true
}

// Section 12.2.6.4.22.
func afterAfterBodyIM(b *builder) bool {
	switch b.tok.typ {
	case html.ErrorToken:
		return true
	case html.TextToken:
		if len(trimWS(b.tok.data)) == 0 {
			return inBodyIM(b)
		}
	case html.StartTagToken:
		if b.tok.atom == atom.Html {
			return inBodyIM(b)
		}
	case html.CommentToken:
		return true // on the document
	case html.DoctypeToken:
		return inBodyIM(b)
	}
	b.im = inBodyIM
	return false
}

// Section 12.2.6.4.23.
func afterAfterFramesetIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		if s := onlyWS(b.tok.data); len(s) > 0 {
			b.tok.data = s
			return inBodyIM(b)
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Html:
			return inBodyIM(b)
		case atom.Noframes:
			return inHeadIM(b)
		}
	case html.DoctypeToken:
		return inBodyIM(b)
	}
	return true
}

// breakout reports whether a start tag named name (or a <font> with color,
// face or size) leaves foreign content.
func breakout(name string, fontBreak bool) bool {
	switch name {
	case "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed",
		"h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr",
		"ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u",
		"ul", "var":
		return true
	case "font":
		return fontBreak
	}
	return false
}

// mathMLText reports whether e is a MathML text integration point.
func mathMLText(e *bElem) bool {
	if e.ns != "math" {
		return false
	}
	switch e.name {
	case "mi", "mo", "mn", "ms", "mtext":
		return true
	}
	return false
}

// htmlIntegration reports whether e, a foreign element of the current
// token, is an HTML integration point.
func htmlIntegration(ns, name string, attrs []html.Attribute) bool {
	switch ns {
	case "math":
		if name == "annotation-xml" {
			for _, a := range attrs {
				if a.Key == "encoding" {
					return strings.EqualFold(a.Val, "text/html") || strings.EqualFold(a.Val, "application/xhtml+xml")
				}
			}
		}
	case "svg":
		switch name {
		case "desc", "foreignObject", "title":
			return true
		}
	}
	return false
}

// inForeignContent reports whether the current token is handled as
// foreign content (section 12.2.6).
func (b *builder) inForeignContent() bool {
	if len(b.oe) == 0 {
		return false
	}
	n := b.top()
	if n.ns == "" {
		return false
	}
	t := b.tok.typ
	if mathMLText(n) {
		if t == html.StartTagToken && b.tok.atom != atom.Mglyph && b.tok.atom != atom.Malignmark || t == html.TextToken {
			return false
		}
	}
	if n.ns == "math" && n.atom == atom.AnnotationXml && t == html.StartTagToken && b.tok.atom == atom.Svg {
		return false
	}
	if n.integration && (t == html.StartTagToken || t == html.TextToken) {
		return false
	}
	return t != html.ErrorToken
}

// parseForeignContent (section 12.2.6.5).
func parseForeignContent(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		if b.framesetOK {
			b.framesetOK = len(bytes.TrimLeft(b.tok.data, whitespace+"\x00")) == 0
		}
		b.addText(bytes.ReplaceAll(b.tok.data, []byte{0}, []byte("\ufffd")))
	case html.CommentToken:
		b.addComment()
	case html.StartTagToken:
		if breakout(b.tok.name, b.tok.fontBreak) {
			for i := len(b.oe) - 1; i >= 0; i-- {
				if e := &b.oe[i]; e.ns == "" || e.integration || mathMLText(e) {
					b.oe = b.oe[:i+1]
					break
				}
			}
			return b.im(b)
		}
		ns := b.top().ns
		if ns == "svg" && b.tok.name == "foreignobject" {
			b.tok.atom, b.tok.name = atom.ForeignObject, "foreignObject"
		}
		e := b.newElement(ns)
		e.integration = htmlIntegration(ns, b.tok.name, b.tok.attrs)
		b.addChild(e)
		if b.z != nil {
			b.z.NextIsNotRawText()
		}
		b.notRaw = true
		if b.tok.selfClosing {
			b.pop()
		}
	case html.EndTagToken:
		for i := len(b.oe) - 1; i >= 0; i-- {
			if strings.EqualFold(b.oe[i].name, b.tok.name) {
				b.oe = b.oe[:i]
				return true
			}
			if i > 0 && b.oe[i-1].ns == "" {
				break
			}
		}
		return b.im(b)
	}
	return true
}
