package engine

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
)

// line replays moves (UCI or the game's own notation) from pos.
func line(t testing.TB, pos rules.Position, moves string) *record.History {
	t.Helper()
	var ms []rules.Move
	p := pos
	for _, text := range strings.Fields(moves) {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		ms = append(ms, m)
		if p, err = p.Play(m); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	h, err := record.Line(pos, ms)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// reviewLimits keep the tests quick and deterministic.
var reviewLimits = Limits{Depth: 4}

// wantBlunder reviews h and checks that the entry at ply is a blunder, the
// decisive moment, with a better move named, and that no other move of the
// same side is one.
func wantBlunder(t *testing.T, h *record.History, ply int, want Class) *Review {
	t.Helper()
	r, err := New(Options{HashBits: 16}).Review(context.Background(), h, reviewLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Moves) != len(h.Steps) {
		t.Fatalf("%d moves reviewed, want %d", len(r.Moves), len(h.Steps))
	}
	for i, m := range r.Moves {
		t.Logf("%d %s %s best %s eval %v best %v loss %.1f %s", i, m.Side, h.Start.Variant().Key(), h.Steps[i].Before.UCI(m.Best), m.Eval, m.BestEval, m.Loss, m.Class)
	}
	m := r.Moves[ply]
	if m.Class != want || !m.BestDiffers() {
		t.Fatalf("ply %d (%s) classed %s (loss %.1f), want %s with a better move", ply, h.Steps[ply].Before.UCI(m.Move), m.Class, m.Loss, want)
	}
	if r.Decisive != ply {
		t.Fatalf("decisive moment at %d, want %d", r.Decisive, ply)
	}
	if acc := r.Players[m.Side].Accuracy; acc >= r.Players[m.Side.Other()].Accuracy {
		t.Fatalf("the blunderer's accuracy %.1f is not below the opponent's %.1f", acc, r.Players[m.Side.Other()].Accuracy)
	}
	if r.Players[m.Side].Counts[want] < 1 {
		t.Fatalf("counts %v", r.Players[m.Side].Counts)
	}
	return r
}

// Gothic: 2...Qg5?? hangs the queen to the bishop on c1.
func TestReviewHungQueenGothic(t *testing.T) {
	h := line(t, mustPos(t, "gothic", ""), "d2d4 e7e5 d4e5 d8g5 c1g5 g8h6 g5h6 i7h6")
	wantBlunder(t, h, 3, ClassBlunder)
}

// Gothic: a rook up, White lets the back-rank mate in one go; the rook's
// advantage alone is not clearly winning, so this is a blunder.
func TestReviewMissedMateInOne(t *testing.T) {
	pos := mustPos(t, "gothic", "5k4/4ppp3/10/10/10/10/10/R4K4 w - - 0 1")
	h := line(t, pos, "a1a2 f8g8 a2a3")
	r := wantBlunder(t, h, 0, ClassBlunder)
	if r.Moves[0].BestEval.MateIn() != 1 || pos.UCI(r.Moves[0].Best) != "a1a8" {
		t.Fatalf("best %s %v, want the mate a1a8", pos.UCI(r.Moves[0].Best), r.Moves[0].BestEval)
	}
}

// Go-Chess (play phase): the queen steps next to the enemy king's rook.
func TestReviewGoChessPlayBlunder(t *testing.T) {
	pos := mustPos(t, "gochess", "k9/pp8/10/10/4r5/10/10/9K/5*****/Q4***** w - - 0 1")
	h := line(t, pos, "a1e1 e6e1")
	wantBlunder(t, h, 0, ClassBlunder)
}

// Gess: White leaves its only ring to be taken; Black takes it and wins.
func TestReviewGessRingLeft(t *testing.T) {
	// Black's piece j5+j6 slides up the j-file; White's ring on m15 is out of its
	// reach until it steps west.
	black := ring("e5") + " j5 j6"
	white := ring("m15") + " q5 q6 r5 r6"
	pos := gessText(t, black, white, "w")
	h := line(t, pos, "m15-l15")
	// Black's capture of the ring ends the game.
	p := h.Position()
	var win rules.Move
	for _, m := range p.LegalMoves() {
		if q, _ := p.Play(m); q.Outcome().Winner == rules.Black && q.Outcome().IsOver() {
			win = m
			break
		}
	}
	if win == rules.NullMove {
		t.Fatal("the test game leaves no ring capture")
	}
	h = line(t, pos, "m15-l15 "+p.UCI(win))
	r := wantBlunder(t, h, 0, ClassBlunder)
	if r.Moves[1].Class != ClassBest {
		t.Fatalf("the winning capture is classed %s", r.Moves[1].Class)
	}
}

// BenchmarkReview40 reviews a 40-move game (80 plies of random legal moves; Go-Chess
// from a randomly placed board) of each game at the default review limits; the time
// per op is the time of one review on one core.
func BenchmarkReview40(b *testing.B) {
	for _, key := range []string{"gothic", "keltic", "gochess", "gess"} {
		b.Run(key, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(5, 6))
			first := mustPos(b, key, "")
			if sim, ok := first.(rules.Simultaneous); ok {
				var err error
				if first, err = PlayPlacement(context.Background(), sim, RandomPlacer{Rand: rng}, RandomPlacer{Rand: rng}); err != nil {
					b.Fatal(err)
				}
			}
			var moves []rules.Move
			for pos := first; len(moves) < 80 && !pos.Outcome().IsOver(); {
				// A random move that does not end the game, when there is one (Gess).
				ms := pos.LegalMoves()
				m := ms[rng.IntN(len(ms))]
				next, err := pos.Play(m)
				for try := 0; err == nil && next.Outcome().IsOver() && try < 50; try++ {
					m = ms[rng.IntN(len(ms))]
					next, err = pos.Play(m)
				}
				if err != nil {
					b.Fatal(err)
				}
				moves, pos = append(moves, m), next
			}
			h, err := record.Line(first, moves)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(moves)), "plies")
			for range b.N {
				if _, err := New(Options{HashBits: 18}).Review(context.Background(), h, DefaultReviewLimits); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Go-Chess placement: White's king goes to d4, where the knight's jump to f5 forks
// it and the queen on h4 (Black, whose king and queen stand nearer, moves first).
// The king round is searched: the choice is a blunder, and the engine's placement
// strategy names a better cell.
func TestReviewGoChessKingPlacementFork(t *testing.T) {
	v := mustPos(t, "gochess", "").Variant()
	r := record.Record{Start: "rnbq1br***/pppppppp**/10/4n5/10/10/7Q2/2P7/**1PPPPPPP/***BB1RRNN placement 16 - -/- -/-"}
	pos, err := r.Position(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []struct {
		side rules.Side
		text string
	}{{rules.Black, "e10"}, {rules.White, "d4"}, {rules.Black, "Nf5"}, {rules.White, "Ke4"}, {rules.Black, "Nxh4"}} {
		if _, pos, err = r.Play(pos, e.side, e.text, time.Time{}); err != nil {
			t.Fatalf("%s %s: %v", e.side, e.text, err)
		}
	}
	h, err := r.Replay(v)
	if err != nil {
		t.Fatal(err)
	}
	rv := wantBlunder(t, h, 1, ClassBlunder)
	m := rv.Moves[1]
	if !m.Placement || h.Steps[1].Before.UCI(m.Best) == "K@d4" {
		t.Fatalf("the king's choice: %+v", m)
	}
	if rv.Moves[0].Class != ClassBest && rv.Moves[0].Class != ClassGood {
		t.Fatalf("Black's king choice is classed %s", rv.Moves[0].Class)
	}
}

// The decisive moment is the loser's costliest mistake: none in a drawn game, which
// no move decided (its blunder is still classed), and never a move of the winner's.
func TestReviewDecisiveMomentFollowsTheResult(t *testing.T) {
	h := line(t, mustPos(t, "gothic", ""), "d2d4 e7e5 d4e5 d8g5 c1g5 g8h6 g5h6 i7h6")
	for _, tc := range []struct {
		outcome rules.Outcome
		want    func(d int, r *Review) bool
	}{
		{rules.Draw(rules.Agreement), func(d int, _ *Review) bool { return d == -1 }},
		{rules.Win(rules.White, rules.Resignation), func(d int, _ *Review) bool { return d == 3 }},
		{rules.Win(rules.Black, rules.Timeout), func(d int, r *Review) bool { return d == -1 || r.Moves[d].Side == rules.White }},
		{rules.OngoingOutcome, func(d int, _ *Review) bool { return d == 3 }},
	} {
		r, err := New(Options{HashBits: 16}).ReviewWith(context.Background(), h, ReviewOptions{Limits: reviewLimits, Outcome: tc.outcome})
		if err != nil {
			t.Fatal(err)
		}
		if !tc.want(r.Decisive, r) || r.Moves[3].Class != ClassBlunder {
			t.Errorf("%v: decisive moment %d, the queen's move classed %s", tc.outcome, r.Decisive, r.Moves[3].Class)
		}
	}
}
