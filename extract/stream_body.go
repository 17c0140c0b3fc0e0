package extract

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// "In body" (section 12.2.6.4.7), after x/net/html's inBodyIM.

func inBodyIM(b *builder) bool {
	switch b.tok.typ {
	case html.TextToken:
		d := b.tok.data
		if e := b.top(); e != nil && (e.atom == atom.Pre || e.atom == atom.Listing) && !e.hasChild {
			d = trimNewline(d)
		}
		d = dropNUL(d)
		if len(d) == 0 {
			return true
		}
		b.reconstructActiveFormattingElements()
		b.addText(d)
		if b.framesetOK && hasNonWS(d) {
			b.framesetOK = false
		}
	case html.StartTagToken:
		return inBodyStart(b)
	case html.EndTagToken:
		return inBodyEnd(b)
	case html.CommentToken:
		b.addComment()
	case html.ErrorToken:
		// The parser ends here whatever is open.
	}
	return true
}

// inBodyStart handles a start tag in body.
func inBodyStart(b *builder) bool {
	switch a := b.tok.atom; a {
	case atom.Html:
		if len(b.oe) > 0 {
			b.mergeAttrs(&b.oe[0])
		}
	case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes, atom.Script, atom.Style,
		atom.Template, atom.Title:
		return inHeadIM(b)
	case atom.Body:
		if len(b.oe) >= 2 && b.oe[1].atom == atom.Body {
			b.framesetOK = false
			b.mergeAttrs(&b.oe[1])
		}
	case atom.Frameset:
		if b.framesetOK && len(b.oe) >= 2 && b.oe[1].atom == atom.Body {
			b.unsafe = true // the frameset replaces the body read so far
		}
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Center, atom.Details, atom.Dialog,
		atom.Dir, atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Header,
		atom.Hgroup, atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.P, atom.Search, atom.Section, atom.Summary,
		atom.Ul, atom.Plaintext:
		b.popUntil(buttonScope, atom.P)
		b.addElement()
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		b.popUntil(buttonScope, atom.P)
		switch b.topAtom() {
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			b.pop()
		}
		b.addElement()
	case atom.Pre, atom.Listing:
		b.popUntil(buttonScope, atom.P)
		b.addElement()
		b.framesetOK = false
	case atom.Form:
		if b.form != none {
			return true
		}
		b.popUntil(buttonScope, atom.P)
		b.addElement()
		b.form = b.topID()
	case atom.Li, atom.Dd, atom.Dt:
		b.framesetOK = false
		b.closeListItem(a)
		b.popUntil(buttonScope, atom.P)
		b.addElement()
	case atom.Button:
		if b.inScope(defaultScope, atom.Button) {
			b.generateImpliedEndTags()
			b.popUntil(defaultScope, atom.Button)
		}
		b.reconstructActiveFormattingElements()
		b.addElement()
		b.framesetOK = false
	case atom.A:
		for i := len(b.afe) - 1; i >= 0 && b.afe[i].id != marker; i-- {
			if n := b.afe[i].id; b.afe[i].atom == atom.A {
				b.endTagFormatting(atom.A, "a")
				b.oe = remove(b.oe, n)
				b.afe = remove(b.afe, n)
				break
			}
		}
		b.reconstructActiveFormattingElements()
		b.addFormattingElement()
	case atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I, atom.S, atom.Small, atom.Strike, atom.Strong,
		atom.Tt, atom.U:
		b.reconstructActiveFormattingElements()
		b.addFormattingElement()
	case atom.Nobr:
		b.reconstructActiveFormattingElements()
		if b.inScope(defaultScope, atom.Nobr) {
			b.endTagFormatting(atom.Nobr, "nobr")
			b.reconstructActiveFormattingElements()
		}
		b.addFormattingElement()
	case atom.Applet, atom.Marquee, atom.Object:
		b.reconstructActiveFormattingElements()
		b.addElement()
		b.afe = append(b.afe, bElem{id: marker})
		b.framesetOK = false
	case atom.Table:
		if b.inScope(buttonScope, atom.P) && !b.isQuirks() {
			b.popUntil(buttonScope, atom.P)
		}
		b.addElement()
		b.framesetOK = false
		b.im = inTableIM
	default:
		return inBodyStartOther(b)
	}
	return true
}

