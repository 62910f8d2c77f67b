package match

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules"
)

const gothicStart = "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1"

// A suite line is a FEN, "bm" and one or more best moves in any spelling the
// rules read, then operations ended by semicolons, of which only the id is read.
func TestReadSuite(t *testing.T) {
	text := "# a comment\n\n" +
		gothicStart + " bm e2e4 Nh3; id \"first\"; c0 \"anything; even this\";\n" +
		"10/p6pp1/6p2p/1pk3P3/5K1P2/2P4P2/1P7P/10 w - - 6 38 bm f4e5;\n"
	es, err := ReadSuite(strings.NewReader(text), lookup(t, "gothic"), "t.epd")
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 {
		t.Fatalf("%d entries, want 2", len(es))
	}
	if es[0].ID != "first" || len(es[0].Best) != 2 || es[0].Pos.UCI(es[0].Best[1]) != "h1i3" && es[0].Pos.UCI(es[0].Best[1]) != "i1h3" {
		t.Errorf("first entry: id %q, best %v", es[0].ID, es[0].Best)
	}
	if es[1].ID != "line 4" || len(es[1].Best) != 1 || es[1].Pos.UCI(es[1].Best[0]) != "f4e5" {
		t.Errorf("second entry: id %q, best %v, want line 4 and f4e5", es[1].ID, es[1].Best)
	}
}

// A line the suite cannot use is refused with the line's number and what is
// wrong with it, and so is a file without entries.
func TestReadSuiteRefuses(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{gothicStart + "\n", `line 1 of t.epd has no best move`},
		{"# x\n" + gothicStart + " bm e2e5;\n", `line 2 of t.epd has a best move "e2e5" that is not a legal move there`},
		{gothicStart + " bm ;\n", `line 1 of t.epd has "bm" without a move`},
		{"rnbqckabnr/pppp w - - 0 1 bm e2e4;\n", "line 1 of t.epd is not a Gothic Chess position"},
		{"# only a comment\n", "t.epd holds no entry"},
	} {
		_, err := ReadSuite(strings.NewReader(tc.text), lookup(t, "gothic"), "t.epd")
		if err == nil || !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v; want an error saying %q", tc.text, err, tc.want)
		}
	}
}

// oracle plays the first best move of the entry it is shown.
type oracle struct{ best map[string]rules.Move }

func (o oracle) Name() string { return "oracle" }
func (o oracle) Move(_ context.Context, start rules.Position, _ []rules.Move) (rules.Move, error) {
	return o.best[start.String()], nil
}

// Run asks every player about every entry, in parallel, and the counts and the
// comparison follow from the moves: the oracle finds all, a player of first
// moves only the entries whose best move is its first.
func TestSuiteRun(t *testing.T) {
	v := lookup(t, "gothic")
	var text strings.Builder
	pos := v.Start(0)
	o := oracle{best: map[string]rules.Move{}}
	for i := 0; i < 6; i++ {
		legal := pos.LegalMoves()
		best := legal[len(legal)-1]
		if i%3 == 0 {
			best = legal[0] // the first-move player finds entries 0 and 3
		}
		o.best[pos.String()] = best
		text.WriteString(pos.String() + " bm " + pos.UCI(best) + ";\n")
		var err error
		if pos, err = pos.Play(legal[len(legal)/2]); err != nil {
			t.Fatal(err)
		}
	}
	es, err := ReadSuite(strings.NewReader(text.String()), v, "t")
	if err != nil {
		t.Fatal(err)
	}
	var seen int
	s := Suite{Entries: es, Jobs: 3, Players: func(w int) ([]Player, error) {
		return []Player{&firstMove{name: "first"}, o}, nil
	}, Progress: func(done int) { seen = done }}
	res, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if seen != 6 {
		t.Errorf("progress reached %d, want 6", seen)
	}
	if f, n := res.Count(0); f != 2 || n != 6 {
		t.Errorf("first moves found %d of %d, want 2 of 6", f, n)
	}
	if f, n := res.Count(1); f != 6 || n != 6 {
		t.Errorf("oracle found %d of %d, want 6 of 6", f, n)
	}
	onlyO, onlyF, z := res.Compare(1, 0)
	if onlyO != 4 || onlyF != 0 || math.Abs(z-2) > 1e-9 {
		t.Errorf("oracle against first moves: %d, %d, z %.3f; want 4, 0, z 2", onlyO, onlyF, z)
	}
	want := "oracle: 6 of 6 best moves found (100.0%); against first +4: 4 found only by oracle, 0 only by first, z 2.00"
	if !strings.Contains(res.String(), want) || !strings.Contains(res.String(), "first: 2 of 6 best moves found (33.3%)") {
		t.Errorf("summary:\n%s\nwant the line %q", res, want)
	}

	// A player's error stops the run, naming the player and the entry.
	s.Players = func(int) ([]Player, error) {
		return []Player{o, &firstMove{name: "broken", err: errors.New("engine died")}}, nil
	}
	if _, err := s.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "broken in line ") || !strings.Contains(err.Error(), "engine died") {
		t.Errorf("a failing player: %v", err)
	}
}

// The built-in engine searches each entry afresh: what it chooses in an entry
// does not depend on the entries it searched before.
func TestSuiteSearchesAfresh(t *testing.T) {
	v := lookup(t, "gothic")
	text := gothicStart + " bm e2e4;\n" +
		"r1bqck1b1r/p1p1ppp2p/2p4p1n/8p1/2pPPPPa2/P1N4P2/1P2C3PP/R1BQ1KA1NR b KQkq - 2 11 bm j6i4;\n" +
		"1rb1ckar2/1pn2p3p/p1n1p4p/3p1PA3/3bP1P3/3P1CqNP1/PPP7/RNBQ1K1B1R b KQ - 4 19 bm g3g4;\n"
	es, err := ReadSuite(strings.NewReader(text), v, "t")
	if err != nil {
		t.Fatal(err)
	}
	run := func(entries []SuiteEntry) []rules.Move {
		t.Helper()
		b := &Builtin{Label: "b", Engine: engine.New(engine.Options{HashBits: 16}), Limits: engine.Limits{Nodes: 4000}}
		res, err := Suite{Entries: entries, Players: func(int) ([]Player, error) { return []Player{b}, nil }}.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return res.Moves[0]
	}
	all := run(es)
	for i := range es {
		if alone := run(es[i : i+1]); alone[0] != all[i] {
			t.Errorf("entry %d: %v searched alone, %v after the others", i, alone[0], all[i])
		}
	}
}
