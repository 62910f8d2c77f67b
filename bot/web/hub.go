package web

import "sync"

// hub tells the pages open on a game that it changed: each subscriber gets a
// signal (never the change itself, which each page reads back with its own
// link, so that nothing private travels on a shared channel).
type hub struct {
	mu     sync.Mutex
	subs   map[string]map[chan struct{}]bool // by game id
	byAddr map[string]int                    // open subscriptions per client address
}

func newHub() *hub {
	return &hub{subs: map[string]map[chan struct{}]bool{}, byAddr: map[string]int{}}
}

// subscribe returns a channel signalled when game changes, or nil when addr
// already holds max subscriptions; cancel ends it.
func (h *hub) subscribe(game, addr string, max int) (ch chan struct{}, cancel func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byAddr[addr] >= max {
		return nil, func() {}
	}
	ch = make(chan struct{}, 1)
	if h.subs[game] == nil {
		h.subs[game] = map[chan struct{}]bool{}
	}
	h.subs[game][ch] = true
	h.byAddr[addr]++
	return ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if !h.subs[game][ch] {
			return
		}
		delete(h.subs[game], ch)
		if len(h.subs[game]) == 0 {
			delete(h.subs, game)
		}
		if h.byAddr[addr]--; h.byAddr[addr] == 0 {
			delete(h.byAddr, addr)
		}
	}
}

// publish signals every page open on game; a signal not yet read stands for any
// number of changes.
func (h *hub) publish(game string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs[game] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}
