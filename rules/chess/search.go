package chess

import (
	"fmt"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
)

// SearchBoard is the mutable board for engines and perft: it generates moves
// into caller buffers and makes and unmakes them in place without allocating
// (once its stacks have grown to the search depth). It is not safe for concurrent
// use; give each goroutine its own (Clone). Positions stay immutable: build a
// SearchBoard from one with NewSearchBoard and turn it back with Position.
type SearchBoard struct {
	state
	undo    []undoRec
	history []uint64 // hashes of the positions before the current one, oldest first
}

// NewSearchBoard returns a search board at position p, which must be a position of
// this package (any chess-family variant).
func NewSearchBoard(p rules.Position) (*SearchBoard, error) {
	cp, ok := p.(*Position)
	if !ok {
		return nil, fmt.Errorf("chess: %T is not a chess-family position", p)
	}
	return cp.SearchBoard(), nil
}

// SearchBoard returns a new search board at p, with p's repetition history.
func (p *Position) SearchBoard() *SearchBoard {
	b := &SearchBoard{state: p.st, undo: make([]undoRec, 0, 128), history: make([]uint64, len(p.history), len(p.history)+128)}
	copy(b.history, p.history)
	return b
}

// Clone returns an independent copy of b.
func (b *SearchBoard) Clone() *SearchBoard {
	c := &SearchBoard{state: b.state}
	c.undo = append(make([]undoRec, 0, cap(b.undo)), b.undo...)
	c.history = append(make([]uint64, 0, cap(b.history)), b.history...)
	return c
}

// Position returns the immutable position b stands at (with its repetition history).
func (b *SearchBoard) Position() *Position {
	n := min(b.rev, len(b.history))
	h := append([]uint64(nil), b.history[len(b.history)-n:]...)
	return newPosition(b.state, h)
}

// GenerateMoves appends the legal moves to dst and returns it; with a dst of
// capacity MaxMoves it never allocates. Automatic draws are not applied.
func (b *SearchBoard) GenerateMoves(dst []Move) []Move { return b.generate(dst, genAll) }

// GenerateCaptures appends the legal captures and promotions to dst (for a
// quiescence search); in check it still returns only those.
func (b *SearchBoard) GenerateCaptures(dst []Move) []Move { return b.generate(dst, genCaptures) }

// InCheck reports whether the side to move is in check.
func (b *SearchBoard) InCheck() bool { return b.inCheck() }

// Checkers returns the enemy pieces giving check to the side to move.
func (b *SearchBoard) Checkers() board.Bitboard { return b.checkers() }

// Attackers returns the pieces of side attacking sq with the current occupancy.
func (b *SearchBoard) Attackers(sq rules.Square, side rules.Side) board.Bitboard {
	return b.attackersTo(sq, side, b.all())
}

// AttackersWith returns the pieces of both sides attacking sq when exactly occ is
// occupied (pieces outside occ count as gone), for static exchange evaluation.
func (b *SearchBoard) AttackersWith(sq rules.Square, occ board.Bitboard) board.Bitboard {
	return b.attackersTo(sq, rules.White, occ).Or(b.attackersTo(sq, rules.Black, occ)).And(occ)
}

// Hash returns the Zobrist hash of the current position.
func (b *SearchBoard) Hash() uint64 { return b.hash }

// Turn returns the side to move.
func (b *SearchBoard) Turn() rules.Side { return b.turn }

// Spec returns the definition of the board's variant.
func (b *SearchBoard) Spec() Spec { return b.t.v.spec }

// Geometry returns the board shape.
func (b *SearchBoard) Geometry() *board.Geometry { return b.t.geo }

// PieceAt returns the piece on sq (the zero Piece when empty).
func (b *SearchBoard) PieceAt(sq rules.Square) rules.Piece {
	if sq < 0 || sq >= board.MaxCells {
		return rules.Piece{}
	}
	return b.sq[sq].rules()
}

// Pieces returns the squares of side's pieces of kind.
func (b *SearchBoard) Pieces(side rules.Side, kind rules.PieceKind) board.Bitboard {
	if int(kind) >= numKinds {
		return board.Bitboard{}
	}
	return b.pieces[side&1][kind]
}

// Occupied returns the squares of side's pieces.
func (b *SearchBoard) Occupied(side rules.Side) board.Bitboard { return b.occ[side&1] }

// King returns the square of side's king.
func (b *SearchBoard) King(side rules.Side) rules.Square { return b.king[side&1] }

// Kinds returns the piece kinds of the variant other than pawn and king, in generation order.
func (b *SearchBoard) Kinds() []rules.PieceKind { return b.t.kinds }

// HalfmoveClock returns the fifty-move counter: the plies since the last capture or
// pawn move (or castling in Gothic).
func (b *SearchBoard) HalfmoveClock() int { return b.halfmove }

// ReversiblePlies returns the plies since the last irreversible move (a capture, a
// pawn move that cannot be undone, a change of castling rights): how long the game
// has gone without progress that cannot be taken back. Unlike HalfmoveClock it keeps
// counting through reversible pawn steps (Go-Chess, Keltic's sideways steps).
func (b *SearchBoard) ReversiblePlies() int { return b.rev }

// Ply returns the number of moves made on b since it was built.
func (b *SearchBoard) Ply() int { return len(b.undo) }

// Repetitions returns how many times the current position has occurred in the game
// and the search path, this time included.
func (b *SearchBoard) Repetitions() int {
	n := 1
	for i, stop := len(b.history)-2, len(b.history)-b.rev; i >= 0 && i >= stop; i -= 2 {
		if b.history[i] == b.hash {
			n++
		}
	}
	return n
}

// InsufficientMaterial reports whether the material left is an automatic draw.
func (b *SearchBoard) InsufficientMaterial() bool { return b.insufficient() }

// Outcome applies checkmate, stalemate and the automatic draws to the current
// position, as Position.Outcome does.
func (b *SearchBoard) Outcome() rules.Outcome {
	var buf [MaxMoves]Move
	has := len(b.generate(buf[:0], genAll)) > 0
	return b.decide(has, b.inCheck(), b.Repetitions())
}

// FromRules returns the legal move equal to m, or false.
func (b *SearchBoard) FromRules(m rules.Move) (Move, bool) {
	var buf [MaxMoves]Move
	for _, x := range b.generate(buf[:0], genAll) {
		if x.From() == m.From && x.To() == m.To && x.Promotion() == m.Promotion && m.Drop == rules.NoPiece {
			return x, true
		}
	}
	return 0, false
}

// IsCapture reports whether the legal move m captures.
func (b *SearchBoard) IsCapture(m Move) bool {
	return m.IsEnPassant() || (b.sq[m.To()&(board.MaxCells-1)] != 0 && !m.IsCastling())
}

// Perft counts the leaves of the legal move tree to depth (automatic draws ignored).
func (b *SearchBoard) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	buf := make([]Move, depth*MaxMoves)
	return b.perft(depth, buf)
}

func (b *SearchBoard) perft(depth int, buf []Move) uint64 {
	moves := b.generate(buf[:0:MaxMoves], genAll)
	if depth == 1 {
		return uint64(len(moves))
	}
	rest := buf[MaxMoves:]
	var n uint64
	for _, m := range moves {
		b.Make(m)
		n += b.perft(depth-1, rest)
		b.Unmake()
	}
	return n
}
