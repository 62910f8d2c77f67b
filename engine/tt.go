package engine

// mv is a move of the search in the packed form of the game being searched; 0 is no move.
type mv uint32

// Bound kinds of a transposition-table entry.
const (
	boundNone uint8 = iota
	boundUpper
	boundLower
	boundExact
)

// ttEntry is one slot of the transposition table.
type ttEntry struct {
	key   uint64
	move  mv
	score int32
	depth int8
	bound uint8
	gen   uint8 // the search that stored it
	eval  int16 // the position's static evaluation (before correction), or ttNoEval
}

// ttNoEval marks an entry without a static evaluation.
const ttNoEval = -1 << 15

// staticEval returns the entry's static evaluation, if it has one.
func (e *ttEntry) staticEval() (Score, bool) {
	return Score(e.eval), e.eval != ttNoEval
}

// table is a fixed-size transposition table of two-slot buckets, used by one
// search at a time (Engine keeps it between searches). A store replaces the
// position's own entry unless that is much deeper, else the bucket's entry from
// an older search or, failing that, the shallower one. Buckets of four 16-byte
// entries, one cache line each, in memory offered to the kernel's transparent
// huge pages (as Stockfish allocates its table) were tried and dropped: over 8
// Gothic positions 40 plies into match games, searched 3 s each, they changed
// the node rate by +3% and -3% in two runs on an idle machine (+6% and +7% at
// 2 s with both cores busy), and they scored -3 ± 45 Elo over 200 Gothic games
// at 40 ms a move. Prefetching the bucket of each move's position as soon as the
// move is made (PREFETCHT0, from assembly) did not change the node rate of
// BenchmarkGothicSearch: 850,000 to 895,000 nodes/s with it and without, in
// alternate runs; the probe follows the move too closely for the load to hide.
type table struct {
	slots []ttEntry
	mask  uint64 // of the bucket's first slot (even indices)
	gen   uint8
}

// newTable returns a table of 2^bits entries.
func newTable(bits uint) *table {
	return &table{slots: make([]ttEntry, 1<<bits), mask: (1<<bits - 1) &^ 1}
}

// newSearch starts a new generation, so that entries of earlier searches are
// replaced first.
func (t *table) newSearch() { t.gen++ }

func (t *table) probe(key uint64) (ttEntry, bool) {
	i := key & t.mask
	for _, e := range t.slots[i : i+2] {
		if e.key == key && e.bound != boundNone {
			return e, true
		}
	}
	return ttEntry{}, false
}

// store records a search of the position key: its best move, score and bound at
// depth, and its static evaluation eval (noScore when not computed).
func (t *table) store(key uint64, m mv, score Score, depth int, bound uint8, ply int, eval Score) {
	ev := int16(ttNoEval)
	if eval > ttNoEval && eval <= 1<<15-1 {
		ev = int16(eval)
	}
	i := key & t.mask
	b := t.slots[i : i+2]
	var e *ttEntry
	switch {
	case b[0].key == key:
		e = &b[0]
	case b[1].key == key:
		e = &b[1]
	}
	if e != nil {
		if int(e.depth) > depth+2 && bound != boundExact && e.gen == t.gen {
			return
		}
		if m == 0 {
			m = e.move
		}
		if ev == ttNoEval {
			ev = e.eval
		}
	} else {
		e = &b[0]
		if worth(&b[1], t.gen) < worth(&b[0], t.gen) {
			e = &b[1]
		}
	}
	*e = ttEntry{key: key, move: m, score: int32(toTT(score, ply)), depth: int8(depth), bound: bound, gen: t.gen, eval: ev}
}

// worth ranks an entry for keeping: deeper is worth more, older searches' less.
func worth(e *ttEntry, gen uint8) int {
	if e.bound == boundNone {
		return -1 << 20
	}
	return int(e.depth) - 8*int(gen-e.gen)
}

// cut returns the entry's score at ply when its bound settles a search of the
// window (alpha, beta) there.
func (e *ttEntry) cut(ply int, alpha, beta Score) (Score, bool) {
	sc := fromTT(Score(e.score), ply)
	switch {
	case e.bound == boundExact,
		e.bound == boundLower && sc >= beta,
		e.bound == boundUpper && sc <= alpha:
		return sc, true
	}
	return 0, false
}

// refine returns the static evaluation ev of the entry's position at ply, moved to
// the entry's score where its bound says the position is worth more (a lower
// bound above ev) or less (an upper bound below ev); mate scores leave ev as it is.
func (e *ttEntry) refine(ev Score, ply int) Score {
	sc := fromTT(Score(e.score), ply)
	switch {
	case abs(sc) >= mateBound:
		return ev
	case e.bound == boundLower && sc > ev, e.bound == boundUpper && sc < ev:
		return sc
	}
	return ev
}

// toTT and fromTT make mate scores relative to the node rather than the root.
func toTT(s Score, ply int) Score {
	switch {
	case s >= mateBound:
		return s + Score(ply)
	case s <= -mateBound:
		return s - Score(ply)
	}
	return s
}

func fromTT(s Score, ply int) Score {
	switch {
	case s >= mateBound:
		return s - Score(ply)
	case s <= -mateBound:
		return s + Score(ply)
	}
	return s
}
