//go:build race

package chesstest

const raceEnabled = true
