package console

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/storage"
)

// lines runs each line as typed at the terminal, without the wait of a script's
// end, and returns what they printed.
func (s *session) lines(lines ...string) string {
	s.t.Helper()
	s.out.Reset()
	for _, l := range lines {
		s.con.Line(context.Background(), l)
	}
	return strings.ReplaceAll(s.out.String(), s.dir, "<dir>")
}

// match loads match id.
func (s *session) match(id string) *storage.Match {
	s.t.Helper()
	return load(s, func(tx *storage.Tx) (*storage.Match, error) { return tx.Match(id) })
}

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

// /match runs in the background as the bot runs it: the prompt comes back at once,
// /match score and /match stop answer while the engines think, and each game's
// result is printed as it comes.
func TestMatchInBackground(t *testing.T) {
	t.Parallel()
	eng := &bottest.Engine{Offers: true, Gate: make(chan struct{})} // every move waits for the gate
	s := newSessionWith(t, eng)
	out := s.lines("/as admin", "/match variant:keltic first_level:1 second_level:2 games:2 max_plies:20", "/match action:score")
	expect(t, out, "Match 1 has begun", "== Match 1 · Missive engine (level 1) vs Missive engine (level 2) ==", "game 1 (1 of 2) is in progress")
	close(eng.Gate) // the engines may move: the match plays on to its end
	s.svc.Idle()
	out = s.out.String()
	expect(t, out, "Game 1 of 2: Missive engine (level 1) (white) – Missive engine (level 2) (black)",
		"Game 2 of 2: Missive engine (level 2) (white) – Missive engine (level 1) (black)", "The match is over.")

	eng.Mu.Lock()
	eng.Gate = make(chan struct{})
	eng.Mu.Unlock()
	out = s.lines("/match variant:gothic first_level:1 second_level:2 games:4 max_plies:20", "/match action:stop match:2")
	expect(t, out, "Match 2 has begun", "admin stopped the match.")
	eng.Mu.Lock()
	close(eng.Gate)
	eng.Mu.Unlock()
	s.svc.Idle()
	if m := s.match("2"); m.Status != storage.MatchStopped || len(m.GameIDs) != 1 {
		t.Errorf("match 2 is %s after %d games", m.Status, len(m.GameIDs))
	}
}

// At a terminal, a match's news that comes while the prompt waits starts on a line
// of its own, and the prompt is shown again after it.
func TestMatchNewsAtThePrompt(t *testing.T) {
	t.Parallel()
	eng := &bottest.Engine{Offers: true, Gate: make(chan struct{})}
	s := newSessionWith(t, eng)
	s.con.prompt = true
	in, typed := io.Pipe()
	done := make(chan error)
	go func() { done <- s.con.Run(context.Background(), in) }()
	if _, err := io.WriteString(typed, "/as admin\n/match variant:keltic first_level:1 second_level:2 games:1 max_plies:20\n"); err != nil {
		t.Fatal(err)
	}
	// The prompt after /match is printed once the line that follows is asked for:
	// an empty line is read after it.
	if _, err := io.WriteString(typed, "\n"); err != nil {
		t.Fatal(err)
	}
	close(eng.Gate)
	s.svc.Idle()
	typed.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	out := s.out.String()
	expect(t, out, "Match 1 has begun", "admin> \n>> to ", "The match is over.", "admin> ")
	if strings.Contains(out, "admin> >>") {
		t.Errorf("news was printed after the prompt on its line:\n%s", out)
	}
}
