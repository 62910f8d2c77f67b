package gess

import (
	"math/bits"

	"github.com/missivechess/missive/rules"
)

// Rows is one side's stones as bit rows in the board's own geometry: element r+1
// holds rank r (zero-based) and bit f+1 of it file f, so that elements 0 and 21 and
// the bits beyond the frame are always empty (see the diagram in board.go).
type Rows [rowCount]uint32

// Rows returns side's stones; a search reads them to evaluate a position without
// visiting the 400 squares one by one.
func (b *Board) Rows(side rules.Side) Rows { return b.stones[side&1] }

// Captures returns the number of the opponent's stones that move m, legal for the
// side to move, removes: those under its destination footprint. It does not play
// the move, so a search can tell tactical moves from quiet ones cheaply.
func (b *Board) Captures(m rules.Move) int {
	f, r := coords(m.To)
	return bits.OnesCount32(block(&b.stones[b.turn^1], f, r))
}
