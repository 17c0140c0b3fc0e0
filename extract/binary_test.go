package extract

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestDocumentBinaryRoundTrip(t *testing.T) {
	full := Document{
		Title: "Budget <b>", Text: "the chancellor unveiled", Chrome: "Home | News", Extractor: ExtractorBody, Lang: "en", Langs: []LangShare{{"en", 0.312}, {"fr", 0.05}},
		Terms: []string{"chancellor", "unveil", "", "budget", "home", "news"}, ContentTerms: 4, WordCount: 5, ContentWords: 3, ByteCount: -1,
		MediaType: "text/html", Charset: "utf-8", CharsetFrom: "header", TermsLang: "en",
		Published:     time.Date(2005, 3, 16, 12, 30, 0, 7, time.FixedZone("x", 3600+30)),
		PublishedFrom: PublishedFromTime,
		Links:         []Link{{URL: "http://example.org/a", Anchor: "A"}, {URL: "http://example.org/b"}},
		Embedded:      EmbeddedJSONLD + "," + EmbeddedState,
		Redirect:      "http://example.org/new",
		Frames:        []string{"http://example.org/top", "menu.html"},
		Canonical:     []string{"http://example.org/2006/05/story.html"},
		Copyright:     2016,
		Shell:         true,
		TextCut:       true,
		Partial:       "gzip stream cut: 812 bytes decoded",
	}
	// Every field is set, so that a field added to Document without being
	// added to the binary form fails here.
	v := reflect.ValueOf(full)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Fatalf("field %s is zero in the test document", v.Type().Field(i).Name)
		}
	}
	long := full
	long.Text = strings.Repeat("long text ", 2000)
	for i := range 3000 {
		long.Terms = append(long.Terms, strings.Repeat("é", i%200))
	}
	for _, d := range []Document{full, long, {}, {TextCut: true}, {Text: "x", Published: time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)}} {
		b, err := d.AppendBinary([]byte("prefix"))
		if err != nil {
			t.Fatal(err)
		}
		// One allocation, of room enough.
		if n := d.binaryLen(); n < len(b)-len("prefix") {
			t.Errorf("binaryLen %d, the binary form %d bytes", n, len(b)-len("prefix"))
		}
		if a := testing.AllocsPerRun(5, func() { d.AppendBinary(nil) }); a != 1 {
			t.Errorf("AppendBinary allocates %.0f times", a)
		}
		var got Document
		if err := got.UnmarshalBinary(b[len("prefix"):]); err != nil {
			t.Fatalf("UnmarshalBinary: %v", err)
		}
		if !got.Published.Equal(d.Published) {
			t.Errorf("Published %v, want %v", got.Published, d.Published)
		}
		_, gotOff := got.Published.Zone()
		_, wantOff := d.Published.Zone()
		got.Published, d.Published = time.Time{}, time.Time{}
		if !reflect.DeepEqual(got, d) || gotOff != wantOff {
			t.Errorf("round trip:\n got %+v (offset %d)\nwant %+v (offset %d)", got, gotOff, d, wantOff)
		}
	}
}

func TestDocumentBinaryDamage(t *testing.T) {
	d := Document{Title: "t", Text: "some text", Terms: []string{"some", "text"}, Links: []Link{{URL: "u"}}}
	b, err := d.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	for cut := range len(b) {
		var got Document
		if err := got.UnmarshalBinary(b[:cut]); err == nil {
			t.Errorf("cut at %d of %d: no error", cut, len(b))
		}
	}
	var got Document
	if err := got.UnmarshalBinary(append(b, 0)); err == nil {
		t.Error("a byte too many: no error")
	}
	bad := append([]byte{docFormat + 1}, b[1:]...)
	if err := got.UnmarshalBinary(bad); err == nil {
		t.Error("unknown format: no error")
	}
	// Format 2 lacked what replay shows: its Documents are extracted again.
	if err := got.UnmarshalBinary(append([]byte{2}, b[1:]...)); err == nil || !strings.Contains(err.Error(), "format 2") {
		t.Errorf("format 2: %v", err)
	}
	d.Shell = true
	shell, _ := d.AppendBinary(nil)
	for i := range shell {
		if shell[i] != b[i] {
			// The flags byte holds Shell (1) and TextCut (2): 4 is no flag.
			shell[i] = 4
			if err := got.UnmarshalBinary(shell); err == nil {
				t.Error("flags 4: no error")
			}
			break
		}
	}
}

// BenchmarkDocumentUnmarshal decodes a document of 5,000 terms, as the
// passes of detect read each page's from the index's note and the spill.
func BenchmarkDocumentUnmarshal(b *testing.B) {
	words := strings.Fields("the archive keeps every capture of a page over time and the curator reads what each one says about human rights")
	doc := &Document{Title: "a page", Text: strings.Repeat("word ", 500), Lang: "en", TermsLang: "en"}
	for i := range 5000 {
		doc.Terms = append(doc.Terms, words[i%len(words)]+strconv.Itoa(i%300))
	}
	bin, err := doc.AppendBinary(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var d Document
		if err := d.UnmarshalBinary(bin); err != nil {
			b.Fatal(err)
		}
	}
}
