package web_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/bot/web"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// The goals: the page's weight before compression (no WebAssembly), an
// analysis move's legal targets, and a move shown on the opponent's open page.
const (
	goalPageKB   = 300
	goalTargetMS = 50
	goalShownMS  = 1000
)

// benchGame is a game on a real service (real renderer, data file with fsync)
// with the web pages, for benchmarks.
type benchGame struct {
	*site
	svc *bot.Service
	st  *storage.Store
	id  string
	seq int
}

// newBenchGame starts a game of variant between alice (White) and bob and plays
// plies first legal moves.
func newBenchGame(b *testing.B, variant string, plies int) *benchGame {
	b.Helper()
	reg := variants.Registry()
	st, err := storage.Open(filepath.Join(b.TempDir(), "bench.db"), reg, &storage.Options{NoBackupSocket: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	w, err := web.New(web.Options{Rate: 1e9, Burst: 1e9})
	if err != nil {
		b.Fatal(err)
	}
	cfg := features.With(bot.Config{Store: st, Registry: reg, Renderer: bot.NewRenderer(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Notifier: bot.NotifierFunc(func(context.Context, bot.Notification) error { return nil })}, features.Options{})
	cfg.Features = append(cfg.Features, w.Feature)
	svc, err := bot.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(svc.Close)
	if err := w.Attach(context.Background(), svc); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(w.Handler())
	b.Cleanup(srv.Close)
	w.SetPublic(srv.URL)
	g := &benchGame{site: &site{t: b, w: w, srv: srv}, svc: svc, st: st}
	g.handle("alice", "challenge", bot.Args{"variant": variant, "opponent": "bob", "color": "white"})
	g.id = g.handle("bob", "accept", bot.Args{}).Started.ID
	for range plies {
		if !g.moveAny() {
			break
		}
	}
	return g
}

func (g *benchGame) handle(user, cmd string, args bot.Args) bot.Reply {
	g.seq++
	r := g.svc.Handle(context.Background(), bot.Request{ID: fmt.Sprint("b", g.seq), User: bot.User{ID: user, Name: user}, Command: cmd, Args: args})
	if r.Refused {
		g.t.Fatalf("%s %s: %s", user, cmd, r.Text)
	}
	return r
}

func (g *benchGame) game() *storage.Game {
	var out *storage.Game
	if err := g.st.View(context.Background(), func(tx *storage.Tx) (err error) {
		out, err = tx.Game(g.id)
		return err
	}); err != nil {
		g.t.Fatal(err)
	}
	return out
}

// moveAny plays a legal move for the side to move, one that does not end the
// game when there is one; it reports false when the game is over.
func (g *benchGame) moveAny() bool {
	gm := g.game()
	if !gm.Active() {
		return false
	}
	ms := gm.Position.LegalMoves()
	var goOn []rules.Move
	for _, m := range ms {
		if next, err := gm.Position.Play(m); err == nil && !next.Outcome().IsOver() {
			goOn = append(goOn, m)
		}
	}
	if len(goOn) > 0 {
		ms = goOn
	}
	m := ms[(len(gm.Moves)*7919)%len(ms)] // spread over the moves, the same each run
	g.handle(players[gm.ToMove[0]], "move", bot.Args{"game": g.id, "move": gm.Position.UCI(m)})
	return true
}

var players = map[rules.Side]string{rules.White: "alice", rules.Black: "bob"}

// BenchmarkPageWeight reports what the page of a 60-ply Gess game (the largest
// board) loads: its files and the game's view, in KB before compression, and its
// ratio to the 300 KB goal.
func BenchmarkPageWeight(b *testing.B) {
	g := newBenchGame(b, "gess", 60)
	link := g.w.PlayerLink(g.id, "alice")
	total := 0
	for range b.N {
		total = 0
		for _, path := range []string{link, "/assets/app.js", "/assets/style.css", "/assets/pieces.svg", api(link, "")} {
			code, body := g.get(path)
			if code != http.StatusOK {
				b.Fatalf("%s: %d", path, code)
			}
			total += len(body)
		}
	}
	kb := float64(total) / 1024
	b.ReportMetric(kb, "KB/page")
	b.ReportMetric(kb/goalPageKB, "x-goal")
}

// BenchmarkLegalTargets times one analysis move's answer on localhost (the
// position after a move from the game's position and its legal moves), and its
// ratio to the 50 ms goal.
func BenchmarkLegalTargets(b *testing.B) {
	for _, variant := range []string{"gothic", "keltic", "gochess", "gess"} {
		b.Run(variant, func(b *testing.B) {
			g := newBenchGame(b, variant, 20)
			if variant == "gochess" {
				b.Skip("the first 20 plies are the placement, which the analysis does not start from")
			}
			gm := g.game()
			path := api(g.w.PlayerLink(g.id, "alice"), fmt.Sprintf("/node?ply=%d&line=%s", len(gm.Moves), gm.Position.UCI(gm.Position.LegalMoves()[0])))
			b.ResetTimer()
			for range b.N {
				if code, body := g.get(path); code != http.StatusOK {
					b.Fatalf("%d %s", code, body)
				}
			}
			ms := float64(b.Elapsed().Microseconds()) / 1000 / float64(b.N)
			b.ReportMetric(ms, "ms/targets")
			b.ReportMetric(ms/goalTargetMS, "x-goal")
		})
	}
}

// BenchmarkFirstBoard times the page of a 60-ply Gess game from navigation to its
// board and move list drawn, in a real browser.
func BenchmarkFirstBoard(b *testing.B) {
	g := newBenchGame(b, "gess", 60)
	ctx := browser(b)
	link := g.w.PlayerLink(g.id, "alice")
	run(b, ctx, chromedp.Navigate(link), chromedp.WaitVisible(css(`#board svg`)))
	b.ResetTimer()
	for range b.N {
		run(b, ctx, chromedp.Navigate(link), chromedp.WaitVisible(css(fmt.Sprintf(`#moves button[data-ply="%d"]`, len(g.game().Moves)))), chromedp.WaitVisible(css(`#board svg`)))
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/board")
}

// BenchmarkMoveShown times a move played by click's request until the opponent's
// open page shows it (live update, no reload), and its ratio to the 1 s goal.
func BenchmarkMoveShown(b *testing.B) {
	g := newBenchGame(b, "gothic", 0)
	ctx := browser(b)
	tabs := map[rules.Side]context.Context{rules.White: ctx, rules.Black: tab(b, ctx)}
	for side, user := range players {
		run(b, tabs[side], chromedp.Navigate(g.w.PlayerLink(g.id, user)), chromedp.WaitVisible(css(`#board svg`)))
	}
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		gm := g.game()
		if !gm.Active() {
			b.Fatalf("the game ended after %d moves", i)
		}
		side := gm.ToMove[0]
		ms := gm.Position.LegalMoves()
		body := `{"move":"` + gm.Position.UCI(ms[(i*7919)%len(ms)]) + `"}`
		b.StartTimer()
		if code, res := g.do(http.MethodPost, api(g.w.PlayerLink(g.id, players[side]), "/move"), body); code != http.StatusOK {
			b.Fatalf("%d %s", code, res)
		}
		run(b, tabs[side.Other()], chromedp.WaitVisible(css(fmt.Sprintf(`#moves button[data-ply="%d"]`, i+1))))
	}
	ms := float64(b.Elapsed().Microseconds()) / 1000 / float64(b.N)
	b.ReportMetric(ms, "ms/move")
	b.ReportMetric(ms/goalShownMS, "x-goal")
}
