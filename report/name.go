package report

import (
	"path"
	"strings"
)

// maxNameChars caps CollectionName.
const maxNameChars = 40

// CollectionName names the run's collection in the names of files a review
// saves (decisions-NAME-YYYYMMDD-HHMM.csv): the event of an audit, else the
// folder of the inputs (or the one input's name without its extensions), in
// letters, digits, '.', '_' and '-' only, at most 40 of them; "" when the
// run says nothing usable.
func (r *Run) CollectionName() string {
	if r == nil {
		return ""
	}
	if ev, _, ok := r.Audit(); ok {
		return safeName(ev)
	}
	if len(r.Inputs) == 0 {
		return ""
	}
	in := strings.ReplaceAll(strings.TrimRight(r.Inputs[0], `/\`), `\`, "/")
	base := path.Base(in)
	if len(r.Inputs) > 1 || strings.ContainsAny(base, "*?[") || isCaptureFile(base) {
		base = path.Base(path.Dir(in))
	}
	if base == "." || base == "/" {
		return ""
	}
	for _, ext := range []string{".gz", ".warc", ".arc", ".cdxj", ".cdx", ".jsonl", ".json"} {
		base = strings.TrimSuffix(base, ext)
	}
	return safeName(base)
}

// isCaptureFile reports whether a file name is one of the archive's files
// (a WARC or an index), which names its folder's collection, not its own.
func isCaptureFile(name string) bool {
	n := strings.ToLower(name)
	for _, ext := range []string{".warc", ".warc.gz", ".arc", ".arc.gz", ".cdx", ".cdxj", ".wacz"} {
		if strings.HasSuffix(n, ext) {
			return true
		}
	}
	return false
}

// safeName keeps a name's letters, digits, '.', '_' and '-', runs of
// anything else becoming one '-', and caps it at maxNameChars.
func safeName(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
		switch {
		case ok:
			b.WriteRune(c)
			dash = c == '-'
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= maxNameChars {
			break
		}
	}
	return strings.Trim(b.String(), "-.")
}
