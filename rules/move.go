package rules

// Move is a move in any of the games, a small comparable value.
//
// A chess-family move goes From -> To, with Promotion set when a pawn promotes;
// castling is the king's move (From is the king's square, To where it lands).
// A placement move (Go-Chess) has From == NoSquare, To the chosen cell and Drop
// the kind placed. A Gess move goes from one footprint centre to another.
// Text forms belong to the position (Position.ParseMove, SAN, UCI) because reading
// and writing moves such as SAN needs the position.
type Move struct {
	From      Square
	To        Square
	Promotion PieceKind
	Drop      PieceKind
}

// NullMove is the zero-information move, never legal.
var NullMove = Move{From: NoSquare, To: NoSquare}

// IsDrop reports whether m places a piece rather than moving one.
func (m Move) IsDrop() bool { return m.From == NoSquare && m.Drop != NoPiece }
