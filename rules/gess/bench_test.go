package gess

import (
	"testing"

	"github.com/missivechess/missive/rules"
)

// benchPosition is a middlegame from random play (40 plies, seed 12 of
// helpers_test.go), the one recorded in testdata/perft.txt.
func benchPosition(b *testing.B) *Position {
	return middlegame(b, 12, 40)
}

// BenchmarkLegalMoves measures rules.Position.LegalMoves: generation into a new
// slice, sorted.
func BenchmarkLegalMoves(b *testing.B) {
	p := benchPosition(b)
	b.ReportAllocs()
	var n int
	for b.Loop() {
		n = len(p.LegalMoves())
	}
	b.ReportMetric(float64(n), "moves")
}

// BenchmarkAppendMoves measures the search path: generation into a reused buffer.
func BenchmarkAppendMoves(b *testing.B) {
	p := benchPosition(b)
	board := p.Mutable()
	buf := make([]rules.Move, 0, 1024)
	b.ReportAllocs()
	for b.Loop() {
		buf = board.AppendMoves(buf[:0])
	}
}

// BenchmarkMakeUnmake measures playing and taking back every move of the position
// (ns/op is for all of them).
func BenchmarkMakeUnmake(b *testing.B) {
	p := benchPosition(b)
	board := p.Mutable()
	moves := board.AppendMoves(nil)
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range moves {
			board.Unmake(board.Make(m))
		}
	}
}

// BenchmarkPlay measures rules.Position.Play of one move: validation and a new position.
func BenchmarkPlay(b *testing.B) {
	p := benchPosition(b)
	moves := p.LegalMoves()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := p.Play(moves[i%len(moves)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkPerft2Start measures perft 2 from the start position (172,080 leaves).
func BenchmarkPerft2Start(b *testing.B) {
	p := StartPosition()
	b.ReportAllocs()
	for b.Loop() {
		if p.Perft(2) != 172080 {
			b.Fatal("wrong perft")
		}
	}
}

// BenchmarkReaches measures Reaches for the 5x5 rectangle around each ring of the side
// not to move (the search's ring-threat test), from the side to move.
func BenchmarkReaches(b *testing.B) {
	board := benchPosition(b).Mutable()
	rings := board.AppendRings(board.Turn().Other(), nil)
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range rings {
			f, r := coords(c)
			board.Reaches(square(max(f-2, 0), max(r-2, 0)), square(min(f+2, Size-1), min(r+2, Size-1)))
		}
	}
}

// BenchmarkAppendCaptures measures the quiescence search's generation of captures.
func BenchmarkAppendCaptures(b *testing.B) {
	board := benchPosition(b).Mutable()
	buf := make([]rules.Move, 0, 1024)
	b.ReportAllocs()
	for b.Loop() {
		buf = board.AppendCaptures(buf[:0])
	}
}
