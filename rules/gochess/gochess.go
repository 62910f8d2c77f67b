// Package gochess is Go-Chess (Jim Callan): chess on a 10x10 board with ten
// randomly blocked cells, pawns that step orthogonally and capture diagonally in
// every direction, and no castling, promotion, double step or en passant.
//
// Positions of the play phase are FENs of the 10x10 board with '*' for each
// blocked cell. The placement phase that comes before play (both players placing
// their pieces in secret rounds) is not built yet: Start returns the empty board
// with its ten blocked cells, on which no move can be played until placement
// exists; a game in play is set up from a FEN.
package gochess

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
	"github.com/missivechess/missive/rules/chess"
)

// Key is the stable key of Go-Chess in game records.
const Key = "gochess"

// BlockedCells is the number of blocked cells of every board.
const BlockedCells = 10

var dims = rules.Dims{Files: 10, Ranks: 10}

// Spec returns the definition of Go-Chess's play phase.
func Spec() chess.Spec {
	return chess.Spec{
		Key:     Key,
		Name:    "Go-Chess",
		Dims:    dims,
		Blocked: BlockedCells,
		Pieces:  []chess.PieceDef{chess.KnightDef, chess.BishopDef, chess.RookDef, chess.QueenDef, chess.KingDef},
		Pawn: chess.PawnRules{
			Pushes:   board.Orthogonal,
			Captures: board.Diagonal,
		},
		PawnRanks: [2][2]int{{1, 10}, {1, 10}},
		Insufficient: []chess.MaterialDraw{
			{Strong: "", Weak: ""}, {Strong: "N", Weak: ""}, {Strong: "B", Weak: ""},
			{Strong: "B", Weak: "B", SameColourBishops: true},
		},
		StartCounts: map[rules.PieceKind]int{
			rules.Pawn: 8, rules.Knight: 2, rules.Bishop: 2, rules.Rook: 2, rules.Queen: 1,
		},
		OppositeBishops: true,
	}
}

// Variant is Go-Chess; it implements rules.Variant.
type Variant struct {
	core *chess.Variant
}

// New returns the Go-Chess variant.
func New() *Variant {
	v := &Variant{}
	sp := Spec()
	sp.Owner = v
	v.core = chess.MustNew(sp)
	return v
}

// Key returns "gochess".
func (v *Variant) Key() string { return Key }

// Name returns "Go-Chess".
func (v *Variant) Name() string { return v.core.Name() }

// Dims returns the 10x10 rectangle.
func (v *Variant) Dims() rules.Dims { return dims }

// Core returns the compiled chess-family rules of the play phase.
func (v *Variant) Core() *chess.Variant { return v.core }

// BlockedFromSeed returns the ten blocked cells of the board of seed, in square
// order: the same seed always gives the same cells.
func BlockedFromSeed(seed uint64) []rules.Square {
	r := rand.New(rand.NewPCG(seed, 0x676f6368657373)) // "gochess"
	perm := r.Perm(dims.Cells())
	out := make([]rules.Square, BlockedCells)
	for i := range out {
		out[i] = rules.Square(perm[i])
	}
	slices.Sort(out)
	return out
}

// Start returns the board of seed before placement: its ten blocked cells and no
// pieces. Placement is not available yet, so no move can be played on it.
func (v *Variant) Start(seed uint64) rules.Position {
	b := rules.Board{Dims: dims, Cells: make([]rules.Cell, dims.Cells())}
	for _, sq := range BlockedFromSeed(seed) {
		b.Cells[sq].State = rules.Blocked
	}
	return &Unplaced{v: v, board: b}
}

// ParsePosition reads a play-phase FEN, or a board with blocked cells and no piece
// at all (the board before placement, as Start returns it).
func (v *Variant) ParsePosition(text string) (rules.Position, error) {
	f := strings.Fields(text)
	if len(f) > 0 && !strings.ContainsFunc(f[0], func(r rune) bool { return r >= 'A' && r <= 'z' }) {
		b, err := v.core.ParseBoard(f[0])
		if err != nil {
			return nil, err
		}
		if rest := strings.Join(f[1:], " "); rest != "" && rest != unplacedSuffix {
			return nil, fmt.Errorf("gochess: a board before placement is written %q after its cells, not %q: %w", unplacedSuffix, rest, rules.ErrBadPosition)
		}
		return &Unplaced{v: v, board: b}, nil
	}
	return v.core.ParsePosition(text)
}

const unplacedSuffix = "w - - 0 1"

// errNoPlacement is the answer to any move on a board before placement.
var errNoPlacement = fmt.Errorf("gochess: pieces are placed before play begins, and placement is not available yet; start the game from a FEN with the pieces placed: %w", rules.ErrIllegalMove)

// Unplaced is a Go-Chess board before the placement phase: blocked cells, no
// pieces. It implements rules.Position; no move can be played on it yet.
type Unplaced struct {
	v     *Variant
	board rules.Board
}

// Variant returns Go-Chess.
func (u *Unplaced) Variant() rules.Variant { return u.v }

// Turn returns White (placement is simultaneous; nobody moves yet).
func (u *Unplaced) Turn() rules.Side { return rules.White }

// Board returns the blocked cells.
func (u *Unplaced) Board() rules.Board {
	return rules.Board{Dims: dims, Cells: slices.Clone(u.board.Cells)}
}

// Blocked returns the blocked cells in square order.
func (u *Unplaced) Blocked() []rules.Square {
	var out []rules.Square
	for i, c := range u.board.Cells {
		if c.State == rules.Blocked {
			out = append(out, rules.Square(i))
		}
	}
	return out
}

// LegalMoves returns no move: placement is not available yet.
func (u *Unplaced) LegalMoves() []rules.Move { return []rules.Move{} }

// Play refuses every move: placement is not available yet.
func (u *Unplaced) Play(rules.Move) (rules.Position, error) { return nil, errNoPlacement }

// Outcome is ongoing: the game has not started.
func (u *Unplaced) Outcome() rules.Outcome { return rules.OngoingOutcome }

// InCheck is false: there are no kings yet.
func (u *Unplaced) InCheck() bool { return false }

// String returns the FEN of the empty board with '*' for the blocked cells.
func (u *Unplaced) String() string {
	var b strings.Builder
	for r := dims.Ranks - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < dims.Files; f++ {
			if u.board.Cells[dims.Square(f, r)].State != rules.Blocked {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&b, empty)
				empty = 0
			}
			b.WriteByte('*')
		}
		if empty > 0 {
			fmt.Fprint(&b, empty)
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String() + " " + unplacedSuffix
}

// ParseMove refuses every move: placement is not available yet.
func (u *Unplaced) ParseMove(string) (rules.Move, error) { return rules.NullMove, errNoPlacement }

// SAN returns the coordinates of m.
func (u *Unplaced) SAN(m rules.Move) string { return u.UCI(m) }

// UCI returns the coordinates of m.
func (u *Unplaced) UCI(m rules.Move) string { return dims.Name(m.From) + dims.Name(m.To) }

// Perft is 0: no move can be played before placement.
func (u *Unplaced) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	return 0
}
