package chess

import (
	"slices"
	"sync"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
)

// Position is an immutable chess-family position; it implements rules.Position and
// rules.Perfter. It carries the hashes of the positions since the last irreversible
// move (a capture, a pawn move that cannot be undone, a change of castling rights),
// so that it can tell a threefold repetition.
type Position struct {
	st      state
	history []uint64
	lazy    *lazyInfo
}

type lazyInfo struct {
	once    sync.Once
	moves   []Move // legal moves in order, nil when none
	check   bool
	outcome rules.Outcome
}

var (
	_ rules.Position = (*Position)(nil)
	_ rules.Perfter  = (*Position)(nil)
)

func newPosition(s state, history []uint64) *Position {
	return &Position{st: s, history: history, lazy: &lazyInfo{}}
}

func (p *Position) info() *lazyInfo {
	l := p.lazy
	l.once.Do(func() {
		s := &p.st
		moves := s.generate(make([]Move, 0, 64), genAll)
		slices.SortStableFunc(moves, func(a, b Move) int {
			if a.From() != b.From() {
				return int(a.From()) - int(b.From())
			}
			return int(a.To()) - int(b.To())
		})
		l.moves = moves
		l.check = s.inCheck()
		l.outcome = s.decide(len(moves) > 0, l.check, p.Repetitions())
	})
	return l
}

// decide applies checkmate, stalemate and the automatic draws, in that order: a
// move that mates wins even when it also completes a draw.
func (s *state) decide(hasMoves, check bool, repetitions int) rules.Outcome {
	switch {
	case !hasMoves && check:
		return rules.Win(s.turn.Other(), rules.Checkmate)
	case !hasMoves:
		return rules.Draw(rules.Stalemate)
	case s.insufficient():
		return rules.Draw(rules.InsufficientMaterial)
	case repetitions >= 3:
		return rules.Draw(rules.Threefold)
	case s.halfmove >= 100:
		return rules.Draw(rules.FiftyMove)
	}
	return rules.OngoingOutcome
}

// Repetitions returns how many times this position (same pieces, side to move,
// castling rights and en passant possibility) has occurred, this time included.
func (p *Position) Repetitions() int {
	n := 1
	for _, h := range p.history {
		if h == p.st.hash {
			n++
		}
	}
	return n
}

// Variant returns the game this position belongs to.
func (p *Position) Variant() rules.Variant { return p.st.t.v.owner }

// CanWin reports whether side could checkmate by some series of legal moves, as
// far as the material decides it (see state.canWin); it implements
// rules.MaterialJudge.
func (p *Position) CanWin(side rules.Side) bool { return p.st.canWin(side) }

// Turn returns the side to move.
func (p *Position) Turn() rules.Side { return p.st.turn }

// Board returns a snapshot of the cells and pieces.
func (p *Position) Board() rules.Board {
	d := p.st.t.spec.Dims
	b := rules.Board{Dims: d, Cells: make([]rules.Cell, d.Cells())}
	for i := range b.Cells {
		sq := rules.Square(i)
		b.Cells[i] = rules.Cell{State: p.st.t.geo.State(sq), Piece: p.st.sq[sq].rules()}
	}
	return b
}

// PieceAt returns the piece on sq (the zero Piece when empty or off the board).
func (p *Position) PieceAt(sq rules.Square) rules.Piece {
	if !p.st.t.geo.IsOpen(sq) {
		return rules.Piece{}
	}
	return p.st.sq[sq].rules()
}

// Geometry returns the board shape.
func (p *Position) Geometry() *board.Geometry { return p.st.t.geo }

// LegalMoves returns the legal moves ordered by origin then destination square
// (promotions in the variant's order), or none once the game is over.
func (p *Position) LegalMoves() []rules.Move {
	l := p.info()
	if l.outcome.IsOver() {
		return []rules.Move{}
	}
	out := make([]rules.Move, len(l.moves))
	for i, m := range l.moves {
		out[i] = m.ToRules()
	}
	return out
}

// find returns the packed legal move equal to m.
func (p *Position) find(m rules.Move) (Move, bool) {
	for _, x := range p.info().moves {
		if x.From() == m.From && x.To() == m.To && x.Promotion() == m.Promotion && m.Drop == rules.NoPiece {
			return x, true
		}
	}
	return 0, false
}

// Play returns the position after the legal move m, or an error saying why m is
// not legal; p is unchanged.
func (p *Position) Play(m rules.Move) (rules.Position, error) {
	next, err := p.PlayMove(m)
	if err != nil {
		return nil, err
	}
	return next, nil
}

// PlayMove is Play returning the concrete type.
func (p *Position) PlayMove(m rules.Move) (*Position, error) {
	if o := p.Outcome(); o.IsOver() {
		return nil, rules.GameOver(o)
	}
	x, ok := p.find(m)
	if !ok {
		return nil, p.explain(m)
	}
	return p.playPacked(x), nil
}

func (p *Position) playPacked(m Move) *Position {
	s := p.st
	s.apply(m)
	var h []uint64
	if s.rev > 0 {
		h = make([]uint64, len(p.history), len(p.history)+1)
		copy(h, p.history)
		h = append(h, p.st.hash)
	}
	return newPosition(s, h)
}

// Outcome reports whether the game goes on, or how it ended.
func (p *Position) Outcome() rules.Outcome { return p.info().outcome }

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool { return p.info().check }

// String returns the FEN of the position.
func (p *Position) String() string { return p.st.fen() }

// Hash returns the Zobrist hash of the position (pieces, side, castling, en passant).
func (p *Position) Hash() uint64 { return p.st.hash }

// HalfmoveClock returns the plies since the last capture or pawn move (or castling in Gothic).
func (p *Position) HalfmoveClock() int { return p.st.halfmove }

// FullmoveNumber returns the move number of the FEN.
func (p *Position) FullmoveNumber() int { return p.st.fullmove }

// EnPassant returns the square a pawn may capture en passant on, or rules.NoSquare.
func (p *Position) EnPassant() rules.Square { return p.st.ep }

// UCI returns the coordinate notation of m: origin, destination and the lower-case
// promotion letter, such as "e2e4", "b7b8c" or "f1i1" (castling is the king's move).
func (p *Position) UCI(m rules.Move) string {
	d := p.st.t.spec.Dims
	s := d.Name(m.From) + d.Name(m.To)
	if m.Promotion != rules.NoPiece {
		s += string(rune(m.Promotion.Letter() + ('a' - 'A')))
	}
	return s
}

// Perft counts the leaves of the legal move tree to depth. Like every perft
// reference it ignores the automatic draws.
func (p *Position) Perft(depth int) uint64 {
	return p.SearchBoard().Perft(depth)
}
