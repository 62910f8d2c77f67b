package keltic_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/internal/chesstest"
	"github.com/missivechess/missive/rules/internal/naive"
	"github.com/missivechess/missive/rules/keltic"
)

func TestPerftSuite(t *testing.T) {
	chesstest.RunPerftFile(t, keltic.New(), "testdata/perft.epd")
}

// movesFrom returns the coordinates of the legal moves of the piece on from, sorted.
func movesFrom(t *testing.T, fen, from string) []string {
	t.Helper()
	v := keltic.New()
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	sq, err := v.Dims().ParseSquare(from)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range p.LegalMoves() {
		if m.From == sq {
			out = append(out, p.UCI(m))
		}
	}
	slices.Sort(out)
	return out
}

// TestSpecialRules checks, position by position, the moves worked out by hand
// from the rules for each Keltic peculiarity.
func TestSpecialRules(t *testing.T) {
	for _, tc := range []struct {
		name, fen, from string
		want            string
	}{
		{"pawn blocked by the edge of the cross steps sideways",
			"***1k1***/**5**/P8/9/9/**5**/***1K1*** w - - 0 1", "a5", "a5b5"},
		{"pawn blocked by an enemy pawn steps sideways, never capturing sideways",
			"***1k1***/**5**/3pp4/3Pn1R2/6P2/**5**/***1K1*** w - - 0 1", "d4", "d4c4 d4e5"},
		{"pawn blocked by its own rook steps either way",
			"***1k1***/**5**/3pp4/3Pn1R2/6P2/**5**/***1K1*** w - - 0 1", "g3", "g3f3 g3h3"},
		{"pawn with a free cell ahead only steps forward",
			"***1k1***/**5**/9/9/2P6/**5**/***1K1*** w - - 0 1", "c3", "c3c4"},
		{"white pawn promotes on e7 to Q, R, B or N",
			"***3***/**k1P1P**/9/9/9/**K4**/***3*** w - - 0 1", "e6", "e6e7b e6e7n e6e7q e6e7r"},
		{"pawn on g6 has no cell ahead: sideways to f6, no promotion",
			"***3***/**k1P1P**/9/9/9/**K4**/***3*** w - - 0 1", "g6", "g6f6"},
		{"black pawn promotes on e1",
			"***3***/**k4**/9/9/9/**K1p2**/***3*** b - - 0 1", "e2", "e2e1b e2e1n e2e1q e2e1r"},
		{"knight leaps over missing cells but not onto them",
			"***3***/**N4**/9/9/k8/**4K**/***B2*** w - - 0 1", "c6", "c6a5 c6b4 c6d4 c6e5 c6e7"},
		{"bishop slides to the edge of the cross and leaps like a knight",
			"***3***/**N4**/9/9/k8/**4K**/***B2*** w - - 0 1", "d1",
			"d1a4 d1b3 d1c2 d1c3 d1e2 d1e3 d1f2 d1f3 d1g4 d1h5"},
		{"rook stops before missing cells",
			"***3***/**5**/9/8k/9/**R4**/***1K1*** w - - 0 1", "c2", "c2c3 c2c4 c2c5 c2c6 c2d2 c2e2 c2f2 c2g2"},
		{"queen stops before missing cells and its own king",
			"***3***/**5**/Q8/9/8k/**5**/***1K1*** w - - 0 1", "a5",
			"a5a3 a5a4 a5b4 a5b5 a5c3 a5c5 a5d2 a5d5 a5e5 a5f5 a5g5 a5h5 a5i5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := movesFrom(t, tc.fen, tc.from)
			if strings.Join(got, " ") != tc.want {
				t.Errorf("moves from %s in %s:\n got %v\nwant %s", tc.from, tc.fen, got, tc.want)
			}
		})
	}
}

func TestStart(t *testing.T) {
	v := keltic.New()
	p := v.Start(0)
	if p.String() != keltic.StartFEN {
		t.Errorf("start FEN %q", p.String())
	}
	b := p.Board()
	cells := 0
	for _, c := range b.Cells {
		if c.State == rules.Playable {
			cells++
		}
	}
	if cells != 43 {
		t.Errorf("the cross has %d cells, want 43", cells)
	}
	if n := len(p.LegalMoves()); n != 13 {
		t.Errorf("White has %d first moves, want 13", n)
	}
}

// TestNaiveReference compares random positions with the slow reference generator.
func TestNaiveReference(t *testing.T) {
	n, deep := 60, 6
	if !chesstest.Heavy() {
		n, deep = 15, 1
	}
	for i, p := range chesstest.RandomPositions(keltic.New(), []string{keltic.StartFEN}, n, 5) {
		chesstest.CompareNaive(t, naive.Keltic, p, 2)
		if i < deep {
			chesstest.CompareNaive(t, naive.Keltic, p, 3)
		}
	}
}

// TestSidewaysShuffleRepeats: a pawn stepping sideways and back is a reversible move,
// so the position repeats across it and the game ends in a threefold repetition.
func TestSidewaysShuffleRepeats(t *testing.T) {
	p, err := keltic.New().ParsePosition("***1k1***/**5**/9/pp7/P8/**5**/***1K1*** w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	line := []string{"a3b3", "Kd7", "b3a3", "Ke7", "a3b3", "Kd7", "b3a3"}
	for _, s := range line {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if p, err = p.Play(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if p.Outcome().IsOver() {
			t.Fatalf("over after %s: %v", s, p.Outcome())
		}
	}
	m, err := p.ParseMove("Ke7")
	if err != nil {
		t.Fatal(err)
	}
	if p, err = p.Play(m); err != nil {
		t.Fatal(err)
	}
	if got := p.Outcome(); got != rules.Draw(rules.Threefold) {
		t.Fatalf("outcome %v, want a threefold repetition", got)
	}
}

// TestRepetitionsAgainstNaiveCount compares the repetition count and the threefold
// verdict of random games, biased toward undoing moves, with a naive count over the
// whole game.
func TestRepetitionsAgainstNaiveCount(t *testing.T) {
	starts := []string{
		keltic.StartFEN,
		"***bkb***/**rnqnr**/9/pp1ppp1pp/PP1PPP1PP/**RNQNR**/***BKB*** w - - 0 1",
		"***1k1***/**5**/9/pp7/P8/**5**/***1K1*** w - - 0 1",
	}
	chesstest.CheckRepetitions(t, keltic.New(), starts, 16)
}
