// Package board is the geometry of boards with holes: a bounding rectangle of up
// to 128 cells, numbered as rules.Square (a1 = 0, rank by rank), in which some
// cells may be Missing (Keltic's cross) or Blocked (Go-Chess). Geometry
// precomputes steps, rays that stop before a hole or the edge, leaps that pass
// over holes, and lines between squares; Bitboard is a set of squares in two
// 64-bit words.
package board
