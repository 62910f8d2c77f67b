package chess_test

import (
	"testing"

	"github.com/missivechess/missive/rules/chess"
	"github.com/missivechess/missive/rules/gothic"
)

const middle = "r1bqckab1r/pppp1ppppp/2n4n2/4p5/4P5/2N4N2/PPPP1PPPPP/R1BQCKAB1R w KQkq - 4 4"

// TestNoAllocation: generating, making and unmaking moves allocates nothing once
// the buffers exist.
func TestNoAllocation(t *testing.T) {
	p, _ := gothicV.ParseFEN(middle)
	b := p.SearchBoard()
	buf := make([]chess.Move, 0, chess.MaxMoves)
	inner := make([]chess.Move, 0, chess.MaxMoves)
	allocs := testing.AllocsPerRun(20, func() {
		for _, m := range b.GenerateMoves(buf[:0]) {
			b.Make(m)
			_ = b.GenerateMoves(inner[:0])
			_ = b.GenerateCaptures(inner[:0])
			_ = b.InCheck()
			b.Unmake()
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
}

// TestSearchBoardRestores: Make then Unmake gives back the same position, hash
// included, and the incremental hash equals a fresh one.
func TestSearchBoardRestores(t *testing.T) {
	for _, fen := range []string{middle, "4k5/10/10/3pP5/10/10/10/5K4 w - d6 0 1", "r4k3r/PPp4pPP/10/10/10/10/ppP4Ppp/R4K3R w KQkq - 0 1"} {
		p, _ := gothicV.ParseFEN(fen)
		b := p.SearchBoard()
		for _, m := range b.GenerateMoves(nil) {
			b.Make(m)
			after := b.Position()
			fresh, err := gothicV.ParseFEN(after.String())
			if err != nil {
				t.Fatalf("%s after %s: %v", fen, p.UCI(m.ToRules()), err)
			}
			if fresh.Hash() != b.Hash() {
				t.Errorf("%s after %s: incremental hash differs from a fresh one", fen, p.UCI(m.ToRules()))
			}
			b.Unmake()
			if b.Position().String() != p.String() || b.Hash() != p.Hash() {
				t.Errorf("%s: unmaking %s left %s", fen, p.UCI(m.ToRules()), b.Position())
			}
		}
		b.MakeNull()
		b.Unmake()
		if b.Hash() != p.Hash() {
			t.Errorf("%s: null move not undone", fen)
		}
	}
}

func TestSearchBoardRepetitions(t *testing.T) {
	p, _ := gothicV.ParseFEN(gothic.StartFEN)
	b := p.SearchBoard()
	for i := 0; i < 2; i++ {
		for _, s := range []string{"Nc3", "Nc6", "Nb1", "Nb8"} {
			m, err := b.Position().ParseMove(s)
			if err != nil {
				t.Fatal(err)
			}
			x, _ := b.FromRules(m)
			b.Make(x)
		}
	}
	if n := b.Repetitions(); n != 3 {
		t.Errorf("repetitions %d, want 3", n)
	}
	if o := b.Outcome(); o.Reason != "threefold" {
		t.Errorf("outcome %v", o)
	}
	if b.Position().Repetitions() != 3 {
		t.Error("the position taken from the board lost its history")
	}
}

func BenchmarkPerftGothicStart4(b *testing.B) {
	p, _ := gothicV.ParseFEN(gothic.StartFEN)
	sb := p.SearchBoard()
	b.ReportAllocs()
	for b.Loop() {
		if n := sb.Perft(4); n != 808984 {
			b.Fatalf("perft %d", n)
		}
	}
}

// BenchmarkPerftGothicStart5 is the figure compared with Fairy-Stockfish by scripts/bench-perft.
func BenchmarkPerftGothicStart5(b *testing.B) {
	p, _ := gothicV.ParseFEN(gothic.StartFEN)
	sb := p.SearchBoard()
	b.ReportAllocs()
	for b.Loop() {
		if n := sb.Perft(5); n != 28946187 {
			b.Fatalf("perft %d", n)
		}
	}
}

func BenchmarkGenerateMoves(b *testing.B) {
	p, _ := gothicV.ParseFEN(middle)
	sb := p.SearchBoard()
	buf := make([]chess.Move, 0, chess.MaxMoves)
	b.ReportAllocs()
	for b.Loop() {
		_ = sb.GenerateMoves(buf[:0])
	}
}

func BenchmarkMakeUnmake(b *testing.B) {
	p, _ := gothicV.ParseFEN(middle)
	sb := p.SearchBoard()
	moves := sb.GenerateMoves(nil)
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range moves {
			sb.Make(m)
			sb.Unmake()
		}
	}
}

func BenchmarkPerftKeltic5(b *testing.B) {
	p, _ := kelticV.ParseFEN(kelticV.Spec().StartFEN)
	sb := p.SearchBoard()
	b.ReportAllocs()
	for b.Loop() {
		sb.Perft(5)
	}
}

// TestSearchBoardReversiblePlies: a Go-Chess pawn step resets the fifty-move
// counter but not the count of plies since the last irreversible move (the step can
// be undone), and a capture resets both.
func TestSearchBoardReversiblePlies(t *testing.T) {
	p, err := gochessV.ParsePosition("4k5/1*6*1/4**4/2*4*2/10/3p6/2*P3*2/10/1*6*1/4K5 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	b := p.(*chess.Position).SearchBoard()
	for _, step := range []struct {
		move              string
		clock, reversible int
	}{
		{"e1f1", 1, 1}, {"e10f10", 2, 2}, {"f1e1", 3, 3}, {"f10e10", 4, 4},
		{"d4d3", 0, 5}, // a pawn step, which another step undoes
		{"d5d4", 0, 6},
		{"d3e3", 0, 7},
		{"d4e3", 0, 0}, // a capture
		{"e1d1", 1, 1},
	} {
		m, err := b.Position().ParseMove(step.move)
		if err != nil {
			t.Fatalf("%s: %v", step.move, err)
		}
		x, ok := b.FromRules(m)
		if !ok {
			t.Fatalf("%s is not legal in %s", step.move, b.Position())
		}
		b.Make(x)
		if b.HalfmoveClock() != step.clock || b.ReversiblePlies() != step.reversible {
			t.Errorf("after %s: clock %d, reversible plies %d; want %d and %d", step.move,
				b.HalfmoveClock(), b.ReversiblePlies(), step.clock, step.reversible)
		}
	}
	for range 9 {
		b.Unmake()
	}
	if b.ReversiblePlies() != 0 || b.HalfmoveClock() != 0 {
		t.Errorf("unmaking every move left clock %d, reversible plies %d", b.HalfmoveClock(), b.ReversiblePlies())
	}
}
