package console

import (
	"strings"
	"testing"
)

// A bare resign, abort or draw asks first, as Discord's button does; yes does it,
// anything else keeps the game, and with its slash the command runs at once.
func TestBareDestructiveCommandsAsk(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	s.run("/challenge gothic bob white\n/as bob\n/accept\n/as alice\ne2e4\n/as bob\ne7e5\n/as alice\n")
	out := s.run("resign\n")
	expect(t, out, "Resign your game? Say yes to do it; anything else keeps the game as it is.")
	if s.game("1").Active() == false {
		t.Fatalf("a bare resign resigned at once:\n%s", out)
	}
	out = s.run("board\n")
	expect(t, out, "Not done: /resign. Nothing has changed.", "== Game 1 ")
	expect(t, s.run("draw\nno\n"), "Offer a draw in your game", "Not done: /draw.")
	if g := s.game("1"); !g.Active() || g.DrawOffer != nil {
		t.Fatalf("after no: active %v, draw offer %v", g.Active(), g.DrawOffer)
	}
	expect(t, s.run("resign game:1\nyes\n"), "Resign game 1?", "alice (white) resigned.")
	if s.game("1").Active() {
		t.Fatal("yes did not resign")
	}
	s.run("/challenge gothic bob white\n/as bob\n/accept\n/as alice\n")
	expect(t, s.line("/abort"), "Game 2")
	if s.game("2").Active() {
		t.Fatal("/abort with its slash did not abort at once")
	}
}

// Bare words that are neither a move nor a command are refused as such, never
// taken for a game's name.
func TestBareWordsUnreadable(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	s.run("/challenge gothic bob white\n/as bob\n/accept\n/as alice\n")
	for _, line := range []string{"hello world", "Nf3 please"} {
		out := s.line(line)
		expect(t, out, `[refused] I cannot read "`+line+`": a line without a slash is one move, such as Nf3 or e2e4`)
		if strings.Contains(out, "There is no game") {
			t.Errorf("%q was read as a game:\n%s", line, out)
		}
	}
	expect(t, s.line("e2e4 game:1"), "alice (white) played e4.")
}

// A position written without its quotes is refused with the position quoted.
func TestUnquotedFEN(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	out := s.line("/challenge gothic bob fen:k9/10/3Q6/10/10/10/10/K9 w - - 0 1 color:white")
	expect(t, out, `[refused] A position goes in double quotes, for its fields are separated by spaces: fen:"k9/10/3Q6/10/10/10/10/K9 w - - 0 1".`)
	if strings.Contains(out, "days per move") {
		t.Errorf("the position's fields were read as options:\n%s", out)
	}
	expect(t, s.line(`/challenge gothic bob fen:"k9/10/3Q6/10/10/10/10/K9 w - - 0 1" color:white`), "alice challenges bob")
}

// A bare move goes to the one game where it is the player's move and the move is
// legal; where it is the player's move in no game, the console says so.
func TestBareMoveFindsItsGame(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	s.run("/challenge gothic bob white\n/as bob\n/accept\n/as alice\n/challenge keltic bob white\n/as bob\n/accept\n/as alice\n")
	out := s.run("e3e4\ne2e4\nd2d4\n")
	expect(t, out, "== Game 2 · Keltic Chess", "alice (white) played e4.", "== Game 1 · Gothic Chess", "alice (white) played e4.",
		"[refused] It is not your move in any of your games (#1, #2); you will be told when it is.")
	if strings.Contains(out, "say which") {
		t.Errorf("the console asked which game:\n%s", out)
	}
}
