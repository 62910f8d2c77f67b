package rules

import "maps"

// Variant facts: what engines, players, pictures and the clock ask of a game
// instead of knowing it by its key. Each is an optional interface with a default
// that fits an ordinary chessboard, read through the function of the same name.

// MaterialJudge is implemented by positions that know whether a side could still
// win: CanWin(side) is false when no series of legal moves, the opponent's help
// included, lets side win (the FIDE rule for a player out of time, Article 6.9),
// as far as the position can tell for certain; when unsure it is true.
type MaterialJudge interface {
	CanWin(side Side) bool
}

// CanWin reports whether side has enough material in p to win: the position's own
// judgement when it has one, else true (a side is never declared hopeless by default).
func CanWin(p Position, side Side) bool {
	if j, ok := p.(MaterialJudge); ok {
		return j.CanWin(side)
	}
	return true
}

// Compacter is implemented by positions whose text has a shorter form that their
// variant's ParsePosition reads too (Gess: runs of empty squares as numbers, as in
// FEN), for places with little room, such as a PGN tag's line.
type Compacter interface {
	CompactString() string
}

// CompactText returns p's shorter text when it has one (Compacter), else p.String().
func CompactText(p Position) string {
	if c, ok := p.(Compacter); ok {
		return c.CompactString()
	}
	return p.String()
}

// Valuer is implemented by variants that give their pieces values in centipawns
// (a pawn, or a Gess stone, is about 100), shared by the engine and simple players.
type Valuer interface {
	PieceValues() map[PieceKind]int
}

// PieceValues returns a copy of v's piece values in centipawns, nil when v gives
// none; a kind not listed (the king) is worth nothing.
func PieceValues(v Variant) map[PieceKind]int {
	if pv, ok := v.(Valuer); ok {
		return maps.Clone(pv.PieceValues())
	}
	return nil
}

// Look says how a variant's board is shown. The zero value is a chessboard seen
// with White's home at the bottom.
type Look struct {
	// Home is the side whose home ranks are at the bottom of the board shown
	// unturned (rank 1 at the bottom): White in chess, Black in Gess. A viewer of
	// the other side sees the board turned 180 degrees.
	Home Side
	// Stones says the board is a Go board: stones on the points of a grid, its only
	// pieces, moved as 3x3 blocks (Gess); otherwise pieces stand in chequered squares.
	Stones bool
	// Frame is the width in cells of the outer ring where no piece ever rests
	// (Gess: 1); it is drawn as a margin.
	Frame int
}

// Looker is implemented by variants whose board is not shown as the zero Look.
type Looker interface {
	Look() Look
}

// LookOf returns how v's board is shown: v's own Look, else the zero Look.
func LookOf(v Variant) Look {
	if l, ok := v.(Looker); ok {
		return l.Look()
	}
	return Look{}
}

// Flipped reports whether viewer sees the board turned 180 degrees: when viewer's
// home is not at the bottom of the unturned board.
func (l Look) Flipped(viewer Side) bool { return viewer != l.Home }
