package chess

import (
	"math/bits"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
)

// piece packs a side and a kind: side<<4 | kind; 0 is an empty cell.
type piece uint8

func mkPiece(s rules.Side, k rules.PieceKind) piece { return piece(s)<<4 | piece(k) }
func (p piece) side() rules.Side                    { return rules.Side(p >> 4 & 1) }
func (p piece) kind() rules.PieceKind               { return rules.PieceKind(p & 15) }
func (p piece) rules() rules.Piece {
	if p == 0 {
		return rules.Piece{}
	}
	return rules.Piece{Side: p.side(), Kind: p.kind()}
}

// state is the bare board state shared by Position (immutable) and SearchBoard
// (mutable): pieces, side to move, castling rights, en passant, clocks and hash.
type state struct {
	t        *tables
	sq       [board.MaxCells]piece
	pieces   [2][numKinds]bb
	occ      [2]bb
	king     [2]rules.Square
	turn     rules.Side
	castling uint8
	// ep is the square a pawn may capture en passant on, set only when such a
	// capture is legal (so that it counts for repetition exactly when it matters).
	ep       rules.Square
	halfmove int
	// rev counts the plies since the last irreversible move (a capture, a pawn move
	// that cannot be undone, a change of castling rights): the positions a repetition
	// can be found among. It is not the fifty-move counter (halfmove), which every
	// pawn move resets.
	rev      int
	fullmove int
	hash     uint64
	// reach holds each side's pieces by attack group (a leap class, the orthogonal
	// or the diagonal sliders; see tables.reachOf), kept by put and remove so that
	// finding attackers needs no pass over the kinds.
	reach [2][numReach]bb
}

func (s *state) put(sq rules.Square, p piece) {
	s.sq[sq&(board.MaxCells-1)] = p
	b := board.Bit(sq)
	side, k := p.side(), p.kind()
	s.pieces[side][k] = s.pieces[side][k].Or(b)
	s.occ[side] = s.occ[side].Or(b)
	for m := s.t.reachOf[k]; m != 0; m &= m - 1 {
		i := bits.TrailingZeros8(m)
		s.reach[side][i] = s.reach[side][i].Or(b)
	}
	if k == rules.King {
		s.king[side] = sq
	}
}

func (s *state) remove(sq rules.Square) piece {
	p := s.sq[sq&(board.MaxCells-1)]
	s.sq[sq&(board.MaxCells-1)] = 0
	b := board.Bit(sq)
	side, k := p.side(), p.kind()
	s.pieces[side][k] = s.pieces[side][k].AndNot(b)
	s.occ[side] = s.occ[side].AndNot(b)
	for m := s.t.reachOf[k]; m != 0; m &= m - 1 {
		i := bits.TrailingZeros8(m)
		s.reach[side][i] = s.reach[side][i].AndNot(b)
	}
	return p
}

func (s *state) all() bb { return s.occ[0].Or(s.occ[1]) }

// computeHash returns the hash of s from scratch.
func (s *state) computeHash() uint64 {
	var h uint64
	for _, side := range rules.Sides {
		o := s.occ[side]
		for o.Any() {
			sq := o.PopFirst()
			h ^= zobPiece(s.sq[sq], sq)
		}
	}
	if s.turn == rules.Black {
		h ^= zobrist.side
	}
	h ^= zobrist.castle[s.castling&15]
	if s.ep != rules.NoSquare {
		h ^= zobrist.ep[s.ep]
	}
	return h
}

func (t *tables) castleFor(side rules.Side, from, to rules.Square) *castleRule {
	for i := range t.castles[side] {
		if c := &t.castles[side][i]; c.kingFrom == from && c.kingTo == to {
			return c
		}
	}
	return nil
}

