package timemap

import "testing"

func TestURIMForms(t *testing.T) {
	for _, tc := range []struct {
		in, raw, urir, ts string
	}{
		{"http://a.test/web/20140103030321/http://x/", "http://a.test/web/20140103030321id_/http://x/", "http://x/", "20140103030321"},
		{"http://a.test/web/20140103030321im_/http://x/y", "http://a.test/web/20140103030321id_/http://x/y", "http://x/y", "20140103030321"},
		{"/web/20140103030321js_/http://x/a.js?v=1", "/web/20140103030321id_/http://x/a.js?v=1", "http://x/a.js?v=1", "20140103030321"},
		{"http://a.test/web/20140103030321id_/http://x/", "http://a.test/web/20140103030321id_/http://x/", "http://x/", "20140103030321"},
		{"http://a.test/wayback/20140103030321/https://x", "http://a.test/wayback/20140103030321id_/https://x", "https://x", "20140103030321"},
		{"https://wayback.archive-it.org/1068/20100103202051/http://x/", "https://wayback.archive-it.org/1068/20100103202051id_/http://x/", "http://x/", "20100103202051"},
		{"http://a.test/pywb/20140103030321mp_/http://example.com?example=1", "http://a.test/pywb/20140103030321id_/http://example.com?example=1", "http://example.com?example=1", "20140103030321"},
		{"http://a.test/web/2014/http://x/", "http://a.test/web/2014id_/http://x/", "http://x/", "20140101000000"},
		{"http://a.test/web/201403/x.example/p", "http://a.test/web/201403id_/x.example/p", "http://x.example/p", "20140301000000"},
		{"http://a.test/web/20140103030321/http:/x.example/p", "http://a.test/web/20140103030321id_/http:/x.example/p", "http://x.example/p", "20140103030321"},
		{"http://a.test/web/20140103030321/http%3A%2F%2Fx.example%2Fp", "http://a.test/web/20140103030321id_/http%3A%2F%2Fx.example%2Fp", "http://x.example/p", "20140103030321"},
		{"http://a.test/web/20140103030321123/http://x/", "http://a.test/web/20140103030321123id_/http://x/", "http://x/", "20140103030321"},
		{"http://a.test/web/20140103030321oe_/x.example:8080/p", "http://a.test/web/20140103030321id_/x.example:8080/p", "http://x.example:8080/p", "20140103030321"},
		{"<http://a.test/web/20140103030321/http://x/>", "http://a.test/web/20140103030321id_/http://x/", "http://x/", "20140103030321"},
		// Not Wayback-style: unchanged.
		{"http://archive.today/2014.01.03/http://x/", "http://archive.today/2014.01.03/http://x/", "", ""},
		{"http://a.test/2014/05/article", "http://a.test/2014/05/article", "", ""},
		{"http://a.test/web/20140103030321/", "http://a.test/web/20140103030321/", "", ""},
		{"http://a.test/web/*/http://x/", "http://a.test/web/*/http://x/", "", ""},
		{"http://a.test/web/20141399000000/http://x/", "http://a.test/web/20141399000000id_/http://x/", "", ""},
	} {
		if got := RawURIM(tc.in); got != tc.raw && !(tc.in[0] == '<' && got == tc.raw) {
			t.Errorf("RawURIM(%s) = %s, want %s", tc.in, got, tc.raw)
		}
		urir, ts, ok := ParseURIM(tc.in)
		if urir != tc.urir || ts != tc.ts || ok != (tc.urir != "") {
			t.Errorf("ParseURIM(%s) = %s %s %v, want %s %s", tc.in, urir, ts, ok, tc.urir, tc.ts)
		}
	}
}
