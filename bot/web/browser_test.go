package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/missivechess/missive/bot/web"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// chromium returns Debian's chromium, skipping the test when it is missing
// unless CI=true, where a browser test must run.
func chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "/usr/bin/chromium"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed; .ci/run installs Debian's chromium")
	}
	t.Skip("chromium is not installed (apt-get install chromium)")
	return ""
}

// browser starts a headless chromium for the test, with the flags this machine's
// closed network needs, and returns a context for its first tab. The deadline
// is only a failsafe against a hung browser: every wait below waits for a
// condition of the page.
func browser(t testing.TB) context.Context {
	t.Helper()
	path := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1200, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelC := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelC(); cancelB(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx
}

// tab opens another tab of the browser of ctx.
func tab(t testing.TB, ctx context.Context) context.Context {
	t.Helper()
	c, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	return c
}

func run(t testing.TB, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// get runs a and returns its value.
func get[T any](t testing.TB, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// css is a CSS selector for chromedp.
func css(sel string) chromedp.CSS { return chromedp.CSS(sel) }

// cell is the board's clickable square name.
func cell(name string) string { return `#board rect[data-sq="` + name + `"]` }

// current returns the text of the move list's current entry.
func current(t testing.TB, ctx context.Context) string {
	return get(t, ctx, chromedp.Text(css(`#moves button[aria-current="true"]`)))
}

// looksLikeABoard checks a screenshot loosely: many colours, among them the
// theme's squares (or Gess's Go board).
func looksLikeABoard(t testing.TB, shot []byte, want color.NRGBA) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	colours := map[color.NRGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			colours[color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)]++
		}
	}
	near := 0
	for c, n := range colours {
		if absDiff(c.R, want.R)+absDiff(c.G, want.G)+absDiff(c.B, want.B) < 12 {
			near += n
		}
	}
	if len(colours) < 30 || near < 500 {
		t.Errorf("the screenshot does not look like a board: %d colours, %d samples near %v", len(colours), near, want)
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// keep writes a screenshot to $MISSIVE_SCREENSHOTS (the README's pictures).
func keep(t testing.TB, name string, shot []byte) {
	if dir := os.Getenv("MISSIVE_SCREENSHOTS"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), shot, 0o644); err != nil {
			t.Error(err)
		}
	}
}

