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

// Pass gives the move to the other side without moving a stone, for a search's null
// move or to look at the other side's moves; Gess itself has no passing. A second
// Pass takes it back.
func (b *Board) Pass() {
	b.turn ^= 1
	b.hash ^= zobrist.black
}

// Reaches reports whether the side to move has a move whose destination centre lies
// in the rectangle with corners lo (lowest file and rank) and hi (highest), as some
// move of AppendMoves would; it stops at the first one. A search asks it whether the
// opponent could land on a ring: a footprint landing within two squares of a ring's
// centre breaks the ring.
func (b *Board) Reaches(lo, hi rules.Square) bool {
	lf, lr := coords(lo)
	hf, hr := coords(hi)
	if lf > hf || lr > hr {
		return false
	}
	own, opp := &b.stones[b.turn], &b.stones[b.turn^1]
	var all [rowCount]uint32
	for i := range all {
		all[i] = own[i] | opp[i]
	}
	for r := 0; r < Size; r++ {
		for cand := pieceCentres(own, opp, r) & lines(r, lf, lr, hf, hr); cand != 0; cand &= cand - 1 {
			if b.pieceReaches(&all, bits.TrailingZeros32(cand), r, lf, lr, hf, hr) {
				return true
			}
		}
	}
	return false
}

// lines returns the bits f of the centres (f, r) on rank r from which a rank, file or
// diagonal passes through files lf..hf and ranks lr..hr: only pieces there can reach it.
func lines(r, lf, lr, hf, hr int) uint32 {
	span := func(lo, hi int) uint32 {
		lo, hi = max(lo, 0), min(hi, Size-1)
		if lo > hi {
			return 0
		}
		return (1<<(hi-lo+1) - 1) << lo
	}
	if r >= lr && r <= hr {
		return span(0, Size-1)
	}
	return span(lf, hf) | span(lf-hr+r, hf-lr+r) | span(lf+lr-r, hf+hr-r)
}

// pieceReaches reports whether the piece centred on (f, r) has a move ending inside
// files lf..hf and ranks lr..hr; all is the occupancy of both sides, changed while the
// piece is lifted and restored before returning.
func (b *Board) pieceReaches(all *[rowCount]uint32, f, r, lf, lr, hf, hr int) bool {
	own := &b.stones[b.turn]
	limit := 3
	if own[r+1]>>(f+1)&1 != 0 {
		limit = Size
	} else if lf-f > 3 || f-hf > 3 || lr-r > 3 || r-hr > 3 {
		return false // a piece without a centre stone moves at most 3 squares
	}
	mine := block(own, f, r)
	var s0, s1, s2 uint32
	reached, lifted := false, false
	for _, d := range directions {
		if mine>>d.bit&1 == 0 {
			continue
		}
		// The steps k at which the centre lies inside the rectangle: kLo..kHi.
		kLo, kHi := window(f, d.df, lf, hf)
		rLo, rHi := window(r, d.dr, lr, hr)
		kLo, kHi = max(kLo, rLo, 1), min(kHi, rHi, limit)
		if kLo > kHi {
			continue
		}
		if !lifted {
			s0, s1, s2 = lift(all, f, r)
			lifted = true
		}
		// The piece gets there unless its footprint stops it before step kLo.
		stopped := false
		for k := 1; k < kLo; k++ {
			nf, nr := f+k*d.df, r+k*d.dr
			if (all[nr]|all[nr+1]|all[nr+2])>>nf&rowOfBlock != 0 {
				stopped = true
				break
			}
		}
		if !stopped {
			reached = true
			break
		}
	}
	if lifted {
		all[r], all[r+1], all[r+2] = s0, s1, s2
	}
	return reached
}

// window returns the steps k for which p + k*dp lies in lo..hi along one axis: an
// empty range (first above last) when it never does, every step when dp is 0 and p
// lies inside.
func window(p, dp, lo, hi int) (first, last int) {
	switch {
	case dp > 0:
		return lo - p, hi - p
	case dp < 0:
		return p - hi, p - lo
	case p >= lo && p <= hi:
		return 0, Size
	}
	return 1, 0
}

// AppendCaptures appends to buf the moves of the side to move that remove an enemy
// stone, in the order of AppendMoves, and returns the extended buffer: in each
// direction only the stop, where the footprint first overlaps a stone, can capture.
func (b *Board) AppendCaptures(buf []rules.Move) []rules.Move {
	own, opp := &b.stones[b.turn], &b.stones[b.turn^1]
	var all [rowCount]uint32
	for i := range all {
		all[i] = own[i] | opp[i]
	}
	// hitAll and hitOpp hold, by centre rank and bit centre file, the footprints that
	// overlap any stone and an enemy stone.
	var hitAll, hitOpp [Size]uint32
	for r := 0; r < Size; r++ {
		a := all[r] | all[r+1] | all[r+2]
		o := opp[r] | opp[r+1] | opp[r+2]
		hitAll[r] = (a | a>>1 | a>>2) & centreBits
		hitOpp[r] = (o | o>>1 | o>>2) & centreBits
	}
	for r := 0; r < Size; r++ {
		cand := pieceCentres(own, opp, r)
		// A piece without a centre stone moves at most 3 squares: it can capture only
		// with an enemy stone's footprint within 3 files and ranks of its centre.
		var near uint32
		for rr := max(r-3, 0); rr <= min(r+3, Size-1); rr++ {
			near |= hitOpp[rr]
		}
		near |= near<<1 | near>>1
		near |= near<<2 | near>>2
		near |= near<<3 | near>>3
		short := near | own[r+1]>>1
		for c := cand & short; c != 0; c &= c - 1 {
			buf = b.appendPieceCaptures(buf, &all, &hitAll, &hitOpp, bits.TrailingZeros32(c), r)
		}
	}
	return buf
}

// appendPieceCaptures appends the captures of the piece centred on (f, r), as
// appendPieceMoves does its moves. Beyond two steps its footprint no longer meets
// its own starting block, so the precomputed hitAll tells where it stops.
func (b *Board) appendPieceCaptures(buf []rules.Move, all *[rowCount]uint32, hitAll, hitOpp *[Size]uint32, f, r int) []rules.Move {
	mine := block(&b.stones[b.turn], f, r)
	limit := pieceRange(mine)
	s0, s1, s2 := lift(all, f, r)
	from := square(f, r)
	for _, d := range directions {
		if mine>>d.bit&1 == 0 {
			continue
		}
		n := d.steps(f, r, limit)
		nf, nr := f, r
		for k := 1; k <= n; k++ {
			nf, nr = nf+d.df, nr+d.dr
			var stop bool
			if k <= 2 {
				stop = (all[nr]|all[nr+1]|all[nr+2])>>nf&rowOfBlock != 0
			} else {
				stop = hitAll[nr]>>nf&1 != 0
			}
			if stop {
				if hitOpp[nr]>>nf&1 != 0 {
					buf = append(buf, rules.Move{From: from, To: square(nf, nr)})
				}
				break
			}
		}
	}
	all[r], all[r+1], all[r+2] = s0, s1, s2
	return buf
}
