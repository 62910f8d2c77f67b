package play_test

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/bot/bottest"
)

// A move or a placement typed without a game goes to the one game it fits: of the
// games where it is the player's move, those where it applies and is legal; only
// when several fit is the player asked which, among those.
func TestGameChosenByWhatFits(t *testing.T) {
	h := bottest.New(t)
	gothic := h.Start("gothic", "color:white")
	keltic := h.Start("keltic", "color:white")
	gothic2 := h.Start("gothic", "color:white")
	place := h.Start("toyplace", "")

	// Only the placement game has a placement round.
	r := h.Ok("alice", "place cell:a1")
	if !strings.Contains(r.Text, "You chose **a1**") || len(h.Game(place).Moves) != 1 {
		t.Fatalf("/place went elsewhere: %s", r.Text)
	}
	// e3e4 is a legal move in Keltic only (a Gothic pawn stands on e2).
	h.Ok("alice", "move move:e3e4")
	if len(h.Game(keltic).Moves) != 1 {
		t.Fatal("e3e4 did not go to the Keltic game")
	}
	// e2e4 is legal in both Gothic games: the question names those two only.
	r = h.Refused("alice", "move move:e2e4", "That fits 2 of the games where it is your move (#1, #3): say which with game:<number>.")
	if r.Choice == nil || len(r.Choice.Options) != 2 {
		t.Fatalf("choice %+v", r.Choice)
	}
	// A move legal nowhere asks among the games where it is her move.
	h.Refused("alice", "move move:Qxz9", "That fits none of the 2 games where it is your move (#1, #3)")
	h.Refused("alice", "place cell:b2", "That applies to none of the 2 games where it is your move (#1, #3).")
	h.Ok("alice", "move game:"+gothic+" move:e2e4")
	h.Ok("alice", "move game:"+gothic2+" move:e2e4")
	// Now it is bob's move everywhere but in the placement round alice has played.
	h.Refused("alice", "move move:d2d4", "It is not your move in any of your games (#1, #2, #3, #4); you will be told when it is.")
}
