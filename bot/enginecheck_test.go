package bot_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/rules"
)

// starts counts the processes engine name of checkEngines has started.
func starts(t *testing.T, dir, name string) int {
	b, err := os.ReadFile(filepath.Join(dir, name+".starts"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Count(string(b), "start")
}

// Each external engine plays a move from each of its variants' start when checked;
// one that cannot is refused as an opponent in that variant (with the reason kept
// for the log) until a later check finds it can, and one that could is not checked
// again.
func TestExternalEngineCheck(t *testing.T) {
	dir := t.TempDir()
	cfgs := bottest.CheckEngines(t, dir)
	e := bottest.ExternalEngines(t, cfgs).(*bot.Engines)
	if _, err := e.Opponent("missing", 0, "gothic"); err != nil {
		t.Fatalf("an engine not yet checked is refused: %v", err)
	}
	ctx := context.Background()
	got := map[string]error{}
	for _, r := range e.Check(ctx, bottest.Registry()) {
		got[r.Engine+"/"+r.Variant] = r.Err
	}
	want := map[string]string{ // what each reason says; "" for none
		"Good/gothic":        "",
		"Missing/gothic":     "missing.sh",
		"Lister/gothic":      `does not play the variant "gothic" (it offers "normal")`,
		"NoSetboard/gochess": "setboard",
	}
	if len(got) != len(want) {
		t.Errorf("checked %v, want %d pairs", got, len(want))
	}
	for k, w := range want {
		err, ok := got[k]
		switch {
		case !ok:
			t.Errorf("%s was not checked", k)
		case w == "" && err != nil:
			t.Errorf("%s failed its check: %v", k, err)
		case w != "" && (err == nil || !strings.Contains(err.Error(), w)):
			t.Errorf("%s: check said %v, want a reason with %q", k, err, w)
		}
	}
	if _, err := e.Opponent("good", 0, "gothic"); err != nil {
		t.Errorf("the engine that played is refused: %v", err)
	}
	for _, c := range [][2]string{{"missing", "gothic"}, {"lister", "gothic"}, {"nosetboard", "gochess"}} {
		_, err := e.Opponent(c[0], 0, c[1])
		if msg, ok := bot.UserText(err); !ok || !strings.Contains(msg, "cannot play "+c[1]+" at the moment") {
			t.Errorf("challenge to %s in %s: %v, want a refusal saying it cannot play", c[0], c[1], err)
		}
	}

	// Mended, Missing passes the next check; Good is not started again.
	if err := os.WriteFile(cfgs[1].Command, []byte(bottest.XBoardScript("ping=1", "move e2e4")), 0o755); err != nil {
		t.Fatal(err)
	}
	goodStarts := starts(t, dir, "Good")
	again := map[string]error{}
	for _, r := range e.Check(ctx, bottest.Registry()) {
		again[r.Engine+"/"+r.Variant] = r.Err
	}
	if err, ok := again["Missing/gothic"]; !ok || err != nil {
		t.Errorf("the mended engine's check: %v (checked: %v)", err, ok)
	}
	if _, ok := again["Good/gothic"]; ok || starts(t, dir, "Good") != goodStarts {
		t.Errorf("the engine that played was checked again: %v", again)
	}
	if len(again) != 3 {
		t.Errorf("second check %v, want the three pairs that had failed", again)
	}
	if _, err := e.Opponent("missing", 0, "gothic"); err != nil {
		t.Errorf("the mended engine is still refused: %v", err)
	}

	// A move that fails in a game counts as a failed check (Good answers e2e4 after
	// 1.e4 e5 too); the next check that passes lets it be challenged again.
	v, _ := bottest.Registry().Lookup("gothic")
	start, pos := v.Start(0), v.Start(0)
	var moves []rules.Move
	for _, text := range []string{"e2e4", "e7e5"} {
		m, err := pos.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
	}
	if _, err := e.Move(ctx, bot.EngineTurn{Player: "engine:ext:Good", Side: rules.White, Position: pos, Start: start, Moves: moves}); err == nil {
		t.Fatal("Good's illegal e2e4 after 1.e4 e5 was played")
	}
	if _, err := e.Opponent("good", 0, "gothic"); err == nil {
		t.Error("the engine whose game move failed is still offered")
	}
	if c := e.Checked(); len(c) != 4 || c[0].Engine != "Good" || c[0].Err == nil {
		t.Errorf("Checked() = %v, want Good's failure first of four", c)
	}
	for _, r := range e.Check(ctx, bottest.Registry()) {
		if r.Engine == "Good" && r.Err != nil {
			t.Errorf("Good's check after the failed move: %v", r.Err)
		}
	}
	if _, err := e.Opponent("good", 0, "gothic"); err != nil {
		t.Errorf("Good is refused after passing its check again: %v", err)
	}
}

// syncBuffer is a bytes.Buffer safe for a logger and a test to share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// The scheduler checks the external engines when it starts, logs each that cannot
// play, refuses challenges to it, and checks it again every bot.EngineCheckEvery.
func TestEngineCheckScheduled(t *testing.T) {
	dir := t.TempDir()
	cfgs := bottest.CheckEngines(t, dir)[:2] // Good and Missing
	logs := &syncBuffer{}
	eng := bottest.ExternalEngines(t, cfgs)
	h := bottest.New(t)
	h.Config = func(c *bot.Config) {
		c.Engine = eng
		c.Logger = slog.New(slog.NewTextHandler(logs, nil))
	}
	h.Restart()
	failures := func() int { return strings.Count(logs.String(), "engine=Missing variant=gothic error=") }

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Svc.Run(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for failures() == 0 {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("Run did not check the engines; log:\n%s", logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	h.Svc.Idle()
	if !strings.Contains(logs.String(), `msg="bot: an external engine plays" engine=Good variant=gothic`) {
		t.Errorf("the engine that plays is not logged as playing:\n%s", logs.String())
	}
	var metrics bytes.Buffer
	h.Svc.WriteMetrics(&metrics)
	for _, want := range []string{`missive_engine_playable{engine="Good",variant="gothic"} 1`, `missive_engine_playable{engine="Missing",variant="gothic"} 0`} {
		if !strings.Contains(metrics.String(), want) {
			t.Errorf("metrics lack %s:\n%s", want, metrics.String())
		}
	}
	h.Refused("alice", "challenge variant:gothic engine:Missing", "The engine Missing cannot play gothic at the moment; an admin can find why in the bot's log.")
	h.Ok("alice", "challenge variant:gothic engine:Good")
	// Autocompletion offers only the engines a challenge would get: once the
	// variant is chosen, without the one that cannot play it; before, with the
	// games each external engine plays.
	complete := func(args bot.Args) []string {
		var out []string
		for _, c := range h.Svc.Complete(t.Context(), bot.Request{User: bot.User{ID: "alice"}, Command: "challenge", Args: args}, "engine", "") {
			out = append(out, c.Label+"="+c.Value)
		}
		return out
	}
	if got, want := complete(bot.Args{"variant": "gothic"}), []string{"builtin=builtin", "Good=Good"}; !slices.Equal(got, want) {
		t.Errorf("engines offered for gothic: %v, want %v", got, want)
	}
	if got, want := complete(nil), []string{"builtin=builtin", "Good (Gothic Chess)=Good"}; !slices.Equal(got, want) {
		t.Errorf("engines offered before a variant is chosen: %v, want %v", got, want)
	}
	if got, want := complete(bot.Args{"variant": "keltic"}), []string{"builtin=builtin"}; !slices.Equal(got, want) {
		t.Errorf("engines offered for keltic: %v, want %v", got, want)
	}

	h.Clock.Advance(bot.EngineCheckEvery - time.Second)
	h.Svc.CheckEngines()
	h.Svc.Idle()
	if n := failures(); n != 1 {
		t.Errorf("%d failed checks logged before %v passed, want 1", n, bot.EngineCheckEvery)
	}
	h.Clock.Advance(time.Second)
	h.Svc.CheckEngines()
	h.Svc.Idle()
	if n := failures(); n != 2 {
		t.Errorf("%d failed checks logged after %v, want 2", n, bot.EngineCheckEvery)
	}
	if n := starts(t, dir, "Good"); n != 1 {
		t.Errorf("Good started %d times, want once: checked again after it played", n)
	}
}
