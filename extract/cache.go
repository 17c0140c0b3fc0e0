package extract

import (
	"container/list"
	"net/http"
	"sync"
)

// DefaultCacheSize is the number of Documents NewCache keeps when asked for
// a size <= 0. Repeated payloads are mostly a page's own unchanged captures,
// which follow one another in a TimeMap, so a few TimeMaps' worth is enough:
// on the dev corpus 64 and 4,096 Documents extract the same payloads in the
// same CPU time, while 4,096 held 48 MB more.
const DefaultCacheSize = 256

// Cache is a bounded, concurrency-safe LRU cache of Documents keyed by
// payload digest (e.g. a WARC-Payload-Digest), so that identical captures,
// which real collections repeat, are extracted once. Cached Documents are
// shared between callers and must not be modified. The digest is the whole
// key: use one Cache per Options. Options.BaseURL is not part of the key
// either: a payload captured at several URLs keeps the Links and the URL
// date of the first; add the URL to the key when that matters.
type Cache struct {
	mu    sync.Mutex
	max   int
	ll    *list.List // front: most recently used; values are *cacheEntry
	items map[string]*list.Element
}

type cacheEntry struct {
	key string
	doc *Document
}

// NewCache returns an empty Cache holding at most size Documents
// (DefaultCacheSize when size <= 0).
func NewCache(size int) *Cache {
	if size <= 0 {
		size = DefaultCacheSize
	}
	return &Cache{max: size, ll: list.New(), items: make(map[string]*list.Element)}
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

// Put caches doc under digest, evicting the least recently used Document
// when the cache is full. An empty digest is not cached.
func (c *Cache) Put(digest string, doc *Document) {
	if digest == "" || doc == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[digest]; ok {
		e.Value.(*cacheEntry).doc = doc
		c.ll.MoveToFront(e)
		return
	}
	c.items[digest] = c.ll.PushFront(&cacheEntry{key: digest, doc: doc})
	for c.ll.Len() > c.max {
		old := c.ll.Back()
		c.ll.Remove(old)
		delete(c.items, old.Value.(*cacheEntry).key)
	}
}

// Len returns the number of cached Documents.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
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
