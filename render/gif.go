package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
)

// Default frame times of an animated game.
const (
	DefaultDelay      = time.Second
	DefaultFinalDelay = 4 * time.Second
)

// GIFOptions say how to animate a game: the look of every frame (Arrows are not
// drawn; LastMove, Check and Rings come from the game) and how long each frame shows.
type GIFOptions struct {
	Options
	// Delay is how long each position but the last is shown; 0 means DefaultDelay.
	Delay time.Duration
	// FinalDelay is how long the final position is shown; 0 means DefaultFinalDelay.
	FinalDelay time.Duration
}

// MaxGIFFrames is the most positions one animation may hold; a caller with a
// longer game chooses which part to show.
const MaxGIFFrames = 2000

// GIF writes an animated GIF of the game that starts at start and continues with
// moves: one frame per position with the last move highlighted, the final
// position shown longer. A move that cannot be played is reported with its
// number and changes nothing written.
func (r *Renderer) GIF(w io.Writer, start rules.Position, moves []rules.Move, opts GIFOptions) error {
	h, err := record.Line(start, moves)
	if err != nil {
		var re *record.ReplayError
		if errors.As(err, &re) {
			return fmt.Errorf("render: move %d (%s) cannot be played: %w", re.Index+1, re.Move, re.Err)
		}
		return fmt.Errorf("render: %w", err)
	}
	positions := make([]rules.Position, 1, len(moves)+1)
	positions[0] = start
	for _, st := range h.Steps {
		positions = append(positions, st.After)
	}
	return r.GIFPositions(w, positions, moves, opts)
}

// GIFPositions writes an animated GIF of positions, where moves[i] led from
// positions[i] to positions[i+1] (so len(moves) is len(positions)-1). It suits
// games replayed by the caller, such as Go-Chess's simultaneous placement, where a
// placement (a drop) highlights every piece that appeared with it: both players'
// of a round, none of a round chosen again. Frames
// are encoded and written one at a time, so memory does not grow with the game.
func (r *Renderer) GIFPositions(w io.Writer, positions []rules.Position, moves []rules.Move, opts GIFOptions) error {
	if len(positions) == 0 {
		return fmt.Errorf("render: a GIF needs at least one position: %w", ErrBadOptions)
	}
	if len(positions) > MaxGIFFrames {
		return fmt.Errorf("render: a GIF holds at most %d positions, got %d: %w", MaxGIFFrames, len(positions), ErrBadOptions)
	}
	if len(moves) != len(positions)-1 {
		return fmt.Errorf("render: %d positions need %d moves between them, got %d: %w", len(positions), len(positions)-1, len(moves), ErrBadOptions)
	}
	delay, final := centis(opts.Delay, DefaultDelay), centis(opts.FinalDelay, DefaultFinalDelay)
	if delay < 0 || final < 0 {
		return fmt.Errorf("render: GIF delays must not be negative: %w", ErrBadOptions)
	}
	base := opts.Options
	base.Arrows = nil
	var (
		stream    *gifStream
		rgba      *image.RGBA
		prev, cur *image.Paletted
		pal       color.Palette
	)
	for i, pos := range positions {
		o := base
		o.LastMove, o.Placed = nil, nil
		if i > 0 {
			if m := moves[i-1]; m.From == rules.NoSquare && m.Drop != rules.NoPiece {
				// A placement round reveals both players' pieces at once, or none
				// when both chose one cell: the cells that gained a piece are the move.
				o.Placed = appeared(positions[i-1].Board(), pos.Board())
			} else {
				o.LastMove = &moves[i-1]
			}
		}
		sc, err := r.prepare(rules.LookOf(pos.Variant()), pos.Board(), withPosition(pos, o))
		if err != nil {
			return fmt.Errorf("render: position %d: %w", i, err)
		}
		if i == 0 {
			b := sc.bg.Bounds()
			// the quantizer's colours, opaque black filling the unused indices and
			// the last index transparent (the GIF encoder takes the first colour
			// with zero alpha as the transparent one)
			pal = make(color.Palette, 256)
			for j := range pal {
				pal[j] = color.RGBA{A: 255}
			}
			copy(pal, sc.q.pal)
			pal[transparent] = color.RGBA{}
			rgba = image.NewRGBA(b)
			prev, cur = image.NewPaletted(b, pal), image.NewPaletted(b, pal)
			stream = &gifStream{w: w, cfg: image.Config{ColorModel: pal, Width: b.Dx(), Height: b.Dy()}}
		} else if sc.bg.Bounds() != rgba.Bounds() || !samePalette(sc.q.pal, pal) {
			return fmt.Errorf("render: position %d has another board than the first: %w", i, ErrBadOptions)
		}
		sc.compose(rgba)
		sc.q.paletted(cur, rgba)
		frame := cur
		if i > 0 {
			frame = delta(prev, cur, pal)
		}
		d := delay
		if i == len(positions)-1 {
			d = final
		}
		if err := stream.frame(frame, d, len(positions) > 1); err != nil {
			return err
		}
		prev, cur = cur, prev
	}
	return stream.end()
}

// appeared lists the cells of after that hold a piece they did not hold in before.
func appeared(before, after rules.Board) []rules.Square {
	var out []rules.Square
	for i, c := range after.Cells {
		if !c.Piece.IsNone() && i < len(before.Cells) && before.Cells[i].Piece != c.Piece {
			out = append(out, rules.Square(i))
		}
	}
	return out
}

