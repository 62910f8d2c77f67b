package engine

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/missivechess/missive/rules"
)

// Place chooses side's next placement in a simultaneous placement phase (Go-Chess):
// pawns gather in a compact group on side's home ranks that becomes the king's
// pocket, the queen goes next to that group (the first move goes to the player
// whose king and queen stand nearer), the king goes where most of its own men
// surround it and no enemy piece is near, and rooks, bishops and knights go where
// they reach the most open cells, away from enemy pieces. It sees only what
// ViewFor(side) shows. The choice is deterministic.
func (e *Engine) Place(ctx context.Context, pos rules.Simultaneous, side rules.Side) (rules.Move, error) {
	moves := pos.LegalMovesFor(side)
	if len(moves) == 0 {
		return rules.NullMove, fmt.Errorf("engine: %s has nothing to place now: %w", side, rules.ErrIllegalMove)
	}
	b := pos.ViewFor(side).Board()
	best, bestScore := moves[0], -1<<30
	for _, m := range moves {
		if err := ctx.Err(); err != nil {
			return rules.NullMove, err
		}
		if s := placementScore(b, side, m); s > bestScore {
			best, bestScore = m, s
		}
	}
	return best, nil
}

// placementScore rates dropping m.Drop on m.To for side on board b.
func placementScore(b rules.Board, side rules.Side, m rules.Move) int {
	d := b.Dims
	f, r := d.File(m.To), d.Rank(m.To)
	home := r // distance from side's own edge
	if side == rules.Black {
		home = d.Ranks - 1 - r
	}
	ownNear, enemyNear, queenDist := 0, 0, 100
	minEnemy := 100
	for sq, c := range b.Cells {
		if c.Piece.Kind == rules.NoPiece {
			continue
		}
		df, dr := abs(d.File(rules.Square(sq))-f), abs(d.Rank(rules.Square(sq))-r)
		cheb := max(df, dr)
		if c.Piece.Side == side {
			if cheb == 1 {
				ownNear++
			}
			if c.Piece.Kind == rules.Queen {
				queenDist = df + dr
			}
		} else {
			if cheb <= 2 {
				enemyNear++
			}
			minEnemy = min(minEnemy, cheb)
		}
	}
	edge := min(f, d.Files-1-f) // 0 on the side files
	reach := openReach(b, m.To, m.Drop)
	switch m.Drop {
	case rules.Pawn:
		return 40*ownNear - 25*home - 30*enemyNear - 5*abs(edge-2)
	case rules.King:
		// A pocket among its own men, near the queen, far from enemies, at home.
		s := 60*ownNear - 20*home + 5*min(minEnemy, 6) - 20*min(queenDist, 20) - 80*enemyNear
		if minEnemy <= 1 {
			s -= 500
		}
		return s
	case rules.Queen:
		return 15*ownNear + 3*reach - 10*home - 60*enemyNear
	default:
		return 4*reach + 5*ownNear - 6*home - 50*enemyNear
	}
}

// openReach counts the cells a piece of kind on sq would reach on b (the king and
// pawn count their steps).
func openReach(b rules.Board, sq rules.Square, kind rules.PieceKind) int {
	d := b.Dims
	f0, r0 := d.File(sq), d.Rank(sq)
	free := func(f, r int) (ok, stop bool) {
		s := d.Square(f, r)
		if s == rules.NoSquare {
			return false, true
		}
		c := b.At(s)
		if c.State != rules.Playable {
			return false, true
		}
		return true, c.Piece.Kind != rules.NoPiece
	}
	n := 0
	slide := func(dirs [][2]int) {
		for _, dd := range dirs {
			for k := 1; k < 20; k++ {
				ok, stop := free(f0+dd[0]*k, r0+dd[1]*k)
				if ok {
					n++
				}
				if stop {
					break
				}
			}
		}
	}
	orth := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	diag := [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	switch kind {
	case rules.Rook:
		slide(orth)
	case rules.Bishop:
		slide(diag)
	case rules.Queen:
		slide(orth)
		slide(diag)
	case rules.Knight:
		for _, o := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if ok, _ := free(f0+o[0], r0+o[1]); ok {
				n++
			}
		}
	default:
		for _, o := range append(orth, diag...) {
			if ok, _ := free(f0+o[0], r0+o[1]); ok {
				n++
			}
		}
	}
	return n
}

// Placer chooses side's next placement in a simultaneous placement phase; *Engine
// and RandomPlacer are Placers.
type Placer interface {
	Place(ctx context.Context, pos rules.Simultaneous, side rules.Side) (rules.Move, error)
}

// RandomPlacer places uniformly at random among the eligible cells; it is not safe
// for concurrent use.
type RandomPlacer struct {
	Rand *rand.Rand
}

// Place picks one of side's eligible placements at random.
func (r RandomPlacer) Place(_ context.Context, pos rules.Simultaneous, side rules.Side) (rules.Move, error) {
	moves := pos.LegalMovesFor(side)
	if len(moves) == 0 {
		return rules.NullMove, fmt.Errorf("engine: %s has nothing to place now: %w", side, rules.ErrIllegalMove)
	}
	return moves[r.Rand.IntN(len(moves))], nil
}

// maxPlacementChoices bounds PlayPlacement's loop; the real phase needs 32 choices
// plus a few repeated for collisions.
const maxPlacementChoices = 10000

// PlayPlacement plays a simultaneous placement phase from pos to its end with white
// and black choosing, each shown only its own view (ViewFor), and returns the first
// position after the phase (the play position of Go-Chess).
func PlayPlacement(ctx context.Context, pos rules.Simultaneous, white, black Placer) (rules.Position, error) {
	placers := [2]Placer{white, black}
	var cur rules.Position = pos
	for range maxPlacementChoices {
		sp, ok := cur.(rules.Simultaneous)
		if !ok {
			return cur, nil
		}
		sides := sp.Awaiting()
		if len(sides) == 0 {
			return nil, fmt.Errorf("engine: the placement phase awaits nobody in %s", sp)
		}
		side := sides[0]
		view, ok := sp.ViewFor(side).(rules.Simultaneous)
		if !ok {
			return nil, fmt.Errorf("engine: %s's view of the placement phase is not a placement position", side)
		}
		m, err := placers[side&1].Place(ctx, view, side)
		if err != nil {
			return nil, fmt.Errorf("engine: %s's placement: %w", side, err)
		}
		if cur, err = sp.PlayAs(side, m); err != nil {
			return nil, fmt.Errorf("engine: %s's placement %s: %w", side, sp.UCI(m), err)
		}
	}
	return nil, fmt.Errorf("engine: the placement phase did not end after %d choices", maxPlacementChoices)
}