// apply plays the legal move m on s and returns the captured piece (0 for none).
func (s *state) apply(m Move) piece {
	t := s.t
	us, them := s.turn, s.turn.Other()
	from, to := m.From(), m.To()
	p := s.sq[from&(board.MaxCells-1)]
	h := s.hash ^ zobrist.side
	if s.ep != rules.NoSquare {
		h ^= zobrist.ep[s.ep]
		s.ep = rules.NoSquare
	}
	capSq := to
	if m&flagEP != 0 {
		capSq = t.geo.Step(to, t.fwd[them])
	}
	captured := s.sq[capSq&(board.MaxCells-1)]
	if captured != 0 {
		s.remove(capSq)
		h ^= zobPiece(captured, capSq)
	}
	s.remove(from)
	h ^= zobPiece(p, from)
	placed := p
	if k := m.Promotion(); k != rules.NoPiece {
		placed = mkPiece(us, k)
	}
	s.put(to, placed)
	h ^= zobPiece(placed, to)
	if m&flagCastle != 0 {
		if c := t.castleFor(us, from, to); c != nil {
			r := s.remove(c.rookFrom)
			s.put(c.rookTo, r)
			h ^= zobPiece(r, c.rookFrom) ^ zobPiece(r, c.rookTo)
		}
	}
	rights := s.castling
	if rights != 0 {
		nc := rights & t.castleMask[from&(board.MaxCells-1)] & t.castleMask[to&(board.MaxCells-1)]
		h ^= zobrist.castle[rights] ^ zobrist.castle[nc]
		s.castling = nc
	}
	pawn := p.kind() == rules.Pawn
	if pawn || captured != 0 || (m&flagCastle != 0 && t.spec.CastlingResetsClock) {
		s.halfmove = 0
	} else {
		s.halfmove++
	}
	if captured != 0 || s.castling != rights || (pawn && !t.pawnBack[us][from&(board.MaxCells-1)].Has(to)) {
		s.rev = 0
	} else {
		s.rev++
	}
	if us == rules.Black {
		s.fullmove++
	}
	s.turn = them
	if m&flagDouble != 0 {
		ep := (from + to) / 2
		if s.epCapturable(ep) {
			s.ep = ep
			h ^= zobrist.ep[ep]
		}
	}
	s.hash = h
	return captured
}

// epCapturable reports whether the side to move has a legal en passant capture on ep.
func (s *state) epCapturable(ep rules.Square) bool {
	us := s.turn
	c := s.t.pawnAttack[us][ep&(board.MaxCells-1)].And(s.pieces[us][rules.Pawn])
	for c.Any() {
		if s.epLegal(c.PopFirst(), ep) {
			return true
		}
	}
	return false
}

// epLegal reports whether the pawn on from may capture en passant on ep without
// leaving its king attacked.
func (s *state) epLegal(from, ep rules.Square) bool {
	us, them := s.turn, s.turn.Other()
	victim := s.t.geo.Step(ep, s.t.fwd[them])
	occ := s.all().Clear(from).Clear(victim).Set(ep)
	return s.attackersTo(s.king[us], them, occ).And(occ).IsEmpty()
}

type undoRec struct {
	move     Move
	captured piece
	castling uint8
	ep       rules.Square
	halfmove int
	rev      int
	hash     uint64
}

// Make plays the legal move m (from GenerateMoves) on b; Unmake takes it back.
// Make does not check legality: an illegal move corrupts the board.
func (b *SearchBoard) Make(m Move) {
	s := &b.state
	b.undo = append(b.undo, undoRec{move: m, castling: s.castling, ep: s.ep, halfmove: s.halfmove, rev: s.rev, hash: s.hash})
	b.history = append(b.history, s.hash)
	b.undo[len(b.undo)-1].captured = s.apply(m)
}

// Unmake takes back the last move made with Make.
func (b *SearchBoard) Unmake() {
	n := len(b.undo) - 1
	u := b.undo[n]
	b.undo = b.undo[:n]
	b.history = b.history[:len(b.history)-1]
	s := &b.state
	t := s.t
	them := s.turn
	us := them.Other()
	s.turn = us
	if us == rules.Black {
		s.fullmove--
	}
	m := u.move
	if m == 0 { // null move
		s.castling, s.ep, s.halfmove, s.rev, s.hash = u.castling, u.ep, u.halfmove, u.rev, u.hash
		return
	}
	from, to := m.From(), m.To()
	p := s.remove(to)
	if m.Promotion() != rules.NoPiece {
		p = mkPiece(us, rules.Pawn)
	}
	s.put(from, p)
	if m&flagCastle != 0 {
		if c := t.castleFor(us, from, to); c != nil {
			s.put(c.rookFrom, s.remove(c.rookTo))
		}
	}
	if u.captured != 0 {
		capSq := to
		if m&flagEP != 0 {
			capSq = t.geo.Step(to, t.fwd[them])
		}
		s.put(capSq, u.captured)
	}
	s.castling, s.ep, s.halfmove, s.rev, s.hash = u.castling, u.ep, u.halfmove, u.rev, u.hash
}

// MakeNull passes the turn without moving (for null-move pruning); the side to
// move must not be in check. Undo it with Unmake.
func (b *SearchBoard) MakeNull() {
	s := &b.state
	b.undo = append(b.undo, undoRec{castling: s.castling, ep: s.ep, halfmove: s.halfmove, rev: s.rev, hash: s.hash})
	b.history = append(b.history, s.hash)
	h := s.hash ^ zobrist.side
	if s.ep != rules.NoSquare {
		h ^= zobrist.ep[s.ep]
		s.ep = rules.NoSquare
	}
	s.halfmove++
	s.rev++
	if s.turn == rules.Black {
		s.fullmove++
	}
	s.turn = s.turn.Other()
	s.hash = h
}
