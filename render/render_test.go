package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sync"
	"testing"

	"github.com/missivechess/missive/rules"
)

// goldenCase is one hand-built board drawn to a golden image.
type goldenCase struct {
	name    string
	variant string
	board   func(testing.TB) rules.Board
	opts    func(testing.TB, rules.Dims) Options
}

func move(t testing.TB, d rules.Dims, from, to string) *rules.Move {
	m := rules.Move{From: rules.NoSquare, To: sq(t, d, to)}
	if from != "" {
		m.From = sq(t, d, from)
	}
	return &m
}

const (
	gothicMiddle = "r1bq1k1bnr/pp1ppApppp/2n7/2p2C4/4P5/10/PPPP1PPPPP/RNBQ1K1BNR"
	gochessBoard = "#9/3#1k4/2r7/6#3/1#1q6/5N4/4#5/8#1/2#1P1#3/5K1#2"
)

var goldenCases = []goldenCase{
	{"gothic_start", "gothic",
		func(t testing.TB) rules.Board { return boardFromText(t, 10, 8, gothicStart) },
		func(testing.TB, rules.Dims) Options { return Options{} }},
	{"gothic_check_black_ocean", "gothic",
		func(t testing.TB) rules.Board { return boardFromText(t, 10, 8, gothicMiddle) },
		func(t testing.TB, d rules.Dims) Options {
			return Options{Viewer: rules.Black, Theme: "ocean", LastMove: move(t, d, "g1", "f7"),
				Check: []rules.Square{sq(t, d, "f8")}, Arrows: []Arrow{{sq(t, d, "f8"), sq(t, d, "f7")}}}
		}},
	{"keltic_start_night", "keltic",
		func(t testing.TB) rules.Board { return boardFromText(t, 9, 7, kelticStart) },
		func(t testing.TB, d rules.Dims) Options {
			return Options{Theme: "night", LastMove: move(t, d, "e3", "e4")}
		}},
	{"gochess_placement", "gochess",
		func(t testing.TB) rules.Board { return boardFromText(t, 10, 10, gochessBoard) },
		func(t testing.TB, d rules.Dims) Options { return Options{LastMove: move(t, d, "", "d2")} }},
	{"gess_start", "gess",
		func(testing.TB) rules.Board { return gessStart() },
		func(t testing.TB, d rules.Dims) Options {
			return Options{Rings: [2][]rules.Square{{sq(t, d, "l18")}, {sq(t, d, "l3")}}}
		}},
	{"gess_move_night_small", "gess",
		func(t testing.TB) rules.Board {
			b := gessStart()
			// Black's c4 piece moved up to c7 (c2.. stones of the block moved with it)
			for _, name := range []string{"b3", "c3", "d3", "c4", "c2"} {
				b.Cells[sq(t, b.Dims, name)].Piece = rules.Piece{}
			}
			for _, name := range []string{"b6", "c6", "d6", "c5"} {
				b.Cells[sq(t, b.Dims, name)].Piece = rules.Piece{Side: rules.Black, Kind: rules.Stone}
			}
			return b
		},
		func(t testing.TB, d rules.Dims) Options {
			return Options{Theme: "night", Width: 480, Viewer: rules.Black, LastMove: move(t, d, "c3", "c6"),
				Rings: [2][]rules.Square{{sq(t, d, "l18")}, {sq(t, d, "l3")}}}
		}},
}

func TestGoldenImages(t *testing.T) {
	r := New()
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			b := c.board(t)
			var buf bytes.Buffer
			if err := r.DrawPNG(&buf, lookOf(c.variant), b, c.opts(t, b.Dims)); err != nil {
				t.Fatal(err)
			}
			if buf.Len() > 150<<10 {
				t.Errorf("PNG is %d KB, over 150 KB", buf.Len()>>10)
			}
			checkGoldenPNG(t, c.name, buf.Bytes())
		})
	}
}

// TestPaletteFaithful checks that the paletted PNG is close to the true-colour picture.
func TestPaletteFaithful(t *testing.T) {
	r := New()
	for _, c := range goldenCases {
		b := c.board(t)
		o := c.opts(t, b.Dims)
		rgba, err := r.DrawBoard(lookOf(c.variant), b, o)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := r.DrawPNG(&buf, lookOf(c.variant), b, o); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if n, share := diffImages(rgba, img); share > 0.002 {
			t.Errorf("%s: %d pixels (%.2f%%) of the paletted picture are far from the true colours", c.name, n, 100*share)
		}
	}
}

