package engine

import (
	"context"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
)

// TestDrawAgreed checks the judgement's bounds: a position DrawWorse behind is agreed
// to at any move; a level one (within the contempt) only after DrawAfterMove moves;
// the score is turned to the engine's side when its opponent is to move.
func TestDrawAgreed(t *testing.T) {
	late := 2 * DrawAfterMove
	for _, c := range []struct {
		sc    Score
		own   bool
		plies int
		want  bool
	}{
		{-DrawWorse, true, 0, true},
		{-DrawWorse + 1, true, 0, false},
		{-DefaultContempt - 1, true, late - 1, false},
		{-DefaultContempt - 1, true, late, true},
		{0, true, late - 1, false},
		{0, true, late, true},
		{DefaultContempt, true, late, true},
		{DefaultContempt + 1, true, late, false},
		{DrawWorse, false, 0, true}, // the opponent to move stands better
		{DrawWorse - 1, false, 0, false},
		{-MateScore + 5, true, 0, true},
		{MateScore - 5, true, 200, false},
		{-MateScore + 5, false, 200, false},
	} {
		if got := drawAgreed(c.sc, c.own, c.plies); got != c.want {
			t.Errorf("drawAgreed(%v, own %v, %d plies) = %v, want %v", c.sc, c.own, c.plies, got, c.want)
		}
	}
}

// TestAcceptsDraw searches real positions: a symmetric rook ending is level (agreed
// late, not early, for either side), the start position is not, and a queen up is
// not given away while a queen down is agreed at once.
func TestAcceptsDraw(t *testing.T) {
	e := New(Options{HashBits: 16})
	judge := func(fen string, side rules.Side, plies int) bool {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		ok, err := e.AcceptsDraw(ctx, mustPos(t, "gothic", fen), side, plies)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	const level = "r3k5/ppp4ppp/10/10/10/10/PPP4PPP/R3K5 w - - 0 1"
	for _, side := range []rules.Side{rules.White, rules.Black} {
		if judge(level, side, 10) {
			t.Errorf("%s agreed to a draw at move 5 of a level rook ending", side)
		}
		if !judge(level, side, 2*DrawAfterMove) {
			t.Errorf("%s refused a draw after move %d of a level rook ending", side, DrawAfterMove)
		}
	}
	// The first move's advantage is no reason to agree on move 1, for either side.
	const start = "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1"
	for _, side := range []rules.Side{rules.White, rules.Black} {
		if judge(start, side, 0) {
			t.Errorf("%s agreed to a draw in the start position", side)
		}
	}
	const queenUp = "r3k5/ppp4ppp/10/10/10/10/PPP4PPP/R3K3Q1 b - - 0 1"
	if judge(queenUp, rules.White, 200) {
		t.Error("a queen up, White agreed to a draw")
	}
	if !judge(queenUp, rules.Black, 0) {
		t.Error("a queen down, Black refused a draw at move 1")
	}
}
