// Package rules holds the contracts shared by every game Missive plays: sides,
// piece kinds, squares, moves, positions, outcomes, the variant registry and the
// sentinel errors.
//
// It is modelled on lichess's scalachess and niklasf's shakmaty. A Variant is a
// stable key plus hooks; a Position is an immutable value to its callers: Play
// validates a move and returns a new Position, leaving the old one untouched.
// Input goes through three steps: parse the text (ParseMove), validate it against
// the position (inside Play), then play it.
//
// Squares are numbered rank by rank from White's side, starting at a1 = 0, on the
// smallest rectangle that holds the board (Dims). For a 10x8 board (Gothic):
//
//	rank 8 | 70 71 72 73 74 75 76 77 78 79
//	rank 7 | 60 61 62 63 64 65 66 67 68 69
//	  ...  |              ...
//	rank 2 | 10 11 12 13 14 15 16 17 18 19
//	rank 1 |  0  1  2  3  4  5  6  7  8  9
//	       +------------------------------
//	          a  b  c  d  e  f  g  h  i  j
//
// Cells of the rectangle that are not part of the board (Keltic's cross) or that are
// blocked (Go-Chess) are marked in the Board view and never hold a piece.
//
// What other packages need to know of a game they ask of it, never of its key:
// CanWin (whether a side could still win by any series of legal moves, for a draw on time),
// PieceValues (for the engine and simple players), LookOf (how the board is
// shown: a Go board or a chessboard, and whose home is at the bottom) and
// CompactText (a shorter position text, for a PGN tag). Each is an
// optional interface with a default that fits an ordinary chessboard.
//
// This package imports nothing else from Missive; the variants live in sub-packages
// and are assembled into a Registry by package rules/variants.
package rules
