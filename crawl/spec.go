package crawl

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"time"
)

// Spec is a collection specification: what event to collect and within which
// limits. It is read from JSON (see LoadSpec); field names follow the corpus.
type Spec struct {
	// Name names the collection (and the output WARC).
	Name string `json:"name"`
	// ReferenceDocuments are URLs resolved in the archive, or local files
	// (a path that exists, or a file:// URL), whose main text defines the topic.
	ReferenceDocuments []string `json:"reference_documents"`
	// Keywords boost the reference vector's terms (see Relevance).
	Keywords []string `json:"keywords,omitempty"`
	// EventStart and EventEnd bound the event (dates "2006-01-02" or RFC 3339);
	// a date-only end covers its whole day.
	EventStart string `json:"event_start"`
	EventEnd   string `json:"event_end"`
	// LeadDays and CooldownDays are the half-lives of temporal relevance
	// before the start and after the end (0: no relevance outside the span).
	LeadDays     float64 `json:"lead_days"`
	CooldownDays float64 `json:"cooldown_days"`
	// Seeds start the crawl; when empty the outlinks of the reference
	// documents are the seeds.
	Seeds []string `json:"seeds,omitempty"`
	// Allow and Deny restrict the hosts crawled (a host matches an entry equal
	// to it or a parent domain of it). Empty Allow allows every host.
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
	// Alpha weighs TopicR against TempR (default 0.5 when absent).
	Alpha *float64 `json:"alpha,omitempty"`
	// TargetSize is the number of documents to collect (default 200).
	TargetSize int `json:"target_size,omitempty"`
	// MaxDepth is the largest link distance from a seed that is crawled
	// (0: unlimited).
	MaxDepth int `json:"max_depth,omitempty"`
	// MaxRuntime bounds the crawl's wall time ("30m"; "": unlimited).
	MaxRuntime string `json:"max_runtime,omitempty"`
	// GraceDays is Klein mode's grace period after the event end (default
	// CooldownDays).
	GraceDays *float64 `json:"grace_days,omitempty"`
}

// DefaultAlpha weighs topical and temporal relevance equally.
const DefaultAlpha = 0.5

// DefaultTargetSize is the number of documents collected when the spec names none.
const DefaultTargetSize = 200

// LoadSpec reads and validates a JSON collection specification.
func LoadSpec(path string) (*Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("collection spec: %w", err)
	}
	s, err := ParseSpec(b)
	if err != nil {
		return nil, fmt.Errorf("collection spec %s: %w", path, err)
	}
	return s, nil
}

// ParseSpec decodes and validates a JSON collection specification. Unknown
// fields are errors, so that a misspelt limit is not silently ignored.
func ParseSpec(b []byte) (*Spec, error) {
	var s Spec
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// Validate reports every problem of s at once.
func (s *Spec) Validate() error {
	var errs []error
	if strings.TrimSpace(s.Name) == "" {
		errs = append(errs, errors.New("name: missing"))
	}
	if len(s.ReferenceDocuments) == 0 && len(s.Keywords) == 0 {
		errs = append(errs, errors.New("reference_documents: need at least one reference document or keyword"))
	}
	start, err1 := parseDay(s.EventStart, false)
	if err1 != nil {
		errs = append(errs, fmt.Errorf("event_start: %w", err1))
	}
	end, err2 := parseDay(s.EventEnd, true)
	if err2 != nil {
		errs = append(errs, fmt.Errorf("event_end: %w", err2))
	}
	if err1 == nil && err2 == nil && end.Before(start) {
		errs = append(errs, fmt.Errorf("event_end %s is before event_start %s", s.EventEnd, s.EventStart))
	}
	if s.LeadDays < 0 {
		errs = append(errs, fmt.Errorf("lead_days: %v is negative", s.LeadDays))
	}
	if s.CooldownDays < 0 {
		errs = append(errs, fmt.Errorf("cooldown_days: %v is negative", s.CooldownDays))
	}
	if s.Alpha != nil && (*s.Alpha < 0 || *s.Alpha > 1) {
		errs = append(errs, fmt.Errorf("alpha: %v is outside [0, 1]", *s.Alpha))
	}
	if s.TargetSize < 0 {
		errs = append(errs, fmt.Errorf("target_size: %d is negative", s.TargetSize))
	}
	if s.MaxDepth < 0 {
		errs = append(errs, fmt.Errorf("max_depth: %d is negative", s.MaxDepth))
	}
	if s.MaxRuntime != "" {
		if d, err := time.ParseDuration(s.MaxRuntime); err != nil || d < 0 {
			errs = append(errs, fmt.Errorf("max_runtime: %q is not a duration like \"30m\"", s.MaxRuntime))
		}
	}
	if s.GraceDays != nil && *s.GraceDays < 0 {
		errs = append(errs, fmt.Errorf("grace_days: %v is negative", *s.GraceDays))
	}
	for i, u := range s.Seeds {
		if strings.TrimSpace(u) == "" {
			errs = append(errs, fmt.Errorf("seeds[%d]: empty", i))
		}
	}
	if len(s.Seeds) == 0 && len(s.ReferenceDocuments) == 0 {
		errs = append(errs, errors.New("seeds: none, and no reference documents whose outlinks could seed the crawl"))
	}
	return errors.Join(errs...)
}

// Event is the parsed time frame of a spec.
type Event struct {
	Start, End     time.Time
	Lead, Cooldown time.Duration
}

// Event returns the spec's time frame (the spec must be valid).
func (s *Spec) Event() Event {
	start, _ := parseDay(s.EventStart, false)
	end, _ := parseDay(s.EventEnd, true)
	return Event{Start: start, End: end, Lead: days(s.LeadDays), Cooldown: days(s.CooldownDays)}
}

// AlphaOr returns the spec's alpha, DefaultAlpha when absent.
func (s *Spec) AlphaOr() float64 {
	if s.Alpha == nil {
		return DefaultAlpha
	}
	return *s.Alpha
}

// Grace returns Klein mode's grace period after the event end.
func (s *Spec) Grace() time.Duration {
	if s.GraceDays != nil {
		return days(*s.GraceDays)
	}
	return days(s.CooldownDays)
}

// Runtime returns the spec's maximum run time, 0 for none.
func (s *Spec) Runtime() time.Duration {
	d, _ := time.ParseDuration(s.MaxRuntime)
	return d
}

// days converts days to a Duration, saturating at the largest one (a float
// out of int64's range has no defined conversion).
func days(d float64) time.Duration {
	h := d * 24 * float64(time.Hour)
	if h >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(h)
}

// parseDay parses a date or an RFC 3339 time; a date-only end of span is the
// last instant of its day.
func parseDay(s string, end bool) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, errors.New("missing")
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is neither a date (2006-01-02) nor an RFC 3339 time", s)
	}
	if end {
		t = t.Add(24*time.Hour - time.Second)
	}
	return t, nil
}
