package crawl

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/offtopic/offtopic/timemap"
)

// DefaultBudgets are the collection sizes a crawl is evaluated at.
var DefaultBudgets = []int{50, 100, 200}

// ReadRelevant reads a relevance list (TSV with a header naming "URL" and
// "relevant" columns, as the corpus writes it) into the set of canonical keys
// of the relevant URLs.
func ReadRelevant(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("relevance list: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	urlCol, relCol := -1, -1
	out := map[string]bool{}
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Split(sc.Text(), "\t")
		if urlCol < 0 {
			for i, h := range fields {
				switch strings.ToLower(strings.TrimSpace(h)) {
				case "url", "uri", "uri_r":
					urlCol = i
				case "relevant":
					relCol = i
				}
			}
			if urlCol < 0 || relCol < 0 {
				return nil, fmt.Errorf("relevance list %s: header needs URL and relevant columns", path)
			}
			continue
		}
		if len(fields) <= urlCol || len(fields) <= relCol {
			continue
		}
		if strings.TrimSpace(fields[relCol]) == "1" {
			out[timemap.Canonicalize(fields[urlCol], timemap.CanonSURT)] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("relevance list %s line %d: %w", path, line, err)
	}
	return out, nil
}

// RelevantAt counts the relevant documents among the first b documents of a
// crawl log, for each budget b.
func RelevantAt(log []Entry, relevant map[string]bool, budgets []int) []int {
	out := make([]int, len(budgets))
	for i, b := range budgets {
		for j := 0; j < b && j < len(log); j++ {
			if relevant[timemap.Canonicalize(log[j].URL, timemap.CanonSURT)] {
				out[i]++
			}
		}
	}
	return out
}

func canon(u string) string { return timemap.Canonicalize(u, timemap.CanonSURT) }

// AuditScore is an audit measured against a relevance list: how many of its
// documents are relevant, how many it kept, and how many of those are
// relevant.
type AuditScore struct {
	Documents, Relevant, Kept, KeptRelevant int
}

// Precision is the share of kept documents that are relevant (0 when none
// is kept).
func (s AuditScore) Precision() float64 { return share(s.KeptRelevant, s.Kept) }

// Recall is the share of relevant documents that are kept (0 when none is
// relevant).
func (s AuditScore) Recall() float64 { return share(s.KeptRelevant, s.Relevant) }

func share(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Evaluate measures the audit's verdicts against a relevance list (keys as
// ReadRelevant gives them).
func (r *AuditReport) Evaluate(relevant map[string]bool) AuditScore {
	s := AuditScore{Documents: len(r.Documents)}
	for _, d := range r.Documents {
		rel := relevant[canon(d.Capture.URIR)]
		if rel {
			s.Relevant++
		}
		if d.OnTopic {
			s.Kept++
			if rel {
				s.KeptRelevant++
			}
		}
	}
	return s
}