// gifStream writes an animated GIF one frame at a time, so that an animation of any
// length holds one frame in memory, not all of them as gif.EncodeAll needs. Every
// byte comes from image/gif's encoder: each frame is encoded as a GIF of its own
// with the animation's screen and palette, and its blocks, between the header that
// all such GIFs share and the trailer, are appended to the stream.
type gifStream struct {
	w      io.Writer
	cfg    image.Config
	buf    bytes.Buffer
	header int // bytes of the header, screen descriptor and global colour table
	frames int
}

// gifLoop is the length of the loop extension that image/gif writes after the
// global colour table of a GIF of more than one frame.
const gifLoop = 19

// frame encodes img, shown for delay hundredths of a second, and appends it;
// animated says whether the GIF will hold more than one frame.
func (s *gifStream) frame(img *image.Paletted, delay int, animated bool) error {
	s.buf.Reset()
	if err := gif.EncodeAll(&s.buf, &gif.GIF{Image: []*image.Paletted{img}, Delay: []int{delay},
		Disposal: []byte{gif.DisposalNone}, Config: s.cfg}); err != nil {
		return fmt.Errorf("render: encode gif: %w", err)
	}
	one := s.buf.Bytes()
	if s.frames == 0 {
		head, err := s.start(one, animated)
		if err != nil {
			return err
		}
		if _, err := s.w.Write(head); err != nil {
			return fmt.Errorf("render: write gif: %w", err)
		}
	}
	if len(one) <= s.header || one[len(one)-1] != 0x3b {
		return fmt.Errorf("render: encode gif: unexpected encoder output")
	}
	s.frames++
	if _, err := s.w.Write(one[s.header : len(one)-1]); err != nil {
		return fmt.Errorf("render: write gif: %w", err)
	}
	return nil
}

// start returns the stream's header, taken from the encoder: the part that the
// one-frame GIF one shares with a two-frame GIF of the same screen, followed, when
// animated, by the two-frame GIF's loop extension.
func (s *gifStream) start(one []byte, animated bool) ([]byte, error) {
	dot := image.NewPaletted(image.Rect(0, 0, 1, 1), s.cfg.ColorModel.(color.Palette))
	var two bytes.Buffer
	if err := gif.EncodeAll(&two, &gif.GIF{Image: []*image.Paletted{dot, dot}, Delay: []int{0, 0},
		Disposal: []byte{0, 0}, Config: s.cfg}); err != nil {
		return nil, fmt.Errorf("render: encode gif: %w", err)
	}
	t := two.Bytes()
	n := 0
	for n < len(one) && n < len(t) && one[n] == t[n] {
		n++
	}
	// Both go on with an extension (0x21): the frame's graphic control, the loop.
	n--
	// The shared part ends where the two-frame GIF's loop extension starts.
	if n < 0 || n+gifLoop > len(t) || !bytes.Equal(t[n:n+3], []byte{0x21, 0xff, 0x0b}) || string(t[n+3:n+14]) != "NETSCAPE2.0" {
		return nil, fmt.Errorf("render: encode gif: unexpected encoder output")
	}
	s.header = n
	if animated {
		return t[:n+gifLoop], nil
	}
	return t[:n], nil
}

// end writes the trailer.
func (s *gifStream) end() error {
	if _, err := s.w.Write([]byte{0x3b}); err != nil {
		return fmt.Errorf("render: write gif: %w", err)
	}
	return nil
}

// samePalette reports whether the quantizer's palette a starts the GIF palette b.
func samePalette(a, b color.Palette) bool {
	if len(a) >= len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// centis converts d (or def when d is 0) to GIF's hundredths of a second.
func centis(d, def time.Duration) int {
	if d == 0 {
		d = def
	}
	return int(d / (10 * time.Millisecond))
}

// delta returns the smallest frame that turns prev into cur when drawn over it:
// the bounding box of the changed pixels, unchanged ones transparent.
func delta(prev, cur *image.Paletted, pal color.Palette) *image.Paletted {
	b := cur.Bounds()
	box := image.Rectangle{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		p := prev.Pix[prev.PixOffset(b.Min.X, y):prev.PixOffset(b.Max.X, y)]
		c := cur.Pix[cur.PixOffset(b.Min.X, y):cur.PixOffset(b.Max.X, y)]
		lo, hi := -1, -1
		for x := range c {
			if c[x] != p[x] {
				if lo < 0 {
					lo = x
				}
				hi = x
			}
		}
		if lo >= 0 {
			box = box.Union(image.Rect(b.Min.X+lo, y, b.Min.X+hi+1, y+1))
		}
	}
	if box.Empty() {
		box = image.Rect(b.Min.X, b.Min.Y, b.Min.X+1, b.Min.Y+1) // nothing changed: one transparent pixel
	}
	out := image.NewPaletted(box, pal)
	for y := box.Min.Y; y < box.Max.Y; y++ {
		p := prev.Pix[prev.PixOffset(box.Min.X, y):prev.PixOffset(box.Max.X, y)]
		c := cur.Pix[cur.PixOffset(box.Min.X, y):cur.PixOffset(box.Max.X, y)]
		o := out.Pix[out.PixOffset(box.Min.X, y):out.PixOffset(box.Max.X, y)]
		for x := range c {
			if c[x] == p[x] {
				o[x] = transparent
			} else {
				o[x] = c[x]
			}
		}
	}
	return out
}
