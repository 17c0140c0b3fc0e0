package timemap

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

// addFixtureSeeds adds every file of fixtures/<dir> whose name ends in one
// of exts to f's seed corpus (none where ../shared is absent).
func addFixtureSeeds(f *testing.F, dir string, exts ...string) {
	d := testcorpus.Dir()
	if d == "" {
		return
	}
	files, _ := filepath.Glob(filepath.Join(d, "fixtures", dir, "*"))
	for _, p := range files {
		for _, e := range exts {
			if strings.HasSuffix(p, e) {
				if b, err := os.ReadFile(p); err == nil {
					f.Add(b)
				}
			}
		}
	}
}

// FuzzParseLinkFormat: ParseLinkFormat never panics, and a TimeMap it reads
// is written by WriteLinkFormat so that it reads back the same.
func FuzzParseLinkFormat(f *testing.F) {
	addFixtureSeeds(f, "timemap", ".link", ".yaml")
	for _, s := range []string{"", "<x>", `<a>; rel="memento"; datetime="Sat, 02 Feb 2013 10:00:00 GMT"`, `<a>;rel=first memento;datetime="x"`, "<a>; rel=\"", ",,<>,",
		// Issue 23 item 10: datetimes in the forms archives write.
		`<a>; rel="memento"; datetime="Sat, 2 Feb 2013 10:00:00 +0000"`, `<a>; rel="memento"; datetime="sat, 02 feb 2013 10:00:00 utc"`,
		`<a>; rel="memento"; datetime="2013-02-02T10:00:00.5Z"`, `<a>; rel="memento"; datetime="Sat, 02 Feb 2013 10:00:00 EST"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ltm, err := ParseLinkFormat(bytes.NewReader(b))
		if err != nil {
			return
		}
		tm := &TimeMap{URIR: ltm.Original}
		for _, m := range ltm.Mementos {
			if m.Datetime.IsZero() || m.URI == "" {
				continue
			}
			tm.Captures = append(tm.Captures, Capture{URIR: ltm.Original, Time: m.Datetime, URIM: m.URI})
		}
		var buf bytes.Buffer
		if err := WriteLinkFormat(&buf, tm, LinkOptions{ArchivePrefix: "http://archive.example"}); err != nil {
			t.Fatal(err)
		}
		back, err := ParseLinkFormat(&buf)
		if err != nil {
			t.Fatalf("written TimeMap does not read back: %v\n%s", err, buf.String())
		}
		if back.Original != tm.URIR || len(back.Mementos) != len(tm.Captures) {
			t.Fatalf("read back %q with %d mementos, wrote %q with %d\n%s", back.Original, len(back.Mementos), tm.URIR, len(tm.Captures), buf.String())
		}
		for i, m := range back.Mementos {
			if m.URI != tm.Captures[i].URIM || !m.Datetime.Equal(tm.Captures[i].Time) {
				t.Fatalf("memento %d read back as <%s> %v, wrote <%s> %v", i, m.URI, m.Datetime, tm.Captures[i].URIM, tm.Captures[i].Time)
			}
		}
	})
}

// FuzzParseTimeMapJSON: ParseTimeMapJSON never panics, and a TimeMap it
// reads is written by WriteTimeMapJSON so that it reads back the same.
func FuzzParseTimeMapJSON(f *testing.F) {
	addFixtureSeeds(f, "timemap", ".json")
	for _, s := range []string{"", "{}", `{"mementos":{"list":[{"datetime":"2020-01-01T00:00:00Z","uri":"x"}]}}`, `{"mementos":{"list":[{"datetime":"Sat, 02 Feb 2013 10:00:00 GMT"}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ltm, err := ParseTimeMapJSON(bytes.NewReader(b))
		if err != nil {
			return
		}
		tm := &TimeMap{URIR: ltm.Original}
		for _, m := range ltm.Mementos {
			if m.URI == "" {
				continue
			}
			tm.Captures = append(tm.Captures, Capture{URIR: ltm.Original, Time: m.Datetime, URIM: m.URI})
		}
		var buf bytes.Buffer
		if err := WriteTimeMapJSON(&buf, tm, LinkOptions{ArchivePrefix: "http://archive.example"}); err != nil {
			return // times outside what JSON can hold (years past 9999) are refused, not written wrong
		}
		back, err := ParseTimeMapJSON(&buf)
		if err != nil {
			t.Fatalf("written TimeMap does not read back: %v\n%s", err, buf.String())
		}
		if back.Original != tm.URIR || len(back.Mementos) != len(tm.Captures) {
			t.Fatalf("read back %q with %d mementos, wrote %q with %d", back.Original, len(back.Mementos), tm.URIR, len(tm.Captures))
		}
		for i, m := range back.Mementos {
			if m.URI != tm.Captures[i].URIM || !m.Datetime.Equal(tm.Captures[i].Time) {
				t.Fatalf("memento %d read back as %q %v, wrote %q %v", i, m.URI, m.Datetime, tm.Captures[i].URIM, tm.Captures[i].Time)
			}
		}
	})
}
