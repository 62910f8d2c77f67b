package bot_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/matches"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/engine/external"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

func TestEngines(t *testing.T) {
	e := bot.NewEngine(engine.New(engine.Options{HashBits: 12, Seed: 1}), nil, nil)
	seat, err := e.Opponent("", 0, "gothic")
	if err != nil || seat.ID != "engine:builtin:4" || !strings.Contains(seat.Name, "level 4") {
		t.Fatalf("default opponent %+v %v", seat, err)
	}
	if _, err := e.Opponent("builtin", 9, "gothic"); !errors.Is(err, bot.ErrRefused) {
		t.Errorf("level 9: %v", err)
	}
	if _, err := e.Opponent("fairy-stockfish", 0, "gothic"); err == nil || !strings.Contains(err.Error(), "the engines here are: builtin") {
		t.Errorf("unknown engine: %v", err)
	}
	if _, err := e.Opponent("\x1b[2J"+strings.Repeat("x", 100), 0, "gothic"); err == nil || strings.Contains(err.Error(), "\x1b") || len(err.Error()) > 100 {
		t.Errorf("an engine name with an escape sequence is echoed as it is: %q", err)
	}
	if n := e.(interface{ Names() []string }).Names(); !slices.Equal(n, []string{"builtin"}) {
		t.Errorf("names %v", n)
	}
	reg := bottest.Registry()
	ctx := context.Background()
	for _, key := range []string{"gothic", "keltic", "gess"} {
		v, _ := reg.Lookup(key)
		pos := v.Start(0)
		m, err := e.Move(ctx, bot.EngineTurn{Player: "engine:builtin:1", Side: pos.Turn(), Position: pos, Start: pos})
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if _, err := pos.Play(m); err != nil {
			t.Errorf("%s: the engine's move %v is illegal: %v", key, m, err)
		}
	}
	v, _ := reg.Lookup("gochess")
	sim := v.Start(5).(rules.Simultaneous)
	m, err := e.Move(ctx, bot.EngineTurn{Player: "engine:builtin:3", Side: rules.Black, Position: sim.ViewFor(rules.Black)})
	if err != nil || !m.IsDrop() || !slices.Contains(sim.LegalMovesFor(rules.Black), m) {
		t.Fatalf("placement %v %v", m, err)
	}
	h, err := e.Hint(ctx, sim.ViewFor(rules.White), rules.White)
	if err != nil || !h.Move.IsDrop() {
		t.Fatalf("placement hint %+v %v", h, err)
	}
	// Draw offers: the built-in engine judges them once the pieces are placed;
	// external engines are not asked. Each refusal is a sentence for the player.
	if _, err := e.AcceptsDraw(ctx, bot.EngineTurn{Player: "engine:builtin:3", Side: rules.Black, Position: sim.ViewFor(rules.Black)}); !errors.Is(err, bot.ErrRefused) || !strings.Contains(err.Error(), "once the pieces are placed") {
		t.Errorf("draw offer during placement: %v", err)
	}
	gothic, _ := reg.Lookup("gothic")
	start := gothic.Start(0)
	if _, err := e.AcceptsDraw(ctx, bot.EngineTurn{Player: "engine:ext:Fairy", Side: rules.Black, Position: start, Start: start}); !errors.Is(err, bot.ErrRefused) || !strings.Contains(err.Error(), "Fairy does not accept draw offers") {
		t.Errorf("draw offer to an external engine: %v", err)
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if ok, err := e.AcceptsDraw(short, bot.EngineTurn{Player: "engine:builtin:1", Side: rules.Black, Position: start, Start: start}); ok || err != nil {
		t.Errorf("draw offered to Black on move 1: agreed %v, %v", ok, err)
	}
	// Draw offers by the engine: only the built-in engine makes them, only at its
	// moves 30, 40, ... (a turn's moves are counted, not read), only in a level game.
	level, err := gothic.ParsePosition("r3k5/ppp4ppp/10/10/10/10/PPP4PPP/R3K5 b - - 0 1") // White has just moved
	if err != nil {
		t.Fatal(err)
	}
	played := make([]rules.Move, 2*engine.DrawAfterMove-1)
	// A game set up at a move number counts its moves from there (FEN).
	setUp := func(fen string) rules.Position {
		t.Helper()
		p, err := gothic.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	at30, at29 := setUp("r3k5/ppp4ppp/10/10/10/10/PPP4PPP/R3K5 w - - 0 30"), setUp("r3k5/ppp4ppp/10/10/10/10/PPP4PPP/R3K5 w - - 0 29")
	for _, c := range []struct {
		turn bot.EngineTurn
		want bool
	}{
		{bot.EngineTurn{Player: "engine:builtin:1", Side: rules.White, Position: level, Start: start, Moves: played}, true},
		{bot.EngineTurn{Player: "engine:builtin:1", Side: rules.White, Position: level, Start: start, Moves: played[:len(played)-2]}, false},
		{bot.EngineTurn{Player: "engine:builtin:1", Side: rules.White, Position: level, Start: at30, Moves: played[:1]}, true},
		{bot.EngineTurn{Player: "engine:builtin:1", Side: rules.White, Position: level, Start: at29, Moves: played[:1]}, false},
		{bot.EngineTurn{Player: "engine:ext:Fairy", Side: rules.White, Position: level, Start: start, Moves: played}, false},
		{bot.EngineTurn{Player: "engine:builtin:3", Side: rules.Black, Position: sim.ViewFor(rules.Black)}, false},
	} {
		short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		ok, err := e.OffersDraw(short, c.turn)
		cancel()
		if ok != c.want || err != nil {
			t.Errorf("%s as %s after %d moves offers a draw: %v, %v; want %v", c.turn.Player, c.turn.Side, len(c.turn.Moves), ok, err, c.want)
		}
	}
	// A level ending set up at move 41 is past the opening: a draw offered at once
	// is agreed, where the same position at move 1 is not. (Black judges it with
	// White to move, which no depth of a timed search turns in Black's favour past
	// the contempt; see engine.TestAcceptsDraw.)
	for _, c := range []struct {
		fen  string
		want bool
	}{{"r3k5/ppp4ppp/10/10/10/10/PPP4PPP/R3K5 w - - 0 41", true}, {"r3k5/ppp4ppp/10/10/10/10/PPP4PPP/R3K5 w - - 0 1", false}} {
		pos := setUp(c.fen)
		short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		ok, err := e.AcceptsDraw(short, bot.EngineTurn{Player: "engine:builtin:8", Side: rules.Black, Position: pos, Start: pos})
		cancel()
		if ok != c.want || err != nil {
			t.Errorf("draw offered in %s: agreed %v, %v; want %v", c.fen, ok, err, c.want)
		}
	}
	if _, err := e.Move(ctx, bot.EngineTurn{Player: "engine:nobody"}); err == nil {
		t.Error("an unknown engine player moved")
	}
}

// TestExternalEngineResigns: an external engine's resignation reaches the bot as
// ErrEngineResigned, which ends the game instead of failing the move.
func TestExternalEngineResigns(t *testing.T) {
	script := filepath.Join(t.TempDir(), "quitter.sh")
	if err := os.WriteFile(script, []byte(bottest.XBoardScript("ping=1 setboard=1", "resign")), 0o755); err != nil {
		t.Fatal(err)
	}
	cfgs := []external.Config{{Name: "Quitter", Command: script, Protocol: external.XBoard, Variants: map[string]string{"gothic": "gothic"}, Think: 50 * time.Millisecond, Timeout: 2 * time.Second}}
	e := bottest.ExternalEngines(t, cfgs)
	v, _ := bottest.Registry().Lookup("gothic")
	start := v.Start(0)
	_, err := e.Move(context.Background(), bot.EngineTurn{Player: "engine:ext:Quitter", Side: rules.White, Position: start, Start: start})
	if !errors.Is(err, bot.ErrEngineResigned) {
		t.Fatalf("got %v, want ErrEngineResigned", err)
	}
}

// hogScript is a UCI engine that, at "go", takes about 256 MiB (in a shell
// variable) and never answers.
const hogScript = `#!/bin/sh
while read -r line; do
	case "$line" in
	uci) echo "id name hog"; echo uciok ;;
	isready) echo readyok ;;
	go*) x=$(head -c 268435456 /dev/zero | tr '\0' x); sleep 600 ;;
	quit) exit 0 ;;
	esac
done
`

// TestEngineOverItsMemoryLoses: an external engine that goes over its memory limit
// while it thinks is stopped and loses the game at once, against a person (trying
// it again would only do the same) as in a match, and the players read why.
func TestEngineOverItsMemoryLoses(t *testing.T) {
	hog := filepath.Join(t.TempDir(), "hog.sh")
	if err := os.WriteFile(hog, []byte(hogScript), 0o755); err != nil {
		t.Fatal(err)
	}
	// Two of them: one that failed is refused as an opponent until a check passes.
	var cfgs []external.Config
	for _, name := range []string{"Hog", "Glutton"} {
		cfgs = append(cfgs, external.Config{Name: name, Command: hog, Protocol: external.UCI, Variants: map[string]string{"gothic": "gothic"},
			Think: time.Minute, Memory: "32MiB"})
	}
	eng := bottest.ExternalEngines(t, cfgs)
	h := bottest.New(t)
	h.Config = func(c *bot.Config) { c.Engine = eng }
	h.Restart()
	why := func(name string) string {
		return name + " (black) failed to move and loses the game: " + name + " went over its memory limit of 32 MiB (it held "
	}

	id := h.Ok("alice", "challenge variant:gothic engine:Hog color:white").Started.ID
	h.Notes.Take()
	said := h.Ok("alice", "move move:e2e4").Text
	h.Svc.Idle()
	if g := h.Game(id); g.Active() || g.Outcome != rules.Win(rules.White, rules.Resignation) || len(g.Moves) != 1 {
		t.Fatalf("after the engine went over its memory: %s after %d plies, want a loss for it", g.Outcome, len(g.Moves))
	}
	if said = withNotices(h, said); !strings.Contains(said, why("Hog")) {
		t.Errorf("what alice was told: %s", said)
	}
	posts := firstMatchGame(t, h, "match variant:gothic first_level:1 second:Glutton games:1", 1, rules.Win(rules.White, rules.Resignation))
	if !strings.Contains(posts, "Game 1: "+why("Glutton")) {
		t.Errorf("the match's posts:\n%s", posts)
	}
}

// withNotices returns said followed by the texts of the notices h has sent since
// it last took them.
func withNotices(h *bottest.Harness, said string) string {
	for _, n := range h.Notes.Take() {
		said += "\n" + n.Reply.Text
	}
	return said
}

// firstMatchGame has the admin start the engine match cmd of games games, fails
// the test unless it finishes with its first game ending in outcome, and returns
// the match's posts.
func firstMatchGame(t *testing.T, h *bottest.Harness, cmd string, games int, outcome rules.Outcome) string {
	t.Helper()
	h.Ok("admin", cmd)
	m, played := h.Match("1")
	if m.Status != storage.MatchFinished || len(played) != games || played[0].Outcome != outcome {
		t.Fatalf("match %s with %d games", m.Status, len(played))
	}
	texts, _ := bottest.NoticeTexts(h.Notes.Take(), matches.NoticeMatch)
	return strings.Join(texts, "\n---\n")
}
