package crawl

import "container/heap"

// Item is one URL waiting in the frontier.
type Item struct {
	URL      string  `json:"url"`
	Priority float64 `json:"priority"`
	Depth    int     `json:"depth"`
	Parent   string  `json:"parent,omitempty"`
	// Seq orders items of equal priority first in, first out.
	Seq int `json:"seq"`
	// Topic is the gated strategy's estimated topicality of the page, and
	// Dated says whether its time is known (see crawler.estimate).
	Topic float64 `json:"topic,omitempty"`
	Dated bool    `json:"dated,omitempty"`
}

// frontier is a max-priority queue of Items, ties broken by Seq.
type frontier []Item

func (f frontier) Len() int { return len(f) }
func (f frontier) Less(i, j int) bool {
	if f[i].Priority != f[j].Priority {
		return f[i].Priority > f[j].Priority
	}
	return f[i].Seq < f[j].Seq
}
func (f frontier) Swap(i, j int) { f[i], f[j] = f[j], f[i] }
func (f *frontier) Push(x any)   { *f = append(*f, x.(Item)) }
func (f *frontier) Pop() any {
	old := *f
	it := old[len(old)-1]
	*f = old[:len(old)-1]
	return it
}

func (f *frontier) push(it Item) { heap.Push(f, it) }
func (f *frontier) pop() Item    { return heap.Pop(f).(Item) }
