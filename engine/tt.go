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
}

// table is a fixed-size, always-replace-if-deeper-or-newer transposition table,
// used by one search at a time (Engine keeps it between searches).
type table struct {
	slots []ttEntry
	mask  uint64
}

// newTable returns a table of 2^bits entries.
func newTable(bits uint) *table {
	return &table{slots: make([]ttEntry, 1<<bits), mask: 1<<bits - 1}
}

func (t *table) probe(key uint64) (ttEntry, bool) {
	e := t.slots[key&t.mask]
	return e, e.key == key && e.bound != boundNone
}

func (t *table) store(key uint64, m mv, score Score, depth int, bound uint8, ply int) {
	e := &t.slots[key&t.mask]
	if e.key == key && int(e.depth) > depth && bound != boundExact {
		return
	}
	if m == 0 && e.key == key {
		m = e.move
	}
	*e = ttEntry{key: key, move: m, score: int32(toTT(score, ply)), depth: int8(depth), bound: bound}
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
