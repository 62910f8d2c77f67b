package chess

import (
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
)

// Standard piece definitions for the variants to pick from.
var (
	KnightDef = PieceDef{Kind: rules.Knight, Leaps: board.KnightLeaps}
	BishopDef = PieceDef{Kind: rules.Bishop, Slides: board.Diagonal}
	RookDef   = PieceDef{Kind: rules.Rook, Slides: board.Orthogonal}
	QueenDef  = PieceDef{Kind: rules.Queen, Slides: append(append([]board.Direction{}, board.Orthogonal...), board.Diagonal...)}
	KingDef   = PieceDef{Kind: rules.King, Leaps: board.KingSteps}
)
