package console

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An engine match in the console: started, played to the end by the built-in
// engine at two levels, each result printed and the PGN of every game saved.
func TestMatchSession(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	out := s.run(`
/as admin
/match variant:keltic first_level:1 second_level:2 games:2 max_plies:30
/match action:score
`)
	expect(t, out,
		"Match 1 has begun: Match 1 · Missive engine (level 1) vs Missive engine (level 2), 2 games of Keltic Chess",
		"Game 1 of 2: Missive engine (level 1) (white) – Missive engine (level 2) (black)",
		"Game 2 of 2: Missive engine (level 2) (white) – Missive engine (level 1) (black)",
		"The match is over.", "All 2 games played.", "[pgn] <dir>/files/match-1.pgn",
	)
	pgn, err := os.ReadFile(filepath.Join(s.dir, "files", "match-1.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(pgn), `[Event "Missive engine match 1"]`); n != 2 {
		t.Errorf("the saved PGN holds %d games of the match:\n%s", n, pgn)
	}
}
