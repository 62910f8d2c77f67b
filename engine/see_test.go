package engine

import (
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/chess"
)

// Static exchange evaluation: the exchanges below are counted by hand from the
// variant's piece values.
func TestStaticExchange(t *testing.T) {
	for _, tc := range []struct {
		name, fen, move string
		want            func(v [rules.Stone + 1]int) int
		losing          bool
	}{
		{"rook takes an undefended pawn", "4k5/10/10/4p5/4R5/10/10/5K4 w - - 0 1", "Rxe5",
			func(v [rules.Stone + 1]int) int { return v[rules.Pawn] }, false},
		{"rook takes a pawn the pawn defends", "4k5/10/3p6/4p5/4R5/10/10/5K4 w - - 0 1", "Rxe5",
			func(v [rules.Stone + 1]int) int { return v[rules.Pawn] - v[rules.Rook] }, true},
		{"knight takes a rook the pawn defends", "4k5/10/3p6/4r5/10/3N6/10/5K4 w - - 0 1", "Nxe5",
			func(v [rules.Stone + 1]int) int { return v[rules.Rook] - v[rules.Knight] }, false},
		{"queen takes a pawn twice defended, a rook behind it", "4k5/10/3p1p4/4p5/4Q5/10/10/4RK4 w - - 0 1", "Qxe5",
			func(v [rules.Stone + 1]int) int { return v[rules.Pawn] - v[rules.Queen] }, true},
		{"rook takes a pawn defended by the king, supported by a knight", "10/3k6/4p5/6N3/10/10/4R5/5K4 w - - 0 1", "Rxe6",
			func(v [rules.Stone + 1]int) int { return v[rules.Pawn] }, false},
	} {
		p := mustPos(t, "gothic", tc.fen)
		rm, err := p.ParseMove(tc.move)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		g, err := newChessGame(p)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := g.fromRules(rm)
		if !ok {
			t.Fatalf("%s: %s not found", tc.name, tc.move)
		}
		if got, want := g.see(chess.Move(m)), tc.want(g.ev.value); got != want {
			t.Errorf("%s: see = %d, want %d", tc.name, got, want)
		}
		if got := g.losing(m); got != tc.losing {
			t.Errorf("%s: losing = %v, want %v", tc.name, got, tc.losing)
		}
	}
}
