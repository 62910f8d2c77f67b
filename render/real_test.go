package render_test

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/render"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

var docs = flag.Bool("docs", false, "rewrite the contact sheet in ../docs/")

// sheet is one picture of the contact sheet: a real position reached by moves.
type sheet struct {
	file, variant, fen, moves string
	opts                      render.Options
	// place, Go-Chess only: placement choices, White's then Black's in each round
	// ("c3 d8 ..."); an odd count leaves White's last choice pending, secret from Black.
	place string
}

// Go-Chess's blocked cells with seed 0 are g9 e7 i7 h6 i5 i4 b3 f2 h1 i1.
const gochessMiddle = "2r2k4/1p1b1p*p1n/p2q2pb2/1n1p*1p1*r/3p1N1*2/2P5*1/1P6*P/P*1B2P1P1/1R1Q1*1N2/2B1K1R**1 w - - 0 20"

var sheets = []sheet{
	{file: "gothic-start", variant: "gothic"},
	{file: "gothic-check", variant: "gothic", moves: "e2e4 e7e5 c2c3 d7d6 d1b3 i8h6 f2f4 e8f6 b3f7", opts: render.Options{Viewer: rules.Black}},
	{file: "keltic-start", variant: "keltic", opts: render.Options{Theme: "night"}},
	{file: "keltic-check", variant: "keltic", moves: "f2g4 d6c4 g4i5 e5e4 f3e4 e6e5 e4f5 f7d6 i5g6", opts: render.Options{Theme: "night"}},
	{file: "gochess-blocked", variant: "gochess", opts: render.Options{Theme: "ocean"}},
	{file: "gochess-placement", variant: "gochess", opts: render.Options{Theme: "ocean"}, // White's own board
		place: "a2 a9 b2 b9 c3 c8 d4 d7 e4 e8 f3 f8 g2 h9 j2 j9 c1 c10 d1 f10 a1 a10 j3 j10 b1"},
	{file: "gochess-check", variant: "gochess", fen: gochessMiddle, moves: "f6g8", opts: render.Options{Theme: "ocean"}},
	{file: "gess-start", variant: "gess"},
	{file: "gess-middlegame", variant: "gess", moves: "c3-c6 c18-c15 r3-r6 r18-r15 i3-i6 i18-i15 c6-c9 c15-c12 c9xc10"},
	{file: "gess-middlegame-ocean-black", variant: "gess", moves: "c3-c6 c18-c15 r3-r6 r18-r15 i3-i6 i18-i15 c6-c9 c15-c12 c9xc10", opts: render.Options{Theme: "ocean", Viewer: rules.Black}},
}

// play returns the sheet's position and the moves played to reach it.
func (s sheet) play(t *testing.T) (start, pos rules.Position, played []rules.Move) {
	t.Helper()
	v, err := variants.Registry().Lookup(s.variant)
	if err != nil {
		t.Fatal(err)
	}
	start = v.Start(0)
	if s.fen != "" {
		if start, err = v.ParsePosition(s.fen); err != nil {
			t.Fatal(err)
		}
	}
	pos = start
	for i, text := range strings.Fields(s.place) {
		sim, ok := pos.(rules.Simultaneous)
		if !ok {
			t.Fatalf("%s: choice %d %s after the placement phase", s.file, i+1, text)
		}
		m, err := pos.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if pos, err = sim.PlayAs(rules.Sides[i%2], m); err != nil {
			t.Fatal(err)
		}
	}
	for _, text := range strings.Fields(s.moves) {
		m, err := pos.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
		played = append(played, m)
	}
	return start, pos, played
}

// draw renders the sheet as the bot would: the position, its last move, its check and rings.
func (s sheet) draw(t *testing.T, r *render.Renderer) []byte {
	t.Helper()
	_, pos, played := s.play(t)
	opts := s.opts
	if len(played) > 0 {
		opts.LastMove = &played[len(played)-1]
	}
	if sim, ok := pos.(rules.Simultaneous); ok {
		// In placement a player sees the revealed pieces and their own pending
		// choice, never the opponent's; choices are not highlighted (as in the bot).
		pos = sim.ViewFor(opts.Viewer)
	}
	var buf bytes.Buffer
	if err := r.PNG(&buf, pos, opts); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestContactSheet draws the contact sheet from real positions of the four games;
// with -docs it rewrites docs/*.png.
func TestContactSheet(t *testing.T) {
	r := render.New()
	for _, s := range sheets {
		data := s.draw(t, r)
		if len(data) > 150<<10 {
			t.Errorf("%s: %d KB, over 150 KB", s.file, len(data)>>10)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil || img.Bounds().Dx() != render.DefaultWidth {
			t.Fatalf("%s: %v %v", s.file, img.Bounds(), err)
		}
		if *docs {
			if err := os.WriteFile(filepath.Join("..", "docs", s.file+".png"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestRealPositions checks the marks the real games give the renderer.
func TestRealPositions(t *testing.T) {
	for _, s := range sheets {
		_, pos, _ := s.play(t)
		switch s.file {
		case "gothic-check", "keltic-check", "gochess-check":
			if !pos.InCheck() {
				t.Errorf("%s: the position is not check", s.file)
			}
		case "gochess-placement":
			sim, ok := pos.(rules.Simultaneous)
			if !ok || !slices.Equal(sim.Awaiting(), []rules.Side{rules.Black}) {
				t.Fatalf("%s: not a placement round awaiting Black: %T", s.file, pos)
			}
			b1, _ := pos.Board().ParseSquare("b1")
			if sim.ViewFor(rules.White).Board().Cells[b1].Piece.IsNone() || !sim.ViewFor(rules.Black).Board().Cells[b1].Piece.IsNone() {
				t.Errorf("%s: White's pending knight on b1 is not White's alone to see", s.file)
			}
		case "gess-start", "gess-middlegame":
			rp, ok := pos.(render.Ringer)
			if !ok {
				t.Fatalf("%s: Gess position has no Rings method", s.file)
			}
			if len(rp.Rings(rules.White)) == 0 || len(rp.Rings(rules.Black)) == 0 {
				t.Errorf("%s: rings %v %v", s.file, rp.Rings(rules.White), rp.Rings(rules.Black))
			}
		}
	}
}

// TestGoldenStarts compares the start position of each game (Go-Chess: its empty
// board with the blocked cells of seed 0) with its golden image.
func TestGoldenStarts(t *testing.T) {
	r := render.New()
	for _, s := range sheets {
		if !strings.HasSuffix(s.file, "-start") && s.file != "gochess-blocked" {
			continue
		}
		render.CheckGoldenPNG(t, "real-"+s.file, s.draw(t, r))
	}
}

// TestGIFOfRealGame animates a real Gothic game.
func TestGIFOfRealGame(t *testing.T) {
	start, _, played := sheets[1].play(t)
	var buf bytes.Buffer
	if err := render.GIF(&buf, start, played, render.GIFOptions{}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() == 0 || buf.Len() > 2<<20 {
		t.Errorf("GIF of %d moves is %d bytes", len(played), buf.Len())
	}
}
