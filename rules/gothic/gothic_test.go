package gothic_test

import (
	"testing"

	"github.com/missivechess/missive/rules/gothic"
	"github.com/missivechess/missive/rules/internal/chesstest"
	"github.com/missivechess/missive/rules/internal/naive"
)

func TestPerftSuite(t *testing.T) {
	chesstest.RunPerftFile(t, gothic.New(), "testdata/perft.epd")
}

// TestNaiveReference checks random positions against the slow reference too.
func TestNaiveReference(t *testing.T) {
	n := 40
	if !chesstest.Heavy() {
		n = 8
	}
	for _, p := range chesstest.RandomPositions(gothic.New(), randomStarts, n, 99) {
		chesstest.CompareNaive(t, naive.Gothic, p, 2)
	}
}

// TestRepetitionsAgainstNaiveCount compares the repetition count and the threefold
// verdict of random games, biased toward undoing moves, with a naive count over the
// whole game.
func TestRepetitionsAgainstNaiveCount(t *testing.T) {
	chesstest.CheckRepetitions(t, gothic.New(), randomStarts, 16)
}
