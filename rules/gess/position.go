package gess

import (
	"slices"

	"github.com/missivechess/missive/rules"
)

// Variant is Gess, the game of chess played with Go stones.
type Variant struct{}

var _ rules.Variant = Variant{}

// Key returns "gess", the stable key stored in game records.
func (Variant) Key() string { return "gess" }

// Name returns the display name "Gess".
func (Variant) Name() string { return "Gess" }

// Dims returns the 20x20 frame (files a-t, ranks 1-20).
func (Variant) Dims() rules.Dims { return dims }

// Start returns the standard start position with Black to move; seed is ignored.
func (Variant) Start(uint64) rules.Position { return StartPosition() }

// ParsePosition reads a position text as Position.String writes it.
func (Variant) ParsePosition(text string) (rules.Position, error) {
	p, err := ParsePosition(text)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// PieceValues gives a stone 100 centipawns; it implements rules.Valuer.
func (Variant) PieceValues() map[rules.PieceKind]int {
	return map[rules.PieceKind]int{rules.Stone: 100}
}

// Look says Gess is a Go board with a one-cell frame, seen unturned from Black's
// side: Black starts on ranks 2-7, at the bottom. It implements rules.Looker.
func (Variant) Look() rules.Look { return rules.Look{Home: rules.Black, Stones: true, Frame: 1} }

// dims is the frame as rules geometry.
var dims = rules.Dims{Files: Size, Ranks: Size}

// squareName returns the name of sq such as "m3", or "-" outside the frame.
func squareName(sq rules.Square) string { return dims.Name(sq) }

// startFiles lists, for the black ranks of the setup (1-based), the files holding a
// stone; White has the same files on rank 21-r.
var startFiles = map[int]string{
	2: "ceghijklmnpr",
	3: "bcdfhijkmoqrs",
	4: "ceghijklmnpr",
	7: "cfilor",
}

// StartPosition returns the standard start position: 43 stones a side, Black to move.
func StartPosition() *Position {
	var b Board
	b.turn = rules.Black
	for rank, files := range startFiles {
		for _, c := range files {
			b.put(rules.Black, int(c-'a'), rank-1)
			b.put(rules.White, int(c-'a'), Size-rank)
		}
	}
	b.rehash()
	return newPosition(b, nil)
}

// Position is an immutable Gess position with the history needed for the repetition
// rule. It implements rules.Position and rules.Perfter; Mutable gives a Board for searches.
type Position struct {
	board Board
	// prev is the position before this one while no stone has been removed since: a
	// position with fewer stones can never recur, so the chain is cut at each removal.
	prev    *Position
	outcome rules.Outcome
}

var (
	_ rules.Position = (*Position)(nil)
	_ rules.Perfter  = (*Position)(nil)
)

// newPosition wraps b with the history prev and decides its outcome.
func newPosition(b Board, prev *Position) *Position {
	p := &Position{board: b, prev: prev}
	p.outcome = b.Outcome()
	if !p.outcome.IsOver() && p.Repetitions() >= 3 {
		p.outcome = rules.Draw(rules.Threefold)
	}
	return p
}

// Repetitions returns how many times the stones and side to move of p have stood on
// the board in the game so far, this time included.
func (p *Position) Repetitions() int {
	n := 1
	for q := p.prev; q != nil; q = q.prev {
		if q.board == p.board {
			n++
		}
	}
	return n
}

// EarlierHashes appends to dst the hashes of the positions before p that could
// still recur (those since the last removal of a stone), oldest first, for a
// search that must see repetitions of the game's earlier positions.
func (p *Position) EarlierHashes(dst []uint64) []uint64 {
	start := len(dst)
	for q := p.prev; q != nil; q = q.prev {
		dst = append(dst, q.board.Hash())
	}
	slices.Reverse(dst[start:])
	return dst
}

// CanWin reports whether side still has stones: with stones a side can always
// still build a ring or break the opponent's last one, so only a side without
// stones cannot win. It implements rules.MaterialJudge.
func (p *Position) CanWin(side rules.Side) bool { return p.board.Count(side) > 0 }

// Variant returns Gess.
func (p *Position) Variant() rules.Variant { return Variant{} }

// Turn returns the side to move.
func (p *Position) Turn() rules.Side { return p.board.turn }

// Board returns the 20x20 frame with every cell Playable and the stones as pieces of kind rules.Stone.
func (p *Position) Board() rules.Board {
	cells := make([]rules.Cell, Size*Size)
	for sq := range cells {
		cells[sq].Piece = p.board.At(rules.Square(sq))
	}
	return rules.Board{Dims: dims, Cells: cells}
}

// Mutable returns a copy of the stones and side to move as a Board that a search may
// change freely; the position itself is unchanged.
func (p *Position) Mutable() Board { return p.board }

// Rings returns the centres of side's rings, rank by rank from rank 1 and file by
// file from file a; overlapping rings are listed separately.
func (p *Position) Rings(side rules.Side) []rules.Square { return p.board.AppendRings(side, nil) }

// LegalMoves returns every legal move sorted by the centre it leaves, then by the
// centre it reaches; it is empty once the game is over.
func (p *Position) LegalMoves() []rules.Move {
	if p.outcome.IsOver() {
		return nil
	}
	var buf [1024]rules.Move
	moves := p.board.AppendMoves(buf[:0])
	sortByTarget(moves)
	return slices.Clone(moves)
}

// sortByTarget sorts moves that come grouped by ascending From (as AppendMoves gives
// them) by To within each group; the groups are short, so insertion sort is quickest.
func sortByTarget(moves []rules.Move) {
	for i := 1; i < len(moves); i++ {
		m := moves[i]
		j := i
		for ; j > 0 && moves[j-1].From == m.From && moves[j-1].To > m.To; j-- {
			moves[j] = moves[j-1]
		}
		moves[j] = m
	}
}

// Play validates m and returns the position after it; the receiver is unchanged.
func (p *Position) Play(m rules.Move) (rules.Position, error) {
	if p.outcome.IsOver() {
		return nil, rules.GameOver(p.outcome)
	}
	if err := p.board.explain(m); err != nil {
		return nil, err
	}
	return p.after(m), nil
}

// after returns the position after legal move m.
func (p *Position) after(m rules.Move) *Position {
	b := p.board
	var prev *Position
	if u := b.Make(m); u.Removed() == 0 {
		prev = p
	}
	return newPosition(b, prev)
}

// Outcome reports ring loss (see Board.Outcome) or a threefold repetition.
func (p *Position) Outcome() rules.Outcome { return p.outcome }

// InCheck is always false: Gess has no check.
func (p *Position) InCheck() bool { return false }

// Perft counts the leaf nodes of the legal move tree to depth. A position where a
// side has no ring is a leaf; repetitions inside the tree are not looked at, as in
// chess perft (the root's own outcome, a repetition included, is respected).
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if p.outcome.IsOver() {
		return 0
	}
	b := p.board
	return b.Perft(depth)
}

// Perft counts the leaf nodes of the move tree of b to depth, a position where a
// side has no ring being a leaf; it allocates one move buffer per level.
func (b *Board) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]rules.Move, depth+1)
	for i := range bufs {
		bufs[i] = make([]rules.Move, 0, 512)
	}
	return b.perft(depth, bufs)
}

func (b *Board) perft(depth int, bufs [][]rules.Move) uint64 {
	if b.decided() {
		return 0
	}
	moves := b.AppendMoves(bufs[depth][:0])
	bufs[depth] = moves
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		u := b.Make(m)
		n += b.perft(depth-1, bufs)
		b.Unmake(u)
	}
	return n
}
