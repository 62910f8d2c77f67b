// Package gothic is Gothic Chess (Ed Trice): chess on a 10x8 board with the
// Chancellor (rook + knight) and the Archbishop (bishop + knight), castling with a
// three-square king move, and promotion to any of Q, C, A, R, B, N.
//
// Positions are written as Fairy-Stockfish/XBoard FENs:
//
//	rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1
package gothic
