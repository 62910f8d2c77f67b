package match

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// A parallel match plays the same pairs as Run: the same openings and colours,
// every game once, and counts each pair by its score.
func TestParallelPlaysEveryPairOnce(t *testing.T) {
	v := lookup(t, "gothic")
	var pgn bytes.Buffer
	c := Config{Variant: v, A: &firstMove{name: "a"}, B: &firstMove{name: "b"}, Games: 7, MaxPlies: 6, OpeningPlies: 2, Seed: 5, PGN: &pgn}
	made := 0
	p := Parallel{Config: c, Jobs: 3, Players: func(int) (Player, Player, error) {
		made++
		return &firstMove{name: "a"}, &firstMove{name: "b"}, nil
	}}
	sum, penta, err := p.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if made != 3 {
		t.Errorf("%d workers' players made, want 3", made)
	}
	// Every game is drawn at the cap: 3 full pairs score 1 point each, the odd 7th game is no pair.
	if sum.Games() != 7 || sum.Draws != 7 || penta != (Pentanomial{0, 0, 3, 0, 0}) {
		t.Fatalf("summary %+v, pairs %v; want 7 draws and 3 even pairs", sum, penta)
	}
	if n := strings.Count(pgn.String(), "[Event "); n != 7 {
		t.Errorf("PGN holds %d games, want 7", n)
	}
	for i := range 7 {
		if !strings.Contains(pgn.String(), fmt.Sprintf("[Round %q]", strconv.Itoa(i+1))) {
			t.Errorf("game %d missing from the parallel PGN", i+1)
		}
	}
}

// Stop ends the match after the pair that decided it.
func TestParallelStops(t *testing.T) {
	v := lookup(t, "gothic")
	c := Config{Variant: v, A: &firstMove{name: "a"}, B: &firstMove{name: "b"}, Games: 20, MaxPlies: 4, Seed: 1}
	p := Parallel{Config: c, Jobs: 1,
		Players: func(int) (Player, Player, error) { return &firstMove{name: "a"}, &firstMove{name: "b"}, nil },
		Stop:    func(_ Summary, p Pentanomial) bool { return p.Pairs() >= 2 }}
	sum, penta, err := p.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Games() != 4 || penta.Pairs() != 2 {
		t.Errorf("played %d games, %d pairs; want the match stopped after 2 pairs", sum.Games(), penta.Pairs())
	}
}
