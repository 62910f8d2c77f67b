package engine

import (
	"context"
	"slices"
	"testing"

	"github.com/missivechess/missive/rules"
)

// TestDrawAgreed checks the judgement's bounds: a position DrawWorse behind is agreed
// to at any move; a level one (within the contempt) only from White's move
// DrawAfterMove on; the score is turned to the engine's side when its opponent is
// to move.
func TestDrawAgreed(t *testing.T) {
	late := levelFrom // White's move DrawAfterMove
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
// not given away while a queen down is agreed at once. The searches go to a fixed
// depth (judgeDepth), never to a time, so that the judgement is the same on a busy
// machine; and each side judges the rook ending with its opponent to move: the side
// to move there scores +0.00 to +0.36 by depth (depths 1-14), either side of the
// contempt (+0.20), so the side to move could judge it either way by the depth.
func TestAcceptsDraw(t *testing.T) {
	judge := drawJudge(t, (*Engine).acceptsDraw)
	level := map[rules.Side]string{ // the other side to move
		rules.White: "r3k5/ppp4ppp/10/10/10/10/PPP4PPP/R3K5 b - - 0 1",
		rules.Black: "r3k5/ppp4ppp/10/10/10/10/PPP4PPP/R3K5 w - - 0 1",
	}
	for _, side := range []rules.Side{rules.White, rules.Black} {
		if judge(level[side], side, 10) || judge(level[side.Other()], side, 10) {
			t.Errorf("%s agreed to a draw at move 5 of a level rook ending", side)
		}
		if !judge(level[side], side, levelFrom) {
			t.Errorf("%s refused a draw at move %d of a level rook ending", side, DrawAfterMove)
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

// TestDrawOffered checks the offer's bounds: only a level position (within the
// contempt ahead, less than DrawWorse behind) from the mover's move DrawAfterMove on,
// with the score turned to the engine's side.
func TestDrawOffered(t *testing.T) {
	late := levelFrom
	for _, c := range []struct {
		sc    Score
		own   bool
		plies int
		want  bool
	}{
		{0, false, late, true},
		{0, false, late - 1, false},
		{DefaultContempt, true, late, true},
		{DefaultContempt + 1, true, late, false},
		{-DrawWorse + 1, true, late, true},
		{-DrawWorse, true, late, false}, // worse still: it would accept, but does not ask
		{-DefaultContempt, false, late, true},
		{-DefaultContempt - 1, false, late, false}, // the opponent to move stands worse
		{DrawWorse - 1, false, late, true},
		{DrawWorse, false, late, false},
		{MateScore - 5, true, 200, false},
		{-MateScore + 5, true, 200, false},
	} {
		if got := drawOffered(c.sc, c.own, c.plies); got != c.want {
			t.Errorf("drawOffered(%v, own %v, %d plies) = %v, want %v", c.sc, c.own, c.plies, got, c.want)
		}
	}
}

// TestOfferDue checks the moves at which an offer is considered: each side's moves
// DrawAfterMove, +DrawOfferEvery, +2·DrawOfferEvery, ... and no other.
func TestOfferDue(t *testing.T) {
	var due []int
	for plies := 1; plies <= 2*(DrawAfterMove+2*DrawOfferEvery); plies++ {
		if OfferDue(plies) {
			due = append(due, plies)
		}
	}
	// White's move n leaves 2n-1 half-moves played, Black's 2n.
	n0, n1, n2 := DrawAfterMove, DrawAfterMove+DrawOfferEvery, DrawAfterMove+2*DrawOfferEvery
	want := []int{2*n0 - 1, 2 * n0, 2*n1 - 1, 2 * n1, 2*n2 - 1, 2 * n2}
	if !slices.Equal(due, want) {
		t.Errorf("offers considered after half-moves %v, want %v", due, want)
	}
}

// TestOffersDraw searches real positions after the engine's move: it offers in a
// level rook ending at a due move but not between them, and neither a queen up nor
// a queen down (where it would accept one).
func TestOffersDraw(t *testing.T) {
	offers := drawJudge(t, (*Engine).offersDraw)
	const levelW = "r3k5/ppp4ppp/10/10/10/10/PPP4PPP/R3K5 w - - 0 1" // Black has just moved
	const levelB = "r3k5/ppp4ppp/10/10/10/10/PPP4PPP/R3K5 b - - 0 1" // White has just moved
	if !offers(levelW, rules.Black, 2*DrawAfterMove) || !offers(levelB, rules.White, 2*DrawAfterMove-1) {
		t.Errorf("no offer at move %d of a level rook ending", DrawAfterMove)
	}
	if offers(levelW, rules.Black, 2*DrawAfterMove+2) || offers(levelB, rules.White, 2*DrawAfterMove-3) {
		t.Errorf("an offer at a move other than %d, %d, ...", DrawAfterMove, DrawAfterMove+DrawOfferEvery)
	}
	const queenUp = "r3k5/ppp4ppp/10/10/10/10/PPP4PPP/R3K3Q1 b - - 0 1" // White has just moved
	if offers(queenUp, rules.White, 2*DrawAfterMove-1) {
		t.Error("a queen up, White offered a draw")
	}
	const queenDown = "r3k5/ppp4ppp/10/10/10/10/PPP4PPP/R3K3Q1 w - - 0 1" // Black has just moved
	if offers(queenDown, rules.Black, 2*DrawAfterMove) {
		t.Error("a queen down, Black offered a draw")
	}
	// Stalemate ends the game drawn (the search scores it level): nothing to offer.
	const stalemate = "k9/2K7/1P8/10/10/10/10/10 b - - 0 1"
	if offers(stalemate, rules.White, 2*DrawAfterMove-1) {
		t.Error("an offer with a stalemating move")
	}
}

// judgeDepth is the depth of the tests' draw judgements: at it the side to move in
// TestAcceptsDraw's rook ending scores +0.13 (Black) and +0.10 (White), the start
// position +0.38 for White, and a queen up +11.81 or more; under the race detector
// each search takes about a tenth of a second or less.
const judgeDepth = 6

// drawJudge returns a function that asks a fresh engine's method judge about a
// Gothic position, searching to judgeDepth: a judgement that does not depend on
// the machine's speed, as one searching for a time would.
func drawJudge(t *testing.T, judge func(*Engine, context.Context, rules.Position, rules.Side, int, Limits) (bool, error)) func(fen string, side rules.Side, plies int) bool {
	e := New(Options{HashBits: 16})
	return func(fen string, side rules.Side, plies int) bool {
		t.Helper()
		ok, err := judge(e, context.Background(), mustPos(t, "gothic", fen), side, plies, Limits{Depth: judgeDepth})
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
}
