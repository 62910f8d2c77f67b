package storage

import (
	"container/list"
	"slices"
	"sync"

	"github.com/missivechess/missive/rules"
)

// posCache remembers the replayed positions of recently used games so that a move
// does not replay the whole game. An entry is used only when the record's variant,
// start and every move equal those it was computed from, so it can never return the
// position of different content (a rolled-back write, a deleted and re-created id).
// Positions are immutable, so sharing them between goroutines is safe.
type posCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // front = most recently used; values are *cacheEntry
	byID  map[string]*list.Element
}

type cacheEntry struct {
	id  string
	key *replayKey
	pos rules.Position
}

func newPosCache(max int) *posCache {
	return &posCache{max: max, order: list.New(), byID: make(map[string]*list.Element)}
}

// get returns the cached position of game id when it was computed from k.
func (c *posCache) get(id string, k *replayKey) rules.Position {
	if c.max <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byID[id]
	if !ok {
		return nil
	}
	e := el.Value.(*cacheEntry)
	if !sameKey(e.key, k) {
		return nil
	}
	c.order.MoveToFront(el)
	return e.pos
}

// put remembers that k replays to pos for game id.
func (c *posCache) put(id string, k *replayKey, pos rules.Position) {
	if c.max <= 0 || id == "" || k == nil || pos == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byID[id]; ok {
		el.Value = &cacheEntry{id: id, key: k, pos: pos}
		c.order.MoveToFront(el)
		return
	}
	c.byID[id] = c.order.PushFront(&cacheEntry{id: id, key: k, pos: pos})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byID, last.Value.(*cacheEntry).id)
	}
}

// remove forgets game id.
func (c *posCache) remove(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byID[id]; ok {
		c.order.Remove(el)
		delete(c.byID, id)
	}
}

// sameKey reports whether two replay keys describe the same start and moves.
func sameKey(a, b *replayKey) bool {
	return a != nil && b != nil && a.variant == b.variant && a.start == b.start && a.seed == b.seed &&
		slices.Equal(a.moves, b.moves)
}
