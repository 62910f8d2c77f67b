package engine

import (
	"context"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

func mustPos(t testing.TB, key, fen string) rules.Position {
	t.Helper()
	v, err := variants.Registry().Lookup(key)
	if err != nil {
		t.Fatal(err)
	}
	if fen == "" {
		return v.Start(1)
	}
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatalf("%s %q: %v", key, fen, err)
	}
	return p
}

// mateIn reports whether the side to move can force checkmate within n moves,
// by brute force over the rules API (independent of the engine's search).
func mateIn(p rules.Position, n int) bool {
	if n <= 0 {
		return false
	}
	for _, m := range p.LegalMoves() {
		q, err := p.Play(m)
		if err != nil {
			continue
		}
		o := q.Outcome()
		if o.Status == rules.Won && o.Winner == p.Turn() {
			return true
		}
		if o.IsOver() || n == 1 {
			continue
		}
		all := true
		for _, r := range q.LegalMoves() {
			z, _ := q.Play(r)
			if !mateIn(z, n-1) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

var mates = []struct {
	name, variant, fen string
	n                  int
}{
	{"gothic back rank", "gothic", "5k4/4ppp3/10/10/10/10/10/R4K4 w - - 0 1", 1},
	{"gothic archbishop", "gothic", "k9/10/K9/10/10/10/10/2C7 w - - 0 1", 1},
	{"gothic two rooks", "gothic", "9k/10/10/10/10/10/R9/1R3K4 w - - 0 1", 2},
	{"keltic rook", "keltic", "***2k***/**5**/5K3/9/9/**5**/***R2*** w - - 0 1", 1},
	{"gothic mate in 3", "gothic", "9k/10/10/10/10/10/R9/R4K4 w - - 0 1", 3},
	{"keltic mate in 2", "keltic", "***1k1***/**5**/9/4K4/9/**5**/***R2*** w - - 0 1", 2},
	{"keltic mate in 3", "keltic", "***2k***/**5**/9/4K4/9/**5**/***R2*** w - - 0 1", 3},
	{"gochess mate in 2", "gochess", "k9/10/3K6/10/10/10/10/9Q/*****5/5***** w - - 0 1", 2},
	{"gochess queen", "gochess", "k9/9Q/1K8/10/10/10/10/10/*****5/5***** w - - 0 1", 1},
}

func TestFindsMates(t *testing.T) {
	e := New(Options{HashBits: 16})
	for _, tc := range mates {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.variant, tc.fen)
			if tc.n <= 2 && !mateIn(p, tc.n) {
				t.Fatalf("test position has no mate in %d", tc.n)
			}
			if tc.n == 3 && mateIn(p, 2) {
				t.Fatalf("test position has a mate in 2")
			}
			r, err := e.Search(context.Background(), p, Limits{Depth: 2*tc.n + 1})
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Score.MateIn(); got != tc.n {
				t.Fatalf("score %v (mate in %d), want mate in %d; move %s", r.Score, got, tc.n, p.UCI(r.Move))
			}
			// Play the principal variation: it must end in checkmate by the side to move.
			q := p
			for _, m := range r.PV {
				var err error
				if q, err = q.Play(m); err != nil {
					t.Fatalf("pv move %v: %v", m, err)
				}
			}
			if o := q.Outcome(); o.Status != rules.Won || o.Winner != p.Turn() {
				t.Fatalf("pv %v ends in %v", r.PV, o)
			}
		})
	}
}

