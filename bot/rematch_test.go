package bot

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// challenge loads challenge id.
func (h *harness) challenge(id string) *storage.Challenge {
	h.t.Helper()
	var c *storage.Challenge
	if err := h.store.View(context.Background(), func(tx *storage.Tx) (err error) {
		c, err = tx.Challenge(id)
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	return c
}

// A finished game offers a rematch: its button (and /rematch) challenges the
// opponent to the same game with colours swapped; the opponent's own /rematch
// accepts it; against the engine the new game starts at once.
func TestRematch(t *testing.T) {
	h := newHarness(t)
	id := h.start("gothic", "rated:true days:5")
	h.refused("alice", "rematch game:"+id, "still being played")
	r := h.ok("bob", "resign")
	i := slices.IndexFunc(r.Actions, func(a Action) bool { return a.Command == CmdRematch })
	if i < 0 || r.Actions[i].Args.Get("game") != id {
		t.Fatalf("the final board has no rematch button: %+v", r.Actions)
	}
	h.refused("carol", "rematch game:"+id, "not playing")

	r = h.ok("bob", "rematch game:"+id) // the button
	if !strings.Contains(r.Text, "a rematch of game "+id) || len(r.Actions) == 0 {
		t.Fatalf("rematch offer %+v", r)
	}
	c := h.challenge(r.Actions[0].Args.Get("challenge"))
	if c.Challenger.ID != "bob" || c.Opponent.ID != "alice" || c.Color != storage.ColorWhite || c.Variant != "gothic" ||
		c.DaysPerMove != 5 || !c.Rated || c.Status != storage.ChallengeOpen {
		t.Fatalf("rematch challenge %+v", c)
	}
	if !slices.Contains(r.Mentions, "alice") {
		t.Fatalf("the offer does not mention alice: %+v", r.Mentions)
	}
	h.refused("bob", "rematch", "already challenged alice")

	r = h.ok("alice", "rematch") // her last finished game; bob's offer is accepted
	if r.Started == nil {
		t.Fatalf("alice's rematch did not start the game: %s", r.PlainText())
	}
	g := h.game(r.Started.ID)
	if g.Players[rules.White].ID != "bob" || g.Players[rules.Black].ID != "alice" || !g.Rated || g.Clock.DaysPerMove != 5 ||
		g.Variant != "gothic" {
		t.Fatalf("rematch game %+v", g)
	}
	if c := h.challenge(c.ID); c.Status != storage.ChallengeAccepted || c.Game != g.ID {
		t.Fatalf("challenge after the rematch %+v", c)
	}

	// A time-bank clock is offered again as it was.
	b := h.start("keltic", "bank:30+1/45")
	h.ok("alice", "resign game:"+b)
	r = h.ok("bob", "rematch game:"+b)
	if c := h.challenge(r.Actions[0].Args.Get("challenge")); c.Bank == nil || *c.Bank != *h.game(b).Clock.Bank || c.DaysPerMove != 0 {
		t.Fatalf("rematch of a time-bank game: %+v (bank %+v)", c, c.Bank)
	}

	// Against the engine: at once, colours swapped.
	e := h.ok("alice", "challenge variant:keltic engine:builtin color:white days:2").Started.ID
	h.ok("alice", "resign game:"+e)
	r = h.ok("alice", "rematch game:"+e)
	if r.Started == nil || !strings.Contains(r.Text, "Rematch of game "+e) {
		t.Fatalf("engine rematch %s", r.PlainText())
	}
	g = h.game(r.Started.ID)
	if g.Players[rules.Black].ID != "alice" || !g.Players[rules.White].IsEngine() || g.Clock.DaysPerMove != 2 || g.Rated {
		t.Fatalf("engine rematch game %+v", g)
	}
}
