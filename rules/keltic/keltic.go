package keltic

import (
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
	"github.com/missivechess/missive/rules/chess"
)

// Key is the stable key of Keltic Chess in game records.
const Key = "keltic"

// StartFEN is the start position.
const StartFEN = "***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BKB*** w - - 0 1"

// Missing lists the cells of the 9x7 rectangle outside the cross.
var Missing = []string{
	"a1", "b1", "c1", "g1", "h1", "i1", "a2", "b2", "h2", "i2",
	"a6", "b6", "h6", "i6", "a7", "b7", "c7", "g7", "h7", "i7",
}

// Spec returns the definition of Keltic Chess.
func Spec() chess.Spec {
	return chess.Spec{
		Key:     Key,
		Name:    "Keltic Chess",
		Dims:    rules.Dims{Files: 9, Ranks: 7},
		Missing: Missing,
		Pieces: []chess.PieceDef{
			chess.KnightDef,
			{Kind: rules.Bishop, Leaps: board.KnightLeaps, Slides: board.Diagonal},
			chess.RookDef, chess.QueenDef, chess.KingDef,
		},
		Pawn: chess.PawnRules{
			Pushes:              []board.Direction{board.North},
			Captures:            []board.Direction{board.NorthEast, board.NorthWest},
			SidewaysWhenBlocked: true,
			Reversible:          []board.Direction{board.East, board.West},
			Promotions:          []rules.PieceKind{rules.Queen, rules.Rook, rules.Bishop, rules.Knight},
		},
		// White pawns start on rank 3 and never go back; they promote on rank 7.
		PawnRanks:    [2][2]int{{3, 6}, {2, 5}},
		Insufficient: []chess.MaterialDraw{{Strong: "", Weak: ""}, {Strong: "N", Weak: ""}},
		// The inventor's values: Q9 B7 R5 N4 P2.
		Values: map[rules.PieceKind]int{
			rules.Pawn: 200, rules.Knight: 400, rules.Bishop: 700, rules.Rook: 500, rules.Queen: 900,
		},
		StartCounts: map[rules.PieceKind]int{
			rules.Pawn: 9, rules.Knight: 2, rules.Bishop: 2, rules.Rook: 2, rules.Queen: 1,
		},
		StartFEN: StartFEN,
	}
}

// New returns the Keltic Chess variant.
func New() *chess.Variant { return chess.MustNew(Spec()) }
