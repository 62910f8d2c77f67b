package views_test

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/bot/bottest"
)

// /games lists the games waiting for the user's move first, least time left
// first, and /next shows the board of the first of them.
func TestNextByUrgency(t *testing.T) {
	h := bottest.New(t)
	g1 := h.Start("gothic", "days:7")
	g2 := h.Start("keltic", "days:2")
	g3 := h.Start("gess", "days:1") // bob moves first
	lines := strings.Split(h.Ok("alice", "games").Text, "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "#"+g2+" ") || !strings.HasPrefix(lines[1], "#"+g1+" ") ||
		!strings.HasPrefix(lines[2], "#"+g3+" ") || !strings.Contains(lines[1], "**your move**") {
		t.Fatalf("games:\n%s", strings.Join(lines, "\n"))
	}
	r := h.Ok("alice", "next")
	if r.Game == nil || r.Game.ID != g2 || len(r.Files) != 1 || !strings.Contains(r.Text, "1 game more waiting for your move") {
		t.Fatalf("next: %+v", r)
	}
	if r := h.Ok("bob", "next"); r.Game == nil || r.Game.ID != g3 || strings.Contains(r.Text, "more waiting") {
		t.Fatalf("bob's next: %+v", r)
	}
	moveAny := func(user, id string) { // any legal move
		g := h.Game(id)
		h.Ok(user, "move game:"+id+" move:"+g.Position.UCI(g.Position.LegalMoves()[0]))
	}
	moveAny("alice", g2)
	if r := h.Ok("alice", "next"); r.Game == nil || r.Game.ID != g1 || strings.Contains(r.Text, "more waiting") {
		t.Fatalf("next after a move: %+v", r)
	}
	moveAny("alice", g1)
	if r := h.Ok("alice", "next"); r.Game != nil || !strings.Contains(r.Text, "No game is waiting for your move") {
		t.Fatalf("next with nothing waiting: %+v", r)
	}
	// Time left decides between two games waiting: g1's deadline (7 days from its
	// move) is later than g2's (2 days), however they were started.
	moveAny("bob", g2)
	moveAny("bob", g1)
	if r := h.Ok("alice", "next"); r.Game == nil || r.Game.ID != g2 {
		t.Fatalf("next by time left: %+v", r)
	}
}
