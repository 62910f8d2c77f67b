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
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

func TestPGN(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "days:5")
	h.Play(id, "alice", "Cf3", "d5", "Ah3", "Nd7", "Ae6#")
	r := h.Ok("carol", "pgn game:"+id)
	if len(r.Files) != 1 || r.Files[0].ContentType != "application/x-chess-pgn" {
		t.Fatalf("files %+v", r.Files)
	}
	pgn := string(r.Files[0].Data)
	for _, want := range []string{`[White "alice"]`, `[Black "bob"]`, `[Result "1-0"]`, `[Variant "gothic"]`, `[SetUp "1"]`,
		`[FEN "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1"]`, `[TimeControl "1/432000"]`,
		`[Termination "normal"]`, "\n\n1. Cf3 d5 2. Ah3 Nd7 3. Ae6# 1-0\n"} {
		if !strings.Contains(pgn, want) {
			t.Errorf("PGN lacks %q:\n%s", want, pgn)
		}
	}

	// Gess: Black moves first, and move 1 is Black's move and White's reply.
	id = h.Start("gess", "")
	h.Play(id, "bob", "e3-e5", "l18xl15", "e6xl13")
	pgn = string(h.Ok("alice", "pgn").Files[0].Data)
	v, _ := h.Reg.Lookup("gess")
	for _, want := range []string{`[Variant "gess"]`, `[FEN "` + v.Start(0).String() + `"]`, "\n\n1. e3-e5 l18xl15 2. e6xl13 0-1\n"} {
		if !strings.Contains(pgn, want) {
			t.Errorf("Gess PGN lacks %q:\n%s", want, pgn)
		}
	}

	// A set-up position keeps its move number and side; a timeout is a time forfeit.
	id = h.Start("keltic", "days:1 fen:***k2***/**5**/5P3/2Q6/9/**5**/***1K1***_b_-_-_0_30")
	h.Clock.Advance(2 * bottest.Day)
	h.Tick()
	pgn = string(h.Ok("alice", "pgn game:"+id).Files[0].Data)
	for _, want := range []string{`[Termination "time forfeit"]`, `[Result "1-0"]`, "\n\n1-0\n", " b - - 0 30\"]"} {
		if !strings.Contains(pgn, want) {
			t.Errorf("Keltic PGN lacks %q:\n%s", want, pgn)
		}
	}
}

// Move numbers (record.Movetext): Gess numbers from its first mover, Black, so move 1
// is Black's move and White's reply; a chess-family game set up with Black to move
// keeps the standard "N..." from its FEN's move number. /history and PGN agree.
func TestMoveNumbersInHistory(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gess", "")
	h.Play(id, "bob", "e3-e5", "l18xl15", "e6xl13")
	if r := h.Ok("carol", "history game:"+id); !strings.HasPrefix(r.Text, "1. e3-e5 l18xl15 2. e6xl13 0-1\n") {
		t.Errorf("Gess history %q", r.Text)
	}
	id = h.Start("gothic", "fen:k9/10/3Q6/10/10/10/10/K9_b_-_-_0_41")
	h.Play(id, "bob", "Kb7", "Qd5+", "Ka7")
	if r := h.Ok("carol", "history game:"+id); !strings.HasPrefix(r.Text, "41... Kb7 42. Qd5+ Ka7\n") {
		t.Errorf("Gothic history from a FEN %q", r.Text)
	}
	if pgn := string(h.Ok("carol", "pgn game:"+id).Files[0].Data); !strings.Contains(pgn, "\n\n41... Kb7 42. Qd5+ Ka7 *\n") {
		t.Errorf("Gothic PGN from a FEN:\n%s", pgn)
	}
}

