package extract

import "bytes"

// shownComments returns page with the markup that a page keeps in comments
// for its scripts to show made markup again: a <code> element that holds
// nothing but one comment of markup (<code class="hidden_elem"><!-- <div>
// ... </div> --></code>) is how a social network's pages delivered their
// timeline, which their scripts then showed (BigPipe), so a reader of the
// replayed page sees it though an HTML parser sees a comment. Any other
// comment stays one, and so does markup that would swallow the rest of the
// page (an element whose text runs to its end tag, <textarea>, <title>,
// <script>..., opened and not closed). page itself is returned when it has
// none.
func shownComments(page []byte) []byte {
	if !codeBeforeComment(page) {
		return page
	}
	return showComments(page)
}

// showComments is shownComments without its first look.
func showComments(page []byte) []byte {
	var out []byte
	last := 0
	for i := 0; ; {
		k := indexTag(page[i:], "code")
		if k < 0 {
			break
		}
		start := i + k
		open := bytes.IndexByte(page[start:], '>')
		if open < 0 {
			break
		}
		body := skipSpace(page, start+open+1)
		i = body
		if !bytes.HasPrefix(page[body:], []byte("<!--")) {
			continue
		}
		end := bytes.Index(page[body+4:], []byte("-->"))
		if end < 0 {
			break
		}
		comment := page[body+4 : body+4+end]
		after := body + 4 + end + 3
		i = after
		if indexTag(page[skipSpace(page, after):], "/code") != 0 || bytes.IndexByte(comment, '<') < 0 || swallows(comment) {
			continue
		}
		out = append(out, page[last:body]...)
		out = append(out, comment...)
		last = after
	}
	if out == nil {
		return page
	}
	return append(out, page[last:]...)
}

// rawText are the elements whose content runs as text to their end tag.
var rawText = [...]string{"textarea", "title", "script", "style", "xmp", "plaintext", "noscript", "noframes", "iframe", "noembed"}

// swallows reports whether markup opens an element whose text runs to its
// end tag without closing it.
func swallows(markup []byte) bool {
	for _, name := range rawText {
		if opened, closed := countTag(markup, name), countTag(markup, "/"+name); opened > closed {
			return true
		}
	}
	return false
}

// countTag counts the tags named name in b (see indexTag).
func countTag(b []byte, name string) int {
	n := 0
	for {
		k := indexTag(b, name)
		if k < 0 {
			return n
		}
		n++
		b = b[k+1+len(name):]
	}
}

// codeBeforeComment reports whether a comment of page comes, but for
// spaces, right after the end of a tag that holds a <code> start tag since
// the '>' before it: what shownComments needs to find (a <code> start tag,
// its first '>', spaces, then "<!--"). Comments are few; the tags of a
// page, which looking for <code> went through, many.
func codeBeforeComment(page []byte) bool {
	for i := 0; ; {
		k := indexComment(page[i:])
		if k < 0 {
			return false
		}
		i += k
		gt := i
		for gt > 0 && isCommentSpace(page[gt-1]) {
			gt--
		}
		if gt > 0 && page[gt-1] == '>' {
			from := bytes.LastIndexByte(page[:gt-1], '>') + 1
			if indexTag(page[from:gt], "code") >= 0 {
				return true
			}
		}
		i += 4
	}
}

// indexComment is bytes.Index(b, []byte("<!--")), found from the '!',
// which is rare in a page ('<' is everywhere).
func indexComment(b []byte) int {
	for i := 0; ; {
		k := bytes.IndexByte(b[i:], '!')
		if k < 0 {
			return -1
		}
		j := i + k
		if j > 0 && b[j-1] == '<' && j+2 < len(b) && b[j+1] == '-' && b[j+2] == '-' {
			return j - 1
		}
		i = j + 1
	}
}

// isCommentSpace is what skipSpace skips.
func isCommentSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// indexTag returns the offset in b of the first tag named name ("<name"
// in any case, followed by a space, "/" or ">": not "<codex"), -1 when
// there is none. It jumps from "<" to "<".
func indexTag(b []byte, name string) int {
	for i := 0; ; {
		k := bytes.IndexByte(b[i:], '<')
		if k < 0 {
			return -1
		}
		i += k
		rest := b[i+1:]
		if len(rest) > len(name) && hasPrefixFold(rest, name) {
			switch rest[len(name)] {
			case ' ', '\t', '\n', '\r', '\f', '/', '>':
				return i
			}
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isCommentSpace(b[i]) {
		i++
	}
	return i
}

// hasPrefixFold reports whether s begins with the ASCII lower-case prefix,
// ignoring the case of s's ASCII letters.
func hasPrefixFold(s []byte, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := range len(prefix) {
		b := s[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b != prefix[i] {
			return false
		}
	}
	return true
}
