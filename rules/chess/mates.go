package chess

import (
	"sync"

	"github.com/missivechess/missive/rules"
)

// lonePieceMates caches, per board (tables), which lone pieces can mate which
// single guards (state.canWin).
type lonePieceMates struct {
	mu    sync.Mutex
	known map[[2]rules.PieceKind]bool
}

// loneMates reports whether a king and one piece of kind x can checkmate a king
// guarded by one piece of kind y on t's board: whether some position of the four,
// the guarded side to move, is checkmate. None means no series of legal moves
// could mate; one means a helped mate is there to be played for (the pieces can
// walk to it). It searches every position once per board and pair of kinds.
func (t *tables) loneMates(x, y rules.PieceKind) bool {
	c := &t.mates
	c.mu.Lock()
	defer c.mu.Unlock()
	key := [2]rules.PieceKind{x, y}
	if ok, found := c.known[key]; found {
		return ok
	}
	if c.known == nil {
		c.known = map[[2]rules.PieceKind]bool{}
	}
	ok := t.searchLoneMate(x, y)
	c.known[key] = ok
	return ok
}

// searchLoneMate looks for a checkmate of a king guarded by a piece of kind y by a
// king and a piece of kind x (see loneMates).
func (t *tables) searchLoneMate(x, y rules.PieceKind) bool {
	g := t.geo
	px, py := &t.def[x], &t.def[y]
	open := g.Open()
	cells := open.Squares(nil)
	for _, bk := range cells {
		// The guard helps only on a square next to its king: anywhere else it takes
		// no flight square, so a mate with it there is a mate of the bare king,
		// which the search tries too (NoSquare), the guard given up first.
		guards := append(t.king[bk].Squares(nil), rules.NoSquare)
		// x checks bk from where x would reach from bk on an empty board (the
		// leaps and slides are symmetric).
		for _, xs := range px.attacks(g, bk, bb{}).And(open).Squares(nil) {
			for _, wk := range cells {
				if wk == bk || wk == xs || t.king[wk].Has(bk) {
					continue
				}
				for _, ys := range guards {
					if ys == xs || ys == wk {
						continue
					}
					occ := bb{}.Set(bk).Set(xs).Set(wk)
					if ys != rules.NoSquare {
						occ = occ.Set(ys)
					}
					if !px.attacks(g, xs, occ).Has(bk) || ys != rules.NoSquare && py.attacks(g, ys, occ).Has(wk) {
						continue // no check, or the mating side's king attacked with the other to move
					}
					if !t.escapes(px, py, bk, xs, wk, ys, occ) {
						return true
					}
				}
			}
		}
	}
	return false
}

// escapes reports whether the king on bk, guarded by the piece py on ys (NoSquare
// for none) and checked by px on xs with the other king on wk, has a legal move out
// of check.
func (t *tables) escapes(px, py *compiledPiece, bk, xs, wk, ys rules.Square, occ bb) bool {
	g := t.geo
	without := occ.Clear(bk)
	for _, to := range t.king[bk].Squares(nil) {
		switch {
		case to == ys:
		case to == xs:
			if !t.king[wk].Has(xs) {
				return true // takes the unguarded checker
			}
		case !t.king[wk].Has(to) && !px.attacks(g, xs, without.Set(to)).Has(to):
			return true
		}
	}
	if ys == rules.NoSquare {
		return false
	}
	reach := py.attacks(g, ys, occ)
	return reach.Has(xs) || reach.And(g.Between(xs, bk)).Any() // takes the checker, or blocks its line
}
