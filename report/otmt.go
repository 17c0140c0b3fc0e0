package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/offtopic/offtopic/similarity"
)

// OTMTWriter streams results in the output schema of OTMT (the Off-Topic
// Memento Toolkit): TimeMap URI -> URI-M -> "timemap measures" -> measure ->
// {"comparison score", "topic status"}, plus "overall topic status", and two
// fields of this tool's: the "off-topic kind" of an off-topic capture and the
// "reason" of any verdict but on-topic.
type OTMTWriter struct {
	w     *bufio.Writer
	rule  similarity.Rule
	first bool
	buf   []byte
	order []int    // captures by URI-M
	names []string // a capture's measures
}

// NewOTMTWriter opens the top-level JSON object; rule says which measures
// made an off-topic capture off-topic.
func NewOTMTWriter(w io.Writer, rule similarity.Rule) *OTMTWriter {
	bw := bufio.NewWriter(w)
	bw.WriteString("{")
	return &OTMTWriter{w: bw, rule: rule, first: true}
}

// Write adds one TimeMap. A measure's "topic status" is "off-topic" only
// where that measure crossed its threshold and made the capture off-topic.
func (o *OTMTWriter) Write(r *similarity.TimeMapResult) error {
	b := o.buf[:0]
	if !o.first {
		b = append(b, ',')
	}
	b = append(b, '\n')
	b = appendJSONString(b, r.URIT, true)
	b = append(b, ": {"...)
	// By URI-M, sorted; of captures with one URI-M, the last.
	o.order = o.order[:0]
	for i := range r.Captures {
		o.order = append(o.order, i)
	}
	slices.SortStableFunc(o.order, func(i, j int) int { return strings.Compare(r.Captures[i].URIM, r.Captures[j].URIM) })
	n := 0
	for k, i := range o.order {
		c := &r.Captures[i]
		if k+1 < len(o.order) && r.Captures[o.order[k+1]].URIM == c.URIM {
			continue
		}
		if n++; n > 1 {
			b = append(b, ',')
		}
		var err error
		if b, err = o.memento(b, c); err != nil {
			return fmt.Errorf("TimeMap %s, %s: %w", r.URIT, c.URIM, err)
		}
	}
	b = append(b, '}')
	o.first = false
	o.buf = b
	_, err := o.w.Write(b)
	return err
}

// memento appends c's URI-M and its memento: what encoding/json wrote of
// the structs the writer had before it wrote JSON itself
// (TestOTMTAsJSONMarshal holds the two together), in this order, a map's
// keys sorted:
//
//	"timemap measures": {measure: {"comparison score": float, "topic status": string}},
//	"overall topic status": string, "memento-datetime": string, "http status": int,
//	"off-topic kind": string (omitted when empty), "reason": string (omitted when empty),
//	"t0": true (omitted when false)
//
// The kind and the reason are this tool's, of a capture not on-topic.
func (o *OTMTWriter) memento(b []byte, c *similarity.CaptureResult) ([]byte, error) {
	b = appendJSONString(b, c.URIM, true)
	b = append(b, `:{"timemap measures":{`...)
	var crossed []similarity.Threshold
	if c.Verdict == similarity.VerdictOff {
		crossed = o.rule.Crossed(c.Scores)
	}
	o.names = o.names[:0]
	for name := range c.Scores {
		o.names = append(o.names, name)
	}
	slices.Sort(o.names)
	for i, name := range o.names {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, name, true)
		b = append(b, `:{"comparison score":`...)
		var err error
		if b, err = appendJSONFloat(b, c.Scores[name]); err != nil {
			return nil, err
		}
		status := similarity.VerdictOn
		if slices.ContainsFunc(crossed, func(t similarity.Threshold) bool { return t.Measure == name }) {
			status = similarity.VerdictOff
		}
		b = append(b, `,"topic status":`...)
		b = appendJSONString(b, status, true)
		b = append(b, '}')
	}
	b = append(b, `},"overall topic status":`...)
	b = appendJSONString(b, c.Verdict, true)
	b = append(b, `,"memento-datetime":"`...)
	b = c.Datetime.UTC().AppendFormat(b, "20060102150405")
	b = append(b, `","http status":`...)
	b = strconv.AppendInt(b, int64(c.Status), 10)
	if c.Verdict != similarity.VerdictOn {
		if c.Kind != "" {
			b = append(b, `,"off-topic kind":`...)
			b = appendJSONString(b, string(c.Kind), true)
		}
		if c.Reason != "" {
			b = append(b, `,"reason":`...)
			b = appendJSONString(b, c.Reason, true)
		}
	}
	if c.IsT0 {
		b = append(b, `,"t0":true`...)
	}
	return append(b, '}'), nil
}

// Close ends the JSON object and flushes.
func (o *OTMTWriter) Close() error {
	o.w.WriteString("\n}\n")
	return o.w.Flush()
}
