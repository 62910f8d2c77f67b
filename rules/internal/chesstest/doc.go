// Package chesstest holds test helpers shared by the chess-family variant
// packages: perft suites read from data files, random positions, and
// cross-checks against the naive reference generator.
package chesstest
