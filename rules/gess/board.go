package gess

import (
	"math/bits"

	"github.com/missivechess/missive/rules"
)

// Size is the number of files and of ranks of the frame (a-t, 1-20).
const Size = 20

// Geometry of the bit rows. Rank r of the frame (zero-based) is stored in row r+1
// and file f in bit f+1, so that the 3x3 block around any centre of the frame, even
// on its edge, reads three whole rows without bounds checks: rows r..r+2, bits f..f+2.
//
//	row 21 |  (always empty: beyond the frame)
//	row 20 |  rank 20, the outer ring: always empty
//	row 19 |  rank 19: bits 2-19 = files b-s
//	  ...  |
//	row  2 |  rank 2
//	row  1 |  rank 1, the outer ring: always empty
//	row  0 |  (always empty: beyond the frame)
//	       +----------------------------------------
//	          bit 0 = beyond file a, bit 1 = file a, bit 2 = file b, ..., bit 20 = file t
const (
	rowCount = Size + 2
	// playBits holds the bits of files b-s, the playing area's files.
	playBits uint32 = (1<<(Size-2) - 1) << 2
	// centreBits holds the bits f (centre file f) of every centre in the frame.
	centreBits uint32 = 1<<Size - 1
)

// Block bits: the 3x3 block around a centre is a 9-bit pattern, bit (dr+1)*3+(df+1)
// for the square df files and dr ranks away from the centre.
const (
	centreBit  = 4
	rowOfBlock = 7 // the three bits of one row of a block
)

// direction is one of the eight lines a piece may move along.
type direction struct {
	df, dr int
	bit    uint // the perimeter bit that must hold a stone for this direction
	name   string
}

// directions in a fixed order; move lists follow it.
var directions = [8]direction{
	{-1, -1, 0, "south-west"}, {0, -1, 1, "south"}, {1, -1, 2, "south-east"},
	{-1, 0, 3, "west"}, {1, 0, 5, "east"},
	{-1, 1, 6, "north-west"}, {0, 1, 7, "north"}, {1, 1, 8, "north-east"},
}

// Board is a mutable Gess position (stones and side to move) for searches: it
// generates moves into a caller's buffer and plays them with Make and Unmake,
// without allocating. It is a plain value: copying it gives an independent board.
// It knows nothing of the game's history, so repetitions are the caller's affair;
// the ring rule is available through Outcome. The zero Board is the empty frame with
// White to move; Position.Mutable gives the board of a position.
type Board struct {
	stones [2][rowCount]uint32 // indexed by rules.Side, then by row (rank+1); bit file+1
	turn   rules.Side
	hash   uint64
}

// Undo holds what Unmake needs to take back one Make.
type Undo struct {
	hash    uint64
	rows    [2][2][3]uint32 // [from block, to block][side][row]
	from    int8            // first row of the from block
	to      int8            // first row of the to block
	removed uint8
}

// Removed returns the number of stones the move took off the board: those under the
// destination footprint of either colour and the piece's own stones pushed onto the
// outer ring.
func (u Undo) Removed() int { return int(u.removed) }

// coords returns the zero-based file and rank of a square of the frame.
func coords(sq rules.Square) (f, r int) { return int(sq) % Size, int(sq) / Size }

// square returns the square at zero-based file and rank.
func square(f, r int) rules.Square { return rules.Square(r*Size + f) }

// inFrame reports whether zero-based file and rank lie inside the 20x20 frame.
func inFrame(f, r int) bool { return f >= 0 && f < Size && r >= 0 && r < Size }

// inPlay reports whether zero-based file and rank lie inside the playing area b2-s19.
func inPlay(f, r int) bool { return f >= 1 && f < Size-1 && r >= 1 && r < Size-1 }

// block returns the 9-bit pattern of rows around centre (f, r).
func block(rows *[rowCount]uint32, f, r int) uint32 {
	return rows[r]>>f&rowOfBlock | (rows[r+1]>>f&rowOfBlock)<<3 | (rows[r+2]>>f&rowOfBlock)<<6
}

// Turn returns the side to move.
func (b *Board) Turn() rules.Side { return b.turn }

// Hash returns a Zobrist hash of the stones and the side to move.
func (b *Board) Hash() uint64 { return b.hash }

// At returns the stone on sq, or the empty piece.
func (b *Board) At(sq rules.Square) rules.Piece {
	if sq < 0 || int(sq) >= Size*Size {
		return rules.Piece{}
	}
	f, r := coords(sq)
	for _, s := range rules.Sides {
		if b.stones[s][r+1]>>(f+1)&1 != 0 {
			return rules.Piece{Side: s, Kind: rules.Stone}
		}
	}
	return rules.Piece{}
}

// Count returns the number of stones side has on the board.
func (b *Board) Count(side rules.Side) int {
	n := 0
	for _, row := range b.stones[side&1] {
		n += bits.OnesCount32(row)
	}
	return n
}

// put places a stone of side on (f, r), which must lie in the playing area.
func (b *Board) put(side rules.Side, f, r int) {
	if b.stones[side][r+1]>>(f+1)&1 == 0 {
		b.stones[side][r+1] |= 1 << (f + 1)
		b.hash ^= zobrist.stone[side][r+1][f+1]
	}
}

