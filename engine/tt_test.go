package engine

import (
	"context"
	"sync"
	"testing"
	"time"
)

func TestKeptTableStaysDeterministicAtFixedDepth(t *testing.T) {
	e := New(Options{HashBits: 14})
	pos := mustPos(t, "gothic", "")
	other := mustPos(t, "keltic", "")
	first, err := e.Search(context.Background(), pos, Limits{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Search(context.Background(), other, Limits{Time: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	again, _ := e.Search(context.Background(), pos, Limits{Depth: 4})
	if again.Move != first.Move || again.Score != first.Score || again.Nodes != first.Nodes {
		t.Fatalf("depth-4 search after other searches: %v %v %d nodes, first %v %v %d", again.Move, again.Score, again.Nodes, first.Move, first.Score, first.Nodes)
	}
}

func TestKeptTableCarriesOverBetweenTimedSearches(t *testing.T) {
	e := New(Options{HashBits: 14})
	pos := mustPos(t, "gothic", "")
	if _, err := e.Search(context.Background(), pos, Limits{Time: 100 * time.Millisecond, Depth: 5}); err != nil {
		t.Fatal(err)
	}
	g, _ := newGame(pos)
	st := e.take(false)
	defer e.put(st)
	if ent, ok := st.tt.probe(g.hash()); !ok || ent.move == 0 {
		t.Fatal("the root of the last timed search is not in the kept table")
	}
	if second := e.take(false); second.tt == st.tt {
		t.Fatal("a second search got the table the first one holds")
	}
}

func TestConcurrentSearchesShareAnEngine(t *testing.T) {
	e := New(Options{HashBits: 12})
	var wg sync.WaitGroup
	for _, key := range []string{"gothic", "keltic", "gothic", "gess"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := e.Search(context.Background(), mustPos(t, key, ""), Limits{Depth: 2, Time: time.Second}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
}

// TestTableKeepsStaticEvaluation checks that an entry carries the position's
// static evaluation and that a later store without one keeps it.
func TestTableKeepsStaticEvaluation(t *testing.T) {
	tt := newTable(8)
	tt.store(42, 7, 10, 3, boundExact, 0, -123)
	e, ok := tt.probe(42)
	if ev, known := e.staticEval(); !ok || !known || ev != -123 {
		t.Fatalf("entry %+v: static evaluation %v %v, want -123", e, ev, known)
	}
	tt.store(42, 7, 12, 4, boundLower, 0, noScore)
	e, _ = tt.probe(42)
	if ev, known := e.staticEval(); !known || ev != -123 || e.depth != 4 {
		t.Fatalf("after a store without evaluation: %+v (%v %v)", e, ev, known)
	}
	tt.store(43, 7, 12, 4, boundLower, 0, noScore)
	e, _ = tt.probe(43)
	if _, known := e.staticEval(); known {
		t.Fatalf("an entry stored without evaluation has one: %+v", e)
	}
}

// TestTableKeysDifferByBoard checks that the same pieces on two Go-Chess boards
// with other blocked cells, or on two variants' boards, give the search other
// keys, since the engine keeps its table from one game to the next.
func TestTableKeysDifferByBoard(t *testing.T) {
	a := mustPos(t, "gochess", "k9/10/3K6/10/10/10/10/9Q/*****5/5***** w - - 0 1")
	b := mustPos(t, "gochess", "k9/10/3K6/10/10/10/10/9Q/5*****/*****5 w - - 0 1")
	ga, _ := newGame(a)
	gb, _ := newGame(b)
	if ga.hash() == gb.hash() {
		t.Error("two Go-Chess boards with other blocked cells share a key")
	}
	again, _ := newGame(a)
	if again.hash() != ga.hash() {
		t.Error("one position gave two keys")
	}
}

// TestForgetClearsTheKeptTable: after Forget the engine keeps its table but
// nothing of the searches before.
func TestForgetClearsTheKeptTable(t *testing.T) {
	e := New(Options{HashBits: 14})
	pos := mustPos(t, "gothic", "")
	if _, err := e.Search(context.Background(), pos, Limits{Time: 100 * time.Millisecond, Depth: 5}); err != nil {
		t.Fatal(err)
	}
	before := e.kept.tt
	e.Forget()
	if e.kept.tt != before {
		t.Fatal("Forget replaced the table instead of clearing it")
	}
	g, _ := newGame(pos)
	if _, ok := e.kept.tt.probe(g.hash()); ok {
		t.Fatal("the root of the last search is still in the table after Forget")
	}
}

// TestSearchMemoryReused: an engine keeps its search memory for the next search,
// and a search on reused memory (after another variant's) finds exactly what a
// fresh engine finds.
func TestSearchMemoryReused(t *testing.T) {
	pos := mustPos(t, "gothic", "")
	fresh, err := New(Options{HashBits: 14}).Search(context.Background(), pos, Limits{Depth: 5})
	if err != nil {
		t.Fatal(err)
	}
	e := New(Options{HashBits: 14})
	if _, err := e.Search(context.Background(), mustPos(t, "gess", ""), Limits{Nodes: 3000}); err != nil {
		t.Fatal(err)
	}
	kept := e.kept
	if kept == nil {
		t.Fatal("the engine kept no search memory")
	}
	again, err := e.Search(context.Background(), pos, Limits{Depth: 5})
	if err != nil {
		t.Fatal(err)
	}
	if e.kept != kept {
		t.Error("the second search did not reuse the kept memory")
	}
	if again.Move != fresh.Move || again.Score != fresh.Score || again.Nodes != fresh.Nodes {
		t.Errorf("on reused memory: %v %v %d nodes; fresh engine: %v %v %d", again.Move, again.Score, again.Nodes, fresh.Move, fresh.Score, fresh.Nodes)
	}
}

// TestHistoriesAgedWithinAGame checks what a search keeps of the previous one's
// histories: halved for the same game, nothing for another game (another variant,
// or Go-Chess with other blocked cells), after Forget, for a fixed-depth search, or
// in Gess, whose histories never carry over.
func TestHistoriesAgedWithinAGame(t *testing.T) {
	build := func(key, fen string) game {
		g, err := newGame(mustPos(t, key, fen))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	gothic := build("gothic", "")
	gochessA := build("gochess", "10/1*6*1/4**4/2*4*2/5k4/10/2*4*2/10/1*6*1/R3K5 w - - 0 1")
	other := build("gochess", "k9/pp8/10/10/4r5/10/10/9K/5*****/Q4***** w - - 0 1")
	gess := build("gess", "")
	id := func(g game) uint64 { id, _ := g.identity(); return id }
	if id(gochessA) == id(other) || id(gothic) == id(gochessA) {
		t.Fatal("games with different boards share an identity")
	}
	e := New(Options{HashBits: 12})
	learn := func(g game) {
		st := e.take(false)
		defer e.put(st)
		st.mem.prepare(g, false)
		st.mem.history[0][7], st.mem.cont[11], st.mem.corr[3] = 800, -600, 40
	}
	cases := []struct {
		name          string
		first, next   game
		fresh, forget bool
		hist, cnt     int
		corr          int
	}{
		{"same game", gothic, gothic, false, false, 400, -300, 40},
		{"another variant", gothic, gochessA, false, false, 0, 0, 0},
		{"other blocked cells", gochessA, other, false, false, 0, 0, 0},
		{"fixed depth", gothic, gothic, true, false, 0, 0, 0},
		{"after Forget", gothic, gothic, false, true, 0, 0, 0},
		{"Gess", gess, gess, false, false, 0, 0, 0},
	}
	for _, c := range cases {
		learn(c.first)
		if c.forget {
			e.Forget()
		}
		st := e.take(c.fresh)
		st.mem.prepare(c.next, c.fresh)
		got := [3]int{int(st.mem.history[0][7]), int(st.mem.cont[11]), int(st.mem.corr[3])}
		e.put(st)
		if want := [3]int{c.hist, c.cnt, c.corr}; got != want {
			t.Errorf("%s: history, continuation, correction = %v, want %v", c.name, got, want)
		}
	}
}

// TestEntryRefinesEvaluation checks that an entry's bound moves a static
// evaluation only towards what the bound proves, and never to a mate score.
func TestEntryRefinesEvaluation(t *testing.T) {
	const ply = 3
	for _, c := range []struct {
		name  string
		score Score
		bound uint8
		eval  Score
		want  Score
	}{
		{"lower bound above", 50, boundLower, 10, 50},
		{"lower bound below", 50, boundLower, 80, 80},
		{"upper bound below", 50, boundUpper, 80, 50},
		{"upper bound above", 50, boundUpper, 10, 10},
		{"exact score", 50, boundExact, 10, 10},
		{"mate as a lower bound", MateScore - 9, boundLower, 10, 10},
		{"mated as an upper bound", -MateScore + 9, boundUpper, 10, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			tt := newTable(8)
			tt.store(42, 7, c.score, 5, c.bound, ply, noScore)
			e, ok := tt.probe(42)
			if !ok {
				t.Fatal("entry not found")
			}
			if got := e.refine(c.eval, ply); got != c.want {
				t.Errorf("refine(%v) with %v bound %d = %v, want %v", c.eval, c.score, c.bound, got, c.want)
			}
		})
	}
}
