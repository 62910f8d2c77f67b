package chess

import (
	"github.com/missivechess/missive/rules"
)

// Layout is a compiled board shape of a variant (its cells and this game's blocked
// cells) that answers attack questions about pieces outside the rules of play: no
// king is needed and nobody is to move, as in a phase before play such as
// Go-Chess's placement. A Layout is immutable and safe for concurrent use.
type Layout struct {
	t *tables
}

// Layout compiles the board shape whose cells have states (indexed by square).
func (v *Variant) Layout(states []rules.CellState) (*Layout, error) {
	t, err := v.tablesFor(states)
	if err != nil {
		return nil, err
	}
	return &Layout{t: t}, nil
}

// Attacked reports whether a piece of side standing on b attacks sq, with the
// variant's moves: sliders stop at pieces and closed cells, leapers jump over them.
func (l *Layout) Attacked(b rules.Board, sq rules.Square, side rules.Side) bool {
	s := state{t: l.t, ep: rules.NoSquare, king: [2]rules.Square{rules.NoSquare, rules.NoSquare}}
	for i, c := range b.Cells {
		if c.Piece.IsNone() || !l.t.geo.IsOpen(rules.Square(i)) || int(c.Piece.Kind) >= numKinds {
			continue
		}
		s.put(rules.Square(i), mkPiece(c.Piece.Side, c.Piece.Kind))
	}
	return s.attackersTo(sq, side, s.all()).Any()
}
