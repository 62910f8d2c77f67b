// Package gochess is Go-Chess (Jim Callan): chess on a 10x10 board with ten
// randomly blocked cells, pawns that step orthogonally and capture diagonally in
// every direction, and no castling, promotion, double step or en passant.
//
// A game starts with the placement phase (Placement: both players place their
// pieces in secret, simultaneous rounds) and goes on in the play phase, whose
// positions are FENs of the 10x10 board with '*' for each blocked cell.
package gochess
