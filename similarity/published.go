package similarity

import "time"

// Published is when a document was published, as an audit of a collection
// against an event (crawl audit) dated it, and whether that lies in the
// event's window.
type Published struct {
	// Time is the publication date; zero when the document could not be
	// dated.
	Time time.Time `json:"time"`
	// From says where the date came from: what the page states ("meta",
	// "jsonld", "time", "byline", "url") or the archive ("last-modified",
	// "first-capture").
	From string `json:"from,omitempty"`
	// InWindow says whether Time lies in the event's span widened by its
	// lead and cool-down times.
	InWindow bool `json:"in_window"`
}
