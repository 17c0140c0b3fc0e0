package extract

import "bytes"

// shownComments returns page with the markup that a page keeps in comments
// for its scripts to show made markup again: a <code> element that holds
// nothing but one comment of markup (<code class="hidden_elem"><!-- <div>
// ... </div> --></code>) is how a social network's pages delivered their
// timeline, which their scripts then showed (BigPipe), so a reader of the
// replayed page sees it though an HTML parser sees a comment. Any other
// comment stays one. page itself is returned when it has none.
func shownComments(page []byte) []byte {
	if !bytes.Contains(page, []byte("<!--")) || !containsFold(page, []byte("<code")) {
		return page
	}
	var out []byte
	last := 0
	for i := 0; ; {
		k := indexFold(page[i:], []byte("<code"))
		if k < 0 {
			break
		}
		start := i + k
		open := bytes.IndexByte(page[start:], '>')
		if open < 0 {
			break
		}
		inner := start + open + 1
		body := skipSpace(page, inner)
		if !bytes.HasPrefix(page[body:], []byte("<!--")) {
			i = inner
			continue
		}
		end := bytes.Index(page[body+4:], []byte("-->"))
		if end < 0 {
			break
		}
		comment := page[body+4 : body+4+end]
		after := skipSpace(page, body+4+end+3)
		if !hasPrefixFold(page[after:], []byte("</code")) || bytes.IndexByte(comment, '<') < 0 {
			i = body + 4 + end + 3
			continue
		}
		out = append(out, page[last:body]...)
		out = append(out, comment...)
		last = body + 4 + end + 3
		i = last
	}
	if out == nil {
		return page
	}
	return append(out, page[last:]...)
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r' || b[i] == '\f') {
		i++
	}
	return i
}

// indexFold is bytes.Index of an ASCII lower-case sep that starts with a
// byte no case changes ('<'), ignoring the case of s's ASCII letters: it
// looks for sep's first byte with bytes.IndexByte, which a page's bytes go
// through at memory speed.
func indexFold(s, sep []byte) int {
	for i := 0; i+len(sep) <= len(s); {
		k := bytes.IndexByte(s[i:len(s)-len(sep)+1], sep[0])
		if k < 0 {
			return -1
		}
		if i += k; hasPrefixFold(s[i:], sep) {
			return i
		}
		i++
	}
	return -1
}

func containsFold(s, sep []byte) bool { return indexFold(s, sep) >= 0 }

// hasPrefixFold reports whether s begins with the ASCII lower-case prefix,
// ignoring the case of s's ASCII letters.
func hasPrefixFold(s, prefix []byte) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i, c := range prefix {
		b := s[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b != c {
			return false
		}
	}
	return true
}
