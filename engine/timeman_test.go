package engine

import (
	"context"
	"testing"
	"time"
)

// TestMoveTimeIsUsed: a search given only a time for the move (UCI's movetime)
// searches for all of it rather than stopping at half, as it did before.
func TestMoveTimeIsUsed(t *testing.T) {
	const think = 300 * time.Millisecond
	r, err := New(Options{HashBits: 16}).Search(context.Background(), mustPos(t, "gothic", ""), Limits{Time: think})
	if err != nil {
		t.Fatal(err)
	}
	if r.Time < think*8/10 {
		t.Fatalf("searched %v of its %v", r.Time, think)
	}
}

// TestForcedMoveIsPlayedAtOnce: with a single legal move there is nothing to think
// about: a search bounded by time stops after its first iteration (counted, not
// timed, so that a busy machine does not fail it).
func TestForcedMoveIsPlayedAtOnce(t *testing.T) {
	p := mustPos(t, "gothic", "k9/10/2K7/10/10/10/10/R9 b - - 0 1")
	if n := len(p.LegalMoves()); n != 1 {
		t.Fatalf("test position has %d legal moves, want 1", n)
	}
	for _, lim := range []Limits{{Time: 3 * time.Second}, {Time: 3 * time.Second, Optimum: time.Second}} {
		r, err := New(Options{HashBits: 16}).Search(context.Background(), p, lim)
		if err != nil {
			t.Fatal(err)
		}
		if r.Depth != 1 {
			t.Fatalf("%+v: searched %d iterations (%v) over a forced move", lim, r.Depth, r.Time)
		}
	}
}

// TestOptimumEndsSearchEarly: with an optimum time the hard limit is only a bound.
// It measures time: make test runs it without the race detector (make timing).
func TestOptimumEndsSearchEarly(t *testing.T) {
	if raceDetector {
		t.Skip("measures time: run without -race (make timing)")
	}
	r, err := New(Options{HashBits: 16}).Search(context.Background(), mustPos(t, "gothic", ""),
		Limits{Time: 10 * time.Second, Optimum: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if r.Time > 2*time.Second {
		t.Fatalf("searched %v with an optimum of 100ms", r.Time)
	}
}

// TestTimeManagerSpendsMoreWhenUnsettled: the same elapsed time ends a search whose
// best move has held, but not one whose best move keeps changing or whose score fell.
func TestTimeManagerSpendsMoreWhenUnsettled(t *testing.T) {
	const opt = time.Second
	stopsAt := func(moves []mv, scores []Score) time.Duration {
		for ms := 100; ms <= 5000; ms += 10 {
			tm := timeManager{optimum: opt}
			stop := false
			for d := range moves {
				stop = tm.stop(d+1, moves[d], scores[d], time.Duration(ms)*time.Millisecond)
			}
			if stop {
				return time.Duration(ms) * time.Millisecond
			}
		}
		return 0
	}
	stable := stopsAt([]mv{1, 1, 1, 1, 1, 1, 1, 1}, []Score{20, 25, 20, 22, 21, 20, 22, 21})
	unsettled := stopsAt([]mv{1, 2, 1, 3, 2, 4, 1, 5}, []Score{20, 25, 20, 22, 21, 20, 22, 21})
	falling := stopsAt([]mv{1, 1, 1, 1, 1, 1, 1, 1}, []Score{20, 25, 20, 22, 21, 20, 22, -60})
	if !(stable < unsettled && stable < falling) || stable == 0 {
		t.Fatalf("stops at %v when settled, %v when unsettled, %v after a fall", stable, unsettled, falling)
	}
	if stable > opt {
		t.Fatalf("a settled search runs past its optimum: %v", stable)
	}
}

// TestReadyAllocatesAhead: Ready gives an engine its search memory before any
// search (a UCI engine calls it at "isready", before a clock runs), once; a search
// after it finds what a search without it finds.
func TestReadyAllocatesAhead(t *testing.T) {
	e := New(Options{HashBits: 16})
	if e.kept.mem.cont != nil {
		t.Fatal("search memory allocated before Ready")
	}
	e.Ready()
	if e.kept.mem.cont == nil || e.kept.mem.pawns == nil {
		t.Fatal("Ready allocated no search memory")
	}
	cont := &e.kept.mem.cont[0]
	e.Ready()
	if &e.kept.mem.cont[0] != cont {
		t.Error("a second Ready allocated again")
	}
	pos := mustPos(t, "gothic", "")
	a, err := e.Search(context.Background(), pos, Limits{Depth: 6})
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(Options{HashBits: 16}).Search(context.Background(), pos, Limits{Depth: 6})
	if err != nil {
		t.Fatal(err)
	}
	if a.Move != b.Move || a.Score != b.Score || a.Nodes != b.Nodes {
		t.Errorf("after Ready: %v %v %d nodes; without: %v %v %d nodes", a.Move, a.Score, a.Nodes, b.Move, b.Score, b.Nodes)
	}
}
