package engine

import (
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
	"github.com/missivechess/missive/rules/chess"
)

// conversion is the endgame knowledge of a chess-family variant whose pawns never
// promote (Go-Chess): a material edge is won only by mating with pieces, which the
// search cannot see from far away, so the evaluation guides it there (mop-up), and
// a position that goes on without captures drifts toward the draw it is heading
// for, so that the side ahead makes progress instead of shuffling.
type conversion struct {
	ev     *chessEval // how each kind attacks, and its value
	centre []int32    // 0 on the central cells, growing toward the rim
	dims   rules.Dims
	steps  []board.Bitboard
	open   board.Bitboard
}

// Mop-up applies when the side ahead leads by at least mopLead centipawns of
// material and has at least mopMaterial of pieces (not pawns) to mate with, or
// leads by at least mopPawns against a side without pieces and has two pawns or
// more (pawns capture on four diagonals, so king and pawns can mate); it earns
// mopRim centipawns a step the weaker king stands from the centre, mopNear a step
// its own king comes nearer that king (out of mopFar), and mopBox a cell of the
// board (out of mopBoxCells) that the weaker king cannot reach by steps over cells
// the stronger side does not attack.
//
// The pawns' mop-up, at 50 ms a move against the tree without it, from both sides
// of the 12 pawn endings of scripts/testdata/gochess-pawn-endings.fen: +9 =14 -1
// (that tree won only a mate in one); against ebe9f39 on the openings of seeds
// 9090, 8888 and 8989, +91 =192 -17 of 300 (+88 Elo) where the tree without it
// scored +94 =183 -23 (+84): pawn endings come in about one game in twenty-five.
const (
	mopLead     = 250
	mopMaterial = 500
	mopPawns    = 200
	mopRim      = 50
	mopNear     = 15
	mopFar      = 9
	mopBox      = 6
	mopBoxCells = 64
)

// The evaluation is scaled by (driftPlies - n)/driftPlies after n plies without an
// irreversible move, n rounded down to a multiple of driftStep and at most driftMax.
// The steps keep the static evaluations of nearby plies comparable (the search's
// "improving" signal would otherwise see every quiet line of the side ahead as
// getting worse).
const (
	driftPlies = 200
	driftStep  = 10
	driftMax   = 150
)

func newConversion(ev *chessEval) *conversion {
	geo := ev.geo
	d := geo.Dims()
	n := d.Cells()
	c := &conversion{ev: ev, centre: make([]int32, n), dims: d, steps: geo.LeapTable(board.KingSteps), open: geo.Open()}
	// Distance to the nearest of the central cells, in king steps.
	cf, cr := (d.Files-1)/2, (d.Ranks-1)/2
	for sq := rules.Square(0); int(sq) < n; sq++ {
		f, r := d.File(sq), d.Rank(sq)
		df := max(cf-f, f-(d.Files-1-cf), 0)
		dr := max(cr-r, r-(d.Ranks-1-cr), 0)
		c.centre[sq] = int32(max(df, dr))
	}
	return c
}

// drift returns the evaluation s (from the side to move's point of view) of b
// scaled toward the draw by the plies played without an irreversible move.
func (c *conversion) drift(b *chess.SearchBoard, s Score) Score {
	if n := min(b.ReversiblePlies()/driftStep*driftStep, driftMax); n > 0 {
		s = s * Score(driftPlies-n) / driftPlies
	}
	return s
}

// mopUp scores, for the side to move, how far the side with a decisive material
// edge has driven the other king to the rim and brought its own king near it.
func (c *conversion) mopUp(b *chess.SearchBoard) Score {
	var mat, pieces, pawns [2]int
	for _, s := range rules.Sides {
		pawns[s] = b.Pieces(s, rules.Pawn).Count()
		mat[s] = pawns[s] * c.ev.value[rules.Pawn]
		for _, k := range b.Kinds() {
			if k == rules.King {
				continue
			}
			v := b.Pieces(s, k).Count() * c.ev.value[k]
			mat[s] += v
			pieces[s] += v
		}
	}
	strong := rules.White
	if mat[rules.Black] > mat[rules.White] {
		strong = rules.Black
	}
	weak := strong ^ 1
	lead := mat[strong] - mat[weak]
	byPieces := lead >= mopLead && pieces[strong] >= mopMaterial
	byPawns := lead >= mopPawns && pieces[weak] == 0 && pawns[strong] >= 2
	if !byPieces && !byPawns {
		return 0
	}
	wk, sk := b.King(weak), b.King(strong)
	if wk < 0 || sk < 0 {
		return 0
	}
	box := min(c.box(b, wk, strong), mopBoxCells)
	bonus := Score(mopRim*int(c.centre[wk]) + mopNear*(mopFar-min(kingSteps(c.dims, wk, sk), mopFar)) + mopBox*(mopBoxCells-box))
	if b.Turn() != strong {
		bonus = -bonus
	}
	return bonus
}

// box counts the cells the king on wk can reach by king steps over open cells that
// hold none of its own men and that strong does not attack (its men standing there
// may be taken): the room the king has left.
func (c *conversion) box(b *chess.SearchBoard, wk rules.Square, strong rules.Side) int {
	weak := strong ^ 1
	occ := b.Occupied(rules.White).Or(b.Occupied(rules.Black)).Clear(wk)
	// Every cell strong attacks, its rays passing through the weak king's cell.
	var attacked board.Bitboard
	for p := b.Pieces(strong, rules.Pawn); p.Any(); {
		attacked = attacked.Or(c.ev.pawnCap[strong][p.PopFirst()])
	}
	for _, kind := range b.Kinds() {
		if kind == rules.Pawn || kind == rules.King {
			continue
		}
		for p := b.Pieces(strong, kind); p.Any(); {
			attacked = attacked.Or(c.ev.attacks(kind, p.PopFirst(), occ))
		}
	}
	if sk := b.King(strong); sk >= 0 {
		attacked = attacked.Or(c.steps[sk])
	}
	room := c.open.AndNot(b.Occupied(weak)).AndNot(attacked)
	seen := board.Bit(wk)
	for frontier := seen; frontier.Any(); {
		var next board.Bitboard
		for f := frontier; f.Any(); {
			next = next.Or(c.steps[f.PopFirst()])
		}
		frontier = next.And(room).AndNot(seen)
		seen = seen.Or(frontier)
	}
	return seen.Count()
}