// inBodyStartOther handles the start tags inBodyStart leaves.
func inBodyStartOther(b *builder) bool {
	switch b.tok.atom {
	case atom.Area, atom.Br, atom.Embed, atom.Img, atom.Keygen, atom.Wbr:
		b.reconstructActiveFormattingElements()
		b.addElement()
		b.pop()
		b.framesetOK = false
	case atom.Input:
		b.popUntil(defaultScope, atom.Select)
		b.reconstructActiveFormattingElements()
		b.addElement()
		b.pop()
		if !b.isHiddenInput() {
			b.framesetOK = false
		}
	case atom.Param, atom.Source, atom.Track:
		b.addElement()
		b.pop()
	case atom.Hr:
		if b.inScope(buttonScope, atom.P) {
			b.generateImpliedEndTags("p")
			b.popUntil(defaultScope, atom.P)
		}
		if b.inScope(defaultScope, atom.Select) {
			b.generateImpliedEndTags()
		}
		b.addElement()
		b.pop()
		b.framesetOK = false
	case atom.Image:
		b.tok.atom, b.tok.name = atom.Img, "img"
		return false
	case atom.Textarea:
		b.addElement()
		b.origIM = b.im
		b.framesetOK = false
		b.im = textIM
	case atom.Xmp:
		b.popUntil(buttonScope, atom.P)
		b.reconstructActiveFormattingElements()
		b.framesetOK = false
		b.rawText()
	case atom.Iframe:
		b.framesetOK = false
		b.rawText()
	case atom.Noembed, atom.Noscript:
		b.rawText()
	case atom.Select:
		if b.popUntil(defaultScope, atom.Select) {
			return true
		}
		b.reconstructActiveFormattingElements()
		b.addElement()
		b.framesetOK = false
	case atom.Option, atom.Optgroup:
		if b.inScope(defaultScope, atom.Select) {
			if b.tok.atom == atom.Option {
				b.generateImpliedEndTags("optgroup")
			} else {
				b.generateImpliedEndTags()
			}
		} else if b.topAtom() == atom.Option {
			b.pop()
		}
		b.reconstructActiveFormattingElements()
		b.addElement()
	case atom.Rb, atom.Rtc:
		if b.inScope(defaultScope, atom.Ruby) {
			b.generateImpliedEndTags()
		}
		b.addElement()
	case atom.Rp, atom.Rt:
		if b.inScope(defaultScope, atom.Ruby) {
			b.generateImpliedEndTags("rtc")
		}
		b.addElement()
	case atom.Math, atom.Svg:
		b.reconstructActiveFormattingElements()
		b.addChild(b.newElement(b.tok.name))
		if b.tok.selfClosing {
			b.pop()
		}
	case atom.Caption, atom.Col, atom.Colgroup, atom.Frame, atom.Head, atom.Tbody, atom.Td, atom.Tfoot, atom.Th,
		atom.Thead, atom.Tr:
		// Ignored.
	default:
		b.reconstructActiveFormattingElements()
		b.addElement()
	}
	return true
}

// rawText adds an element of raw text (the tokenizer reads its content as
// one text token).
func (b *builder) rawText() {
	b.addElement()
	b.origIM, b.im = b.im, textIM
}

// closeListItem closes an open li (for a), or dd or dt (for dd and dt),
// unless a special element other than address, div and p is in between.
func (b *builder) closeListItem(a atom.Atom) {
	for i := len(b.oe) - 1; i >= 0; i-- {
		e := &b.oe[i]
		switch {
		case a == atom.Li && e.atom == atom.Li, a != atom.Li && (e.atom == atom.Dd || e.atom == atom.Dt):
			b.oe = b.oe[:i]
		case e.atom == atom.Address || e.atom == atom.Div || e.atom == atom.P || !special(e):
			continue
		}
		return
	}
}

// mergeAttrs adds to element i (<html> or <body>) the attributes of the
// current token it lacks, as the parser does with a second <html> or
// <body> tag. The reader has read i already: <html>'s language is handed
// on; attributes that would hide the body, or <html>, need the tree.
func (b *builder) mergeAttrs(e *bElem) {
	t := tag{atom: e.atom, name: e.name, attrs: e.attrs}
	for _, a := range b.tok.attrs {
		if !e.has(a.Key) {
			t.attrs = append(t.attrs[:len(t.attrs):len(t.attrs)], a)
		}
	}
	if len(t.attrs) == len(e.attrs) {
		return
	}
	if hidden(&t) && !hidden(&e.tag) {
		b.unsafe = true
		return
	}
	if e.atom == atom.Html {
		b.r.htmlAttrs(&t)
	}
	e.attrs = t.attrs
}

