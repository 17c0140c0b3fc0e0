package testcorpus

import "unsafe"

// SharesBytes reports whether s's bytes lie within the bytes of one of
// blocks: how a test shows that a table keeps copies of its strings, not
// substrings of the pages they came from (which would hold whole pages).
func SharesBytes(s string, blocks []string) bool {
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	for _, b := range blocks {
		base := uintptr(unsafe.Pointer(unsafe.StringData(b)))
		if len(s) > 0 && p >= base && p < base+uintptr(len(b)) {
			return true
		}
	}
	return false
}
