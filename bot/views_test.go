package bot_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/play"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

func TestSettings(t *testing.T) {
	h := bottest.New(t)
	r := h.Ok("alice", "settings")
	if !r.Private || !strings.Contains(r.PlainText(), "24 h, 2 h before the deadline (default)") {
		t.Fatalf("defaults: %s", r.PlainText())
	}
	h.Ok("alice", "settings notify:both theme:night reminders:48,12,1")
	r = h.Ok("alice", "settings")
	for _, want := range []string{"both", "night", "48 h, 12 h, 1 h"} {
		if !strings.Contains(r.PlainText(), want) {
			t.Errorf("settings lack %q: %s", want, r.PlainText())
		}
	}
	id := h.Start("gothic", "")
	if b := h.Ok("alice", "board game:"+id); !strings.Contains(string(b.Files[0].Data), "theme=night") {
		t.Errorf("theme not used: %s", b.Files[0].Data)
	}
	// Changing reminders re-plans the wake-up of games already running.
	h.Ok("alice", "settings reminders:none")
	if w := h.Game(id).Clock.Wake; !w.IsZero() {
		t.Errorf("wake %v after turning reminders off", w)
	}
	h.Ok("alice", "settings reminders:5")
	if w := h.Game(id).Clock.Wake; !w.Equal(h.Game(id).Clock.Deadline.Add(-5 * time.Hour)) {
		t.Errorf("wake %v", w)
	}
}

func TestCommandSpecs(t *testing.T) {
	h := bottest.New(t)
	seen := map[string]bool{}
	for _, c := range h.Svc.Commands() {
		if seen[c.Name] || c.Description == "" || len(c.Description) > 100 {
			t.Errorf("command %q: duplicate or bad description", c.Name)
		}
		seen[c.Name] = true
		if cmd, ok := h.Svc.CommandOf(c.Name); !ok || cmd.Handle == nil {
			t.Errorf("command %q has no handler", c.Name)
		}
		for _, o := range c.Options {
			if o.Description == "" || len(o.Description) > 100 || len(o.Choices) > 25 {
				t.Errorf("%s option %s: bad description or too many choices", c.Name, o.Name)
			}
		}
	}
	for _, cmd := range bot.Handlers(h.Svc) {
		if !seen[cmd.Spec.Name] {
			t.Errorf("handler %q has no spec", cmd.Spec.Name)
		}
	}
	c, _ := h.Svc.Spec(play.CmdMove)
	if got := c.Usage(); got != "/move move:<string> [game:<string>]" {
		t.Errorf("usage %q", got)
	}
}

func TestComplete(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "")
	req := bot.Request{User: bot.User{ID: "alice"}, Command: play.CmdMove}
	got := h.Svc.Complete(t.Context(), req, "move", "N")
	if len(got) != 4 {
		t.Fatalf("knight moves %+v", got)
	}
	if all := h.Svc.Complete(t.Context(), req, "move", ""); len(all) != bot.MaxSuggestions {
		t.Errorf("%d suggestions", len(all))
	}
	if g := h.Svc.Complete(t.Context(), bot.Request{User: bot.User{ID: "bob"}}, "game", ""); len(g) != 1 || g[0].Value != id {
		t.Errorf("games %+v", g)
	}
	if m := h.Svc.Complete(t.Context(), bot.Request{User: bot.User{ID: "bob"}, Command: play.CmdMove}, "move", ""); len(m) != 0 {
		t.Errorf("bob is not to move but got %+v", m)
	}
}

// The game-over hooks run once per ended game: inside its transaction (an error
// there undoes the end) and after the commit.
func TestGameOverHooks(t *testing.T) {
	var inside, after []string
	fail := true
	h := bottest.New(t, func(*bot.Service) bot.Feature {
		return bot.Feature{
			GameEnded: func(end bot.GameEnd) error {
				if fail {
					return errors.New("rating update failed")
				}
				inside = append(inside, end.Game.ID+" "+string(end.Game.Outcome.Reason))
				return nil
			},
			AfterGameEnded: func(_ context.Context, g *storage.Game) { after = append(after, g.ID) },
		}
	})
	id := h.Start("gothic", "days:1")
	r := h.Do("bob", "resign")
	if !r.Refused || !h.Game(id).Active() {
		t.Fatalf("a failing hook did not undo the resignation: %+v", r)
	}
	fail = false
	h.Ok("bob", "resign")
	id2 := h.Start("keltic", "days:1")
	h.Clock.Advance(bottest.Day)
	h.Tick()
	h.Tick()
	if want := []string{id + " resignation", id2 + " timeout"}; !slices.Equal(inside, want) || !slices.Equal(after, []string{id, id2}) {
		t.Fatalf("inside %v, after %v", inside, after)
	}
}

// TestBoardFacesTheHumanAgainstAnEngine checks that boards posted in a game against the
// engine are drawn from the person's side even when the engine is to move.
func TestBoardFacesTheHumanAgainstAnEngine(t *testing.T) {
	g := &storage.Game{Outcome: rules.OngoingOutcome, Players: [2]storage.Seat{{ID: "alice"}, {ID: storage.EnginePrefix + "builtin:1"}}}
	g.ToMove = []rules.Side{rules.Black}
	if got := bot.NextViewer(g, rules.White); got != rules.White {
		t.Errorf("after alice (white) moved against the engine, the board faces %v; want white", got)
	}
	g.Players = [2]storage.Seat{{ID: storage.EnginePrefix + "builtin:1"}, {ID: "bob"}}
	g.ToMove = []rules.Side{rules.White}
	if got := bot.NextViewer(g, rules.Black); got != rules.Black {
		t.Errorf("with the engine (white) to move, bob's board faces %v; want black", got)
	}
	g.Players = [2]storage.Seat{{ID: "alice"}, {ID: "bob"}}
	if got := bot.NextViewer(g, rules.Black); got != rules.White {
		t.Errorf("between people the board faces the side to move; got %v", got)
	}
}

// The reply to a move posted in a server faces the player now to move, who must
// look at it; in local play (the console) only the mover reads it, so it faces the
// mover.
func TestMoveReplyFacesItsReader(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "color:white")
	if r := h.Ok("alice", "move game:"+id+" move:e2e4"); !strings.Contains(string(r.Files[0].Data), "viewer=white") {
		t.Errorf("in local play alice's own move shows as %s", r.Files[0].Data)
	}
	on := bot.Request{ID: "in-server", User: bot.User{ID: "bob", Name: "bob"}, Place: bot.Place{Guild: "g1", Channel: "c1"}}
	if r := h.Run(on, "move game:"+id+" move:e7e5"); r.Refused || !strings.Contains(string(r.Files[0].Data), "viewer=white") {
		t.Errorf("in a server bob's move shows as %s (%s)", r.Files[0].Data, r.Text)
	}
}
