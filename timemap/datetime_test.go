package timemap

import (
	"strings"
	"testing"
	"time"
)

// TestParseMementoDatetime: the datetime forms archives write besides RFC
// 1123 (issue 23 item 10) are read; what is no date, or names a zone whose
// offset is unknown, is an error.
func TestParseMementoDatetime(t *testing.T) {
	want := time.Date(2013, 2, 2, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"Sat, 02 Feb 2013 10:00:00 GMT", true},
		{"Sat, 02 Feb 2013 10:00:00 +0000", true},
		{"Sat, 02 Feb 2013 12:00:00 +0200", true},
		{"Sat, 02 Feb 2013 10:00:00 UTC", true},
		{"Sat, 2 Feb 2013 10:00:00 GMT", true},
		{"sat, 02 feb 2013 10:00:00 gmt", true},
		{"SAT, 02 FEB 2013 10:00:00 GMT", true},
		{"02 Feb 2013 10:00:00 GMT", true},
		{"Sat,  02 Feb 2013   10:00:00 GMT", true},
		{"Saturday, 02-Feb-13 10:00:00 GMT", true},
		{"Sat Feb  2 10:00:00 2013", true},
		{"2013-02-02T10:00:00Z", true},
		{"2013-02-02t10:00:00z", true},
		{"2013-02-02T11:00:00+01:00", true},
		{"2013-02-02T10:00:00.250Z", true},
		{"2013-02-02T10:00:00", true},
		{"2013-02-02 10:00:00", true},
		{"20130202100000", true},
		{"Sat, 02 Feb 2013 10:00:00 EST", false},
		{"yesterday", false},
		{"", false},
	} {
		got, err := ParseMementoDatetime(tc.in)
		if tc.ok && (err != nil || !got.Equal(want) || got.Location() != time.UTC) {
			t.Errorf("ParseMementoDatetime(%q) = %v, %v; want %v", tc.in, got, err, want)
		}
		if !tc.ok && err == nil {
			t.Errorf("ParseMementoDatetime(%q) = %v, want an error", tc.in, got)
		}
	}
}

// TestLinkFormatOddDatetimes: one datetime the parser does not know used to
// drop the whole TimeMap; now every memento is kept, those whose datetime
// is no date with a zero Datetime (the URI-M's timestamp stands in).
func TestLinkFormatOddDatetimes(t *testing.T) {
	doc := `<http://example.com/>; rel="original",
<http://a.example/web/20130202100000/http://example.com/>; rel="first memento"; datetime="Sat, 2 Feb 2013 10:00:00 +0000",
<http://a.example/web/20140303100000/http://example.com/>; rel="memento"; datetime="mon, 03 mar 2014 10:00:00 utc",
<http://a.example/web/20150404100000/http://example.com/>; rel="memento"; datetime="2015-04-04T10:00:00Z",
<http://a.example/web/20160505100000/http://example.com/>; rel="last memento"; datetime="the fifth of May"`
	ltm, err := ParseLinkFormat(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Time{
		time.Date(2013, 2, 2, 10, 0, 0, 0, time.UTC), time.Date(2014, 3, 3, 10, 0, 0, 0, time.UTC),
		time.Date(2015, 4, 4, 10, 0, 0, 0, time.UTC), {},
	}
	if len(ltm.Mementos) != len(want) {
		t.Fatalf("%d mementos, want %d", len(ltm.Mementos), len(want))
	}
	for i, m := range ltm.Mementos {
		if !m.Datetime.Equal(want[i]) {
			t.Errorf("memento %d: %v, want %v", i, m.Datetime, want[i])
		}
	}
}
