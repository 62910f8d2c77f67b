package matches_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/matches"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// checkMatchGames checks what every finished match does: the games are the match's,
// numbered, unrated, colours alternating, each pair from one opening, all over.
func checkMatchGames(t *testing.T, m *storage.Match, games []*storage.Game) {
	t.Helper()
	for i, g := range games {
		first := m.Players[0].ID
		if i%2 == 1 {
			first = m.Players[1].ID
		}
		if g.Match != m.ID || g.Round != i+1 || g.Rated || g.Players[rules.White].ID != first {
			t.Errorf("game %s: match %q round %d rated %v white %s", g.ID, g.Match, g.Round, g.Rated, g.Players[rules.White].ID)
		}
		if g.Active() {
			t.Errorf("game %s is still going", g.ID)
		}
		if i%2 == 1 && g.Start != games[i-1].Start {
			t.Errorf("games %d and %d of a pair start apart: %q, %q", i, i+1, games[i-1].Start, g.Start)
		}
		if i >= 2 && g.Start == games[i-2].Start {
			t.Errorf("pairs %d and %d have the same opening %q", i/2, i/2+1, g.Start)
		}
		if m.OpeningPlies > 0 && len(g.Moves) > m.MaxPlies {
			t.Errorf("game %s has %d plies, over the cap of %d", g.ID, len(g.Moves), m.MaxPlies)
		}
	}
}

// A match plays all its games in turn and posts each result and the final score
// with the PGN of every game.
func TestMatchPlaysToTheEnd(t *testing.T) {
	h := bottest.New(t)
	h.Engine.Offers = true // engines in a match play on: neither is asked to offer a draw
	// Level 2 thinks a second a move, level 5 three.
	h.Engine.OnMove = func(turn bot.EngineTurn) {
		if strings.HasSuffix(turn.Player, ":2") {
			h.Clock.Advance(time.Second)
		} else {
			h.Clock.Advance(3 * time.Second)
		}
	}
	r := h.Ok("admin", "match variant:gothic first_level:2 second_level:5 games:4 opening:4 max_plies:40")
	if !strings.Contains(r.Text, "Match 1 has begun") || !strings.Contains(r.Text, "4 games of Gothic Chess") {
		t.Errorf("reply: %s", r.Text)
	}
	m, games := h.Match("1")
	if m.Status != storage.MatchFinished || len(games) != 4 {
		t.Fatalf("match %s with %d games", m.Status, len(games))
	}
	checkMatchGames(t, m, games)
	for _, g := range games {
		if g.Start == "" || g.Outcome.Reason != rules.Adjudication || len(g.Moves) != 40 {
			t.Errorf("game %s: start %q, %s after %d plies (the first-move engines shuffle to the cap)", g.ID, g.Start, g.Outcome, len(g.Moves))
		}
	}
	texts, files := bottest.NoticeTexts(h.Notes.Take(), matches.NoticeMatch)
	if len(texts) != 6 { // the start, four results, the final score
		t.Fatalf("%d match posts:\n%s", len(texts), strings.Join(texts, "\n---\n"))
	}
	if !strings.Contains(texts[1], "Game 1 of 4: Missive engine (level 2) (white) – Missive engine (level 5) (black) 1/2-1/2") ||
		!strings.Contains(texts[1], "Score: Missive engine (level 2) ½ – ½ Missive engine (level 5)") ||
		!strings.Contains(texts[1], "Game 2: Missive engine (level 5) (white)") {
		t.Errorf("first result:\n%s", texts[1])
	}
	if final := texts[5]; !strings.Contains(final, "The match is over.") || !strings.Contains(final, "All 4 games played.") ||
		!strings.Contains(final, "2 – 2 Missive engine (level 5) (+0 =4 -0") || !strings.Contains(final, "Elo difference for Missive engine (level 2): +0") ||
		!strings.Contains(final, "Time a move: Missive engine (level 2) 1.00 s on average, at most 1.00 s; Missive engine (level 5) 3.00 s on average, at most 3.00 s.") {
		t.Errorf("final post:\n%s", final)
	}
	pgn := string(files["match-1.pgn"])
	if strings.Count(pgn, `[Event "Missive engine match 1"]`) != 4 || !strings.Contains(pgn, `[Round "4"]`) || !strings.Contains(pgn, `[Result "1/2-1/2"]`) {
		t.Errorf("PGN:\n%s", pgn)
	}
	// Every game of the match's PGN file reads back, to its end.
	pr := record.NewPGNReader(strings.NewReader(pgn), h.Reg)
	for i := range 4 {
		if g, err := pr.Next(); err != nil || g.Result != "1/2-1/2" || len(g.Moves) == 0 {
			t.Errorf("game %d of the PGN file reads as %+v, %v", i+1, g, err)
		}
	}
	if _, err := pr.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the 4 games of the PGN file: %v", err)
	}
	if h.Rating("gothic", m.Players[0].ID) != nil {
		t.Error("a match game was rated")
	}
	if h.Engine.Asked != 0 {
		t.Errorf("engines in a match were asked %d times whether they offer a draw", h.Engine.Asked)
	}
	h.Ok("admin", "match action:score")
	h.Refused("admin", "match action:stop", "already over")
}

