package similarity

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

// doc makes a document of content only, whose terms are its words.
func doc(text string) *extract.Document {
	f := strings.Fields(text)
	return &extract.Document{Text: text, Terms: f, ContentTerms: len(f), WordCount: len(f), ContentWords: len(f),
		ByteCount: 10 * len(text), Extractor: "body"}
}

const (
	onText   = "lighthouse keeper lamp lens tower fog signal coast storm ship wreck rescue keeper lamp lens tower gallery brass clockwork wick oil cottage boat"
	onText2  = "lighthouse keeper lamp lens tower fog signal coast storm ship wreck rescue keeper lamp lens tower gallery brass museum visitors open days"
	parkText = "domain for sale"
	spamText = "cheap pills casino poker replica watches discount pharmacy bonus slots shipping worldwide order pills casino poker replica watches bonus"
)

// input builds a TimeMap of one page from (status, mime, text) triples a year apart.
func input(caps ...[3]string) Input {
	tm := &timemap.TimeMap{Key: "org,example)/", URIR: "http://example.org/"}
	in := Input{TimeMap: tm, URIT: "urn:t"}
	t0 := time.Date(2005, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, c := range caps {
		status := 200
		if c[0] != "200" {
			status = 404
		}
		tm.Captures = append(tm.Captures, timemap.Capture{Key: tm.Key, URIR: tm.URIR, Time: t0.AddDate(i, 0, 0), Status: status, MIME: c[1]})
		in.URIMs = append(in.URIMs, "http://a/"+tm.Captures[i].Timestamp14()+"/"+tm.URIR)
		var d *extract.Document
		if c[2] != "" {
			d = doc(c[2])
		}
		in.Docs = append(in.Docs, d)
		in.Errs = append(in.Errs, "")
	}
	return in
}

func TestScoreVerdicts(t *testing.T) {
	in := input(
		[3]string{"404", "text/html", ""},
		[3]string{"200", "text/html", onText},
		[3]string{"200", "text/html", onText2},
		[3]string{"200", "text/css", ""},
		[3]string{"200", "text/html", spamText},
		[3]string{"200", "text/html", parkText},
	)
	res, err := Score(context.Background(), in, nil, Options{Measures: MeasureNames()})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		verdict, reason string
		kind            Kind
	}{
		{VerdictNotScored, "HTTP status 404", ""},
		{VerdictOn, "t0", ""},
		{VerdictOn, "no threshold crossed", ""},
		{VerdictNotScored, "not HTML (text/css)", ""},
		{VerdictOff, "spam", KindSpam},
		{VerdictOff, "wordcount", KindParked},
	}
	for i, w := range want {
		c := res.Captures[i]
		if c.Verdict != w.verdict || !strings.Contains(c.Reason, w.reason) || c.Kind != w.kind {
			t.Errorf("capture %d: %s %q (%s), want %s %q (%s)", i, c.Verdict, c.Kind, c.Reason, w.verdict, w.kind, w.reason)
		}
		if w.kind != "" && !strings.HasPrefix(c.Reason, w.kind.Label()+": ") {
			t.Errorf("capture %d: reason %q does not lead with its kind", i, c.Reason)
		}
	}
	if res.T0 != in.URIMs[1] || !res.Captures[1].IsT0 {
		t.Errorf("t0 = %q, want the first 200 HTML capture with text", res.T0)
	}
	if s := res.Captures[2].Scores; s[MeasureCosine] < 0.3 || s[MeasureCosine] > 0.99 || len(s) != len(MeasureNames())-2 {
		t.Errorf("scores of an edited capture = %v, want every measure but topic and sekernel (no model, no engine) and a high cosine", s)
	}
}

