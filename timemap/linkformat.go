package timemap

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// LinkOptions say how TimeMaps are written as Memento resources.
type LinkOptions struct {
	// ArchivePrefix is the base of URI-Ms, TimeGates and TimeMaps, e.g.
	// "http://archive.example.org/3001" (trailing slash ignored).
	ArchivePrefix string
	// TimeMapURI overrides the link-format TimeMap URI ("self"); default
	// ArchivePrefix + "/timemap/link/" + URI-R.
	TimeMapURI string
	// TimeMapJSONURI overrides the JSON TimeMap URI; default
	// ArchivePrefix + "/timemap/json/" + URI-R.
	TimeMapJSONURI string
	// TimeGateURI overrides the TimeGate URI; default ArchivePrefix + "/" + URI-R.
	TimeGateURI string
}

func (o LinkOptions) prefix() string { return strings.TrimRight(o.ArchivePrefix, "/") }

// LinkTimeMapURI is the URI of tm's link-format TimeMap: TimeMapURI when set,
// else the URI-T tm was read from (tm.URIT, remote TimeMaps), else
// ArchivePrefix + "/timemap/link/" + URI-R (as Wayback and pywb serve it).
func (o LinkOptions) LinkTimeMapURI(tm *TimeMap) string {
	if o.TimeMapURI != "" {
		return o.TimeMapURI
	}
	if tm.URIT != "" {
		return tm.URIT
	}
	return o.prefix() + "/timemap/link/" + tm.URIR
}

func (o LinkOptions) timeMapJSONURI(tm *TimeMap) string {
	if o.TimeMapJSONURI != "" {
		return o.TimeMapJSONURI
	}
	return o.prefix() + "/timemap/json/" + tm.URIR
}

func (o LinkOptions) timeGateURI(tm *TimeMap) string {
	if o.TimeGateURI != "" {
		return o.TimeGateURI
	}
	return o.prefix() + "/" + tm.URIR
}

// URIM returns the URI-M of capture c: the archive's own where it named one,
// else prefix + "/" + timestamp14 + "/" + URI-R. It is the one place URI-Ms
// are built.
func URIM(prefix string, c Capture) string {
	if c.URIM != "" {
		return c.URIM
	}
	return strings.TrimRight(prefix, "/") + "/" + c.Timestamp14() + "/" + c.URIR
}

// httpDate formats t as an RFC 1123 date in GMT, as Memento datetimes are written.
func httpDate(t time.Time) string { return t.UTC().Format(http.TimeFormat) }

// mementoRel returns the rel value of capture i of n.
func mementoRel(i, n int) string {
	switch {
	case n == 1:
		return "first last memento"
	case i == 0:
		return "first memento"
	case i == n-1:
		return "last memento"
	}
	return "memento"
}

// WriteLinkFormat writes tm as an RFC 7089 TimeMap in application/link-format:
// the original resource, the TimeMap itself (with from and until), the
// TimeGate, and one link per memento (rel "first memento", "memento", "last
// memento"; datetime in RFC 1123 GMT), one link per line.
func WriteLinkFormat(w io.Writer, tm *TimeMap, opts LinkOptions) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "<%s>; rel=\"original\",\n", tm.URIR)
	fmt.Fprintf(bw, "<%s>; rel=\"self\"; type=\"application/link-format\"", opts.LinkTimeMapURI(tm))
	if n := len(tm.Captures); n > 0 {
		fmt.Fprintf(bw, "; from=\"%s\"; until=\"%s\"", httpDate(tm.Captures[0].Time), httpDate(tm.Captures[n-1].Time))
	}
	fmt.Fprintf(bw, ",\n<%s>; rel=\"timegate\"", opts.timeGateURI(tm))
	for i, c := range tm.Captures {
		fmt.Fprintf(bw, ",\n<%s>; rel=\"%s\"; datetime=\"%s\"", URIM(opts.ArchivePrefix, c), mementoRel(i, len(tm.Captures)), httpDate(c.Time))
	}
	bw.WriteString("\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("timemap: writing link-format TimeMap of %s: %w", tm.URIR, err)
	}
	return nil
}

