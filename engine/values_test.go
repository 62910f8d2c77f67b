package engine

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updatePin = flag.Bool("update-pin", false, "rewrite testdata/evalpin.txt from the current engine")

// pinStarts are the positions whose random continuations the evaluation pin covers.
var pinStarts = []struct{ variant, fen string }{
	{"gothic", ""},
	{"keltic", ""},
	{"gochess", "rnbqkbnr2/pppppppp2/10/1*1*1*1*1*/10/10/*1*1*1*1*1/10/PPPPPPPP2/RNBQKBNR2 w - - 0 1"},
	{"gochess", "2r2k4/1p1b1p*p1n/p2q2pb2/1n1p*1p1*r/3p1N1*2/2P5*1/1P6*P/P*1B2P1P1/1R1Q1*1N2/2B1K1R**1 w - - 0 20"},
}

// pinLines evaluates 30 positions along a seeded random game from each start and
// searches a few of them at depth 3: one line per position with the static
// evaluation, the best move, its score and the nodes visited.
func pinLines(t *testing.T) []string {
	var out []string
	for i, s := range pinStarts {
		pos := mustPos(t, s.variant, s.fen)
		rng := rand.New(rand.NewPCG(uint64(i), 42))
		for ply := 0; ply < 30 && !pos.Outcome().IsOver(); ply++ {
			g, err := newGame(pos)
			if err != nil {
				t.Fatal(err)
			}
			line := fmt.Sprintf("%s %s eval %d", s.variant, pos.String(), g.evaluate())
			if ply%5 == 0 {
				r, err := New(Options{HashBits: 16}).Search(context.Background(), pos, Limits{Depth: 3})
				if err != nil {
					t.Fatal(err)
				}
				line += fmt.Sprintf(" best %s score %d nodes %d", pos.UCI(r.Move), r.Score, r.Nodes)
			}
			out = append(out, line)
			moves := pos.LegalMoves()
			next, err := pos.Play(moves[rng.IntN(len(moves))])
			if err != nil {
				t.Fatal(err)
			}
			pos = next
		}
	}
	return out
}

// TestEvaluationPinned keeps the engine's numbers identical across refactors of
// where piece values live: static evaluations and fixed-depth searches must match
// the numbers recorded from the engine before the values moved into the variants.
func TestEvaluationPinned(t *testing.T) {
	got := pinLines(t)
	path := filepath.Join("testdata", "evalpin.txt")
	if *updatePin {
		if err := os.WriteFile(path, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d positions, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("position %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}
