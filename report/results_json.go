package report

import (
	"slices"
	"strconv"
	"time"

	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// appendResultJSON appends r as encoding/json writes it without HTML
// escaping, as a results file holds it: field by field, without
// reflection, at a third of the cost (TestResultJSONAsEncodingJSON holds
// the two together and fails when a result type gains a field).
func appendResultJSON(b []byte, r *similarity.TimeMapResult) ([]byte, error) {
	b = append(b, `{"key":`...)
	b = appendJSONString(b, r.Key, false)
	b = append(b, `,"uri_r":`...)
	b = appendJSONString(b, r.URIR, false)
	b = append(b, `,"uri_t":`...)
	b = appendJSONString(b, r.URIT, false)
	if r.T0 != "" {
		b = append(b, `,"t0":`...)
		b = appendJSONString(b, r.T0, false)
	}
	b = append(b, `,"t0_reason":`...)
	b = appendJSONString(b, r.T0Reason, false)
	b = append(b, `,"captures":`...)
	if r.Captures == nil {
		return append(b, "null}"...), nil
	}
	b = append(b, '[')
	for i := range r.Captures {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendCaptureJSON(b, &r.Captures[i]); err != nil {
			return nil, err
		}
	}
	return append(b, "]}"...), nil
}

func appendCaptureJSON(b []byte, c *similarity.CaptureResult) ([]byte, error) {
	str := func(name, v string, omitEmpty bool) {
		if v == "" && omitEmpty {
			return
		}
		b = append(b, ',', '"')
		b = append(b, name...)
		b = append(b, '"', ':')
		b = appendJSONString(b, v, false)
	}
	b = append(b, `{"uri_r":`...)
	b = appendJSONString(b, c.URIR, false)
	str("uri_m", c.URIM, false)
	var err error
	b = append(b, `,"datetime":`...)
	if b, err = appendJSONTime(b, c.Datetime); err != nil {
		return nil, err
	}
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(c.Status), 10)
	str("mime", c.MIME, false)
	str("digest", c.Digest, true)
	if c.Revisit {
		b = append(b, `,"revisit":true`...)
	}
	b = append(b, `,"loc":`...)
	b = appendLocationJSON(b, c.Loc)
	if !c.Payload.IsZero() {
		b = append(b, `,"payload":`...)
		b = appendLocationJSON(b, c.Payload)
	}
	str("extractor", c.Extractor, true)
	str("lang", c.Lang, true)
	str("title", c.Title, true)
	b = append(b, `,"word_count":`...)
	b = strconv.AppendInt(b, int64(c.WordCount), 10)
	b = append(b, `,"byte_count":`...)
	b = strconv.AppendInt(b, int64(c.ByteCount), 10)
	if len(c.Scores) > 0 {
		b = append(b, `,"scores":{`...)
		names := make([]string, 0, len(c.Scores))
		for name := range c.Scores {
			names = append(names, name)
		}
		slices.Sort(names)
		for i, name := range names {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, name, false)
			b = append(b, ':')
			if b, err = appendJSONFloat(b, c.Scores[name]); err != nil {
				return nil, err
			}
		}
		b = append(b, '}')
	}
	str("verdict", c.Verdict, false)
	str("kind", string(c.Kind), true)
	str("reason", c.Reason, false)
	if c.Replay != nil {
		b = append(b, `,"replay":`...)
		if b, err = appendReplayJSON(b, c.Replay); err != nil {
			return nil, err
		}
	}
	if c.IsT0 {
		b = append(b, `,"t0":true`...)
	}
	if p := c.Published; p != nil {
		b = append(b, `,"published":{"time":`...)
		if b, err = appendJSONTime(b, p.Time); err != nil {
			return nil, err
		}
		str("from", p.From, true)
		b = append(b, `,"in_window":`...)
		b = strconv.AppendBool(b, p.InWindow)
		b = append(b, '}')
	}
	str("excerpt", c.Excerpt, true)
	str("partial", c.Partial, true)
	return append(b, '}'), nil
}

func appendLocationJSON(b []byte, l timemap.Location) []byte {
	b = append(b, `{"file":`...)
	b = appendJSONString(b, l.File, false)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, l.Offset, 10)
	b = append(b, `,"length":`...)
	b = strconv.AppendInt(b, l.Length, 10)
	if l.MemberOffset != 0 {
		b = append(b, `,"member_offset":`...)
		b = strconv.AppendInt(b, l.MemberOffset, 10)
	}
	return append(b, '}')
}

func appendReplayJSON(b []byte, r *similarity.Replay) ([]byte, error) {
	b = append(b, `{"how":`...)
	b = appendJSONString(b, r.How, false)
	b = append(b, `,"url":`...)
	b = appendJSONString(b, r.URL, false)
	for _, f := range []struct{ name, v string }{{"uri_r", r.URIR}, {"uri_m", r.URIM}} {
		if f.v != "" {
			b = append(b, `,"`+f.name+`":`...)
			b = appendJSONString(b, f.v, false)
		}
	}
	if !r.Time.IsZero() {
		var err error
		b = append(b, `,"datetime":`...)
		if b, err = appendJSONTime(b, r.Time); err != nil {
			return nil, err
		}
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"hops", r.Hops}, {"frames", r.Frames}} {
		if f.v != 0 {
			b = append(b, `,"`+f.name+`":`...)
			b = strconv.AppendInt(b, int64(f.v), 10)
		}
	}
	for _, f := range []struct{ name, v string }{{"problem", r.Problem}, {"moved", r.Moved}} {
		if f.v != "" {
			b = append(b, `,"`+f.name+`":`...)
			b = appendJSONString(b, f.v, false)
		}
	}
	return append(b, '}'), nil
}

// appendJSONTime appends t as its MarshalJSON writes it.
func appendJSONTime(b []byte, t time.Time) ([]byte, error) {
	if y := t.Year(); y >= 0 && y < 10000 && t.Location() == time.UTC {
		b = append(b, '"')
		b = t.AppendFormat(b, time.RFC3339Nano)
		return append(b, '"'), nil
	}
	j, err := t.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return append(b, j...), nil
}
