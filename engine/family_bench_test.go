package engine

import (
	"context"
	"testing"

	"github.com/missivechess/missive/rules"
)

// benchMiddlegame returns the position after the engine plays plies moves against
// itself from start, each a fresh depth-4 search: a middlegame that needs no list
// of moves kept in step with the rules.
func benchMiddlegame(b *testing.B, start rules.Position, plies int) rules.Position {
	b.Helper()
	pos := start
	for range plies {
		r, err := New(Options{HashBits: 16}).Search(context.Background(), pos, Limits{Depth: 4})
		if err != nil {
			b.Fatal(err)
		}
		if pos, err = pos.Play(r.Move); err != nil {
			b.Fatal(err)
		}
	}
	return pos
}

// benchSearch searches each of positions to depth with a fresh engine of opts
// each time and reports the node rate and the nodes of one pass over them.
func benchSearch(b *testing.B, opts Options, depth int, positions ...rules.Position) {
	var nodes int64
	for b.Loop() {
		for _, pos := range positions {
			r, err := New(opts).Search(context.Background(), pos, Limits{Depth: depth})
			if err != nil {
				b.Fatal(err)
			}
			nodes += r.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// BenchmarkKelticSearch searches a Keltic middlegame, 16 plies of the engine
// against itself from the start, to depth 13.
func BenchmarkKelticSearch(b *testing.B) {
	benchSearch(b, Options{}, 13, benchMiddlegame(b, mustPos(b, "keltic", ""), 16))
}

// BenchmarkGoChessSearch searches a Go-Chess middlegame, the engine's placement
// for both sides (blocked cells of seed 1) and 16 plies of play, to depth 13.
func BenchmarkGoChessSearch(b *testing.B) {
	sp, ok := mustPos(b, "gochess", "").(rules.Simultaneous)
	if !ok {
		b.Fatal("gochess does not start with its placement phase")
	}
	eng := New(Options{HashBits: 16})
	pos, err := PlayPlacement(context.Background(), sp, eng, eng)
	if err != nil {
		b.Fatal(err)
	}
	benchSearch(b, Options{}, 13, benchMiddlegame(b, pos, 16))
}