// inBodyEnd handles an end tag in body.
func inBodyEnd(b *builder) bool {
	switch a := b.tok.atom; a {
	case atom.Body:
		if b.inScope(defaultScope, atom.Body) {
			b.im = afterBodyIM
		}
	case atom.Html:
		if b.inScope(defaultScope, atom.Body) {
			b.parseImpliedToken(html.EndTagToken, atom.Body)
			return false
		}
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Button, atom.Center, atom.Details,
		atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer,
		atom.Header, atom.Hgroup, atom.Listing, atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.Pre, atom.Search,
		atom.Section, atom.Select, atom.Summary, atom.Ul:
		if b.inScope(defaultScope, a) {
			b.generateImpliedEndTags()
			b.popUntil(defaultScope, a)
		}
	case atom.Form:
		node := b.form
		b.form = none
		i := b.indexInScope(defaultScope, atom.Form)
		if node == none || i < 0 || b.oe[i].id != node {
			return true
		}
		b.generateImpliedEndTags()
		b.oe = remove(b.oe, node)
	case atom.P:
		if !b.inScope(buttonScope, atom.P) {
			b.parseImpliedToken(html.StartTagToken, atom.P)
		}
		b.popUntil(buttonScope, atom.P)
	case atom.Li:
		b.popUntil(listItemScope, atom.Li)
	case atom.Dd, atom.Dt:
		b.popUntil(defaultScope, a)
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		b.popUntil(defaultScope, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6)
	case atom.A, atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I, atom.Nobr, atom.S, atom.Small,
		atom.Strike, atom.Strong, atom.Tt, atom.U:
		b.endTagFormatting(a, b.tok.name)
	case atom.Applet, atom.Marquee, atom.Object:
		if b.popUntil(defaultScope, a) {
			b.clearActiveFormattingElements()
		}
	case atom.Br:
		b.tok.typ = html.StartTagToken
		return false
	case atom.Template:
		return inHeadIM(b)
	default:
		b.endTagOther(a, b.tok.name)
	}
	return true
}

// endTagFormatting is the end of a formatting element: the adoption agency
// algorithm, as far as it pops the stack, and where the element is
// misnested across a block ("<b><p>x</b>y") as far as adopt can move what
// was read; beyond that the tree is needed.
func (b *builder) endTagFormatting(a atom.Atom, name string) {
	if cur := b.top(); cur.name == name && index(b.afe, cur.id) < 0 {
		b.pop()
		return
	}
	fe := none
	for j := len(b.afe) - 1; j >= 0 && b.afe[j].id != marker; j-- {
		if b.afe[j].atom == a {
			fe = b.afe[j].id
			break
		}
	}
	if fe == none {
		b.endTagOther(a, name)
		return
	}
	feIndex := index(b.oe, fe)
	if feIndex < 0 {
		b.afe = remove(b.afe, fe)
		return
	}
	if !b.inScope(defaultScope, a) {
		return
	}
	for i := range b.oe[feIndex:] {
		if special(&b.oe[feIndex+i]) {
			if !b.adopt(feIndex, feIndex+i) {
				b.unsafe = true
			}
			return
		}
	}
	b.oe = b.oe[:feIndex]
	b.afe = remove(b.afe, fe)
}

// adopt is the adoption agency algorithm where the formatting element
// oe[fe] holds the block oe[fb] (its furthest block) as its child and no
// other block is open in it: the parser moves the block out, to follow
// the formatting element in their parent (the common ancestor), moves the
// block's children into a copy of the formatting element made the block's
// first child, and closes that copy and what is open in the block ("<b>x
// <p>y</b>z" is read as "<b>x</b><p><b>y</b>z"). Text keeps its order,
// and what was read of the block keeps its ancestors, in another order:
// the reader moves the block down a level (see pageReader.adopt). Other
// cases (elements between the two, blocks open in the block, a formatting
// element that hides, is chrome or has begun a capture, a table as the
// common ancestor, which would foster-parent the block) return false: the
// tree is needed.
func (b *builder) adopt(fe, fb int) bool {
	if fb != fe+1 || fe == 0 || b.oe[fe].ns != "" || b.oe[fb].ns != "" {
		return false
	}
	for i := range b.oe[fb+1:] {
		if special(&b.oe[fb+1+i]) {
			return false
		}
	}
	switch b.oe[fe-1].atom {
	case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
		return false
	}
	ca, f, blk := b.oe[fe-1].id, b.oe[fe].id, b.oe[fb].id
	// What is open in the block ends: the copy of the formatting element
	// holds it, and the parser closes the copy.
	b.oe = b.oe[:fb+1]
	if !b.syncDom(blk) {
		return false
	}
	b.flushText()
	n := len(b.dom)
	if n < 3 || b.dom[n-2] != f || b.dom[n-3] != ca || !b.r.adopt() {
		return false
	}
	b.dom = append(b.dom[:n-2], blk)
	b.oe[fb].hasChild = true
	b.oe = append(b.oe[:fe], b.oe[fb])
	b.afe = remove(b.afe, f)
	return true
}

// endTagOther is "any other end tag" in body.
func (b *builder) endTagOther(a atom.Atom, name string) {
	for i := len(b.oe) - 1; i >= 0; i-- {
		e := &b.oe[i]
		if e.ns == "" && e.atom == a && (a != 0 || e.name == name) {
			b.oe = b.oe[:i]
			return
		}
		if special(e) {
			return
		}
	}
}
