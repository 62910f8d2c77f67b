package challenges_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/challenges"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// A finished game offers a rematch: its button (and /rematch) challenges the
// opponent to the same game with colours swapped; the opponent's own /rematch
// accepts it; against the engine the new game starts at once.
func TestRematch(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "rated:true days:5")
	h.Refused("alice", "rematch game:"+id, "still being played")
	r := h.Ok("bob", "resign")
	i := slices.IndexFunc(r.Actions, func(a bot.Action) bool { return a.Command == challenges.CmdRematch })
	if i < 0 || r.Actions[i].Args.Get("game") != id {
		t.Fatalf("the final board has no rematch button: %+v", r.Actions)
	}
	h.Refused("carol", "rematch game:"+id, "not playing")

	r = h.Ok("bob", "rematch game:"+id) // the button
	if !strings.Contains(r.Text, "a rematch of game "+id) || len(r.Actions) == 0 {
		t.Fatalf("rematch offer %+v", r)
	}
	c := h.Challenge(r.Actions[0].Args.Get("challenge"))
	if c.Challenger.ID != "bob" || c.Opponent.ID != "alice" || c.Color != storage.ColorWhite || c.Variant != "gothic" ||
		c.DaysPerMove != 5 || !c.Rated || c.Status != storage.ChallengeOpen {
		t.Fatalf("rematch challenge %+v", c)
	}
	if !slices.Contains(r.Mentions, "alice") {
		t.Fatalf("the offer does not mention alice: %+v", r.Mentions)
	}
	h.Refused("bob", "rematch", "already challenged alice")

	r = h.Ok("alice", "rematch") // her last finished game; bob's offer is accepted
	if r.Started == nil {
		t.Fatalf("alice's rematch did not start the game: %s", r.PlainText())
	}
	g := h.Game(r.Started.ID)
	if g.Players[rules.White].ID != "bob" || g.Players[rules.Black].ID != "alice" || !g.Rated || g.Clock.DaysPerMove != 5 ||
		g.Variant != "gothic" {
		t.Fatalf("rematch game %+v", g)
	}
	if c := h.Challenge(c.ID); c.Status != storage.ChallengeAccepted || c.Game != g.ID {
		t.Fatalf("challenge after the rematch %+v", c)
	}

	// A time-bank clock is offered again as it was.
	b := h.Start("keltic", "bank:30+1/45")
	h.Ok("alice", "resign game:"+b)
	r = h.Ok("bob", "rematch game:"+b)
	if c := h.Challenge(r.Actions[0].Args.Get("challenge")); c.Bank == nil || *c.Bank != *h.Game(b).Clock.Bank || c.DaysPerMove != 0 {
		t.Fatalf("rematch of a time-bank game: %+v (bank %+v)", c, c.Bank)
	}

	// Against the engine: at once, colours swapped.
	e := h.Ok("alice", "challenge variant:keltic engine:builtin color:white days:2").Started.ID
	h.Ok("alice", "resign game:"+e)
	r = h.Ok("alice", "rematch game:"+e)
	if r.Started == nil || !strings.Contains(r.Text, "Rematch of game "+e) {
		t.Fatalf("engine rematch %s", r.PlainText())
	}
	g = h.Game(r.Started.ID)
	if g.Players[rules.Black].ID != "alice" || !g.Players[rules.White].IsEngine() || g.Clock.DaysPerMove != 2 || g.Rated {
		t.Fatalf("engine rematch game %+v", g)
	}
}
