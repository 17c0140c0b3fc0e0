package similarity

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/timemap"
)

// warcResponse is one response record of a test WARC file.
type warcResponse struct {
	uri    string
	at     time.Time
	status int
	header string // extra HTTP header lines, each ending in \r\n
	body   string
}

// writeWARC writes records as an uncompressed WARC file and returns its path.
func writeWARC(t *testing.T, recs []warcResponse) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "replay.warc")
	rs := make([]testcorpus.Response, len(recs))
	for i, r := range recs {
		rs[i] = testcorpus.Response{URI: r.uri, At: r.at, Status: r.status, Header: r.header, Body: r.body}
	}
	testcorpus.WriteWARC(t, path, rs)
	return path
}

// detectPage runs detection with default settings over files and returns
// the results of the TimeMap with the given key.
func detectPage(t *testing.T, files []string, key string) *TimeMapResult {
	t.Helper()
	res, err := DetectFiles(context.Background(), files, Config{Options: DefaultOptions(), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Key == key {
			return r
		}
	}
	t.Fatalf("no TimeMap %s among %d", key, len(res))
	return nil
}

func article(title, text string) string {
	return "<html><head><title>" + title + "</title></head><body><h1>" + title + "</h1><p>" + text + "</p></body></html>"
}

// TestReplayRedirects: a redirect is judged by the capture its Location
// leads to, in its own TimeMap or another; one that leads nowhere, or in a
// circle, is not scored and says why.
func TestReplayRedirects(t *testing.T) {
	y := func(year int, sec int) time.Time { return time.Date(year, 3, 1, 12, 0, sec, 0, time.UTC) }
	lighthouse := "The lighthouse keepers restored the great lens of the tower on the point, and the volunteers " +
		"of the preservation society opened the keepers' cottage, the brass clockwork and the fog signal to visitors."
	lighthouse2 := lighthouse + " The society thanks the fishermen of the harbour who gave the oil lamps."
	parked := "This domain is for sale! Buy this domain today. Related searches: cheap flights, car insurance, dating, hotels."
	loc := func(u string) string { return "Location: " + u + "\r\n" }
	files := []string{writeWARC(t, []warcResponse{
		{uri: "http://lighthouse.example/", at: y(2005, 0), status: 200, body: article("Lighthouse society", lighthouse)},
		{uri: "http://lighthouse.example/", at: y(2006, 0), status: 200, body: article("Lighthouse society", lighthouse2)},
		{uri: "http://lighthouse.example/", at: y(2007, 0), status: 301, header: loc("http://sale.example/")},
		{uri: "http://sale.example/", at: y(2007, 30), status: 200, body: article("sale.example", parked)},
		{uri: "http://lighthouse.example/", at: y(2008, 0), status: 302, header: loc("https://www.lighthouse.example/")},
		{uri: "https://www.lighthouse.example/", at: y(2008, 12), status: 200, body: article("Lighthouse society", lighthouse2)},
		{uri: "http://lighthouse.example/", at: y(2009, 0), status: 301, header: loc("/moved/")},
		{uri: "http://lighthouse.example/", at: y(2010, 0), status: 301, header: loc("http://loop-a.example/")},
		{uri: "http://loop-a.example/", at: y(2010, 5), status: 302, header: loc("http://loop-b.example/")},
		{uri: "http://loop-b.example/", at: y(2010, 9), status: 302, header: loc("http://loop-a.example/")},
		{uri: "http://lighthouse.example/", at: y(2011, 0), status: 302, header: loc("http://lighthouse.example/")},
	})}
	page := detectPage(t, files, "example,lighthouse)/")
	want := []struct {
		verdict string
		kind    Kind
		reason  string
	}{
		{VerdictOn, "", "t0"},
		{VerdictOn, "", ""},
		{VerdictOff, KindRedirected, "redirects to http://sale.example/"},
		{VerdictOn, "", "redirects to https://www.lighthouse.example/"},
		{VerdictNotScored, "", "redirects to http://lighthouse.example/moved/: not captured within a day of it"},
		{VerdictNotScored, "", "a redirect loop"},
		{VerdictNotScored, "", "redirects to http://lighthouse.example/: it leads to itself, and no other capture of the page lies within a day of it"},
	}
	var got []string
	for _, c := range page.Captures {
		got = append(got, fmt.Sprintf("%d %s %s %s", c.Status, c.Verdict, c.Kind, c.Reason))
	}
	// The https capture is a capture of the same page (the same key).
	if len(page.Captures) != len(want)+1 {
		t.Fatalf("captures:\n%s", strings.Join(got, "\n"))
	}
	i := 0
	for _, c := range page.Captures {
		if c.URIR == "https://www.lighthouse.example/" {
			continue
		}
		w := want[i]
		if c.Verdict != w.verdict || c.Kind != w.kind || !strings.Contains(c.Reason, w.reason) {
			t.Errorf("capture %d: %s %q (%s), want %s %q (%s)", i, c.Verdict, c.Kind, c.Reason, w.verdict, w.kind, w.reason)
		}
		if (c.Status == 301 || c.Status == 302) && c.Replay == nil {
			t.Errorf("capture %d: a redirect without its replay", i)
		}
		i++
	}
	t.Logf("captures:\n%s", strings.Join(got, "\n"))
	if r := page.Captures[2].Replay; r == nil || r.URIR != "http://sale.example/" || r.URIM == "" {
		t.Errorf("the redirect's replay does not name the capture shown: %+v", r)
	}
}

// TestReplayClientSide: a meta refresh is judged by the page it sends the
// reader to, a frameset by its framed page; a page that says the site moved
// and sends the reader to another site is off-topic, redirected away.
func TestReplayClientSide(t *testing.T) {
	y := func(year int, sec int) time.Time { return time.Date(year, 3, 1, 12, 0, sec, 0, time.UTC) }
	text := "The lighthouse keepers restored the great lens of the tower on the point, and the volunteers " +
		"of the preservation society opened the keepers' cottage, the brass clockwork and the fog signal to visitors."
	refresh := func(to, say string) string {
		return `<html><head><meta http-equiv="refresh" content="3; url=` + to + `"><title>Lighthouse</title></head><body><p>` + say + `</p></body></html>`
	}
	frameset := `<html><head><title>Lighthouse</title></head><frameset rows="100%,*"><frame src="http://host.example/lh/"><noframes>Your browser does not show frames.</noframes></frameset></html>`
	files := []string{writeWARC(t, []warcResponse{
		{uri: "http://lighthouse.example/", at: y(2005, 0), status: 200, body: article("Lighthouse society", text)},
		{uri: "http://lighthouse.example/", at: y(2006, 0), status: 200, body: refresh("/new/", "")},
		{uri: "http://lighthouse.example/new/", at: y(2006, 20), status: 200, body: article("Lighthouse society", text)},
		{uri: "http://lighthouse.example/", at: y(2007, 0), status: 200, body: frameset},
		{uri: "http://host.example/lh/", at: y(2007, 4), status: 200, body: article("Lighthouse society", text)},
		{uri: "http://lighthouse.example/", at: y(2008, 0), status: 200, body: refresh("http://lighthouse-society.example/", "We have moved! Our new website is lighthouse-society.example.")},
		{uri: "http://lighthouse-society.example/", at: y(2008, 7), status: 200, body: article("Lighthouse society", text)},
	})}
	page := detectPage(t, files, "example,lighthouse)/")
	if len(page.Captures) != 4 {
		t.Fatalf("no TimeMap of four captures of the lighthouse page: %+v", page)
	}
	want := []struct {
		verdict, how string
		kind         Kind
	}{
		{VerdictOn, "", ""},
		{VerdictOn, HowRefresh, ""},
		{VerdictOn, HowFrame, ""},
		{VerdictOff, HowRefresh, KindRedirected},
	}
	for i, w := range want {
		c := page.Captures[i]
		how := ""
		if c.Replay != nil {
			how = c.Replay.How
		}
		if c.Verdict != w.verdict || how != w.how || c.Kind != w.kind {
			t.Errorf("capture %d: %s %q replay %q (%s), want %s %q replay %q", i, c.Verdict, c.Kind, how, c.Reason, w.verdict, w.kind, w.how)
		}
	}
}

// TestReplayOutsideSeeds: when only some TimeMaps are scored (seeds), a
// redirect is still followed into the collection's other TimeMaps, which
// are read for it and not scored.
func TestReplayOutsideSeeds(t *testing.T) {
	y := func(year int, sec int) time.Time { return time.Date(year, 3, 1, 12, 0, sec, 0, time.UTC) }
	text := "The lighthouse keepers restored the great lens of the tower on the point, and the volunteers " +
		"of the preservation society opened the keepers' cottage, the brass clockwork and the fog signal to visitors."
	files := []string{writeWARC(t, []warcResponse{
		{uri: "http://lighthouse.example/", at: y(2005, 0), status: 200, body: article("Lighthouse society", text)},
		{uri: "http://lighthouse.example/", at: y(2007, 0), status: 301, header: "Location: http://sale.example/\r\n"},
		{uri: "http://sale.example/", at: y(2007, 30), status: 200, body: article("sale.example", "This domain is for sale! Buy this domain today. Related searches: hotels, flights.")},
	})}
	for _, others := range []bool{false, true} {
		cfg := Config{Options: DefaultOptions(), Workers: 2}
		notes := NewPayloadNotes(cfg.Options, cfg.Extract)
		idx, err := timemap.BuildIndex(context.Background(), files, timemap.IndexOptions{TempDir: t.TempDir(), Note: notes.Note, WantsNote: notes.Wants})
		if err != nil {
			t.Fatal(err)
		}
		pl := timemap.NewPayloads()
		cfg.ReadPayload = pl.Read
		if others {
			cfg.Others = idx
		}
		var got []*TimeMapResult
		_, err = Detect(context.Background(), timemap.NewSeeds(timemap.CanonSURT, "http://lighthouse.example/").Select(idx), cfg,
			func(r *TimeMapResult) error { got = append(got, r); return nil })
		pl.Close()
		idx.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 {
			t.Fatalf("others %v: %d TimeMaps scored, want the seed's", others, len(got))
		}
		c := got[0].Captures[1]
		if others && (c.Verdict != VerdictOff || c.Kind != KindRedirected) || !others && c.Verdict != VerdictNotScored {
			t.Errorf("others %v: the redirect is %s %q (%s)", others, c.Verdict, c.Kind, c.Reason)
		}
	}
}

// TestRefsOf: references resolve against the URI-R, only http(s) targets
// count, and a page of many frames gives at most maxFrames.
func TestRefsOf(t *testing.T) {
	c := timemap.Capture{URIR: "http://example.org/a/b.html", Status: 301}
	for _, tt := range []struct {
		loc, want string
	}{
		{"/new/", "http://example.org/new/"},
		{"https://www.example.org/#top", "https://www.example.org/"},
		{"c.html?x=1", "http://example.org/a/c.html?x=1"},
		{"javascript:alert(1)", ""},
		{"mailto:a@example.org", ""},
		{"", ""},
	} {
		refs := refsOf(c, 0, tt.loc, nil, timemap.CanonSURT)
		got := ""
		if len(refs) > 0 {
			got = refs[0].URL
		}
		if got != tt.want {
			t.Errorf("Location %q: ref %q, want %q", tt.loc, got, tt.want)
		}
	}
	doc := &extract.Document{}
	for i := range 100 {
		doc.Frames = append(doc.Frames, fmt.Sprintf("/f%d.html", i))
	}
	page := timemap.Capture{URIR: "http://example.org/", Status: 200}
	if refs := refsOf(page, 0, "", doc, timemap.CanonSURT); len(refs) != maxFrames || refs[0].How != HowFrame {
		t.Errorf("%d frame references of 100 frames, want %d", len(refs), maxFrames)
	}
}

// TestReplayChains: a chain of replays is judged by the page it ends on:
// meta refresh to meta refresh to the page, an HTTP redirect to a meta
// refresh to the page, a frameset whose frame is a frameset whose frames
// hold the page. A chain whose last hop was not captured shows the page it
// stopped on.
func TestReplayChains(t *testing.T) {
	y := func(year int, sec int) time.Time { return time.Date(year, 3, 1, 12, 0, sec, 0, time.UTC) }
	text := "The lighthouse keepers restored the great lens of the tower on the point, and the volunteers " +
		"of the preservation society opened the keepers' cottage, the brass clockwork and the fog signal to visitors."
	more := text + " The society thanks the fishermen of the harbour who gave the oil lamps and the old charts."
	refresh := func(to string) string {
		return `<html><head><meta http-equiv="refresh" content="0; url=` + to + `"><title>Lighthouse</title></head><body></body></html>`
	}
	frameset := func(srcs ...string) string {
		s := `<html><head><title>Lighthouse</title></head><frameset cols="20%,80%">`
		for _, src := range srcs {
			s += `<frame src="` + src + `">`
		}
		return s + `<noframes>Your browser does not show frames.</noframes></frameset></html>`
	}
	nav := `<html><head><title>Menu</title></head><body><ul><li><a href="/">Home</a></li><li><a href="/c">Contact</a></li></ul></body></html>`
	lh := "http://lighthouse.example/"
	for _, tt := range []struct {
		name  string
		recs  []warcResponse
		how   string
		final string // URI-R of the page the chain ends on
		hops  int
	}{
		{"refresh, refresh, page", []warcResponse{
			{uri: lh, at: y(2007, 0), status: 200, body: refresh("http://a.example/")},
			{uri: "http://a.example/", at: y(2007, 5), status: 200, body: refresh("http://b.example/lh/")},
			{uri: "http://b.example/lh/", at: y(2007, 9), status: 200, body: article("Lighthouse society", more)},
		}, HowRefresh, "http://b.example/lh/", 1},
		{"301, refresh, page", []warcResponse{
			{uri: lh, at: y(2007, 0), status: 301, header: "Location: http://a.example/\r\n"},
			{uri: "http://a.example/", at: y(2007, 5), status: 200, body: refresh("http://b.example/lh/")},
			{uri: "http://b.example/lh/", at: y(2007, 9), status: 200, body: article("Lighthouse society", more)},
		}, HowRedirect, "http://b.example/lh/", 1},
		{"frameset, frameset, content", []warcResponse{
			{uri: lh, at: y(2007, 0), status: 200, body: frameset("http://a.example/main/")},
			{uri: "http://a.example/main/", at: y(2007, 5), status: 200, body: frameset("http://b.example/nav/", "http://b.example/lh/")},
			{uri: "http://b.example/nav/", at: y(2007, 8), status: 200, body: nav},
			{uri: "http://b.example/lh/", at: y(2007, 9), status: 200, body: article("Lighthouse society", more)},
		}, HowFrame, "http://b.example/nav/", 0},
		{"refresh, refresh to nowhere", []warcResponse{
			{uri: lh, at: y(2007, 0), status: 200, body: refresh("http://a.example/")},
			{uri: "http://a.example/", at: y(2007, 5), status: 200, body: `<html><head><meta http-equiv="refresh" content="0; url=http://gone.example/"><title>Lighthouse society</title></head><body><p>` + more + `</p></body></html>`},
		}, HowRefresh, "http://a.example/", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			recs := append([]warcResponse{{uri: lh, at: y(2005, 0), status: 200, body: article("Lighthouse society", text)}}, tt.recs...)
			page := detectPage(t, []string{writeWARC(t, recs)}, "example,lighthouse)/")
			if len(page.Captures) != 2 {
				t.Fatalf("%d captures of the lighthouse page, want 2", len(page.Captures))
			}
			c := page.Captures[1]
			if c.Verdict != VerdictOn || c.Replay == nil || c.Replay.How != tt.how || c.Replay.URIR != tt.final || c.Replay.Hops != tt.hops {
				t.Errorf("%s %q (%s), replay %+v; want on-topic, shown %s after %d more hops", c.Verdict, c.Kind, c.Reason, c.Replay, tt.final, tt.hops)
			}
			if !strings.Contains(c.Excerpt, "fishermen") {
				t.Errorf("excerpt %q is not the final page's text", c.Excerpt)
			}
		})
	}
}

// TestKeySet: the join's set of TimeMap keys answers every key added, and
// almost never one not added, before and after it turns into a Bloom
// filter.
func TestKeySet(t *testing.T) {
	var s keySet
	n := maxExactKeys + 1000
	for i := range n {
		s.add(fmt.Sprintf("org,example)/page/%d", i))
		if i == maxExactKeys-1 && s.bloom != nil {
			t.Fatal("a Bloom filter before the exact set is full")
		}
	}
	if s.bloom == nil {
		t.Fatal("no Bloom filter past the exact set")
	}
	for i := range n {
		if !s.has(fmt.Sprintf("org,example)/page/%d", i)) {
			t.Fatalf("key %d lost", i)
		}
	}
	wrong := 0
	for i := range 10000 {
		if s.has(fmt.Sprintf("org,other)/%d", i)) {
			wrong++
		}
	}
	if wrong > 100 {
		t.Errorf("%d of 10000 keys not added found", wrong)
	}
}
