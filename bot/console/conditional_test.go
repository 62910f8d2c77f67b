package console

import "testing"

// Conditional moves and /next typed in the console: bob prepares a line while he
// waits, alice's matching move is answered at once, and the line moves on.
func TestConditionalSession(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	out := s.run(`
/challenge variant:gothic opponent:bob color:white days:2
/as bob
/accept
/as alice
e4
/as bob
e5
/conditional add "Nc3 Nc6 Nh3 Nh6"
/as alice
/conditional show
Nc3
/next
/as bob
/conditional show
`)
	expect(t, out,
		"Conditional line added in game 1: if 2. Nc3 then 2... Nc6; if 3. Nh3 then 3... Nh6.",
		"You are now alice.", "You have no conditional lines in game 1.",
		"alice (white) played Nc3.", "bob (black) played Nc6. bob had this conditional reply ready.",
		"(@bob)", "== Game 1 · Gothic Chess · alice vs bob ==", "alice (white) to move",
		"Your conditional lines in game 1 (only you can see them):", "1. if 3. Nh3 then 3... Nh6")
}
