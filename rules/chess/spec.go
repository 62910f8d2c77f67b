package chess

import (
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
)

// PieceDef says how a piece kind moves: leaper offsets, rider directions, or both
// (a compound such as the Chancellor, rook + knight). Leaps must be symmetric (each
// offset's negation listed too) so that attacks can be looked up in reverse.
type PieceDef struct {
	Kind   rules.PieceKind
	Leaps  []board.Offset
	Slides []board.Direction
}

// PawnRules are the pawn hooks of a variant. Directions are given for White;
// Black's are the opposite (mirrored top to bottom).
type PawnRules struct {
	// Pushes are the non-capturing steps onto an empty cell.
	Pushes []board.Direction
	// Captures are the capturing steps.
	Captures []board.Direction
	// SidewaysWhenBlocked lets a pawn whose forward step is impossible (the cell ahead
	// is occupied or does not exist) step East or West onto an empty cell (Keltic).
	SidewaysWhenBlocked bool
	// DoubleStep allows two steps forward from the pawn's start rank (PawnRanks[side][0]).
	DoubleStep bool
	// EnPassant allows capturing a pawn that just double-stepped as if it had stepped once.
	EnPassant bool
	// Promotions lists the kinds a pawn may become on reaching its last rank; empty
	// means pawns never promote.
	Promotions []rules.PieceKind
	// Reversible lists the pawn steps (of Pushes, or East and West with
	// SidewaysWhenBlocked) that another pawn step can undo: Go-Chess's four steps,
	// Keltic's sideways steps. A position from before such a step can occur again, so
	// it keeps the window in which repetitions are counted open; every other pawn
	// move, a capture and a change of castling rights close it. The fifty-move
	// counter is apart: every pawn move resets it.
	Reversible []board.Direction
}

// Castling is one castling move: the king's move From -> To with the rook's
// RookFrom -> RookTo, both on the castling side's back rank (given for White; Black
// mirrors). Right is the FEN letter for White ('K' or 'Q').
type Castling struct {
	Right                      byte
	From, To, RookFrom, RookTo string
}

// MaterialDraw is one automatically drawn endgame: the non-king pieces of one side
// and of the other as piece letters ("" for a bare king, "N", "NN", "B"), in either
// colour. SameColourBishops additionally requires all bishops on one cell colour.
type MaterialDraw struct {
	Strong, Weak      string
	SameColourBishops bool
}

// Spec describes a chess-family variant; New compiles it into a Variant.
type Spec struct {
	Key, Name string
	Dims      rules.Dims
	// Missing lists the cells (square names) of the rectangle that are not part of the board.
	Missing []string
	// Blocked is the number of blocked cells every position has ('*' in the FEN), 0 for none.
	Blocked int
	// Pieces defines every kind but the pawn; the one with Kind == rules.King is royal.
	Pieces []PieceDef
	Pawn   PawnRules
	// PawnRanks gives, per side, the 1-based ranks a pawn can stand on: [lowest, highest]
	// for White and for Black. The double step starts from White's lowest and Black's highest.
	PawnRanks [2][2]int
	// Castlings lists the castling moves (none for most variants).
	Castlings []Castling
	// CastlingResetsClock makes castling reset the fifty-move counter (Gothic).
	CastlingResetsClock bool
	// Insufficient lists the endgames drawn automatically (Position.CanWin is false
	// in them too).
	Insufficient []MaterialDraw
	// Values gives every kind but the king its worth in centipawns, for the engine
	// and simple players (rules.PieceValues).
	Values map[rules.PieceKind]int
	// StartCounts is each side's material at the start, used to refuse impossible positions.
	StartCounts map[rules.PieceKind]int
	// OppositeBishops says a side's two bishops stand on cells of different colours
	// (Go-Chess places them so; ordinary bishops keep their colour).
	OppositeBishops bool
	// StartFEN is the start position, unless Owner's Start overrides it.
	StartFEN string
	// Owner is the variant positions report from Variant(); nil means the compiled
	// *Variant itself. A package that wraps the Variant (Go-Chess) sets it to the wrapper.
	Owner rules.Variant
}
