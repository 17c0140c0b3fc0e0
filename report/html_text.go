package report

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// thousands formats n with thin spaces between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteRune(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// httpLink returns u when it is an absolute http or https URL with a host,
// and "" otherwise: a report links to nothing else (no javascript:, data:
// or relative addresses from archived data).
func httpLink(u string) string {
	if u == "" || strings.ContainsAny(u, " \t\r\n\x00") {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return ""
	}
	switch strings.ToLower(p.Scheme) {
	case "http", "https":
		return u
	}
	return ""
}

// cutText shortens s to at most n bytes at a word boundary where it can,
// with an ellipsis, and replaces invalid UTF-8 and control characters.
func cutText(s string, n int) string {
	if !plainText(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
		s = strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f {
				return ' '
			}
			return r
		}, s)
	}
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > n*2/3 {
		cut = sp
	}
	return strings.TrimRight(s[:cut], " ") + "…"
}

// plainText reports whether s is valid UTF-8 without control characters
// (which are all ASCII): what cutText leaves as it is.
func plainText(s string) bool {
	for i := range len(s) {
		if b := s[i]; b < 0x20 || b == 0x7f {
			return false
		}
	}
	return utf8.ValidString(s)
}

func fmtScore(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	if s == "-0.000" {
		return "0.000"
	}
	return s
}

// shortScore is a score with 3 decimals and no trailing zeros, for the page's data.
func shortScore(v float64) string {
	s := strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
	if s == "-0" {
		return "0"
	}
	return s
}

func ratioOf(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func pct1(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + "%" }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
