package console

import "testing"

// In Gess each player sees their own stones nearest to them (issue 16): Black, who
// moves first from ranks 2-7, reads rank 1 at the bottom; White reads it at the top.
func TestGessBoardsFaceTheirPlayer(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	out := s.run("/challenge gess bob white\n/as bob\n/accept\n")
	expect(t, out, "bob (black) to move", "a b c d e", "19    . o", " 2    . x", " 1  ", "a b c d e", "game-1-0-black.png")
	// The reply to bob's move is for bob, who alone reads it at the console.
	out = s.run("e3-e5\n")
	expect(t, out, "alice (white) to move", "a b c d e", "19    . o", " 2    . x", " 1  ", "a b c d e", "game-1-1-black.png")
	out = s.run("/as alice\n/board\n")
	expect(t, out, "alice (white) to move", "t s r q p", " 1  ", " 2    . x", "19    . o", "20  ", "t s r q p", "game-1-1-white.png")
}

// A Go-Chess game begins with both players to choose: its start names both and
// says what each does.
func TestGoChessStartNamesBothPlayers(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	out := s.run("/challenge gochess bob white\n/as bob\n/accept\n")
	expect(t, out, "Game 1 begins: alice (white) vs bob (black).", "alice (white) and bob (black) both to choose",
		"alice and bob: each choose the cell for your pawn with /place; a choice stays secret until both have chosen.")
}
