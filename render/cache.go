package render

import (
	"container/list"
	"sync"
)

// cache is a bounded least-recently-used map whose values are built once per key,
// even when many goroutines ask for the same key at the same time. Values must be
// treated as read-only by everyone who gets them.
type cache[K comparable, V any] struct {
	mu    sync.Mutex
	limit int
	byKey map[K]*list.Element // of *cacheEntry[K, V]
	order *list.List          // most recently used first
}

type cacheEntry[K comparable, V any] struct {
	key  K
	once sync.Once
	val  V
}

func newCache[K comparable, V any](limit int) *cache[K, V] {
	return &cache[K, V]{limit: limit, byKey: make(map[K]*list.Element), order: list.New()}
}

// get returns the value for key, calling build to make it when it is not cached.
func (c *cache[K, V]) get(key K, build func() V) V {
	c.mu.Lock()
	el, ok := c.byKey[key]
	if ok {
		c.order.MoveToFront(el)
	} else {
		el = c.order.PushFront(&cacheEntry[K, V]{key: key})
		c.byKey[key] = el
		for c.order.Len() > c.limit {
			old := c.order.Back()
			c.order.Remove(old)
			delete(c.byKey, old.Value.(*cacheEntry[K, V]).key)
		}
	}
	e := el.Value.(*cacheEntry[K, V])
	c.mu.Unlock()
	e.once.Do(func() { e.val = build() })
	return e.val
}

// len returns the number of cached keys.
func (c *cache[K, V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