// JSONMemento is one memento of a JSON TimeMap.
type JSONMemento struct {
	// Datetime is the memento's capture time (RFC 3339 in JSON).
	Datetime time.Time `json:"datetime"`
	// URI is the URI-M.
	URI string `json:"uri"`
}

// JSONTimeMap is a TimeMap in MemGator's JSON shape.
type JSONTimeMap struct {
	// OriginalURI is the URI-R.
	OriginalURI string `json:"original_uri"`
	// Self is the URI of this JSON TimeMap.
	Self string `json:"self"`
	// Mementos lists the mementos in time order, and the first and last.
	Mementos struct {
		List  []JSONMemento `json:"list"`
		First *JSONMemento  `json:"first,omitempty"`
		Last  *JSONMemento  `json:"last,omitempty"`
	} `json:"mementos"`
	// TimeMapURI gives the TimeMap's URIs by format.
	TimeMapURI struct {
		LinkFormat string `json:"link_format,omitempty"`
		JSONFormat string `json:"json_format,omitempty"`
	} `json:"timemap_uri"`
	// TimeGateURI is the URI of the TimeGate for the URI-R.
	TimeGateURI string `json:"timegate_uri,omitempty"`
}

// WriteTimeMapJSON writes tm in MemGator's JSON TimeMap shape:
// original_uri, self, mementos {list [{datetime, uri}], first, last},
// timemap_uri {link_format, json_format}, timegate_uri. Datetimes are
// RFC 3339 UTC.
func WriteTimeMapJSON(w io.Writer, tm *TimeMap, opts LinkOptions) error {
	var j JSONTimeMap
	j.OriginalURI = tm.URIR
	j.Self = opts.timeMapJSONURI(tm)
	j.Mementos.List = make([]JSONMemento, len(tm.Captures))
	for i, c := range tm.Captures {
		j.Mementos.List[i] = JSONMemento{Datetime: c.Time.UTC(), URI: URIM(opts.ArchivePrefix, c)}
	}
	if n := len(j.Mementos.List); n > 0 {
		j.Mementos.First, j.Mementos.Last = &j.Mementos.List[0], &j.Mementos.List[n-1]
	}
	j.TimeMapURI.LinkFormat = opts.LinkTimeMapURI(tm)
	j.TimeMapURI.JSONFormat = j.Self
	j.TimeGateURI = opts.timeGateURI(tm)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&j); err != nil {
		return fmt.Errorf("timemap: writing JSON TimeMap of %s: %w", tm.URIR, err)
	}
	return nil
}

// Link is one link of a link-format document: its target and parameters
// (names lower-cased, values unquoted).
type Link struct {
	// URI is the link target (between '<' and '>').
	URI string
	// Params are the link's parameters by lower-cased name (first wins).
	Params map[string]string
}

// Rels returns the link's relation types (the rel parameter split on white space).
func (l Link) Rels() []string { return strings.Fields(l.Params["rel"]) }

// HasRel reports whether rel is among the link's relation types (case-insensitive).
func (l Link) HasRel(rel string) bool {
	for _, r := range l.Rels() {
		if strings.EqualFold(r, rel) {
			return true
		}
	}
	return false
}

// LinkMemento is one memento of a parsed TimeMap.
type LinkMemento struct {
	// URI is the URI-M.
	URI string
	// Datetime is the memento's datetime, zero when the link has none.
	Datetime time.Time
	// Rels are the relation types given ("first", "memento", ...).
	Rels []string
}

// LinkTimeMap is a TimeMap as read from link-format or JSON.
type LinkTimeMap struct {
	// Original is the URI-R (rel "original").
	Original string
	// Self is the TimeMap's own URI (rel "self").
	Self string
	// TimeGate is the TimeGate URI (rel "timegate").
	TimeGate string
	// From and Until are the self link's attributes, zero when absent.
	From, Until time.Time
	// Mementos are in document order.
	Mementos []LinkMemento
	// Links are all links of a link-format document, in order.
	Links []Link
}

