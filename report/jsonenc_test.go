package report

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// TestJSONAsEncodingJSON: strings and floats as encoding/json writes them,
// with and without its HTML escaping.
func TestJSONAsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `q"uote\back`, "ctl\b\f\n\r\t\x00\x1f\x7f", "<a href=\"x\">&amp;</a>", "bad\xff\xfeutf8", "\xe2\x80",
		"sep\u2028\u2029", "日本語 é 𝄞", "\uFFFD", "'apos'"} {
		for _, html := range []bool{true, false} {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(html)
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			if got := string(appendJSONString(nil, s, html)) + "\n"; got != want.String() {
				t.Errorf("appendJSONString(%q, %v) = %s, want %s", s, html, got, want.String())
			}
		}
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1.0 / 3, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 123456789e15, -2.5e-10,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1 + 0.2} {
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendJSONFloat(nil, f)
		if err != nil || string(got) != string(want) {
			t.Errorf("appendJSONFloat(%v) = %s, %v; want %s", f, got, err, want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := appendJSONFloat(nil, f); err == nil {
			t.Errorf("appendJSONFloat(%v): no error", f)
		}
	}
}
