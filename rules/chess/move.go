package chess

import (
	"github.com/missivechess/missive/rules"
)

// Move is a packed move of the search board: from (bits 0-6), to (7-13), promotion
// kind (14-17) and flags (en passant 18, castling 19, double step 20). Its zero
// value is never a legal move. Use ToRules and SearchBoard.FromRules to convert.
type Move uint32

const (
	flagEP     Move = 1 << 18
	flagCastle Move = 1 << 19
	flagDouble Move = 1 << 20
)

// MaxMoves bounds the number of legal moves in any position of the chess family
// (a 10x8 board of promoted queens stays well below it); buffers of this capacity
// never grow.
const MaxMoves = 768

func mkMove(from, to rules.Square) Move { return Move(from) | Move(to)<<7 }

// From returns the square the piece leaves.
func (m Move) From() rules.Square { return rules.Square(m & 127) }

// To returns the square the piece reaches (the king's square for castling).
func (m Move) To() rules.Square { return rules.Square(m >> 7 & 127) }

// Promotion returns the kind a pawn becomes, or rules.NoPiece.
func (m Move) Promotion() rules.PieceKind { return rules.PieceKind(m >> 14 & 15) }

// IsEnPassant reports whether m captures en passant.
func (m Move) IsEnPassant() bool { return m&flagEP != 0 }

// IsCastling reports whether m is a castling (the king's move).
func (m Move) IsCastling() bool { return m&flagCastle != 0 }

// IsDoubleStep reports whether m is a pawn's double step.
func (m Move) IsDoubleStep() bool { return m&flagDouble != 0 }

// ToRules returns the contract form of m.
func (m Move) ToRules() rules.Move {
	return rules.Move{From: m.From(), To: m.To(), Promotion: m.Promotion()}
}