// rehash recomputes the hash from scratch.
func (b *Board) rehash() {
	b.hash = 0
	for s := range b.stones {
		for i, row := range b.stones[s] {
			for row != 0 {
				b.hash ^= zobrist.stone[s][i][bits.TrailingZeros32(row)]
				row &= row - 1
			}
		}
	}
	if b.turn == rules.Black {
		b.hash ^= zobrist.black
	}
}

// ringCentres returns, for centre rank r, the bits f of the centres of side's rings.
func (b *Board) ringCentres(side rules.Side, r int) uint32 {
	own := &b.stones[side]
	all := own[r+1] | b.stones[side^1][r+1]
	three := func(x uint32) uint32 { return x & (x >> 1) & (x >> 2) }
	mid := own[r+1] & (own[r+1] >> 2) &^ (all >> 1)
	return three(own[r]) & three(own[r+2]) & mid & centreBits
}

// HasRing reports whether side has at least one ring.
func (b *Board) HasRing(side rules.Side) bool {
	side &= 1
	for r := 1; r < Size-1; r++ {
		if b.ringCentres(side, r) != 0 {
			return true
		}
	}
	return false
}

// AppendRings appends the centres of side's rings to buf, rank by rank from rank 1
// and file by file from file a, and returns the extended buffer. Overlapping rings
// are listed separately.
func (b *Board) AppendRings(side rules.Side, buf []rules.Square) []rules.Square {
	side &= 1
	for r := 1; r < Size-1; r++ {
		for c := b.ringCentres(side, r); c != 0; c &= c - 1 {
			buf = append(buf, square(bits.TrailingZeros32(c), r))
		}
	}
	return buf
}

// Outcome applies the ring rule, taking the side not to move as the one that just
// moved: that side loses when it has no ring (whatever the other has), and wins when
// only the side to move has none. It knows nothing of repetitions.
func (b *Board) Outcome() rules.Outcome {
	mover := b.turn.Other()
	switch {
	case !b.HasRing(mover):
		return rules.Win(b.turn, rules.RingLoss)
	case !b.HasRing(b.turn):
		return rules.Win(mover, rules.RingLoss)
	}
	return rules.OngoingOutcome
}

// decided reports whether either side has no ring, so that the game is over.
func (b *Board) decided() bool { return !b.HasRing(rules.White) || !b.HasRing(rules.Black) }

// AppendMoves appends every move of the side to move to buf and returns the extended
// buffer; it does not allocate when buf has room (a few hundred moves is typical, a
// thousand rare). It does not look at whether the game is already decided. Moves come
// centre by centre (rank 1 first, file a first), then in the order south-west, south,
// south-east, west, east, north-west, north, north-east, nearest first.
func (b *Board) AppendMoves(buf []rules.Move) []rules.Move {
	own, opp := &b.stones[b.turn], &b.stones[b.turn^1]
	var all [rowCount]uint32
	for i := range all {
		all[i] = own[i] | opp[i]
	}
	for r := 0; r < Size; r++ {
		for cand := pieceCentres(own, opp, r); cand != 0; cand &= cand - 1 {
			f := bits.TrailingZeros32(cand)
			buf = b.appendPieceMoves(buf, &all, f, r)
		}
	}
	return buf
}

// pieceCentres returns the bits f of the centres (f, r) on rank r of the pieces of
// the side whose rows are own: blocks with a stone of own and none of opp. Bit f of
// a dilation is set when bits f..f+2 (the block's files) hold a stone.
func pieceCentres(own, opp *[rowCount]uint32, r int) uint32 {
	ownNear := own[r] | own[r+1] | own[r+2]
	oppNear := opp[r] | opp[r+1] | opp[r+2]
	return (ownNear | ownNear>>1 | ownNear>>2) &^ (oppNear | oppNear>>1 | oppNear>>2) & centreBits
}

// pieceRange returns how far a piece with block pattern mine may move: any distance
// with a stone on its centre, else 3 squares.
func pieceRange(mine uint32) int {
	if mine>>centreBit&1 != 0 {
		return Size
	}
	return 3
}

// lift takes the block centred on (f, r) out of the occupancy all and returns the
// three rows as they were, for restoring.
func lift(all *[rowCount]uint32, f, r int) (s0, s1, s2 uint32) {
	mask := uint32(rowOfBlock) << f
	s0, s1, s2 = all[r], all[r+1], all[r+2]
	all[r], all[r+1], all[r+2] = s0&^mask, s1&^mask, s2&^mask
	return s0, s1, s2
}

// steps returns how many squares a piece centred on (f, r) may go in direction d:
// limit, cut so that its centre stays in the frame.
func (d direction) steps(f, r, limit int) int {
	n := limit
	switch d.df {
	case 1:
		n = min(n, Size-1-f)
	case -1:
		n = min(n, f)
	}
	switch d.dr {
	case 1:
		n = min(n, Size-1-r)
	case -1:
		n = min(n, r)
	}
	return n
}