// TestMatesSurviveHostileHistories: near the horizon the search skips quiet moves
// whose histories are bad or that lose their exchange, but never a move that gives
// check, an evasion or a move at a principal-variation node; with every quiet
// move's history at its worst, each mate is still found at its true distance, no
// shorter.
func TestMatesSurviveHostileHistories(t *testing.T) {
	for _, tc := range mates {
		t.Run(tc.name, func(t *testing.T) {
			_, s := testSearcher(t, mustPos(t, tc.variant, tc.fen), 16)
			for _, h := range s.history {
				for i := range h {
					h[i] = -maxHistory
				}
			}
			for i := range s.cont {
				s.cont[i] = -maxHistory
			}
			for _, h := range s.capHist {
				for i := range h {
					h[i] = -maxHistory
				}
			}
			rr, err := s.iterate(Limits{Depth: 2*tc.n + 1}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := rr.score.MateIn(); got != tc.n {
				t.Fatalf("score %v (mate in %d), want mate in %d", rr.score, got, tc.n)
			}
		})
	}
}

func TestDeterministicAtFixedDepth(t *testing.T) {
	cases := []struct{ variant, fen string }{
		{"gothic", ""},
		{"keltic", ""},
		{"gochess", "rnbqkbnr2/pppppppp2/10/1*1*1*1*1*/10/10/*1*1*1*1*1/10/PPPPPPPP2/RNBQKBNR2 w - - 0 1"},
	}
	for _, tc := range cases {
		p := mustPos(t, tc.variant, tc.fen)
		var first Result
		for i := 0; i < 2; i++ {
			r, err := New(Options{HashBits: 16}).Search(context.Background(), p, Limits{Depth: 4})
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = r
				continue
			}
			if r.Move != first.Move || r.Score != first.Score || r.Nodes != first.Nodes {
				t.Fatalf("%s: run 2 gave %v %v %d nodes, run 1 %v %v %d", tc.variant, r.Move, r.Score, r.Nodes, first.Move, first.Score, first.Nodes)
			}
		}
	}
}

