package report

import "github.com/offtopic/offtopic/similarity"

// Verdicts of an audited document (the HTML report's data has them as
// numbers).
const (
	auditOn      = 0
	auditBelow   = 1 // off-topic: topic below the threshold
	auditOutside = 2 // topical, published outside the window
	auditNS      = 3
)

// auditWhy is an audited document's verdict: off-topic (below the topic
// threshold) apart from topical but outside the window.
func auditWhy(verdict string, below bool) int {
	switch {
	case verdict == similarity.VerdictOff && below:
		return auditBelow
	case verdict == similarity.VerdictOff:
		return auditOutside
	case verdict != similarity.VerdictOn:
		return auditNS
	}
	return auditOn
}

// auditVerdict names auditOn, auditBelow, auditOutside and auditNS.
func auditVerdict(why int) string {
	switch why {
	case auditOn:
		return "on-topic"
	case auditBelow:
		return "off-topic"
	case auditOutside:
		return "outside the window"
	}
	return "not scored"
}