// TestDriftedOrReplaced: a page whose stories give way one by one to
// another subject's drifted; one whose text is another subject's at once was
// replaced, and stays so in the captures that follow it.
func TestDriftedOrReplaced(t *testing.T) {
	a := strings.Fields("lighthouse keeper lamp lens tower fog signal coast storm ship wreck rescue gallery brass wick oil")
	b := strings.Fields("football league cup goal striker keeper match season coach stadium fans transfer derby penalty referee whistle")
	mix := func(n int) string { // the first n stories of a's, the rest b's
		var w []string
		for s := range 4 {
			src := b
			if s < n {
				src = a
			}
			w = append(w, src[4*s:4*s+4]...)
			w = append(w, src[4*s:4*s+4]...)
		}
		return strings.Join(w, " ")
	}
	drift := input([3]string{"200", "text/html", mix(4) + " " + mix(4)}, [3]string{"200", "text/html", mix(3)},
		[3]string{"200", "text/html", mix(2)}, [3]string{"200", "text/html", mix(1)},
		[3]string{"200", "text/html", mix(0)}, [3]string{"200", "text/html", mix(0)})
	jump := input([3]string{"200", "text/html", mix(4) + " " + mix(4)}, [3]string{"200", "text/html", mix(0)},
		[3]string{"200", "text/html", mix(0)})
	for _, tt := range []struct {
		name string
		in   Input
		want Kind
	}{{"drift", drift, KindDrifted}, {"jump", jump, KindReplaced}} {
		res, err := Score(context.Background(), tt.in, nil, Options{Plain: true})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i, c := range res.Captures {
			if c.Verdict == VerdictOff {
				n++
				if c.Kind != tt.want {
					t.Errorf("%s: capture %d is %q (%s), want %q", tt.name, i, c.Kind, c.Reason, tt.want)
				}
			}
		}
		if n < 2 {
			t.Errorf("%s: %d captures off-topic, want the last two at least", tt.name, n)
		}
	}
}