// ParseLinkFormat reads an application/link-format TimeMap (RFC 7089 /
// RFC 6690) as archives serve it: links separated by commas with any white
// space or line breaks, parameters in any order with quoted or bare values,
// unknown parameters kept, rel values that are token sets ("first
// memento"), datetimes in RFC 1123 or RFC 850/ANSI C forms and the variants
// archives write (ParseMementoDatetime). Links with the "memento" relation
// are mementos; one whose datetime is not a date gets a zero Datetime, as
// one without, and the URI-M's timestamp stands in for it.
func ParseLinkFormat(r io.Reader) (*LinkTimeMap, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("timemap: reading link-format: %w", err)
	}
	links, err := ParseLinks(string(b))
	if err != nil {
		return nil, err
	}
	tm := &LinkTimeMap{Links: links}
	for _, l := range links {
		switch {
		case l.HasRel("memento"):
			m := LinkMemento{URI: l.URI, Rels: l.Rels()}
			if d, ok := l.Params["datetime"]; ok {
				if t, err := ParseMementoDatetime(d); err == nil {
					m.Datetime = t
				}
			}
			tm.Mementos = append(tm.Mementos, m)
		case l.HasRel("self"):
			tm.Self = l.URI
			if t, err := ParseMementoDatetime(l.Params["from"]); err == nil {
				tm.From = t
			}
			if t, err := ParseMementoDatetime(l.Params["until"]); err == nil {
				tm.Until = t
			}
		}
		if l.HasRel("original") && tm.Original == "" {
			tm.Original = l.URI
		}
		if l.HasRel("timegate") && tm.TimeGate == "" {
			tm.TimeGate = l.URI
		}
	}
	return tm, nil
}

// datetimeLayouts are the forms of a memento datetime ParseMementoDatetime
// reads besides http.ParseTime's: RFC 1123 with a one-digit day, a
// numeric or UTC zone, no weekday; ISO 8601 / RFC 3339.
var datetimeLayouts = []string{
	"Mon, _2 Jan 2006 15:04:05 MST",
	"Mon, _2 Jan 2006 15:04:05 -0700",
	"Mon, _2 Jan 2006 15:04:05",
	"_2 Jan 2006 15:04:05 MST",
	"_2 Jan 2006 15:04:05 -0700",
	"Monday, _2-Jan-06 15:04:05 MST",
	time.RFC3339Nano,
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05",
	"2006-01-02T15:04Z07:00",
	"2006-01-02",
}

// ParseMementoDatetime parses a memento datetime as archives write it:
// RFC 1123 (the standard's), RFC 850 and ANSI C, and the variants met in
// the wild: any letter case, a one-digit day, "UTC" or "+0000" for GMT, no
// weekday, ISO 8601; or a 14-digit (or shorter) timestamp. The result is in
// UTC, to the second as Memento datetimes are. Only the GMT/UTC/Z zone names are taken: another name is an error,
// since its offset is unknown.
func ParseMementoDatetime(s string) (time.Time, error) {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return time.Time{}, fmt.Errorf("empty datetime")
	}
	if t, err := http.ParseTime(s); err == nil {
		return t.UTC(), nil
	}
	if allDigits(s) && len(s) <= 14 {
		return parseTimestamp(s)
	}
	// Zone names in any case, as the layouts write them.
	fields := strings.Fields(s)
	last := strings.ToUpper(fields[len(fields)-1])
	switch last {
	case "GMT", "UTC", "UT", "Z":
		fields[len(fields)-1] = "GMT"
	default:
		if len(last) == 3 && last[0] >= 'A' && last[0] <= 'Z' && !strings.ContainsAny(last, "0123456789:") && !isMonthOrDay(last) {
			return time.Time{}, fmt.Errorf("datetime %q: unknown zone %s", s, last)
		}
	}
	u := strings.Join(fields, " ")
	for _, layout := range append([]string{http.TimeFormat}, datetimeLayouts...) {
		if t, err := time.Parse(layout, u); err == nil {
			return t.UTC().Truncate(time.Second), nil
		}
		if t, err := time.Parse(layout, strings.ToUpper(u)); err == nil {
			return t.UTC().Truncate(time.Second), nil
		}
	}
	return time.Time{}, fmt.Errorf("datetime %q is no date", s)
}