// appendPieceMoves appends the moves of the piece centred on (f, r), whose block holds
// stones of the side to move only. all is the occupancy of both sides; it is changed
// while the piece is lifted and restored before returning.
func (b *Board) appendPieceMoves(buf []rules.Move, all *[rowCount]uint32, f, r int) []rules.Move {
	mine := block(&b.stones[b.turn], f, r)
	limit := pieceRange(mine)
	// Lift the piece: its stones do not obstruct its own move.
	s0, s1, s2 := lift(all, f, r)
	from := square(f, r)
	for _, d := range directions {
		if mine>>d.bit&1 == 0 {
			continue
		}
		n := d.steps(f, r, limit)
		step := rules.Square(d.dr*Size + d.df)
		to, nf, nr := from, f, r
		for k := 1; k <= n; k++ {
			to, nf, nr = to+step, nf+d.df, nr+d.dr
			buf = append(buf, rules.Move{From: from, To: to})
			if (all[nr]|all[nr+1]|all[nr+2])>>nf&rowOfBlock != 0 {
				break // the footprint overlaps a stone here: the piece stops
			}
		}
	}
	all[r], all[r+1], all[r+2] = s0, s1, s2
	return buf
}

// Make plays m, which must be a move of the side to move as AppendMoves gives it (or
// one that IsLegal accepts), and returns what Unmake needs to take it back. It does
// not check legality: a move that is not legal leaves the board in an unspecified
// but consistent state.
func (b *Board) Make(m rules.Move) Undo {
	f0, r0 := coords(m.From)
	f1, r1 := coords(m.To)
	s, o := b.turn, b.turn^1
	u := Undo{hash: b.hash, from: int8(r0), to: int8(r1)}
	own, opp := &b.stones[s], &b.stones[o]
	for i := 0; i < 3; i++ {
		u.rows[0][s][i], u.rows[0][o][i] = own[r0+i], opp[r0+i]
		u.rows[1][s][i], u.rows[1][o][i] = own[r1+i], opp[r1+i]
	}
	pattern := block(own, f0, r0)
	h := b.hash ^ zobrist.black
	// Lift the piece.
	m0, m1 := uint32(rowOfBlock)<<f0, uint32(rowOfBlock)<<f1
	for i := 0; i < 3; i++ {
		h ^= rowHash(int(s), r0+i, own[r0+i]&m0)
		own[r0+i] &^= m0
	}
	// Remove every stone under the destination footprint, then put the piece's stones
	// down, except those on the outer ring (or beyond the frame).
	removed := bits.OnesCount32(pattern)
	for i := 0; i < 3; i++ {
		row := r1 + i
		h ^= rowHash(int(s), row, own[row]&m1) ^ rowHash(int(o), row, opp[row]&m1)
		removed += bits.OnesCount32((own[row] | opp[row]) & m1)
		own[row] &^= m1
		opp[row] &^= m1
		placed := (pattern >> (3 * i) & rowOfBlock) << f1 & playRow[row]
		removed -= bits.OnesCount32(placed)
		h ^= rowHash(int(s), row, placed)
		own[row] |= placed
	}
	u.removed = uint8(removed)
	b.hash = h
	b.turn = o
	return u
}

// Unmake takes back the Make that returned u; moves must be taken back in reverse order.
func (b *Board) Unmake(u Undo) {
	to, from := int(u.to), int(u.from)
	for s := range b.stones {
		rows := &b.stones[s]
		rows[to], rows[to+1], rows[to+2] = u.rows[1][s][0], u.rows[1][s][1], u.rows[1][s][2]
		rows[from], rows[from+1], rows[from+2] = u.rows[0][s][0], u.rows[0][s][1], u.rows[0][s][2]
	}
	b.turn ^= 1
	b.hash = u.hash
}

// rowHash returns the Zobrist keys of side's stones on the bits of diff in row.
func rowHash(side, row int, diff uint32) uint64 {
	var h uint64
	for ; diff != 0; diff &= diff - 1 {
		h ^= zobrist.stone[side][row][bits.TrailingZeros32(diff)]
	}
	return h
}

// playRow masks each row to the squares of the playing area.
var playRow = func() (m [rowCount]uint32) {
	for i := 2; i < rowCount-2; i++ {
		m[i] = playBits
	}
	return m
}()

// zobrist holds the hash keys: one per side and stored bit, and one for Black to
// move, so that the zero Board (empty, White to move) hashes to 0.
var zobrist = func() (z struct {
	stone [2][rowCount][32]uint64
	black uint64
}) {
	x := uint64(0x9E3779B97F4A7C15) // fixed seed: hashes are reproducible across runs
	next := func() uint64 {         // splitmix64
		x += 0x9E3779B97F4A7C15
		v := x
		v = (v ^ v>>30) * 0xBF58476D1CE4E5B9
		v = (v ^ v>>27) * 0x94D049BB133111EB
		return v ^ v>>31
	}
	for s := range z.stone {
		for r := range z.stone[s] {
			for f := range z.stone[s][r] {
				z.stone[s][r][f] = next()
			}
		}
	}
	z.black = next()
	return z
}()
