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
	games := 400
	if !chesstest.Heavy() {
		games = 60
	}
	plies, draws := chesstest.CheckRepetitions(t, gothic.New(), randomStarts, games, 16)
	if draws < games/10 {
		t.Errorf("only %d of %d games ended in a threefold repetition; the test no longer exercises it", draws, games)
	}
	t.Logf("%d games, %d plies, %d threefold repetitions", games, plies, draws)
}
