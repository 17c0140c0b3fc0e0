package similarity

import "testing"

func TestSpellsHost(t *testing.T) {
	tests := []struct{ title, host, want string }{
		{"Egypt live blog | Al Jazeera Blogs", "blogs.aljazeera.net", "al jazeera"},
		{"Mubarak's last days - Egypt | Al Jazeera", "www.aljazeera.com", "al jazeera"},
		{"Citizen Report - Latest news", "citizenreport91.com", "citizen report"},
		{"Amnesty International Österreich", "www.amnesty.at", "amnesty"},
		{"BBC News - Home", "news.bbc.co.uk", "bbc"},                              // the whole name, however short
		{"Politics news today", "dailynews.com", ""},                              // "news" is under half of the name
		{"Egypt Independent: Cairo", "egyptindependent.com", "egypt independent"}, // the name, not the word alone
		{"Egypt: the vote", "egyptindependent.com", ""},
		{"Women's Centre for Legal Aid", "www.wclac.org", ""},
		{"منظمة العفو الدولية", "www.amnesty.or.kr", ""},
		{"Amnesty Korea", "amnesty.or.kr", "amnesty"},
		{"Home", "localhost", ""},
	}
	for _, tt := range tests {
		s := &scoring{host: tt.host}
		if got := spellsHost(tt.title, s.siteName()); got != tt.want {
			t.Errorf("spellsHost(%q) of %s (name %q) = %q, want %q", tt.title, tt.host, s.siteName(), got, tt.want)
		}
	}
}

func TestAddresses(t *testing.T) {
	same := [][2]string{
		{"http://www.example.org/", "https://example.org"},
		{"http://example.org/index.html", "http://example.org/"},
		{"http://example.org:80/news/#top", "http://example.org/news"},
		{"http://www2.example.org/?utm_source=feed&utm_campaign=2012", "http://example.org/"},
		{"http://example.org/story?id=7&fbclid=abc", "http://example.org/story?id=7"},
	}
	for _, p := range same {
		if addressKey(p[0]) != addressKey(p[1]) {
			t.Errorf("%q and %q: not the same page (%q, %q)", p[0], p[1], addressKey(p[0]), addressKey(p[1]))
		}
	}
	if addressKey("http://example.org/?p=1") == addressKey("http://example.org/?p=2") {
		t.Error("queries told apart: same")
	}
	articles := map[string]bool{
		"http://example.org/2011/01/story.html": true, "http://example.org/opinion/the-long-road": true,
		"http://example.org/story.html": true, "http://example.org/the-long-hard-road": true, "http://example.org/?p=123": true,
		"http://example.org/news.php?articleid=5": true,
		"http://example.org/":                     false, "http://example.org/de": false, "http://example.org/home": false, "http://example.org/en/home/": false,
		"http://example.org/en/index.html": false, "http://example.org/home.aspx?lang=en": false, "http://example.org/?utm_campaign=2012": false,
		"https://www.privacyinternational.org/privacy-international": false, "http://volksanwaltschaft.gv.at": false,
	}
	for u, want := range articles {
		if got := articleAddress(u); got != want {
			t.Errorf("articleAddress(%q) = %v, want %v", u, got, want)
		}
	}
	if siteHost("WWW3.Example.org:8080") != "example.org" || siteHost("www-uk.example.org") != "www-uk.example.org" {
		t.Errorf("siteHost: %q, %q", siteHost("WWW3.Example.org:8080"), siteHost("www-uk.example.org"))
	}
}