func TestHistoryAndBoard(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "")
	r := h.Ok("alice", "history")
	if !strings.Contains(r.Text, "No moves yet") {
		t.Errorf("history %s", r.Text)
	}
	h.Play(id, "alice", "e2e4", "e7e5", "Nh3")
	if r = h.Ok("bob", "history"); !strings.HasPrefix(r.Text, "1. e4 e5 2. Nh3\n") {
		t.Errorf("history %q", r.Text)
	}
	b := h.Ok("bob", "board")
	if b.Private || len(b.Files) != 1 || !strings.Contains(string(b.Files[0].Data), "viewer=black") || b.Board == "" {
		t.Fatalf("board %+v", b)
	}
	if !strings.Contains(b.Text, "bob (black) to move") {
		t.Errorf("status %s", b.Text)
	}
	if len(b.Actions) != 3 {
		t.Errorf("a player's board should carry Move, Offer draw, Resign: %+v", b.Actions)
	}
	if c := h.Ok("carol", "board game:"+id); len(c.Actions) != 0 || !strings.Contains(string(c.Files[0].Data), "viewer=black") {
		t.Errorf("a spectator's board: %+v", c)
	}
	g := h.Ok("carol", "gif game:"+id)
	if len(g.Files) != 1 || g.Files[0].ContentType != "image/gif" || strings.Count(string(g.Files[0].Data), "\n") != 4 {
		t.Errorf("gif %+v", g.Files)
	}
	if !strings.Contains(g.Text, "in 4 frames.") {
		t.Errorf("gif text %q", g.Text)
	}
	if g := h.Ok("alice", "gif game:"+h.Start("gothic", "")); !strings.Contains(g.Text, "in 1 frame.") {
		t.Errorf("a new game's gif text %q", g.Text)
	}
}

// My games: those waiting for me first, then by time left.
func TestGamesList(t *testing.T) {
	h := bottest.New(t)
	g1 := h.Start("gothic", "days:7")
	g2 := h.Start("keltic", "days:1")
	g3 := h.Start("gess", "days:2") // bob moves first
	h.Play(g1, "alice", "e2e4")
	h.Ok("carol", "challenge variant:gess opponent:alice")
	r := h.Ok("alice", "games")
	lines := strings.Split(r.Text, "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "#"+g2+" ") || !strings.Contains(lines[0], "**your move**") ||
		!strings.HasPrefix(lines[1], "#"+g3+" ") || !strings.HasPrefix(lines[2], "#"+g1+" ") {
		t.Fatalf("games:\n%s", r.Text)
	}
	if !strings.Contains(lines[0], "1d 0h left") {
		t.Errorf("time left: %s", lines[0])
	}
	if len(r.Fields) != 1 || !strings.Contains(r.Fields[0].Value, "carol") || r.Choice == nil || len(r.Choice.Options) != 3 {
		t.Errorf("fields %+v choice %+v", r.Fields, r.Choice)
	}
}

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

func TestRulesCards(t *testing.T) {
	h := bottest.New(t)
	for _, v := range variantsOnly(h) {
		r := h.Ok("alice", "rules variant:"+v)
		text := r.PlainText()
		if len(text) < 500 {
			t.Errorf("%s card too short: %s", v, text)
		}
	}
	want := map[string][]string{
		"gothic":  {"Chancellor", "Archbishop", "castling", "K+N+N v K", "draws, as that opponent could not possibly mate"},
		"keltic":  {"sideways", "d7, e7, f7", "K v K and K+N v K only"},
		"gochess": {"House rule", "nearer", "drawn (house rule)", "other cell colour", "one cell colour"},
		"gess":    {"ring", "House rules", "threefold", "m3-m6"},
	}
	for v, words := range want {
		text := h.Ok("bob", "rules variant:"+v).PlainText()
		for _, w := range words {
			if !strings.Contains(text, w) {
				t.Errorf("%s card lacks %q", v, w)
			}
		}
	}
	h.Refused("alice", "rules variant:xiangqi", "Which game?")
}

// variantsOnly lists the real variants of the harness (not the toy).
func variantsOnly(h *bottest.Harness) []string {
	var out []string
	for _, k := range h.Reg.Keys() {
		if k != "toyplace" {
			out = append(out, k)
		}
	}
	return out
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
	c, _ := h.Svc.Spec(bot.CmdMove)
	if got := c.Usage(); got != "/move move:<string> [game:<string>]" {
		t.Errorf("usage %q", got)
	}
}

func TestComplete(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "")
	req := bot.Request{User: bot.User{ID: "alice"}, Command: bot.CmdMove}
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
	if m := h.Svc.Complete(t.Context(), bot.Request{User: bot.User{ID: "bob"}, Command: bot.CmdMove}, "move", ""); len(m) != 0 {
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