func TestScoreNoT0(t *testing.T) {
	in := input([3]string{"200", "text/html", "too short"}, [3]string{"404", "text/html", ""})
	res, err := Score(context.Background(), in, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.T0 != "" || res.Captures[0].Verdict != VerdictNotScored || !strings.Contains(res.T0Reason, "no capture") {
		t.Errorf("got t0 %q reason %q verdict %s, want no t0 and not scored", res.T0, res.T0Reason, res.Captures[0].Verdict)
	}
}

// TestTopicCheck: a seed already parked at its first capture gets a later t0
// once the collection's topic shows the first capture is off it.
func TestTopicCheck(t *testing.T) {
	parked := "insurance flights loans credit hotels cheap offers best deals now travel dating jobs ringtones games laptops" // a listing without a parking page's phrases
	b := NewModelBuilder(false, 5)
	long, long2 := onText+" "+onText2, onText2+" "+onText
	for i := range 20 {
		in := input([3]string{"200", "text/html", long}, [3]string{"200", "text/html", long2})
		in.TimeMap.Captures[0].Digest = "d" + string(rune('a'+i))
		b.Add(in)
	}
	in := input([3]string{"200", "text/html", parked}, [3]string{"200", "text/html", long}, [3]string{"200", "text/html", long2})
	b.Add(in)
	model := b.Build()
	res, err := Score(context.Background(), in, model, Options{TopicCheck: true, MinT0Words: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Captures[1].IsT0 || !strings.Contains(res.T0Reason, "off the collection's topic") {
		t.Fatalf("t0 = %q (%s), want the second capture", res.T0, res.T0Reason)
	}
	if res.Captures[0].Verdict != VerdictOff {
		t.Errorf("parked first capture: %s (%s), want off-topic", res.Captures[0].Verdict, res.Captures[0].Reason)
	}
	// Without the check the paper's method keeps the parked page as t0.
	res, _ = Score(context.Background(), in, model, Options{MinT0Words: 5})
	if !res.Captures[0].IsT0 {
		t.Error("without TopicCheck t0 must be the first capture")
	}
}

// subjectDoc draws n words from the vocabulary of one subject, so that two
// documents of a subject share few words (different stories) but their
// subject's vocabulary.
func subjectDoc(rng *rand.Rand, subject string, n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprintf("%s%03d", subject, rng.IntN(300))
	}
	return strings.Join(words, " ")
}

// twoSubjects is a model builder holding 40 pages (each its own URI-R),
// half on each of two subjects ("light" and "cook").
func twoSubjects(rng *rand.Rand) *ModelBuilder { return subjects(rng, "light", "cook") }

// subjects is a model builder holding 40 pages (each its own URI-R), as
// many on each of the subjects named.
func subjects(rng *rand.Rand, names ...string) *ModelBuilder {
	b := NewModelBuilder(false, 5)
	for i := range 40 {
		subject := names[i%len(names)]
		in := input([3]string{"200", "text/html", subjectDoc(rng, subject, 40)})
		in.TimeMap.Key = fmt.Sprintf("org,example,%s%d)/", subject, i)
		b.Add(in)
	}
	return b
}

// TestJumpIsNoAnchor: a capture that passes the rule (it keeps a few of t0's
// terms) but shares next to nothing with the latest on-topic capture is
// on-topic, yet does not become the capture that continuity is measured
// against: a page that went on from it (a parked or repurposed site) is a
// jump from the page as it was.
func TestJumpIsNoAnchor(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	b := twoSubjects(rng)
	words := func(from, to, times int) string {
		var w []string
		for range times {
			for k := from; k < to; k++ {
				w = append(w, fmt.Sprintf("light%03d", k))
			}
		}
		return strings.Join(w, " ")
	}
	in := input(
		[3]string{"200", "text/html", words(0, 40, 1)},                           // t0
		[3]string{"200", "text/html", words(0, 4, 1) + " " + words(160, 196, 3)}, // jaccard 4/76 with t0: the rule passes it
		[3]string{"200", "text/html", words(160, 196, 3)},                        // the same site on, nothing of t0's
	)
	b.Add(in)
	model := b.Build()
	rule, err := ParseRule("jaccard=0.05")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Score(context.Background(), in, model, Options{Rule: rule, MinT0Words: 5, Continuity: DefaultContinuity})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ verdict, reason string }{
		{VerdictOn, "t0"},
		{VerdictOn, "no threshold crossed"},
		{VerdictOff, "nothing of t0's page is left"},
	}
	for i, w := range want {
		c := res.Captures[i]
		if c.Verdict != w.verdict || !strings.Contains(c.Reason, w.reason) {
			t.Errorf("capture %d: %s (%s), scores %v; want %s (%s)", i, c.Verdict, c.Reason, c.Scores, w.verdict, w.reason)
		}
	}
}

// TestT0Stub: a first capture that is a stub of the page (a short error page
// that shares nothing with the page's full captures) is passed over for t0;
// a short first capture that the page grows from (a live page) is not.
func TestT0Stub(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	b := NewModelBuilder(false, 5)
	for i := range 40 { // first captures of 400 terms
		b.Add(input([3]string{"200", "text/html", subjectDoc(rng, []string{"light", "cook"}[i%2], 400)}))
	}
	// The page's story uses the first half of the subject's words; the stub
	// a few of the other half, so that it is near the subject but shares
	// nothing with the page.
	var words []string
	for k := range 240 {
		words = append(words, fmt.Sprintf("light%03d", (k*7)%150))
	}
	story := strings.Join(words, " ")
	soft404 := "oops nothing to see here" // no phrase of a message page: the stub test decides
	for k := range 24 {
		soft404 += fmt.Sprintf(" light%03d", 200+k)
	}
	grown := strings.Join(strings.Fields(story)[:24], " ")
	for _, tt := range []struct {
		name   string
		first  string
		wantT0 int
		reason string
	}{
		{"soft 404 first", soft404, 1, "stub of the page"},
		{"live page first", grown, 0, "first capture with HTTP 200"},
	} {
		in := input(
			[3]string{"200", "text/html", tt.first},
			[3]string{"200", "text/html", story},
			[3]string{"200", "text/html", story + " " + subjectDoc(rng, "light", 40)},
		)
		b.Add(in)
		model := b.Build()
		res, err := Score(context.Background(), in, model, Options{TopicCheck: true, MinT0Words: 5})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Captures[tt.wantT0].IsT0 || !strings.Contains(res.T0Reason, tt.reason) {
			t.Errorf("%s: t0 %s (%s); want capture %d (%s)", tt.name, res.T0, res.T0Reason, tt.wantT0, tt.reason)
		}
	}
}

// TestExcerpt: excerpt keeps the first words, normalises spaces, marks a
// cut with "…", and gives an excerpt back unchanged.
func TestExcerpt(t *testing.T) {
	cases := []struct {
		text  string
		words int
		want  string
	}{
		{"", 3, ""},
		{"one two", 3, "one two"},
		{"one two three", 3, "one two three"},
		{"one two three four", 3, "one two three …"},
		{"one two three …", 3, "one two three …"},
		{"  one\ttwo\n\nthree  ", 3, "one two three"},
		{"one\u00a0two three four", 3, "one two three …"},
		{"one  two", 3, "one two"},
		{"one two …", 3, "one two …"},
		{"a b c d …", 3, "a b c …"},
		{"abc", 0, "…"},
	}
	for _, c := range cases {
		got := excerpt(c.text, c.words)
		if got != c.want {
			t.Errorf("excerpt(%q, %d) = %q, want %q", c.text, c.words, got, c.want)
		}
		if again := excerpt(got, c.words); again != got {
			t.Errorf("excerpt of the excerpt %q = %q", got, again)
		}
	}
}

// TestParkedFirstCaptureIsNotT0: a parked page whose related searches are
// the site's own words is not the page's t0, even without a collection
// model; the real page after it is.
func TestParkedFirstCaptureIsNotT0(t *testing.T) {
	parked := "this domain is for sale buy this domain related searches lighthouse keeper lamp lens tower fog signal coast storm ship wreck rescue"
	in := input([3]string{"200", "text/html", parked}, [3]string{"200", "text/html", onText}, [3]string{"200", "text/html", onText2})
	res, err := Score(context.Background(), in, nil, Options{TopicCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.T0 != in.URIMs[1] || !strings.Contains(res.T0Reason, "parked or for sale") {
		t.Fatalf("t0 %s (%s), want the capture after the parked page", res.T0, res.T0Reason)
	}
	if c := res.Captures[0]; c.Verdict != VerdictOff || c.Kind != KindParked {
		t.Errorf("the parked first capture: %s %q (%s)", c.Verdict, c.Kind, c.Reason)
	}
	if res, _ := Score(context.Background(), in, nil, Options{}); res.T0 != in.URIMs[0] {
		t.Errorf("without the t0 check, t0 is %s, want the first capture", res.T0)
	}
}

// TestRemnantInsideSpam: an article shrunk to its first lines inside
// injected spam is off-topic as spam, though it shares t0's title words; an
// article that grew with more of its subject is not.
func TestRemnantInsideSpam(t *testing.T) {
	spam := strings.Repeat("cheap viagra pills order online casino bonus jackpot payday loans replica rolex fast shipping ", 4)
	grown := onText + " " + onText2 + " harbour pilots charts beacon island cliff"
	in := input([3]string{"200", "text/html", onText + " " + onText2},
		[3]string{"200", "text/html", "lighthouse keeper lamp lens tower fog signal " + spam},
		[3]string{"200", "text/html", grown})
	res, err := Score(context.Background(), in, nil, Options{Continuity: DefaultContinuity})
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Captures[1]; c.Verdict != VerdictOff || c.Kind != KindSpam || !strings.Contains(c.Reason, "new since t0 and spam") {
		t.Errorf("the remnant inside spam: %s %q (%s)", c.Verdict, c.Kind, c.Reason)
	}
	if c := res.Captures[2]; c.Verdict != VerdictOn {
		t.Errorf("the grown article: %s (%s)", c.Verdict, c.Reason)
	}
}

// TestEveryCaptureAMessagePage: a page every capture of which is a message
// page (a parked host a redirect led to) has nothing on-topic: each is
// off-topic, and none is t0. A message page is off-topic too where no
// capture has the words to be t0 (a Flash intro, then a suspended account);
// the thin captures cannot be compared with anything.
func TestEveryCaptureAMessagePage(t *testing.T) {
	parked := "this domain is for sale buy this domain related searches hotels flights insurance loans credit cards dating jobs"
	tests := []struct {
		name  string
		caps  [][3]string
		kinds []Kind // per capture; "" for not scored
	}{
		{"every capture parked", [][3]string{{"200", "text/html", parked}, {"200", "text/html", parked + " travel"}},
			[]Kind{KindParked, KindParked}},
		{"a thin intro, then suspended", [][3]string{{"200", "text/html", "enter"}, {"200", "text/html", "enter"},
			{"200", "text/html", "account suspended this account has been suspended"}}, []Kind{"", "", KindSuspended}},
	}
	for _, tt := range tests {
		res, err := Score(context.Background(), input(tt.caps...), nil, Options{TopicCheck: true, MinT0Words: 5})
		if err != nil {
			t.Fatal(err)
		}
		if res.T0 != "" {
			t.Errorf("%s: t0 %s, want none", tt.name, res.T0)
		}
		for i, c := range res.Captures {
			want := VerdictOff
			if tt.kinds[i] == "" {
				want = VerdictNotScored
			}
			if c.Verdict != want || c.Kind != tt.kinds[i] {
				t.Errorf("%s: capture %d: %s %q (%s), want %s %q", tt.name, i, c.Verdict, c.Kind, c.Reason, want, tt.kinds[i])
			}
		}
	}
	in := input([3]string{"200", "text/html", parked}, [3]string{"200", "text/html", parked + " travel"})
	if res, _ := Score(context.Background(), in, nil, Options{TopicCheck: true, Plain: true, MinT0Words: 5}); res.Captures[0].Verdict != VerdictOn {
		t.Errorf("the paper's plain rule: t0 is %s", res.Captures[0].Verdict)
	}
}

// TestNewStoriesInFrame: a blog's front page captured months apart shows
// none of its earlier posts, only the site's frame and new posts; posts on
// the collection's subject are the blog working, posts of another subject
// in the same frame are not, and neither are the collection's subject's
// posts shown by another site a redirect leads to.
func TestNewStoriesInFrame(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	frame := "lighthouse keepers society home news events membership donate contact archive " +
		"copyright lighthouse keepers society all rights reserved privacy terms"
	blog := func(subject string) *extract.Document {
		return page{content: subjectDoc(rng, subject, 150), chrome: frame}.doc()
	}
	// posts of the subject's words from..from+99 only: none shared with
	// a page of the others.
	posts := func(from int) *extract.Document {
		w := make([]string, 150)
		for k := range w {
			w[k] = fmt.Sprintf("light%03d", from+rng.IntN(100))
		}
		return page{content: strings.Join(w, " "), chrome: frame}.doc()
	}
	b := subjects(rng, "light")
	in := pages(page{content: "x"}, page{content: "x"}, page{content: "x"}, page{content: "x"})
	in.Docs = []*extract.Document{posts(0), posts(100), blog("cook"), posts(200)}
	b.Add(in)
	model := b.Build()
	res, err := Score(context.Background(), in, model, Options{MinT0Words: 5, Continuity: DefaultContinuity, TopicCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{VerdictOn, VerdictOn, VerdictOff, VerdictOn}
	for i, w := range want {
		if c := res.Captures[i]; c.Verdict != w {
			t.Errorf("capture %d: %s (%s), scores %v; want %s", i, c.Verdict, c.Reason, c.Scores, w)
		}
	}
	// The last capture shown by a redirect to another site.
	in.Refs = []Ref{{Capture: 3, How: HowRedirect, URL: "http://elsewhere.example.net/", Key: "net,example,elsewhere)/"}}
	in.Targets = []Target{{Ref: 0, URIR: "http://elsewhere.example.net/", URIM: "m", Time: in.TimeMap.Captures[3].Time, Doc: posts(200)}}
	in.TimeMap.Captures[3].Status = 301
	res, err = Score(context.Background(), in, model, Options{MinT0Words: 5, Continuity: DefaultContinuity, TopicCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Captures[3]; c.Verdict != VerdictOff {
		t.Errorf("the redirect to another site's posts: %s (%s)", c.Verdict, c.Reason)
	}
}