func isMonthOrDay(s string) bool {
	return strings.Contains("JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC MON TUE WED THU FRI SAT SUN", s)
}

// ParseLinks tokenises a link-format document or an HTTP Link header value
// (links separated by commas) into its links.
func ParseLinks(s string) ([]Link, error) {
	var links []Link
	i := 0
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n' || s[i] == ',') {
			i++
		}
	}
	ws := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
			i++
		}
	}
	for {
		skip()
		if i >= len(s) {
			return links, nil
		}
		if s[i] != '<' {
			return nil, fmt.Errorf("timemap: link-format: offset %d: expected '<', found %q", i, s[i:min(len(s), i+20)])
		}
		end := strings.IndexByte(s[i:], '>')
		if end < 0 {
			return nil, fmt.Errorf("timemap: link-format: offset %d: unterminated URI", i)
		}
		l := Link{URI: strings.TrimSpace(s[i+1 : i+end]), Params: map[string]string{}}
		i += end + 1
		for {
			ws()
			if i >= len(s) || s[i] != ';' {
				break
			}
			i++
			ws()
			start := i
			for i < len(s) && s[i] != '=' && s[i] != ';' && s[i] != ',' && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n' {
				i++
			}
			name := strings.ToLower(s[start:i])
			ws()
			val := ""
			if i < len(s) && s[i] == '=' {
				i++
				ws()
				if i < len(s) && s[i] == '"' {
					i++
					var v strings.Builder
					for i < len(s) && s[i] != '"' {
						if s[i] == '\\' && i+1 < len(s) {
							i++
						}
						v.WriteByte(s[i])
						i++
					}
					if i >= len(s) {
						return nil, fmt.Errorf("timemap: link-format: unterminated quoted value of %q for <%s>", name, l.URI)
					}
					i++
					val = v.String()
				} else {
					// Bare value; tolerate a bare token set ("rel=last memento").
					start := i
					for i < len(s) && s[i] != ';' && s[i] != ',' && s[i] != '\r' && s[i] != '\n' {
						i++
					}
					val = strings.TrimSpace(s[start:i])
				}
			}
			if name != "" {
				if _, dup := l.Params[name]; !dup {
					l.Params[name] = val
				}
			}
		}
		links = append(links, l)
	}
}

// ParseTimeMapJSON reads a JSON TimeMap in MemGator's shape (original_uri,
// self, mementos.list [{datetime, uri}], timegate_uri). Datetimes may be
// RFC 3339, RFC 1123 or another form ParseMementoDatetime reads; one that
// is no date is left zero.
func ParseTimeMapJSON(r io.Reader) (*LinkTimeMap, error) {
	var raw struct {
		OriginalURI string `json:"original_uri"`
		Self        string `json:"self"`
		Mementos    struct {
			List []struct {
				Datetime string `json:"datetime"`
				URI      string `json:"uri"`
			} `json:"list"`
		} `json:"mementos"`
		TimeGateURI string `json:"timegate_uri"`
	}
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("timemap: reading JSON TimeMap: %w", err)
	}
	tm := &LinkTimeMap{Original: raw.OriginalURI, Self: raw.Self, TimeGate: raw.TimeGateURI}
	for _, m := range raw.Mementos.List {
		// A datetime that is no date is left zero, as a missing one: the
		// URI-M's timestamp stands in for it.
		t, _ := ParseMementoDatetime(m.Datetime)
		tm.Mementos = append(tm.Mementos, LinkMemento{URI: m.URI, Datetime: t, Rels: []string{"memento"}})
	}
	if n := len(tm.Mementos); n > 0 {
		tm.From, tm.Until = tm.Mementos[0].Datetime, tm.Mementos[n-1].Datetime
	}
	return tm, nil
}