// An engine that fails to move loses that game, and the match goes on.
func TestMatchEngineFailure(t *testing.T) {
	h := bottest.New(t)
	h.Engine.Fail = 1
	h.Ok("admin", "match variant:keltic first_level:1 second_level:2 games:2 max_plies:20")
	m, games := h.Match("1")
	if m.Status != storage.MatchFinished || len(games) != 2 {
		t.Fatalf("match %s with %d games", m.Status, len(games))
	}
	if o := games[0].Outcome; o != rules.Win(rules.Black, rules.Resignation) || len(games[0].Moves) != 0 {
		t.Errorf("game 1: %s after %d plies, want a loss for the failing first mover", o, len(games[0].Moves))
	}
	texts, _ := bottest.NoticeTexts(h.Notes.Take(), matches.NoticeMatch)
	if !strings.Contains(strings.Join(texts, "\n"), "failed to move and loses the game: Engine crashed") {
		t.Errorf("posts do not tell of the failure:\n%s", strings.Join(texts, "\n---\n"))
	}
}

// Stopping a match aborts the game in progress and posts the score so far.
func TestMatchStop(t *testing.T) {
	h := bottest.New(t)
	gate := make(chan struct{})
	h.Engine.Gate = gate
	r := h.Svc.Handle(context.Background(), bot.Request{ID: "start", User: bot.User{ID: "admin", Name: "admin"}, Command: matches.CmdMatch,
		Args: bot.Args{"variant": "gess", "games": "6", "first_level": "2"}})
	if r.Refused {
		t.Fatal(r.Text)
	}
	r = h.Svc.Handle(context.Background(), bot.Request{ID: "stop", User: bot.User{ID: "admin", Name: "admin"}, Command: matches.CmdMatch,
		Args: bot.Args{"action": "stop"}})
	if r.Refused || !strings.Contains(r.Text, "admin stopped the match.") || !strings.Contains(r.Text, "Stopped after 0 of 6 games.") {
		t.Fatalf("stop: %s", r.Text)
	}
	close(gate)
	h.Svc.Idle()
	m, games := h.Match("1")
	if m.Status != storage.MatchStopped || len(games) != 1 || games[0].Outcome.Reason != rules.Aborted || len(games[0].Moves) != 0 {
		t.Fatalf("after stopping: %s, %d games, first %s after %d plies", m.Status, len(games), games[0].Outcome, len(games[0].Moves))
	}
	texts, _ := bottest.NoticeTexts(h.Notes.Take(), matches.NoticeMatch)
	if n := len(texts); n != 2 || !strings.Contains(texts[1], "admin stopped the match.") {
		t.Errorf("%d posts:\n%s", n, strings.Join(texts, "\n---\n"))
	}
}

// A restart in the middle of a game loses nothing and starts no game twice: the
// scheduler lets the engine move again once the service is back.
func TestMatchRestart(t *testing.T) {
	h := bottest.New(t)
	h.Engine.Gate = make(chan struct{}) // never opened: the first move waits for the shutdown
	r := h.Svc.Handle(context.Background(), bot.Request{ID: "start", User: bot.User{ID: "admin", Name: "admin"}, Command: matches.CmdMatch,
		Args: bot.Args{"variant": "gothic", "games": "3", "max_plies": "20", "first_level": "1", "second_level": "7"}})
	if r.Refused {
		t.Fatal(r.Text)
	}
	h.Restart()
	h.Engine.Gate = nil
	if m, games := h.Match("1"); m.Status != storage.MatchRunning || len(games) != 1 || len(games[0].Moves) != 0 || !games[0].Active() {
		t.Fatalf("after the restart: %s, %d games", m.Status, len(games))
	}
	h.Clock.Advance(2 * time.Minute)
	h.Tick()
	m, games := h.Match("1")
	if m.Status != storage.MatchFinished || len(games) != 3 {
		t.Fatalf("after the scheduler: %s, %d games", m.Status, len(games))
	}
	checkMatchGames(t, m, games)
	texts, _ := bottest.NoticeTexts(h.Notes.Take(), matches.NoticeMatch)
	if got := strings.Count(strings.Join(texts, "\n"), "Game 1 of 3:"); got != 1 {
		t.Errorf("game 1's result posted %d times", got)
	}
}

// Go-Chess matches play the placement phase, each pair on one board.
func TestMatchGoChess(t *testing.T) {
	h := bottest.New(t)
	h.Ok("admin", "match variant:gochess games:2 first_level:1 second_level:2 max_plies:30")
	m, games := h.Match("1")
	if m.Status != storage.MatchFinished || len(games) != 2 {
		t.Fatalf("match %s with %d games", m.Status, len(games))
	}
	checkMatchGames(t, m, games)
	for _, g := range games {
		if !strings.Contains(g.Start, " placement ") || len(g.Moves) < 2 {
			t.Errorf("game %s: start %q, %d choices and moves", g.ID, g.Start, len(g.Moves))
		}
	}
}