// beforeRepetition returns the Go-Chess position fen (White's pawn on b4, the
// kings on e1 and e10) after b4a4 Kd10 a4b4 Ke10, where b4a4 repeats a position
// met before.
func beforeRepetition(t *testing.T, fen string) rules.Position {
	t.Helper()
	p := mustPos(t, "gochess", fen)
	for _, s := range []string{"b4a4", "Kd10", "a4b4", "Ke10"} {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		if p, err = p.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// TestSeesRepetitionAcrossPawnSteps: a Go-Chess pawn step can be undone, so stepping
// back into a position already met is a repetition the search scores as a draw; a
// side far behind takes it (issue 16).
func TestSeesRepetitionAcrossPawnSteps(t *testing.T) {
	p := beforeRepetition(t, "4k3rq/10/10/10/10/10/1P8/10/**********/4K5 w - - 0 1")
	r, err := New(Options{HashBits: 16}).Search(context.Background(), p, Limits{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.UCI(r.Move); got != "b4a4" || r.Score != drawScore {
		t.Fatalf("best move %s scored %v; want b4a4, back into a position met before, scored as a draw", got, r.Score)
	}
}

// contemptLine is a Go-Chess rook ending, even but for White's worse structure,
// after moves that let White's b4a4 repeat a position met before.
const contemptLine = "4k2r2/10/6p3/10/10/10/1P8/10/**********/4K1R3 w - - 0 1"

// TestContemptPlaysOnRatherThanRepeat: without contempt the engine takes the
// repetition (scored 0) over playing on a little worse; with contempt a draw
// costs more than that, so it plays on and scores the position between the draw
// and 0; a side far behind takes the draw whatever it costs.
func TestContemptPlaysOnRatherThanRepeat(t *testing.T) {
	search := func(fen string, contempt Score) (string, Score) {
		t.Helper()
		p := beforeRepetition(t, fen)
		r, err := New(Options{HashBits: 16}).Search(context.Background(), p, Limits{Depth: 6, Contempt: contempt})
		if err != nil {
			t.Fatal(err)
		}
		return p.UCI(r.Move), r.Score
	}
	if m, sc := search(contemptLine, 0); m != "b4a4" || sc != drawScore {
		t.Fatalf("without contempt: %s scored %v; want the repetition b4a4 scored as a draw", m, sc)
	}
	if m, sc := search(contemptLine, 100); m == "b4a4" || sc <= -100 || sc >= 0 {
		t.Fatalf("contempt 100: %s scored %v; want another move, scored between -100 and 0", m, sc)
	}
	// With a pawn against a knight, White repeats and the score is the draw's cost.
	behind := "4k2n2/10/10/10/10/10/1P8/10/**********/4K5 w - - 0 1"
	for _, c := range []Score{0, 20, 100} {
		if m, sc := search(behind, c); m != "b4a4" || sc != -c {
			t.Fatalf("far behind, contempt %v: %s scored %v; want b4a4 scored %v", c, m, sc, -c)
		}
	}
	// The levels play games, so they search with the engine's contempt.
	for l := 1; l <= MaxLevel; l++ {
		if c := LevelLimits(l).Limits().Contempt; c != DefaultContempt {
			t.Errorf("level %d searches with contempt %v, want %v", l, c, DefaultContempt)
		}
	}
}

// TestCorrectionHistory checks that the corrections move later static
// evaluations of the same pawn structure and pieces towards what searches found,
// each within its limit, that moved pieces keep only the pawn structure's, and
// that Gess, without such a structure, keeps none.
func TestCorrectionHistory(t *testing.T) {
	pos := mustPos(t, "gothic", "")
	g, s := testSearcher(t, pos, 10)
	if got := s.corrSlots().corrected(50); got != 50 {
		t.Fatalf("fresh correction moved 50 to %v", got)
	}
	s.corrSlots().correct(40, 10)
	if got := s.corrSlots().corrected(50); got <= 50 || got > 90 {
		t.Errorf("after a search 40 above: 50 corrected to %v, want in (50, 90]", got)
	}
	for range 100 {
		s.corrSlots().correct(900, 12)
	}
	// The pawns' correction and half of each side's pieces'.
	if got := s.corrSlots().corrected(0); got != 2*corrLimit {
		t.Errorf("after many searches far above: 0 corrected to %v, want twice the limit, %d", got, 2*corrLimit)
	}
	// Both sides' knights out: the same pawns and side to move, other pieces.
	m := engineMove(t, g, pos, "i1h3")
	pos, err := pos.Play(g.toRules(m))
	if err != nil {
		t.Fatal(err)
	}
	g.make(m)
	g.make(engineMove(t, g, pos, "i8h6"))
	if got := s.corrSlots().corrected(0); got != corrLimit {
		t.Errorf("with both knights moved: 0 corrected to %v, want the pawns' limit %d", got, corrLimit)
	}
	if got := s.corrSlots().corrected(MateScore - 3); got != MateScore-3 {
		t.Errorf("a mate score was corrected to %v", got)
	}
	if _, gs := testSearcher(t, mustPos(t, "gess", ""), 10); gs.corr != nil {
		t.Error("Gess got a correction history")
	}
}

// lateTimer is a context whose deadline passes without its Done channel closing,
// as when the timer behind a context fires late.
type lateTimer struct {
	context.Context
	deadline time.Time
}

func (c lateTimer) Deadline() (time.Time, bool) { return c.deadline, true }

// TestSearchEndsAtDeadlineItself: the search reads the clock, so it ends at its
// context's deadline even when the context does not say it is done.
func TestSearchEndsAtDeadlineItself(t *testing.T) {
	pos := mustPos(t, "gothic", "")
	ctx := lateTimer{Context: context.Background(), deadline: time.Now().Add(100 * time.Millisecond)}
	done := make(chan Result, 1)
	go func() {
		r, err := New(Options{}).Search(ctx, pos, Limits{})
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	select {
	case r := <-done:
		if r.Move == rules.NullMove {
			t.Errorf("no move after the deadline")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the search ran on 20 s past its deadline")
	}
}

// TestSingularTest: the singular test searches a node without its hash move and
// leaves the node's table entry as it was; when the hash move is the only legal
// move, every other move "falls short" and the test fails low, so the move is
// extended.
func TestSingularTest(t *testing.T) {
	for _, tc := range []struct{ name, fen string }{
		{"start", ""},
		// In check from the rook on j1: the king must take the rook on b2.
		{"one move", "k9/10/10/10/10/10/1r8/K8r w - - 0 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pos := mustPos(t, "gothic", tc.fen)
			g, s := testSearcher(t, pos, 16)
			rr, err := s.iterate(Limits{Depth: 6}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			before, ok := s.tt.probe(g.hash())
			if !ok || before.move != rr.move {
				t.Fatalf("no table entry with the best move %v after the search", rr.move)
			}
			const ply = 2 // any ply of the arrays; the board is the root's
			s.excluded[ply] = rr.move
			bound := rr.score - 30
			v := s.negamax(5, ply, bound-1, bound, false, false)
			s.excluded[ply] = 0
			after, _ := s.tt.probe(g.hash())
			if after != before {
				t.Errorf("the test changed the node's table entry: %+v, was %+v", after, before)
			}
			if one := len(pos.LegalMoves()) == 1; one && v != bound-1 {
				t.Errorf("with the only move excluded the test returned %v, want %v (fails low)", v, bound-1)
			} else if !one && v > rr.score+30 {
				t.Errorf("without the best move (%v) the node scores %v, above the best's %v", rr.move, v, rr.score)
			}
		})
	}
}

// testSearcher returns the game of pos and a fresh searcher on it with a table of
// 2^bits entries.
func testSearcher(t *testing.T, pos rules.Position, bits uint) (game, *searcher) {
	t.Helper()
	g, err := newGame(pos)
	if err != nil {
		t.Fatal(err)
	}
	return g, newSearcher(context.Background(), g, newTable(bits), new(searchMem), true)
}

// quiesceAlone returns what the quiescence search of pos finds at ply in the
// window, and in how many nodes, on a searcher of its own: what a node that
// drops into it would get.
func quiesceAlone(t *testing.T, pos rules.Position, ply int, alpha, beta Score) (Score, int64) {
	t.Helper()
	_, q := testSearcher(t, pos, 10)
	return q.quiesce(ply, alpha, beta, 0), q.nodes
}

// engineMove returns the engine's form of the move text in pos.
func engineMove(t *testing.T, g game, pos rules.Position, text string) mv {
	t.Helper()
	rm, err := pos.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := g.fromRules(rm)
	if !ok {
		t.Fatalf("%s has no engine form", text)
	}
	return m
}

// TestCaptureHistoryOrders: two captures alike by MVV-LVA (a knight taking either
// of two loose pawns) are ordered by their capture history, which a cutoff
// credits and a capture tried before the cutoff pays for; a losing capture stays
// behind the quiet moves' killers whatever its history.
func TestCaptureHistoryOrders(t *testing.T) {
	pos := mustPos(t, "gothic", "k9/10/10/3p1p4/10/4N5/10/K9 w - - 0 1")
	g, s := testSearcher(t, pos, 10)
	d5, f5, quiet := engineMove(t, g, pos, "e3d5"), engineMove(t, g, pos, "e3f5"), engineMove(t, g, pos, "e3g4")
	if got, want := g.victim(d5), int(rules.Pawn); got != want {
		t.Fatalf("victim of Nxd5 %d, want %d (a pawn)", got, want)
	}
	if got := g.victim(quiet); got != 0 {
		t.Fatalf("victim of a quiet move %d, want 0", got)
	}
	scores := func() (d, f int) {
		moves := []mv{d5, f5}
		sc := s.order(moves, 1, 0)
		return sc[0], sc[1]
	}
	if d, f := scores(); d != f {
		t.Fatalf("fresh histories order Nxd5 %d and Nxf5 %d apart", d, f)
	}
	s.rewardCapture(f5, 8, []mv{d5})
	if d, f := scores(); f <= d {
		t.Errorf("after Nxf5 cut off (Nxd5 tried first): Nxd5 %d, Nxf5 %d; want Nxf5 first", d, f)
	}
	s.rewardCapture(0, 10, []mv{f5})
	s.rewardCapture(0, 10, []mv{f5})
	if d, f := scores(); f >= d {
		t.Errorf("after Nxf5 failed twice before quiet cutoffs: Nxd5 %d, Nxf5 %d; want Nxd5 first", d, f)
	}
	// With a pawn on c6 guarding d5, Nxd5 loses the knight for a pawn.
	defended := mustPos(t, "gothic", "k9/10/2p7/3p6/10/4N5/10/K9 w - - 0 1")
	g2, s2 := testSearcher(t, defended, 10)
	bad := engineMove(t, g2, defended, "e3d5")
	for range 20 {
		s2.rewardCapture(bad, 20, nil)
	}
	s2.killers[1][0] = engineMove(t, g2, defended, "e3g4")
	sc := s2.order([]mv{bad, s2.killers[1][0]}, 1, 0)
	if sc[0] >= sc[1] {
		t.Errorf("a losing capture with the best history (%d) ordered before a killer (%d)", sc[0], sc[1])
	}
}

// TestProbCut: at a non-PV node deep enough, a capture that clears beta by the
// margin in a shallower search cuts the node at once, leaving a lower bound of
// that shallower depth in the table with the capture as its move.
func TestProbCut(t *testing.T) {
	// White's knight takes the loose queen.
	pos := mustPos(t, "gothic", "k9/10/10/3q6/10/4N5/10/K9 w - - 0 1")
	g, s := testSearcher(t, pos, 10)
	const depth, ply = 6, 2
	// White stands about a queen down, so beta 400 below even is out of the static
	// evaluation's reach, but after Nxd5 White is a knight up, far past beta and the margin.
	beta := Score(-400)
	v := s.negamax(depth, ply, beta-1, beta, false, true)
	if v < beta+probCutMargin {
		t.Fatalf("the node scored %v, want at least %v", v, beta+probCutMargin)
	}
	e, ok := s.tt.probe(g.hash())
	if !ok {
		t.Fatal("no table entry for the node")
	}
	if want := engineMove(t, g, pos, "e3d5"); e.move != want || e.bound != boundLower || int(e.depth) != depth-probCutReduction+1 {
		t.Errorf("table entry move %v bound %d depth %d, want %v, a lower bound (%d), depth %d",
			e.move, e.bound, e.depth, want, boundLower, depth-probCutReduction+1)
	}
}

// TestRazoring: near the horizon, a node whose static evaluation is far below
// alpha is settled by the quiescence search alone when that stays below alpha
// too, and searched in full when a capture lifts it to alpha.
func TestRazoring(t *testing.T) {
	const depth, ply = 2, 2
	alpha := Score(0)
	for _, c := range []struct {
		name, fen string
		razored   bool
	}{
		// A knight against a queen, nothing to take: the quiescence search agrees.
		{"queen out of reach", "k9/10/10/3q6/10/10/4N5/K9 w - - 0 1", true},
		// The knight takes the loose queen: the node is worth searching (the pawn
		// keeps the material sufficient after Nxd5).
		{"queen en prise", "k9/10/10/3q6/10/4N5/P9/K9 w - - 0 1", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			pos := mustPos(t, "gothic", c.fen)
			g, s := testSearcher(t, pos, 10)
			if e := g.evaluate(); e+Score(razorMargin*depth) >= alpha {
				t.Fatalf("static evaluation %v is not razorMargin*%d below alpha %v", e, depth, alpha)
			}
			qv, qNodes := quiesceAlone(t, pos, ply, alpha-1, alpha)
			v := s.negamax(depth, ply, alpha-1, alpha, false, true)
			if c.razored {
				if v != qv || v >= alpha || s.nodes != qNodes+1 {
					t.Errorf("node scored %v in %d nodes, want the quiescence search's %v (below %v) in %d nodes",
						v, s.nodes, qv, alpha, qNodes+1)
				}
				return
			}
			if v < alpha || s.nodes <= qNodes+1 {
				t.Errorf("node scored %v in %d nodes, want at least %v from a search beyond the quiescence search's %d nodes",
					v, s.nodes, alpha, qNodes)
			}
		})
	}
}

// TestQuiescenceStandsOnTable checks that the quiescence search stands pat on the
// table's bound where it proves more than the static evaluation: a lower bound
// past beta ends a node that the static evaluation alone would search. Go-Chess,
// whose evaluation drifts with what the key leaves out, keeps its stand pat.
func TestQuiescenceStandsOnTable(t *testing.T) {
	const ply = 2
	for _, c := range []struct {
		variant, fen string
		stands       bool
	}{
		{"gothic", "k9/10/10/3q6/10/10/4N5/K9 b - - 0 1", true},
		{"gochess", "p9/1*6*1/4**4/2*4*2/5k4/10/2*4*2/10/1*6*P/R3K5 w - - 0 1", false},
	} {
		t.Run(c.variant, func(t *testing.T) {
			pos := mustPos(t, c.variant, c.fen)
			g, s := testSearcher(t, pos, 10)
			stand := g.evaluate()
			alpha, beta := stand+100, stand+200
			qv, _ := quiesceAlone(t, pos, ply, alpha, beta)
			if qv >= beta {
				t.Fatalf("without a table entry the quiescence search scored %v, want below beta %v", qv, beta)
			}
			bound := stand + 300
			s.tt.store(g.hash(), 0, bound, 3, boundLower, ply, stand)
			v := s.quiesce(ply, alpha, beta, 0)
			switch {
			case c.stands && (v != bound || s.nodes != 1):
				t.Errorf("with a lower bound of %v the quiescence search scored %v in %d nodes, want %v in 1", bound, v, s.nodes, bound)
			case !c.stands && v != qv:
				t.Errorf("with a lower bound of %v the quiescence search scored %v, want %v as without it", bound, v, qv)
			}
		})
	}
}
