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
	tt := e.takeTable(false)
	defer e.putTable(tt)
	if ent, ok := tt.probe(g.hash()); !ok || ent.move == 0 {
		t.Fatal("the root of the last timed search is not in the kept table")
	}
	if second := e.takeTable(false); second == tt {
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
