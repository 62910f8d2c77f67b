package rules

// Variant is one game: a stable key plus the hooks that create and read its positions.
type Variant interface {
	// Key returns the stable key stored in game records: gothic, keltic, gochess or gess.
	Key() string
	// Name returns the display name, such as "Gothic Chess".
	Name() string
	// Dims returns the size of the board's bounding rectangle.
	Dims() Dims
	// Start returns the start position; seed matters only to variants with a random
	// setup (Go-Chess's blocked cells) and the same seed always gives the same position.
	Start(seed uint64) Position
	// ParsePosition reads the variant's position text (FEN, or Gess's text form) and
	// refuses anything malformed or impossible with an error wrapping ErrBadPosition.
	ParsePosition(text string) (Position, error)
}

// Position is an immutable game state. No method changes the receiver.
type Position interface {
	// Variant returns the game this position belongs to.
	Variant() Variant
	// Turn returns the side to move.
	Turn() Side
	// Board returns a snapshot of the cells and pieces.
	Board() Board
	// LegalMoves returns every legal move in a deterministic order (empty once the game is over).
	LegalMoves() []Move
	// Play validates m and returns the position after it, or an error wrapping
	// ErrIllegalMove (or ErrGameOver) that says why; the receiver is unchanged.
	Play(m Move) (Position, error)
	// Outcome reports whether the game goes on or how it was decided (checkmate,
	// stalemate, the automatic draws, Gess's ring loss), from the history it carries.
	Outcome() Outcome
	// InCheck reports whether the side to move is in check (always false in Gess).
	InCheck() bool
	// String returns the position text (FEN or Gess text) that ParsePosition reads back.
	String() string
	// ParseMove reads a move in any accepted notation and returns the legal move it
	// names, or an error wrapping ErrBadNotation, ErrIllegalMove or ErrAmbiguousMove.
	ParseMove(text string) (Move, error)
	// SAN returns the display notation of legal move m (Standard Algebraic Notation in
	// the chess family, "m3-m6"/"m3xm6" in Gess).
	SAN(m Move) string
	// UCI returns the canonical coordinate notation of m, the form stored in records.
	UCI(m Move) string
}

// Perfter is implemented by positions with a fast perft, used by the perft command and
// benchmarks; Perft(depth) counts the leaf nodes of the legal move tree.
type Perfter interface {
	Perft(depth int) uint64
}

// Simultaneous is implemented by positions in a phase where both sides choose in secret
// and the choices are revealed together (Go-Chess's placement). For such positions
// Turn is not meaningful; Awaiting says who still owes a choice.
type Simultaneous interface {
	Position
	// Awaiting lists the sides that still have to choose in the current round.
	Awaiting() []Side
	// PlayAs records side's choice m, revealing the round when both have chosen.
	// It returns an error wrapping ErrNotYourTurn when side has already chosen.
	PlayAs(side Side, m Move) (Position, error)
	// LegalMovesFor returns side's eligible choices in the current round.
	LegalMovesFor(side Side) []Move
	// ViewFor returns the position as viewer may see it: every revealed piece and the
	// viewer's own pending choice, never the opponent's pending choice.
	ViewFor(viewer Side) Position
}

// Perft counts the leaf nodes of the legal move tree of p to depth, using the
// position's own fast perft when it has one.
func Perft(p Position, depth int) uint64 {
	if f, ok := p.(Perfter); ok {
		return f.Perft(depth)
	}
	if depth <= 0 {
		return 1
	}
	moves := p.LegalMoves()
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		next, err := p.Play(m)
		if err != nil {
			continue
		}
		n += Perft(next, depth-1)
	}
	return n
}