func TestSquaresAndCells(t *testing.T) {
	r := New()
	th := themes[DefaultTheme]
	center := func(img *image.RGBA, l layout, s rules.Square) color.Color {
		x, y := l.center(s)
		return img.At(int(x), int(y))
	}
	corner := func(img *image.RGBA, l layout, s rules.Square) color.Color {
		rc := l.rect(s)
		return img.At(rc.Min.X+2, rc.Min.Y+2)
	}
	for _, viewer := range rules.Sides {
		b := boardFromText(t, 9, 7, kelticStart)
		img, err := r.DrawBoard(lookOf("keltic"), b, Options{Viewer: viewer})
		if err != nil {
			t.Fatal(err)
		}
		l := newLayout(b.Dims, DefaultWidth, viewer == rules.Black)
		d := b.Dims
		// docs/RULES.md: a square is light when file index + rank is odd with a = 1 (a1 dark).
		for name, want := range map[string]color.NRGBA{"a3": th.dark, "b3": th.light, "a4": th.light, "e4": th.light, "d1": th.light, "e1": th.dark} {
			if got := corner(img, l, sq(t, d, name)); !closeColour(got, want, 0) {
				t.Errorf("viewer %v: %s is %v, want %v", viewer, name, got, want)
			}
		}
		for _, name := range []string{"a1", "c1", "a7", "i7", "b6", "h2"} {
			if got := center(img, l, sq(t, d, name)); !closeColour(got, th.frame, 0) {
				t.Errorf("viewer %v: missing cell %s is %v, want the frame colour %v", viewer, name, got, th.frame)
			}
		}
		// a1 is at the bottom left for White and the top right for Black
		rc := l.rect(sq(t, d, "a3"))
		if left := rc.Min.X < img.Bounds().Dx()/2; left != (viewer == rules.White) {
			t.Errorf("viewer %v: a3 drawn at x=%d", viewer, rc.Min.X)
		}
	}
	b := boardFromText(t, 10, 10, gochessBoard)
	img, err := r.DrawBoard(lookOf("gochess"), b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := newLayout(b.Dims, DefaultWidth, false)
	for i, c := range b.Cells {
		if c.State != rules.Blocked {
			continue
		}
		// a blocked cell shows its hatching: both stone colours inside one cell, no square colour
		seen := map[color.NRGBA]bool{}
		rc := l.rect(rules.Square(i))
		for y := rc.Min.Y; y < rc.Max.Y; y++ {
			for x := rc.Min.X; x < rc.Max.X; x++ {
				p := img.RGBAAt(x, y)
				seen[color.NRGBA{p.R, p.G, p.B, p.A}] = true
			}
		}
		if !seen[th.blockA] || !seen[th.blockB] || seen[th.light] || seen[th.dark] {
			t.Errorf("blocked cell %s is not drawn as a hatched slab", b.Name(rules.Square(i)))
		}
	}
}

// TestPiecesDistinct checks at phone size that every two kinds differ in a good
// share of their silhouette, Chancellor and Archbishop above all.
func TestPiecesDistinct(t *testing.T) {
	const size = 36
	kinds := []rules.PieceKind{rules.Pawn, rules.Knight, rules.Bishop, rules.Rook, rules.Queen, rules.King, rules.Chancellor, rules.Archbishop}
	for _, side := range rules.Sides {
		sprites := map[rules.PieceKind]*image.RGBA{}
		for _, k := range kinds {
			sprites[k] = drawPiece(k, side, size)
		}
		for i, a := range kinds {
			for _, b := range kinds[i+1:] {
				diff := 0
				for j := 3; j < len(sprites[a].Pix); j += 4 {
					if d := int(sprites[a].Pix[j]) - int(sprites[b].Pix[j]); d > 128 || d < -128 {
						diff++
					}
				}
				want := 0.05
				if a == rules.Chancellor && b == rules.Archbishop {
					want = 0.08
				}
				if share := float64(diff) / (size * size); share < want {
					t.Errorf("%v %v and %v differ in only %.1f%% of their silhouettes", side, a, b, 100*share)
				}
			}
		}
	}
}

func TestPiecePaths(t *testing.T) {
	for k, ls := range pieceLayers {
		if k < rules.Pawn || k > rules.Archbishop {
			t.Errorf("unexpected kind %v in the piece set", k)
		}
		for _, l := range ls {
			if _, err := parsePath(l.d); err != nil {
				t.Errorf("%v: %v", k, err)
			}
		}
	}
	if len(pieceLayers) != 8 {
		t.Errorf("piece set has %d kinds, want 8", len(pieceLayers))
	}
	for _, bad := range []string{"M 1", "3 4", "M 1 2 Z 5", "X 1 2", "L 1 x"} {
		if _, err := parsePath(bad); err == nil {
			t.Errorf("parsePath(%q) = nil error", bad)
		}
	}
}

func TestBadInput(t *testing.T) {
	good := boardFromText(t, 10, 8, gothicStart)
	short := good
	short.Cells = short.Cells[:10]
	onMissing := boardFromText(t, 9, 7, kelticStart)
	onMissing.Cells[0].Piece = rules.Piece{Kind: rules.Queen}
	badKind := boardFromText(t, 10, 8, gothicStart)
	badKind.Cells[40].Piece = rules.Piece{Kind: 42}
	stone := boardFromText(t, 10, 8, gothicStart)
	stone.Cells[40].Piece = rules.Piece{Kind: rules.Stone}
	huge := rules.Board{Dims: rules.Dims{Files: 30, Ranks: 2}, Cells: make([]rules.Cell, 60)}
	off := rules.Square(80)
	cases := []struct {
		name string
		b    rules.Board
		o    Options
	}{
		{"theme", good, Options{Theme: "neon"}},
		{"narrow", good, Options{Width: 100}},
		{"wide", good, Options{Width: 10000}},
		{"viewer", good, Options{Viewer: 7}},
		{"cells", short, Options{}},
		{"missing", onMissing, Options{}},
		{"kind", badKind, Options{}},
		{"stone", stone, Options{}},
		{"size", huge, Options{}},
		{"last move", good, Options{LastMove: &rules.Move{From: 0, To: off}}},
		{"check", good, Options{Check: []rules.Square{-5}}},
		{"arrow", good, Options{Arrows: []Arrow{{0, off}}}},
		{"ring", good, Options{Rings: [2][]rules.Square{{off}}}},
	}
	r := New()
	for _, c := range cases {
		if _, err := r.DrawBoard(lookOf("gothic"), c.b, c.o); !errors.Is(err, ErrBadOptions) {
			t.Errorf("%s: DrawBoard error = %v, want ErrBadOptions", c.name, err)
		}
		if err := r.DrawPNG(&bytes.Buffer{}, lookOf("gothic"), c.b, c.o); !errors.Is(err, ErrBadOptions) {
			t.Errorf("%s: DrawPNG error = %v, want ErrBadOptions", c.name, err)
		}
	}
	if _, err := r.DrawBoard(lookOf("gess"), good, Options{}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("chess pieces on a Gess board: %v", err)
	}
	if _, err := r.DrawBoard(lookOf("gothic"), good, Options{Theme: " Ocean "}); err != nil {
		t.Errorf("theme keys ignore case and spaces: %v", err)
	}
}

// TestBoardMarksFromPosition checks that Board finds the king in check and the rings.
func TestBoardMarksFromPosition(t *testing.T) {
	b := boardFromText(t, 10, 8, gothicMiddle)
	pos := fakePos{v: fakeVariant{"gothic", b.Dims}, b: b, turn: rules.Black, check: true}
	o := withPosition(pos, Options{Check: []rules.Square{3}})
	if len(o.Check) != 1 || b.Name(o.Check[0]) != "f8" {
		t.Errorf("check squares = %v, want f8", o.Check)
	}
	pos.check = false
	if o := withPosition(pos, Options{Check: []rules.Square{3}}); len(o.Check) != 0 {
		t.Errorf("check squares = %v with no check", o.Check)
	}
	g := gessStart()
	gp := fakeGessPos{fakePos{v: fakeVariant{"gess", g.Dims}, b: g}, [2][]rules.Square{{sq(t, g.Dims, "l18")}, {sq(t, g.Dims, "l3")}}}
	o = withPosition(gp, Options{})
	if len(o.Rings[rules.White]) != 1 || len(o.Rings[rules.Black]) != 1 {
		t.Errorf("rings = %v", o.Rings)
	}
	// the glow is red under the king
	img, err := Board(fakePos{v: fakeVariant{"gothic", b.Dims}, b: b, turn: rules.Black, check: true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := newLayout(b.Dims, DefaultWidth, false)
	rc := l.rect(sq(t, b.Dims, "f8"))
	p := img.RGBAAt(rc.Min.X+l.cell/8, rc.Min.Y+l.cell/2)
	if !(p.R > 200 && p.G < 120) {
		t.Errorf("no red glow beside the king in check: %v", p)
	}
}

// TestConcurrentRenders draws many boards at once and checks each equals the same
// board drawn alone (run with -race).
func TestConcurrentRenders(t *testing.T) {
	type job struct {
		variant string
		b       rules.Board
		o       Options
	}
	var jobs []job
	for i, c := range goldenCases {
		b := c.board(t)
		o := c.opts(t, b.Dims)
		o.Theme = Themes()[i%len(Themes())]
		jobs = append(jobs, job{c.variant, b, o})
	}
	want := make([][]byte, len(jobs))
	for i, j := range jobs {
		var buf bytes.Buffer
		if err := New().DrawPNG(&buf, lookOf(j.variant), j.b, j.o); err != nil {
			t.Fatal(err)
		}
		want[i] = buf.Bytes()
	}
	r := New()
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(jobs))
	for g := 0; g < 4; g++ {
		wg.Go(func() {
			for k := range jobs {
				i := (k + g) % len(jobs)
				var buf bytes.Buffer
				if err := r.DrawPNG(&buf, lookOf(jobs[i].variant), jobs[i].b, jobs[i].o); err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(buf.Bytes(), want[i]) {
					errs <- fmt.Errorf("job %d drawn concurrently differs from alone", i)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestCacheBounded(t *testing.T) {
	c := newCache[int, int](3)
	builds := 0
	for i := 0; i < 10; i++ {
		if got := c.get(i%5, func() int { builds++; return i % 5 * 10 }); got != i%5*10 {
			t.Fatalf("get(%d) = %d", i%5, got)
		}
	}
	if c.len() != 3 {
		t.Errorf("cache holds %d entries, limit 3", c.len())
	}
	if builds != 10 {
		t.Errorf("built %d times, want 10 (every key evicted before reuse)", builds)
	}
	c.get(4, func() int { t.Error("rebuilt a cached key"); return 0 })
}
