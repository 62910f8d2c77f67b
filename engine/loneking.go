package engine

import (
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
	"github.com/missivechess/missive/rules/chess"
)

// loneKing is the exact value of every position of a king and one piece (or one
// pawn) against a lone king on one board, found backward from the mates
// (retrograde analysis). It serves Go-Chess, whose blocked cells make the mop-up's
// rim and box poor guides:
// of 60 random king-and-rook positions, 58 are wins, and searches of depth 4 to 8
// without the table let 2 to 10 of those end in the fifty-move draw. The other 2
// are draws: the blocked cells can shut the rook in or shield the lone king from
// its checks. Such draws are rare: on the boards of seeds 1-3, 79 to 230 of about
// 560,000 positions with the stronger side to move (with a queen, none). The
// longest mates there take 47 plies with a rook, 27 with a queen. A Go-Chess
// pawn (stepping orthogonally, taking diagonally, never promoting) wins only
// where the lone king already stands walled in by the edge and the blocked cells:
// on the boards of seeds 1-6, 0 to 15 of the positions with the stronger side to
// move, each a mate in one; every other position is a draw, which its table knows
// (see probe). A pawn's table takes about a hundredth of a second to build.
// Positions are indexed
//
//	((toMove*n + strongKing)*n + piece)*n + weakKing
//
// with n the board's cells, toMove 0 when the stronger side is to move and 1 when
// the lone king is, and the squares numbered as everywhere (Go-Chess's board):
//
//	rank 10  90 91 92 ... 99
//	 ...
//	rank 2   10 11 12 ... 19
//	rank 1    0  1  2 ...  9
//	          a  b  c ...  j
//
// Each entry holds one more than the plies to mate with best play (a mated king
// holds 1), or unresolved: a draw, or an arrangement that cannot occur.
type loneKing struct {
	n     int
	plies []uint8
	// drawsKnown says that probe scores the table's draws (a pawn's table).
	drawsKnown bool
}

// unresolved marks a loneKing entry that is not a win; it is the zero value, so a
// new table starts with nothing resolved.
const unresolved = 0

// loneKingKey tells apart the tables of one search memory: the game (variant and
// blocked cells), the stronger side's piece, and, for a pawn (whose steps may
// depend on its side), the stronger side.
type loneKingKey struct {
	game   uint64
	kind   rules.PieceKind
	strong rules.Side
}

// keyOf returns the key of the table of kind with strong the stronger side in game.
func keyOf(game uint64, kind rules.PieceKind, strong rules.Side) loneKingKey {
	if kind != rules.Pawn {
		strong = rules.White // a piece moves alike for both sides: one table
	}
	return loneKingKey{game, kind, strong}
}

// loneKingBuild is a loneKing table being built, a step at a time, so that the
// searches that need it can share its cost out within their time.
type loneKingBuild struct {
	t *loneKing
	// attacks returns the cells the piece on p attacks with the cells of occ
	// occupied; from returns the cells from which it moves to p, p empty, there
	// (a pawn's steps backward, a piece's attacks).
	attacks, from func(p rules.Square, occ board.Bitboard) board.Bitboard
	steps         []board.Bitboard
	open          board.Bitboard
	// left counts, for each position with the lone king to move, its moves not
	// yet known to lose; 0 where it can never lose (stalemate, or the piece can
	// be taken).
	left  []uint8
	queue []int32 // positions decided, to look back from
	next  int     // the strong king's next cell to set up from, then n
	done  bool
}

// newLoneKingBuild starts the table of strong's king and kind against king on geo,
// with ev's attacks as a piece's moves and ev's pawn steps and captures as a
// pawn's: exact for Go-Chess's men (the orthodox pieces, its pawns), as
// TestLoneKingTableAgreesWithRules checks against the rules.
func newLoneKingBuild(ev *chessEval, geo *board.Geometry, kind rules.PieceKind, strong rules.Side) *loneKingBuild {
	n := geo.Dims().Cells()
	t := &loneKing{n: n, plies: make([]uint8, 2*n*n*n), drawsKnown: kind == rules.Pawn}
	b := &loneKingBuild{t: t, steps: geo.LeapTable(board.KingSteps), open: geo.Open(), left: make([]uint8, n*n*n)}
	b.attacks = func(p rules.Square, occ board.Bitboard) board.Bitboard { return ev.attacks(kind, p, occ) }
	b.from = b.attacks
	if kind == rules.Pawn {
		caps, from, open := ev.pawnCap[strong], ev.pawnFrom[strong], b.open
		b.attacks = func(p rules.Square, _ board.Bitboard) board.Bitboard { return caps[p] }
		b.from = func(p rules.Square, _ board.Bitboard) board.Bitboard { return from[p].And(open) }
	}
	return b
}

// newLoneKing builds the table of strong's king and kind against king on geo at once.
func newLoneKing(ev *chessEval, geo *board.Geometry, kind rules.PieceKind, strong rules.Side) *loneKing {
	b := newLoneKingBuild(ev, geo, kind, strong)
	b.run(time.Time{})
	return b.t
}

// index returns where t holds the position (see loneKing).
func (t *loneKing) index(toMove int, sk, p, wk rules.Square) int {
	n := t.n
	return ((toMove*n+int(sk))*n+int(p))*n + int(wk)
}

