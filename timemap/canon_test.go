package timemap

import "testing"

func TestCanonicalize(t *testing.T) {
	tests := []struct {
		in   string
		mode CanonMode
		want string
	}{
		{"http://example.com/path?b=2&a=1", CanonSURT, "com,example)/path?a=1&b=2"},
		{"http://www.example.org/", CanonSURT, "org,example)/"},
		{"https://WWW.Example.ORG", CanonSURT, "org,example)/"},
		{"http://www2.example.org/x", CanonSURT, "org,example)/x"},
		{"http://example.com:80/a", CanonSURT, "com,example)/a"},
		{"https://example.com:443/a", CanonSURT, "com,example)/a"},
		{"http://example.com:8080/a", CanonSURT, "com,example:8080)/a"},
		{"http://example.com/a#frag", CanonSURT, "com,example)/a"},
		{"http://example.com/A/B.html", CanonSURT, "com,example)/a/b.html"},
		{"<http://www.example.com/x?z=1&y=2>", CanonSURT, "com,example)/x?y=2&z=1"},
		{"http://example.com?example=1", CanonSURT, "com,example)/?example=1"},
		{"http://example.com/?", CanonSURT, "com,example)/"},
		{"http://user:pw@Example.com./", CanonSURT, "com,example)/"},
		{"example.com/page", CanonSURT, "com,example)/page"},
		{"http://192.168.1.1/x", CanonSURT, "192.168.1.1)/x"},
		{"http://www.iana.org/_css/2013.1/fonts/Inconsolata.otf", CanonSURT, "org,iana)/_css/2013.1/fonts/inconsolata.otf"},
		{"http://www.com/", CanonSURT, "com,www)/"},
		{"http://www.iana.org/domains/root/db/", CanonSURT, "org,iana)/domains/root/db"},
		{"http://example.com/a/?b=1", CanonSURT, "com,example)/a?b=1"},
		{"http://wwwexample.com/", CanonSURT, "com,wwwexample)/"},
		{"dns:www.archive.org", CanonSURT, "dns:www.archive.org"},
		{"http://bücher.example/", CanonSURT, "example,xn--bcher-kva)/"},
		{"http://Example.com/A?b=2&a=1#f", CanonNone, "http://Example.com/A?b=2&a=1#f"},
		{"<http://example.com/>", CanonNone, "http://example.com/"},
	}
	for _, tt := range tests {
		if got := Canonicalize(tt.in, tt.mode); got != tt.want {
			t.Errorf("Canonicalize(%q, %v) = %q, want %q", tt.in, tt.mode, got, tt.want)
		}
	}
}

func TestParseCanonMode(t *testing.T) {
	for in, want := range map[string]CanonMode{"": CanonSURT, "surt": CanonSURT, "SURT": CanonSURT, "none": CanonNone} {
		got, err := ParseCanonMode(in)
		if err != nil || got != want {
			t.Errorf("ParseCanonMode(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseCanonMode("bogus"); err == nil {
		t.Error("ParseCanonMode(bogus): no error")
	}
}
