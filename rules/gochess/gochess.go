package gochess

import (
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
			Pushes:     board.Orthogonal,
			Captures:   board.Diagonal,
			Reversible: board.Orthogonal,
		},
		PawnRanks: [2][2]int{{1, 10}, {1, 10}},
		Insufficient: []chess.MaterialDraw{
			{Strong: "", Weak: ""}, {Strong: "N", Weak: ""}, {Strong: "B", Weak: ""},
			{Strong: "B", Weak: "B", SameColourBishops: true},
		},
		// Orthodox chess values.
		Values: map[rules.PieceKind]int{
			rules.Pawn: 100, rules.Knight: 300, rules.Bishop: 320, rules.Rook: 500, rules.Queen: 900,
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

// PieceValues returns the play phase's piece values; it implements rules.Valuer.
func (v *Variant) PieceValues() map[rules.PieceKind]int { return v.core.PieceValues() }

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

// Start returns the placement phase of a new game on the board of seed: its ten
// blocked cells, no pieces, round 1. The same seed always gives the same board; the
// caller draws a fresh random seed for every new game and keeps it in the record.
func (v *Variant) Start(seed uint64) rules.Position {
	b := rules.Board{Dims: dims, Cells: make([]rules.Cell, dims.Cells())}
	for _, sq := range BlockedFromSeed(seed) {
		b.Cells[sq].State = rules.Blocked
	}
	p, err := v.newPlacement(b)
	if err != nil {
		panic(err) // ten blocked cells always make a valid board
	}
	return p
}

// ParsePosition reads a play-phase FEN or a placement text (Placement.String).
func (v *Variant) ParsePosition(text string) (rules.Position, error) {
	if f := strings.Fields(text); len(f) > 1 && f[1] == placementTag {
		p, err := v.parsePlacement(text)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	return v.core.ParsePosition(text)
}
