package views_test

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/views"
	"github.com/missivechess/missive/rules"
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
	for _, want := range []string{`[Variant "gess"]`, `[FEN "` + rules.CompactText(v.Start(0)) + `"]`, "\n\n1. e3-e5 l18xl15 2. e6xl13 0-1\n"} {
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

// A hint's evaluation is the built-in engine's, from the side of the player who
// asked, in words: a pawn count for you, a mate you give or get, and none for a
// Go-Chess placement.
func TestHintEvaluationIsTheAskers(t *testing.T) {
	eng := bottest.ExternalEngines(t, nil)
	h := bottest.New(t)
	h.Config = func(c *bot.Config) { c.Engine = eng }
	h.Restart()
	hint := func(user, variant, fen string) string {
		t.Helper()
		extra := "color:white"
		if fen != "" {
			extra += " fen:" + strings.ReplaceAll(fen, " ", "_")
		}
		h.Start(variant, extra)
		r := h.Ok(user, "hint")
		h.Ok("alice", "resign")
		return r.Text
	}
	for _, c := range []struct{ name, user, variant, fen, want string }{
		{"White to move, a queen down", "alice", "gothic", "3qk5/10/10/10/10/10/10/4K5 w - - 0 1", "(evaluation -"},
		{"Black to move, a queen up", "bob", "gothic", "3qk5/10/10/10/10/10/10/4K5 b - - 0 1", "(evaluation +"},
		{"Black mates at once", "bob", "gothic", "4k4r/10/10/10/10/10/PP8/K9 b - - 0 1", "(you mate in 1 move)."},
		{"Black is mated whatever it plays", "bob", "gothic", "k9/7p2/1QK7/10/10/10/10/10 b - - 0 1", "(even so, you are mated in 1 move)."},
		{"a placement", "alice", "gochess", "", " for your pawn (/place cell:"},
	} {
		got := hint(c.user, c.variant, c.fen)
		if !strings.Contains(got, c.want) || c.variant == "gochess" && strings.Contains(got, "evaluation") {
			t.Errorf("%s: hint %q, want %q in it", c.name, got, c.want)
		}
	}
}

// views.HintEvaluation words each kind of evaluation, in Gess with its units and its
// own kind of win.
func TestHintEvaluationWords(t *testing.T) {
	for _, c := range []struct {
		h       bot.Hint
		variant string
		want    string
	}{
		{bot.Hint{Scored: true, Pawns: 0.44}, "gothic", " (evaluation +0.44 for you)"},
		{bot.Hint{Scored: true, Pawns: -0.001}, "keltic", " (evaluation +0.00 for you)"},
		{bot.Hint{Scored: true, MateIn: 2}, "gothic", " (you mate in 2 moves)"},
		{bot.Hint{Scored: true, Pawns: -2.2}, "gess", " (evaluation -2.20 for you; in the engine's own Gess units: a stone is worth 0.2, a spare ring 2.5)"},
		{bot.Hint{Scored: true, MateIn: -3}, "gess", " (even so, you lose in 3 moves)"},
		{bot.Hint{Scored: true, MateIn: 1}, "gess", " (you win in 1 move)"},
		{bot.Hint{Scored: true, MateIn: -1}, "keltic", " (even so, you are mated in 1 move)"},
		{bot.Hint{}, "gochess", ""},
	} {
		if got := views.HintEvaluation(c.h, c.variant); got != c.want {
			t.Errorf("%+v in %s: %q, want %q", c.h, c.variant, got, c.want)
		}
	}
}
