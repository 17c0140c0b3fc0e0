package extract

// scriptEnd returns where a script's text that starts at s[from] ends (at
// its end tag), following the tokenizer's readScript through script
// data's escaped states ("<!--", in which "<script>" opens a part that a
// "</script>" does not end); -1 when the page ends first.
func scriptEnd(s []byte, from int) int {
	z := scriptScan{s: s, i: from}
	st := ssData
	for st != ssEnded {
		switch {
		case st < ssEscaped:
			st = z.data(st)
		case st < ssDoubleEscaped:
			st = z.escaped(st)
		default:
			st = z.doubleEscaped(st)
		}
	}
	return z.end
}

// The states of readScript (ss: script scan), by their names there.
const (
	ssData = iota
	ssDataLessThanSign
	ssDataEscapeStart
	ssDataEscapeStartDash
	ssEscaped // scriptDataEscaped
	ssEscapedDash
	ssEscapedDashDash
	ssEscapedLessThanSign
	ssDoubleEscapeStart
	ssDoubleEscaped // scriptDataDoubleEscaped
	ssDoubleEscapedDash
	ssDoubleEscapedDashDash
	ssDoubleEscapedLessThanSign
	ssEnded // end is the answer
)

// scriptScan reads a script's text as readScript does.
type scriptScan struct {
	s   []byte
	i   int  // the next byte
	c   byte // the byte read last
	end int
}

// next reads the next byte into z.c; false at the end of the page.
func (z *scriptScan) next() bool {
	if z.i >= len(z.s) {
		return false
	}
	z.c = z.s[z.i]
	z.i++
	return true
}

// ended ends the scan with end.
func (z *scriptScan) ended(end int) int {
	z.end = end
	return ssEnded
}

// endTag reads what follows "</" as readRawEndTag does: found when it is
// "script" (each letter in either case) and a delimiter, z.i then at its
// '<'; else z.i is where reading goes on. ok is false at the end of the
// page.
func (z *scriptScan) endTag() (found, ok bool) {
	for k := 0; k < len("script"); k++ {
		if !z.next() {
			return false, false
		}
		if z.c != "script"[k] && z.c != "SCRIPT"[k] {
			z.i--
			return false, true
		}
	}
	if !z.next() {
		return false, false
	}
	switch z.c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		z.i -= len("</script") + 1
		return true, true
	}
	z.i--
	return false, true
}

// data reads one byte in the script data states and returns the next state.
func (z *scriptScan) data(st int) int {
	if !z.next() {
		return z.ended(-1)
	}
	switch st {
	case ssData:
		if z.c == '<' {
			return ssDataLessThanSign
		}
		return ssData
	case ssDataLessThanSign:
		switch z.c {
		case '/':
			if found, ok := z.endTag(); found {
				return z.ended(z.i)
			} else if !ok {
				return z.ended(-1)
			}
			return ssData
		case '!':
			return ssDataEscapeStart
		}
	case ssDataEscapeStart:
		if z.c == '-' {
			return ssDataEscapeStartDash
		}
	case ssDataEscapeStartDash:
		if z.c == '-' {
			return ssEscapedDashDash
		}
	}
	z.i--
	return ssData
}

// escaped reads in the escaped states and returns the next state.
func (z *scriptScan) escaped(st int) int {
	if st == ssDoubleEscapeStart {
		return z.doubleEscapeStart()
	}
	if !z.next() {
		return z.ended(-1)
	}
	switch c := z.c; {
	case st == ssEscapedLessThanSign:
		if c == '/' {
			if found, ok := z.endTag(); found {
				return z.ended(z.i)
			} else if !ok {
				return z.ended(-1)
			}
			return ssEscaped
		}
		if isASCIILetter(c) {
			return ssDoubleEscapeStart
		}
		z.i--
		return ssData
	case c == '-' && st == ssEscaped:
		return ssEscapedDash
	case c == '-':
		return ssEscapedDashDash
	case c == '<':
		return ssEscapedLessThanSign
	case c == '>' && st == ssEscapedDashDash:
		return ssData
	}
	return ssEscaped
}

// doubleEscapeStart reads what follows "<" and a letter in the escaped
// states: "script" and a delimiter opens the double escaped state.
func (z *scriptScan) doubleEscapeStart() int {
	z.i--
	for k := 0; k < len("script"); k++ {
		if !z.next() {
			return z.ended(-1)
		}
		if z.c != "script"[k] && z.c != "SCRIPT"[k] {
			z.i--
			return ssEscaped
		}
	}
	if !z.next() {
		return z.ended(-1)
	}
	switch z.c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		return ssDoubleEscaped
	}
	z.i--
	return ssEscaped
}

// doubleEscaped reads in the double escaped states and returns the next
// state.
func (z *scriptScan) doubleEscaped(st int) int {
	if !z.next() {
		return z.ended(-1)
	}
	switch c := z.c; {
	case st == ssDoubleEscapedLessThanSign:
		if c != '/' {
			z.i--
			return ssDoubleEscaped
		}
		found, ok := z.endTag()
		if found {
			z.i += len("</script>")
			return ssEscaped
		}
		if !ok {
			return z.ended(-1)
		}
		return ssDoubleEscaped
	case c == '-' && st == ssDoubleEscaped:
		return ssDoubleEscapedDash
	case c == '-':
		return ssDoubleEscapedDashDash
	case c == '<':
		return ssDoubleEscapedLessThanSign
	case c == '>' && st == ssDoubleEscapedDashDash:
		return ssData
	}
	return ssDoubleEscaped
}