func TestMatchRefusals(t *testing.T) {
	h := bottest.New(t)
	cases := map[string]string{
		"match variant:gothic first_level:3 second_level:3": "Both sides would be Missive engine (level 3)",
		"match variant:gothic":                              "Both sides would be",
		"match variant:chess first_level:1":                 "Name the game: variant:",
		"match variant:gothic first:stockfish":              `First engine: There is no engine "stockfish"`,
		"match variant:gothic first_level:1 games:0":        "games must be from 1 to 100, not 0",
		"match variant:gothic first_level:1 games:101":      "games must be from 1 to 100, not 101",
		"match variant:gothic first_level:1 opening:30":     "opening must be from 0 to 20, not 30",
		"match variant:gothic first_level:1 max_plies:5":    "max_plies must be from 20 to 2000, not 5",
		"match variant:gothic first_level:1 games:many":     `games must be a whole number, not "many"`,
		"match action:rematch":                              "Say what to do: /match start, /match score or /match stop.",
		"match action:score":                                "No engine match has been played here",
		"match action:stop match:9":                         "There is no match 9 here.",
	}
	for line, want := range cases {
		h.Refused("admin", line, want)
	}
	// In a server, only members who may manage it run matches.
	req := bot.Request{User: bot.User{ID: "u1", Name: "u1"}, Place: bot.Place{Guild: "g1", Channel: "c1"}, Command: matches.CmdMatch,
		Args: bot.Args{"variant": "gothic", "first_level": "1"}}
	if r := h.Svc.Handle(context.Background(), req); !r.Refused || !strings.Contains(r.Text, "Only members who may manage this server can start engine matches.") {
		t.Errorf("a member without the permission: %s", r.Text)
	}
	if err := h.Store.View(context.Background(), func(tx *storage.Tx) error {
		for _, g := range []string{"", "g1"} {
			for _, active := range []bool{true, false} {
				if ms, err := tx.GuildMatches(g, active); err != nil || len(ms) != 0 {
					return fmt.Errorf("refused commands stored matches %v (%v)", ms, err)
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	spec, ok := h.Svc.Spec(matches.CmdMatch)
	if !ok || !spec.Admin {
		t.Errorf("/match spec %+v: want an admin command", spec)
	}
}

// /match refuses a level outside 1 to 8 with /challenge's sentence, instead of
// playing the default level for 0.
func TestMatchRefusesBadLevels(t *testing.T) {
	h := bottest.New(t)
	h.Refused("alice", "challenge variant:gothic engine:builtin level:0", `The engine's level must be a number from 1 to 8, not "0".`)
	for line, want := range map[string]string{
		"match variant:gothic first_level:0":                 `First engine: The engine's level must be a number from 1 to 8, not "0".`,
		"match variant:gothic first_level:9":                 `First engine: The engine's level must be a number from 1 to 8, not "9".`,
		"match variant:gothic first_level:2 second_level:0":  `Second engine: The engine's level must be a number from 1 to 8, not "0".`,
		"match variant:gothic first_level:2 second_level:-1": `Second engine: The engine's level must be a number from 1 to 8, not "-1".`,
		"match variant:gothic first_level:two":               `First engine: The engine's level must be a number from 1 to 8, not "two".`,
	} {
		h.Refused("admin", line, want)
	}
	if m, _ := matchList(h); len(m) != 0 {
		t.Errorf("refused commands stored %d matches", len(m))
	}
}

// matchList returns the matches stored for direct messages.
func matchList(h *bottest.Harness) ([]*storage.Match, error) {
	var ms []*storage.Match
	err := h.Store.View(context.Background(), func(tx *storage.Tx) error {
		for _, active := range []bool{true, false} {
			m, err := tx.GuildMatches("", active)
			if err != nil {
				return err
			}
			ms = append(ms, m...)
		}
		return nil
	})
	return ms, err
}

// A one-sided score has no finite Elo difference: the report says it is unbounded,
// with the same wording as the command line's match summary.
func TestMatchOneSidedScoreIsUnbounded(t *testing.T) {
	h := bottest.New(t)
	h.Engine.Fail = 1 // the first engine, White in game 1, fails and loses
	h.Ok("admin", "match variant:keltic first_level:1 second_level:2 games:1 max_plies:20")
	texts, _ := bottest.NoticeTexts(h.Notes.Take(), matches.NoticeMatch)
	final := texts[len(texts)-1]
	if !strings.Contains(final, "The one game is played.") ||
		!strings.Contains(final, "Elo difference for Missive engine (level 1): unbounded, as Missive engine (level 1) lost every game") ||
		strings.Contains(final, "∞") || strings.Contains(final, "Inf") || strings.Contains(final, "±") {
		t.Errorf("final post:\n%s", final)
	}
}