// The page of each of the four games: the board has one square per cell of the
// game's board, stepping by button and arrow key moves through the game, flip
// turns the board, the text alternative follows, and the screenshot looks like
// the game's board.
func TestBrowserEveryGame(t *testing.T) {
	s := newSite(t, web.Options{})
	ctx := browser(t)
	light := color.NRGBA{240, 217, 181, 255}
	for _, c := range []struct {
		variant string
		cells   int
		colour  color.NRGBA
	}{
		{"gothic", 80, light}, {"keltic", 43, light}, {"gochess", 100, light},
		{"gess", 400, color.NRGBA{222, 184, 106, 255}},
	} {
		t.Run(c.variant, func(t *testing.T) {
			id := s.h.Start(c.variant, "")
			if c.variant == "gochess" {
				placeRound(t, s, id)
			}
			for range 2 {
				g := s.h.Game(id)
				s.h.MoveAny(id, map[rules.Side]string{rules.White: "alice", rules.Black: "bob"}[g.ToMove[0]])
			}
			plies := len(s.view(s.w.ViewLink(id)).Steps)
			run(t, ctx, chromedp.Navigate(s.w.ViewLink(id)), chromedp.WaitVisible(css(`#moves button[data-ply="`+fmt.Sprint(plies)+`"]`)))
			n := get(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll('#board rect[data-sq]').length`))
			if n != c.cells {
				t.Errorf("the board has %d squares, want %d", n, c.cells)
			}
			rings := get(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll('#board rect.ring').length`))
			if want := map[bool]int{true: 2}[c.variant == "gess"]; rings < want || (want == 0 && rings != 0) {
				t.Errorf("the board shows %d rings", rings)
			}
			last := current(t, ctx)
			run(t, ctx, chromedp.Click(css(`#prev`)), chromedp.WaitVisible(css(`#moves button[data-ply="`+fmt.Sprint(plies-1)+`"][aria-current="true"]`)))
			run(t, ctx, chromedp.KeyEvent(kb.End), chromedp.WaitVisible(css(`#moves button[data-ply="`+fmt.Sprint(plies)+`"][aria-current="true"]`)))
			run(t, ctx, chromedp.KeyEvent(kb.ArrowLeft), chromedp.WaitVisible(css(`#moves button[data-ply="`+fmt.Sprint(plies-1)+`"][aria-current="true"]`)))
			run(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
			if got := current(t, ctx); got != last {
				t.Errorf("after ← → the current move is %q, want %q", got, last)
			}
			before := get(t, ctx, chromedp.TextContent(css(`#boardtext`)))
			run(t, ctx, chromedp.Click(css(`#flip`)))
			after := get(t, ctx, chromedp.TextContent(css(`#boardtext`)))
			label := get(t, ctx, chromedp.AttributeValue(css(`#board`), "aria-label")).Value
			if before == after || !strings.Contains(before, "Upper case: White") {
				t.Errorf("flip did not turn the text board:\n%s\n%s", before, after)
			}
			if !strings.Contains(label, "to move") && !strings.Contains(label, "wins") {
				t.Errorf("the board's description %q says nothing of the position", label)
			}
			run(t, ctx, chromedp.Click(css(`#flip`)))
			get(t, ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
			shot := get(t, ctx, chromedp.CaptureScreenshot())
			looksLikeABoard(t, shot, c.colour)
			keep(t, c.variant+".png", shot)
			// An analysis move by clicking: the piece (Gess: the footprint's centre),
			// then its target; the game itself does not change.
			g := s.h.Game(id)
			m := g.Position.LegalMoves()[0]
			d := g.Position.Variant().Dims()
			run(t, ctx, chromedp.Click(css(`#analyse`)), chromedp.WaitVisible(css(cell(d.Name(m.From))+`.can`)),
				chromedp.Click(css(cell(d.Name(m.From)))), chromedp.WaitVisible(css(cell(d.Name(m.To))+`.can`)),
				chromedp.Click(css(cell(d.Name(m.To)))), chromedp.WaitVisible(css(fmt.Sprintf(`#tree button[data-an="%d:0"]`, plies))))
			if got, want := get(t, ctx, chromedp.Text(css(`#tree button[data-an$=":0"]`))), g.Position.SAN(m); got != want {
				t.Errorf("the analysis move shows as %q, want %q", got, want)
			}
			if n := len(s.h.Game(id).Moves); n != len(g.Moves) {
				t.Errorf("the analysis changed the game: %d moves, was %d", n, len(g.Moves))
			}
			run(t, ctx, chromedp.Click(css(`#back`)))
		})
	}
}

// placeRound makes both players of Go-Chess game id choose cells until the
// placement is over.
func placeRound(t *testing.T, s *site, id string) {
	t.Helper()
	for range 100 {
		g := s.h.Game(id)
		sim, ok := record.Round(g.Position)
		if !ok {
			return
		}
		for _, side := range sim.Awaiting() {
			// White takes its first cell and Black its last: the same cell for both
			// would collide and make them choose again.
			ms := sim.LegalMovesFor(side)
			m := ms[0]
			if side == rules.Black {
				m = ms[len(ms)-1]
			}
			user := map[rules.Side]string{rules.White: "alice", rules.Black: "bob"}[side]
			s.h.Ok(user, "place game:"+id+" cell:"+g.Position.Variant().Dims().Name(m.To))
		}
	}
	t.Fatal("the placement did not end after 100 rounds")
}

// A player plays a move by clicking and confirming; the opponent's open page
// shows it without a reload. The opponent then analyses by clicking, adds a
// note, reloads and finds it; the first player's page never shows it.
func TestBrowserMoveAnalysisAndNote(t *testing.T) {
	s := newSite(t, web.Options{})
	ctx := browser(t)
	id := s.h.Start("gothic", "")
	alice, bob := ctx, tab(t, ctx)
	run(t, alice, chromedp.Navigate(s.w.PlayerLink(id, "alice")), chromedp.WaitVisible(css(cell("e2")+`.can`)))
	run(t, bob, chromedp.Navigate(s.w.PlayerLink(id, "bob")), chromedp.WaitVisible(css(cell("e2"))))
	run(t, alice, chromedp.Click(css(cell("e2"))), chromedp.WaitVisible(css(cell("e4")+`.can`)), chromedp.Click(css(cell("e4"))),
		chromedp.WaitVisible(css(`#confirm-yes`)))
	confirm := get(t, alice, chromedp.Text(css(`#confirm-text`)))
	if confirm != "Play e4?" {
		t.Errorf("the confirmation asks %q", confirm)
	}
	run(t, alice, chromedp.Click(css(`#confirm-yes`)), chromedp.WaitVisible(css(`#moves button[data-ply="1"]`)))
	run(t, bob, chromedp.WaitVisible(css(`#moves button[data-ply="1"]`))) // live, no reload
	if g := s.h.Game(id); len(g.Moves) != 1 || g.Moves[0].Move != "e2e4" {
		t.Fatalf("the game's moves after the click: %+v", g.Moves)
	}
	// Bob analyses from the position after e4, by clicking, then answers himself
	// by dragging a piece.
	run(t, bob, chromedp.Click(css(`#analyse`)), chromedp.WaitVisible(css(`#analysis`)), chromedp.WaitVisible(css(cell("g8")+`.can`)),
		chromedp.Click(css(cell("g8"))), chromedp.WaitVisible(css(cell("h6")+`.can`)), chromedp.Click(css(cell("h6"))),
		chromedp.WaitVisible(css(`#tree button[data-an="1:0"]`)), chromedp.WaitVisible(css(cell("d2")+`.can`)))
	at := func(sq string) []float64 {
		return get(t, bob, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector('`+cell(sq)+`').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`))
	}
	from, to := at("d2"), at("d4")
	run(t, bob, chromedp.MouseEvent(chromedp.MousePressed, from[0], from[1], chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, to[0], to[1], chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, to[0], to[1], chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.WaitVisible(css(`#tree button[data-an="1:1"]`)))
	if got := get(t, bob, chromedp.Text(css(`#tree button[data-an="1:1"]`))); got != "d4" {
		t.Errorf("the dragged move shows as %q, want d4", got)
	}
	run(t, bob, chromedp.Click(css(`#tree button[data-an="1:0"]`)), chromedp.WaitVisible(css(`#tree button[data-an="1:0"][aria-current="true"]`)))
	const note = "plan: Nh6 then f5"
	run(t, bob, chromedp.SendKeys(css(`#note`), note), chromedp.Click(css(`#save`)),
		chromedp.WaitVisible(css(`#tree button.has-note`)), chromedp.Poll[chromedp.Void](`document.getElementById('saved').textContent.includes('saved')`))
	if n := len(s.h.Game(id).Moves); n != 1 {
		t.Errorf("the analysis move was played in the game: %d moves", n)
	}
	keep(t, "analysis.png", get(t, bob, chromedp.CaptureScreenshot()))
	run(t, bob, chromedp.Reload(), chromedp.WaitVisible(css(`#moves button[data-ply="1"]`)), chromedp.KeyEvent("a"),
		chromedp.WaitVisible(css(`#tree button.has-note`)), chromedp.Click(css(`#tree button.has-note`)),
		chromedp.Poll[chromedp.Void](`document.getElementById('note').value === `+fmt.Sprintf("%q", note)))
	run(t, alice, chromedp.Click(css(`#analyse`)), chromedp.WaitVisible(css(`#analysis`)))
	notes := get(t, alice, chromedp.Evaluate[int](`document.querySelectorAll('#tree .has-note').length`))
	page := get(t, alice, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	if notes != 0 || strings.Contains(page, "plan:") {
		t.Errorf("alice's page shows bob's analysis")
	}
}

// A Go-Chess placement is chosen by clicking a cell and confirming; it shows on
// the chooser's page only.
func TestBrowserPlacementByClick(t *testing.T) {
	s := newSite(t, web.Options{})
	ctx := browser(t)
	id := s.h.Start("gochess", "")
	g := s.h.Game(id)
	sim, _ := record.Round(g.Position)
	name := g.Position.Variant().Dims().Name(sim.LegalMovesFor(rules.White)[0].To)
	bob := tab(t, ctx)
	run(t, ctx, chromedp.Navigate(s.w.PlayerLink(id, "alice")), chromedp.WaitVisible(css(cell(name)+`.can`)))
	run(t, bob, chromedp.Navigate(s.w.PlayerLink(id, "bob")), chromedp.WaitVisible(css(cell(name))))
	bobBefore := get(t, bob, chromedp.TextContent(css(`#boardtext`)))
	run(t, ctx, chromedp.Click(css(cell(name))), chromedp.WaitVisible(css(`#confirm-yes`)), chromedp.Click(css(`#confirm-yes`)),
		chromedp.Poll[chromedp.Void](`document.getElementById('message').textContent.includes('You chose')`))
	mine := get(t, ctx, chromedp.TextContent(css(`#boardtext`)))
	run(t, bob, chromedp.Reload(), chromedp.WaitVisible(css(cell(name))))
	bobAfter := get(t, bob, chromedp.TextContent(css(`#boardtext`)))
	if mine == bobBefore {
		t.Errorf("alice's page does not show her choice")
	}
	if bobAfter != bobBefore {
		t.Errorf("bob's page shows alice's choice:\n%s\n%s", bobBefore, bobAfter)
	}
}

// The page works from the keyboard alone: a move typed and confirmed with Enter
// is played; and on a phone's screen the board fits the width with the move
// list under it, and a finished game shows its review's graph.
func TestBrowserKeyboardAndPhone(t *testing.T) {
	s := newSite(t, web.Options{})
	ctx := browser(t)
	id := s.h.Start("gothic", "")
	run(t, ctx, chromedp.Navigate(s.w.PlayerLink(id, "alice")), chromedp.WaitVisible(css(`#typed-move`)),
		chromedp.SendKeys(css(`#typed-move`), "e4"+kb.Enter), chromedp.WaitVisible(css(`#confirm-yes`)),
		chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(css(`#moves button[data-ply="1"]`)))
	if g := s.h.Game(id); len(g.Moves) != 1 || g.Moves[0].Move != "e2e4" {
		t.Fatalf("the typed move: %+v", g.Moves)
	}
	s.h.Ok("bob", "move game:"+id+" move:e5")
	s.h.Ok("bob", "resign game:"+id)
	if err := s.h.Store.Update(context.Background(), func(tx *storage.Tx) error {
		return tx.PutReview(&storage.Review{Game: id, Plies: 2, Decisive: -1, Moves: []storage.ReviewMove{
			{Index: 0, Class: "best", Eval: 30}, {Index: 1, Class: "mistake", Eval: -140}}})
	}); err != nil {
		t.Fatal(err)
	}
	phone := tab(t, ctx)
	run(t, phone, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), chromedp.Navigate(s.w.ViewLink(id)),
		chromedp.WaitVisible(css(`#graph circle[data-ply="2"]`)))
	board := get(t, phone, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector('#board svg').getBoundingClientRect(); const m = document.getElementById('moves').getBoundingClientRect(); return [r.left, r.right, m.top, r.bottom, document.documentElement.scrollWidth]; })()`))
	if board[0] < 0 || board[1] > 390 || board[2] < board[3] || board[4] > 390 {
		t.Errorf("on a 390-pixel screen the board spans %v..%v, the moves start at %v under its bottom %v, the page is %v wide", board[0], board[1], board[2], board[3], board[4])
	}
	run(t, phone, chromedp.Click(css(`#graph circle[data-ply="1"]`)), chromedp.WaitVisible(css(`#moves button[data-ply="1"][aria-current="true"]`)))
	keep(t, "phone.png", get(t, phone, chromedp.CaptureScreenshot()))
}
