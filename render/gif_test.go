package render

import (
	"bytes"
	"errors"
	"image"
	"image/draw"
	"image/gif"
	"image/png"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

// fakeGame returns a Gothic board and 60 moves that the fake position plays: every
// pawn two steps up, then every back-rank piece out to the third or sixth rank.
func fakeGame(t testing.TB) (fakePos, []rules.Move) {
	b := boardFromText(t, 10, 8, gothicStart)
	d := b.Dims
	var moves []rules.Move
	add := func(from, to string) { moves = append(moves, *move(t, d, from, to)) }
	for step := 0; step < 2; step++ {
		for f := 'a'; f <= 'j'; f++ {
			add(string(f)+string(rune('2'+step)), string(f)+string(rune('3'+step)))
			add(string(f)+string(rune('7'-step)), string(f)+string(rune('6'-step)))
		}
	}
	for f := 'a'; f <= 'j'; f++ {
		add(string(f)+"1", string(f)+"3")
		add(string(f)+"8", string(f)+"6")
	}
	return fakePos{v: fakeVariant{"gothic", d}, b: b}, moves
}

func TestGIF(t *testing.T) {
	start, moves := fakeGame(t)
	moves = moves[:8]
	r := New()
	var buf bytes.Buffer
	opts := GIFOptions{Options: Options{Theme: "ocean", Viewer: rules.Black}, Delay: 700 * time.Millisecond}
	if err := r.GIF(&buf, start, moves, opts); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != len(moves)+1 {
		t.Fatalf("%d frames, want %d", len(g.Image), len(moves)+1)
	}
	for i, d := range g.Delay {
		want := 70
		if i == len(g.Delay)-1 {
			want = int(DefaultFinalDelay / (10 * time.Millisecond))
		}
		if d != want {
			t.Errorf("frame %d delay %d, want %d", i, d, want)
		}
	}
	// Playing the frames one over the other gives each position as PNG draws it.
	canvas := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	pos := rules.Position(start)
	for i, frame := range g.Image {
		if i > 0 {
			if frame.Bounds().Dx()*frame.Bounds().Dy() >= g.Config.Width*g.Config.Height/2 {
				t.Errorf("frame %d is %v, more than half the picture for one move", i, frame.Bounds())
			}
			pos, err = pos.Play(moves[i-1])
			if err != nil {
				t.Fatal(err)
			}
		}
		draw.Draw(canvas, frame.Bounds(), frame, frame.Bounds().Min, draw.Over)
		o := opts.Options
		if i > 0 {
			o.LastMove = &moves[i-1]
		}
		var want bytes.Buffer
		if err := r.PNG(&want, pos, o); err != nil {
			t.Fatal(err)
		}
		wantImg, err := png.Decode(&want)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := diffImages(wantImg, canvas); n != 0 {
			t.Errorf("frame %d: %d pixels differ from the position drawn alone", i, n)
		}
	}
}

func TestGIFErrors(t *testing.T) {
	start, moves := fakeGame(t)
	bad := append(append([]rules.Move{}, moves[:3]...), *move(t, start.b.Dims, "e5", "e6"))
	var buf bytes.Buffer
	err := GIF(&buf, start, bad, GIFOptions{})
	if !errors.Is(err, rules.ErrIllegalMove) {
		t.Errorf("GIF with an unplayable move: error %v, want ErrIllegalMove", err)
	}
	if buf.Len() != 0 {
		t.Errorf("GIF wrote %d bytes before failing", buf.Len())
	}
	if err := GIFPositions(&buf, nil, nil, GIFOptions{}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("GIF of no positions: %v", err)
	}
	if err := GIFPositions(&buf, []rules.Position{start}, moves[:1], GIFOptions{}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("GIF with too many moves: %v", err)
	}
	if err := GIF(&buf, start, nil, GIFOptions{Delay: -time.Second}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("GIF with a negative delay: %v", err)
	}
	other := fakePos{v: fakeVariant{"keltic", rules.Dims{Files: 9, Ranks: 7}}, b: boardFromText(t, 9, 7, kelticStart)}
	if err := GIFPositions(&buf, []rules.Position{start, other}, moves[:1], GIFOptions{}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("GIF mixing boards: %v", err)
	}
	// a single position is one frame shown for the final delay
	buf.Reset()
	if err := GIF(&buf, start, nil, GIFOptions{FinalDelay: 2 * time.Second}); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil || len(g.Image) != 1 || g.Delay[0] != 200 {
		t.Errorf("one-position GIF: %v frames, delays %v, err %v", len(g.Image), g.Delay, err)
	}
}

// An animated Go-Chess placement, framed as /gif frames it (a frame per revealed
// round, its last choice as the move): a round both chose the same cell for
// changes nothing and highlights nothing, and every other round highlights both
// players' pieces, the two kings of the last round among them.
func TestGIFPlacementHighlightsWhatAppeared(t *testing.T) {
	v, err := variants.Registry().Lookup("gochess")
	if err != nil {
		t.Fatal(err)
	}
	pos := v.Start(0)
	positions := []rules.Position{pos}
	var moves []rules.Move
	choose := func(w, b string) {
		t.Helper()
		for _, c := range []struct {
			side rules.Side
			cell string
		}{{rules.White, w}, {rules.Black, b}} {
			m, err := pos.ParseMove(c.cell)
			if err == nil {
				pos, err = pos.(rules.Simultaneous).PlayAs(c.side, m)
			}
			if err != nil {
				t.Fatalf("%s %s: %v", c.side, c.cell, err)
			}
			if c.side == rules.Black {
				moves = append(moves, m)
			}
		}
		positions = append(positions, pos)
	}
	choose("a2", "a2") // chosen again
	for _, r := range [][2]string{{"a3", "a9"}, {"b2", "b9"}, {"c3", "c8"}, {"d4", "d7"}, {"e4", "e8"}, {"f3", "f8"}, {"g2", "h9"},
		{"j2", "j9"}, {"c1", "c10"}, {"d1", "f10"}, {"a1", "a10"}, {"j3", "j10"}, {"b1", "b10"}, {"d2", "d9"}, {"e2", "e9"}, {"f1", "f9"}} {
		choose(r[0], r[1])
	}
	if _, ok := pos.(rules.Simultaneous); ok {
		t.Fatalf("the placement is not over: %s", pos)
	}
	var buf bytes.Buffer
	opts := GIFOptions{Options: Options{Theme: "ocean"}}
	if err := GIFPositions(&buf, positions, moves, opts); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil || len(g.Image) != len(positions) {
		t.Fatalf("%d frames (%v), want %d", len(g.Image), err, len(positions))
	}
	canvas := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	for i, frame := range g.Image {
		draw.Draw(canvas, frame.Bounds(), frame, frame.Bounds().Min, draw.Over)
		o := opts.Options
		if i > 0 {
			before, after := positions[i-1].Board(), positions[i].Board()
			for sq, c := range after.Cells {
				if !c.Piece.IsNone() && before.Cells[sq].Piece.IsNone() {
					o.Placed = append(o.Placed, rules.Square(sq))
				}
			}
			if want := map[int]int{1: 0}[i]; i == 1 && len(o.Placed) != want || i > 1 && len(o.Placed) != 2 {
				t.Fatalf("round %d placed %d pieces", i, len(o.Placed))
			}
		}
		var want bytes.Buffer
		if err := PNG(&want, positions[i], o); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&want)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := diffImages(img, canvas); n != 0 {
			t.Errorf("frame %d: %d pixels differ from the position with its %d new pieces highlighted", i, n, len(o.Placed))
		}
	}
	if err := PNG(&buf, pos, Options{Placed: []rules.Square{rules.Square(v.Dims().Cells())}}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("a placed cell off the board: %v", err)
	}
}

// BenchmarkGIF60 animates a 60-move Gothic game.
func BenchmarkGIF60(b *testing.B) {
	start, moves := fakeGame(b)
	r := New()
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := r.GIF(&buf, start, moves, GIFOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1024, "KB/gif")
}
