package gess

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
)

// build returns the position with black and white stones on the squares listed
// (space-separated names) and turn to move, going through the position text.
func build(t testing.TB, turn rules.Side, black, white string) *Position {
	t.Helper()
	var grid [Size][Size]byte // [rank][file]
	for r := range grid {
		for f := range grid[r] {
			grid[r][f] = '.'
		}
	}
	place := func(names string, c byte) {
		for _, name := range strings.Fields(names) {
			sq, err := dims.ParseSquare(name)
			if err != nil {
				t.Fatalf("build: %v", err)
			}
			f, r := coords(sq)
			if grid[r][f] != '.' {
				t.Fatalf("build: %s listed twice", name)
			}
			grid[r][f] = c
		}
	}
	place(black, 'x')
	place(white, 'o')
	rows := make([]string, Size)
	for r := range grid {
		rows[Size-1-r] = string(grid[r][:])
	}
	side := "b"
	if turn == rules.White {
		side = "w"
	}
	p, err := ParsePosition(strings.Join(rows, "/") + " " + side)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return p
}

// ring lists the eight perimeter squares of the ring centred on centre.
func ring(centre string) string {
	sq, err := dims.ParseSquare(centre)
	if err != nil {
		panic(err)
	}
	f, r := coords(sq)
	var out []string
	for dr := -1; dr <= 1; dr++ {
		for df := -1; df <= 1; df++ {
			if df != 0 || dr != 0 {
				out = append(out, squareName(square(f+df, r+dr)))
			}
		}
	}
	return strings.Join(out, " ")
}

// sq parses a square name of the frame or panics.
func sq(name string) rules.Square {
	s, err := dims.ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return s
}

// mv returns the move between two named centres.
func mv(from, to string) rules.Move { return rules.Move{From: sq(from), To: sq(to)} }

// movesFrom returns the targets of the legal moves of p leaving from, by name, in order.
func movesFrom(p rules.Position, from string) []string {
	var out []string
	for _, m := range p.LegalMoves() {
		if m.From == sq(from) {
			out = append(out, squareName(m.To))
		}
	}
	return out
}

// randomGames plays games of random legal moves from the start position, at most
// maxPlies each, and calls visit with every position reached (the start included).
// Pure random play throws a ring away within a few moves, so a move that decides the
// game is drawn again up to a few times: games then last into the middlegame.
func randomGames(seed uint64, games, maxPlies int, visit func(p *Position)) {
	rng := rand.New(rand.NewPCG(seed, 0x6765737321))
	for g := 0; g < games; g++ {
		p := StartPosition()
		visit(p)
		for ply := 0; ply < maxPlies; ply++ {
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			var next rules.Position
			for try := 0; try < 10; try++ {
				var err error
				if next, err = p.Play(moves[rng.IntN(len(moves))]); err != nil {
					panic(err)
				}
				if !next.Outcome().IsOver() {
					break
				}
			}
			p = next.(*Position)
			visit(p)
		}
	}
}

// middlegame returns a position after plies random moves that is still going on.
func middlegame(tb testing.TB, seed uint64, plies int) *Position {
	tb.Helper()
	for s := seed; s < seed+100; s++ {
		var last *Position
		n := 0
		randomGames(s, 1, plies, func(p *Position) { last = p; n++ })
		if n == plies+1 && !last.Outcome().IsOver() {
			return last
		}
	}
	tb.Fatalf("no random game of %d plies stayed undecided", plies)
	return nil
}
