package gothic

import (
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
	"github.com/missivechess/missive/rules/chess"
)

// Key is the stable key of Gothic Chess in game records.
const Key = "gothic"

// StartFEN is the start position.
const StartFEN = "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1"

// Spec returns the definition of Gothic Chess.
func Spec() chess.Spec {
	return chess.Spec{
		Key:  Key,
		Name: "Gothic Chess",
		Dims: rules.Dims{Files: 10, Ranks: 8},
		Pieces: []chess.PieceDef{
			chess.KnightDef, chess.BishopDef, chess.RookDef, chess.QueenDef,
			{Kind: rules.Archbishop, Leaps: board.KnightLeaps, Slides: board.Diagonal},
			{Kind: rules.Chancellor, Leaps: board.KnightLeaps, Slides: board.Orthogonal},
			chess.KingDef,
		},
		Pawn: chess.PawnRules{
			Pushes:     []board.Direction{board.North},
			Captures:   []board.Direction{board.NorthEast, board.NorthWest},
			DoubleStep: true,
			EnPassant:  true,
			Promotions: []rules.PieceKind{rules.Queen, rules.Chancellor, rules.Archbishop, rules.Rook, rules.Bishop, rules.Knight},
		},
		PawnRanks: [2][2]int{{2, 7}, {2, 7}},
		Castlings: []chess.Castling{
			{Right: 'K', From: "f1", To: "i1", RookFrom: "j1", RookTo: "h1"},
			{Right: 'Q', From: "f1", To: "c1", RookFrom: "a1", RookTo: "d1"},
		},
		CastlingResetsClock: true,
		Insufficient: []chess.MaterialDraw{
			{Strong: "", Weak: ""}, {Strong: "N", Weak: ""}, {Strong: "B", Weak: ""},
			{Strong: "N", Weak: "N"}, {Strong: "B", Weak: "N"}, {Strong: "B", Weak: "B"},
			{Strong: "NN", Weak: ""},
		},
		// Ed Trice's tournament values.
		Values: map[rules.PieceKind]int{
			rules.Pawn: 100, rules.Knight: 250, rules.Bishop: 300, rules.Rook: 475,
			rules.Archbishop: 650, rules.Chancellor: 825, rules.Queen: 875,
		},
		StartCounts: map[rules.PieceKind]int{
			rules.Pawn: 10, rules.Knight: 2, rules.Bishop: 2, rules.Rook: 2,
			rules.Queen: 1, rules.Chancellor: 1, rules.Archbishop: 1,
		},
		StartFEN: StartFEN,
	}
}

// New returns the Gothic Chess variant.
func New() *chess.Variant { return chess.MustNew(Spec()) }
