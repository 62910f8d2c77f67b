package ratings_test

import (
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot/bottest"
)

// A rated game moves both ratings once, with the result counted; casual and aborted
// games change nothing; a timeout is rated.
func TestRatedGames(t *testing.T) {
	h := bottest.New(t)
	casual := h.Start("gothic", "")
	h.Ok("bob", "resign game:"+casual)
	if h.Rating("gothic", "alice") != nil {
		t.Fatal("a casual game was rated")
	}
	aborted := h.Start("gothic", "rated:yes")
	h.Ok("alice", "abort game:"+aborted)
	if h.Rating("gothic", "alice") != nil {
		t.Fatal("an aborted game was rated")
	}
	won := h.Start("gothic", "rated:yes")
	h.Ok("bob", "resign game:"+won)
	a, b := h.Rating("gothic", "alice"), h.Rating("gothic", "bob")
	if a == nil || b == nil || a.Rating <= 1500 || b.Rating >= 1500 || a.Wins != 1 || b.Losses != 1 || a.Games != 1 || a.RD >= 350 {
		t.Fatalf("after a win: alice %+v, bob %+v", a, b)
	}
	h.Do("bob", "resign game:"+won) // refused: the game is over; nothing is rated again
	if again := h.Rating("gothic", "alice"); again.Games != 1 || again.Rating != a.Rating {
		t.Fatalf("rated twice: %+v", again)
	}
	// Alice, to move, lets her clock run out.
	timeout := h.Start("gothic", "rated:yes days:1")
	h.Clock.Advance(25 * time.Hour)
	h.Tick()
	a2, b2 := h.Rating("gothic", "alice"), h.Rating("gothic", "bob")
	if a2.Games != 2 || a2.Losses != 1 || b2.Wins != 1 || a2.Rating >= a.Rating {
		t.Fatalf("after a timeout in game %s: alice %+v, bob %+v", timeout, a2, b2)
	}

	lb := h.Ok("carol", "leaderboard variant:gothic").PlainText()
	if strings.Contains(lb, "engine:") || !strings.Contains(lb, "alice") || !strings.Contains(lb, "bob") || !strings.Contains(lb, "?") {
		t.Fatalf("leaderboard:\n%s", lb)
	}
	if i, j := strings.Index(lb, "alice"), strings.Index(lb, "bob"); (a2.Rating > b2.Rating) != (i < j) {
		t.Fatalf("leaderboard out of order:\n%s", lb)
	}
	if top := h.Ok("carol", "leaderboard variant:gothic top:1").PlainText(); strings.Contains(top, "alice") == strings.Contains(top, "bob") {
		t.Fatalf("top 1:\n%s", top)
	}
	h.Refused("carol", "leaderboard variant:gothic top:0", "top must be a number from 1 to 50")
	if txt := h.Ok("carol", "leaderboard variant:keltic").PlainText(); !strings.Contains(txt, "Nobody") {
		t.Fatalf("empty leaderboard: %s", txt)
	}
	card := h.Ok("carol", "profile player:alice").PlainText()
	if !strings.Contains(card, "2 games: 1 won, 0 drawn, 1 lost") || !strings.Contains(card, "Gothic") {
		t.Fatalf("profile:\n%s", card)
	}
	if txt := h.Ok("carol", "profile").PlainText(); !strings.Contains(txt, "no rated games") {
		t.Fatalf("own empty profile: %s", txt)
	}
}