// run builds until the table is done or until has passed (never, when zero) and
// reports whether it is done.
func (b *loneKingBuild) run(until time.Time) bool {
	t, attacks, steps, open, left := b.t, b.attacks, b.steps, b.open, b.left
	n := t.n
	late := func() bool { return !until.IsZero() && time.Now().After(until) }
	// First the positions as they stand: the lone king's moves counted, its mates
	// queued.
	for ; b.next < n; b.next++ {
		sk := rules.Square(b.next)
		if !open.Has(sk) {
			continue
		}
		if late() {
			return false
		}
		for p := rules.Square(0); int(p) < n; p++ {
			if p == sk || !open.Has(p) {
				continue
			}
			// The cells the lone king may not step to: those the strong king and
			// the piece cover, the piece's rays passing through the king's cell.
			guarded := attacks(p, board.Bit(sk).Set(p)).Or(steps[sk])
			for wk := rules.Square(0); int(wk) < n; wk++ {
				if wk == sk || wk == p || !open.Has(wk) || steps[sk].Has(wk) {
					continue
				}
				to := steps[wk].AndNot(guarded)
				if to.Has(p) {
					continue // it takes the unguarded piece: a draw
				}
				if to.Any() {
					left[t.index(0, sk, p, wk)] = uint8(to.Count())
					continue
				}
				if attacks(p, board.Bit(sk).Set(p).Set(wk)).Has(wk) {
					i := t.index(1, sk, p, wk)
					t.plies[i] = 1
					b.queue = append(b.queue, int32(i))
				}
			}
		}
	}
	// Then backward from each decided position, nearest mates first, so that a
	// loss is decided by the longest of its moves.
	for k := 0; len(b.queue) > 0; k++ {
		if k%1024 == 0 && late() {
			return false
		}
		i := int(b.queue[0])
		b.queue = b.queue[1:]
		d := t.plies[i]
		if d == 0xff { // as far as a byte counts
			continue
		}
		wk := rules.Square(i % n)
		p := rules.Square(i / n % n)
		sk := rules.Square(i / n / n % n)
		occ := board.Bit(sk).Set(p).Set(wk)
		decide := func(j int) {
			t.plies[j] = d + 1
			b.queue = append(b.queue, int32(j))
		}
		if i >= n*n*n {
			// The lone king is to move and lost: every strong move into this
			// position wins, from a position where the lone king is not in check:
			// a step of the strong king, or a move of the piece.
			for from := steps[sk].AndNot(occ).AndNot(steps[wk]); from.Any(); {
				f := from.PopFirst()
				j := t.index(0, f, p, wk)
				if t.plies[j] == unresolved && !attacks(p, board.Bit(f).Set(p).Set(wk)).Has(wk) {
					decide(j)
				}
			}
			for from := b.from(p, occ).AndNot(occ); from.Any(); {
				f := from.PopFirst()
				j := t.index(0, sk, f, wk)
				if t.plies[j] == unresolved && !attacks(f, board.Bit(sk).Set(f).Set(wk)).Has(wk) {
					decide(j)
				}
			}
			continue
		}
		// The stronger side is to move and wins: a lone king's step into this
		// position loses once all its other steps do.
		for from := steps[wk].AndNot(occ).AndNot(steps[sk]); from.Any(); {
			j := t.index(0, sk, p, from.PopFirst())
			if left[j] > 0 {
				if left[j]--; left[j] == 0 {
					decide(j + n*n*n)
				}
			}
		}
	}
	b.done, b.left, b.queue = true, nil, nil
	return true
}

// loneKings holds a search memory's loneKing tables, built as games reach them.
type loneKings map[loneKingKey]*loneKingBuild

// maxLoneKings bounds the tables a search memory keeps (about 2 MiB each): an
// engine that plays many boards drops them all and builds again.
const maxLoneKings = 4

// ending reports the stronger side's piece and the three men's cells when b holds
// a king and one piece or pawn against a lone king.
func ending(b *chess.SearchBoard) (kind rules.PieceKind, strong rules.Side, sk, p, wk rules.Square, ok bool) {
	if b.Occupied(rules.White).Or(b.Occupied(rules.Black)).Count() != 3 {
		return
	}
	strong = rules.White
	if b.Occupied(rules.Black).Count() == 2 {
		strong = rules.Black
	}
	if bb := b.Pieces(strong, rules.Pawn); bb.Any() {
		return rules.Pawn, strong, b.King(strong), bb.First(), b.King(strong ^ 1), true
	}
	for _, k := range b.Kinds() {
		if bb := b.Pieces(strong, k); bb.Any() {
			return k, strong, b.King(strong), bb.First(), b.King(strong ^ 1), true
		}
	}
	return
}

// mate returns the plies to mate with best play of the position with the
// stronger side's king on sk and its piece on p, the lone king on wk, and the
// stronger side to move when strongToMove is set; won is false for a draw.
func (t *loneKing) mate(strongToMove bool, sk, p, wk rules.Square) (plies int, won bool) {
	toMove := 0
	if !strongToMove {
		toMove = 1
	}
	d := t.plies[t.index(toMove, sk, p, wk)]
	return int(d) - 1, d != unresolved
}

// probe returns the exact score, for the side to move at ply, of b when t holds a
// mate for it that the fifty-move rule lets happen. A draw with a piece, which
// the stronger side may still win against a defender who errs, is left to the
// search; a draw with a pawn is scored as the draw it is: there the lone king
// need only keep off the few cells where it can be walled in, and a pawn scored
// as a pawn ahead would have the engine decline every draw offer and shuffle for
// hundreds of moves (each pawn step resets the fifty-move count).
func (t *loneKing) probe(b *chess.SearchBoard, strong rules.Side, sk, p, wk rules.Square, ply int) (Score, bool) {
	d, won := t.mate(b.Turn() == strong, sk, p, wk)
	if !won && t.drawsKnown {
		return drawScore, true
	}
	if !won || b.HalfmoveClock()+d > 100 {
		return 0, false
	}
	sc := MateScore - Score(ply+d)
	if b.Turn() != strong {
		sc = -sc
	}
	return sc, true
}
