package console

import (
	"strings"
	"testing"
)

// A round robin among three people and the built-in engine, played to the end in the
// console with the clock moved by /wait: the engine answers at once, a player
// resigns, another withdraws, and the games nobody plays are lost on time.
func TestTournamentSession(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	out := s.run(`
/as alice
/tournament create name:"Club Cup" variant:gothic format:round-robin days:1 rated:yes engines:builtin
/tournament join
/tournament join engine:builtin level:1
/tournament join engine:stockfish
/as bob
/tournament join
/as carol
/tournament join
/tournament info
/as alice
/tournament start
/tournament start
/tournament standings
`)
	expect(t, out,
		"Tournament 1 is open", "Engines allowed", "builtin",
		"alice joined tournament 1 (1 player)", "joined tournament 1 (2 players)",
		`[refused] Engine "stockfish" may not enter tournament 1 (allowed: builtin).`,
		"bob joined tournament 1 (3 players)",
		"carol joined tournament 1 (4 players)",
		"Players (4)",
		"Tournament 1 has begun with 4 players",
		"All games have started.",
		"[refused] Tournament 1 has already started.",
		"Standings after 3 of 3 rounds paired, 6 games in progress",
	)
	// bob resigns his first game; carol withdraws; then three days pass.
	out = s.run(`
/as bob
/games
`)
	if !strings.Contains(out, "#2 Gothic Chess vs Missive engine (level 1) (you: black)") {
		t.Fatalf("bob's games:\n%s", out)
	}
	out = s.run(`
/as bob
/resign game:2
/as carol
/tournament leave
/tournament leave
/wait 3d
/as alice
/tournament standings
/tournament info
`)
	expect(t, out,
		"carol withdrew from tournament 1",
		"[refused] You are not playing in tournament 1.",
		"The tournament is over:",
		"Final standings.",
		"carol (w/d)",
		"finished",
	)
	if n := strings.Count(out, "ran out of time"); n == 0 {
		t.Fatalf("no game was lost on time:\n%s", out)
	}
	s.close()
	s.open() // everything is kept
	out = s.run("/tournament standings tournament:1\n/leaderboard variant:gothic\n/profile player:bob\n")
	expect(t, out, "Final standings.", "standings-1.png", "Gothic Chess leaderboard", "Missive engine (level 1)",
		"2 games: 0 won, 0 drawn, 2 lost")
	if strings.Contains(out, "```") {
		t.Errorf("Markdown fences in the terminal:\n%s", out)
	}
	out = s.run("/tournament standings tournament:1 show:table\n")
	expect(t, out, "Final standings.", "Sonneborn-Berger")
	if strings.Contains(out, "```") || strings.Contains(out, ".png") {
		t.Errorf("the text standings:\n%s", out)
	}
}
