package match

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
)

// An opening is a function of the match's seed and the pair: the same arguments
// give the same opening, other pairs another one, and Run plays exactly these.
func TestOpeningsAreSeededPerPair(t *testing.T) {
	v := lookup(t, "gothic")
	o := NewOpening(v, 7, 0, 4)
	if len(o.Moves) != 4 || !slices.Equal(o.Moves, NewOpening(v, 7, 0, 4).Moves) {
		t.Fatalf("opening %v, want 4 moves, the same each time", o.Moves)
	}
	if slices.Equal(o.Moves, NewOpening(v, 7, 1, 4).Moves) || slices.Equal(o.Moves, NewOpening(v, 8, 0, 4).Moves) {
		t.Errorf("another pair or seed plays the same opening %v", o.Moves)
	}
	pos, err := o.Position()
	if err != nil || pos.Outcome().IsOver() {
		t.Fatalf("position after the opening: %v, %v", pos, err)
	}
	if none := NewOpening(v, 7, 0, 0); len(none.Moves) != 0 || none.Start.String() != v.Start(0).String() {
		t.Errorf("no plies: %v from %s", none.Moves, none.Start)
	}
	_, games, err := Run(context.Background(), Config{Variant: v, A: &firstMove{name: "a"}, B: &firstMove{name: "b"},
		Games: 4, MaxPlies: 8, OpeningPlies: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range games {
		if want := NewOpening(v, 7, i/2, 3).Moves; !slices.Equal(g.Moves[:3], want) {
			t.Errorf("game %d opens %v, want %v", i+1, g.Moves[:3], want)
		}
	}
}

// A placement phase is the whole opening: no moves, the blocked cells drawn per pair.
func TestOpeningOfAPlacementPhase(t *testing.T) {
	v := lookup(t, "gochess")
	o := NewOpening(v, 3, 0, 4)
	if _, ok := o.Start.(rules.Simultaneous); !ok || len(o.Moves) != 0 {
		t.Fatalf("Go-Chess opening %T with %d moves, want the placement phase and none", o.Start, len(o.Moves))
	}
	if o.Start.String() != NewOpening(v, 3, 0, 4).Start.String() {
		t.Error("the same pair gets other blocked cells")
	}
	differ := false
	for pair := 1; pair < 5 && !differ; pair++ {
		differ = NewOpening(v, 3, pair, 4).Start.String() != o.Start.String()
	}
	if !differ {
		t.Error("every pair gets the same blocked cells")
	}
}

func TestSeatsAlternate(t *testing.T) {
	for game, want := range []string{"ab", "ba", "ab", "ba"} {
		w, b := Seats(game, "a", "b")
		if w+b != want || (FirstSide(game) == rules.White) != (w == "a") {
			t.Errorf("game %d: %s - %s, want %s", game, w, b, want)
		}
	}
}

func TestAdjudicate(t *testing.T) {
	for _, c := range []struct {
		plies, max int
		capped     bool
	}{{5, 6, false}, {6, 6, true}, {7, 6, true}, {1000, 0, false}} {
		o, capped := Adjudicate(c.plies, c.max)
		if capped != c.capped || capped && o != rules.Draw(rules.Adjudication) {
			t.Errorf("Adjudicate(%d, %d) = %v, %v", c.plies, c.max, o, capped)
		}
	}
}

// ReadOpenings reads one FEN a line, in order, skipping blank lines and comments;
// a line that is no position of the variant, a finished game or a text without
// positions is refused with a sentence that names the line.
func TestReadOpenings(t *testing.T) {
	v := lookup(t, "gothic")
	after := "rnbqckabnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBQCKABNR b KQkq - 0 1"
	got, err := ReadOpenings(strings.NewReader("# two starts\n\n"+v.Start(0).String()+"\n  "+after+"  \n"), v, "suite.fen")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].String() != v.Start(0).String() || got[1].String() != after {
		t.Fatalf("read %v, want the start and %s", got, after)
	}
	for _, tc := range []struct{ text, want string }{
		{"# one\n" + after + "\n8/8 w\n", "line 3 of suite.fen is not a Gothic Chess position: The board of this FEN"},
		{"4k5/10/10/10/10/10/10/4K5 w - - 0 1\n", "line 1 of suite.fen is a finished game"},
		{"# nothing\n\n", "suite.fen holds no position"},
	} {
		_, err := ReadOpenings(strings.NewReader(tc.text), v, "suite.fen")
		if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v; want a configuration error saying %q", tc.text, err, tc.want)
		}
	}
}
