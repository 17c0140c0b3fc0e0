package extract

import "testing"

// The table filled from the range tables says what lookupScript says for
// every rune of the Basic Multilingual Plane.
func TestBMPScripts(t *testing.T) {
	bad := 0
	for r := range rune(0x10000) {
		if got, want := bmpScripts[r], lookupScript(r); got != want {
			if bad++; bad <= 10 {
				t.Errorf("bmpScripts[%U] = %d, lookupScript says %d", r, got, want)
			}
		}
	}
	if bad > 10 {
		t.Errorf("%d runes in all", bad)
	}
}
