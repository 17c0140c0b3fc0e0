package extract

import (
	"container/list"
	"net/http"
	"sync"
)

// DefaultCacheBytes is the memory NewCache's Cache may hold when asked for
// <= 0. Repeated payloads are mostly a page's own unchanged captures,
// which follow one another in a TimeMap, or one page a site serves at
// several URLs; documents as detection keeps them (an excerpt and the
// terms) take ten to twenty kilobytes, so this holds several hundred (on
// real-1068, 32 MiB read no payload fewer).
const DefaultCacheBytes = 8 << 20

// Cache is a concurrency-safe LRU cache of Documents keyed by payload
// digest (e.g. a WARC-Payload-Digest), so that identical captures, which
// real collections repeat, are extracted once. It is bounded by the memory
// its Documents take (see Document.Size), whatever the pages: a Document of
// more than a quarter of the bound is not kept. Cached Documents are
// shared between callers and must not be modified. The digest is the whole
// key: use one Cache per Options. Options.BaseURL is not part of the key
// either: a payload captured at several URLs keeps the Links and the URL
// date of the first; add the URL to the key when that matters.
type Cache struct {
	mu    sync.Mutex
	max   int64
	size  int64      // bytes held
	ll    *list.List // front: most recently used; values are *cacheEntry
	items map[string]*list.Element
}

type cacheEntry struct {
	key  string
	doc  *Document
	size int64
}

// NewCache returns an empty Cache holding Documents of at most maxBytes
// (DefaultCacheBytes when maxBytes <= 0).
func NewCache(maxBytes int64) *Cache {
	if maxBytes <= 0 {
		maxBytes = DefaultCacheBytes
	}
	return &Cache{max: maxBytes, ll: list.New(), items: make(map[string]*list.Element)}
}

// Get returns the Document cached under digest.
func (c *Cache) Get(digest string) (*Document, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[digest]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*cacheEntry).doc, true
	}
	return nil, false
}

// Put caches doc under digest, evicting the least recently used Documents
// while the cache holds more than its bound. An empty digest is not
// cached, nor a Document larger than a quarter of the bound.
func (c *Cache) Put(digest string, doc *Document) {
	if digest == "" || doc == nil {
		return
	}
	size := doc.Size()
	if size > c.max/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[digest]; ok {
		old := e.Value.(*cacheEntry)
		c.size += size - old.size
		old.doc, old.size = doc, size
		c.ll.MoveToFront(e)
	} else {
		c.items[digest] = c.ll.PushFront(&cacheEntry{key: digest, doc: doc, size: size})
		c.size += size
	}
	for c.size > c.max && c.ll.Len() > 1 {
		old := c.ll.Back()
		c.ll.Remove(old)
		e := old.Value.(*cacheEntry)
		delete(c.items, e.key)
		c.size -= e.size
	}
}

// Len returns the number of cached Documents.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}

// Bytes returns the memory the cached Documents take (see Document.Size).
func (c *Cache) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

// Extract returns the cached Document for digest, or runs Extract and
// caches its result. An empty digest is never cached. Two goroutines asking
// for the same new digest at once may both extract it; both get equal
// Documents. The error is Extract's, returned only when it ran; a Document
// whose extraction reported an error is cached all the same (the error is
// about the payload, which the digest identifies).
func (c *Cache) Extract(digest string, h http.Header, body []byte, opts Options) (*Document, error) {
	if doc, ok := c.Get(digest); ok {
		return doc, nil
	}
	doc, err := Extract(h, body, opts)
	c.Put(digest, doc)
	return doc, err
}

// Size returns about how many bytes d takes in memory: its strings and
// slices with their headers.
func (d *Document) Size() int64 {
	const str, slice = 16, 24
	n := int64(256) // the struct
	for _, s := range [...]string{d.Title, d.Text, d.Embedded, d.Redirect, d.Chrome, d.Extractor, d.Lang,
		d.MediaType, d.Charset, d.CharsetFrom, d.TermsLang, d.PublishedFrom} {
		n += int64(len(s))
	}
	n += int64(len(d.Frames)*str + len(d.Langs)*(str+8) + len(d.Terms)*str + len(d.Links)*2*str)
	for _, s := range d.Frames {
		n += int64(len(s))
	}
	for _, t := range d.Terms {
		n += int64(len(t))
	}
	for _, l := range d.Links {
		n += int64(len(l.URL) + len(l.Anchor))
	}
	return n + 4*slice
}
