package render

import (
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
// games replayed by the caller, such as Go-Chess's simultaneous placement.
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
		anim      gif.GIF
		rgba      *image.RGBA
		prev, cur *image.Paletted
		pal       color.Palette
	)
	for i, pos := range positions {
		o := base
		o.LastMove = nil
		if i > 0 {
			o.LastMove = &moves[i-1]
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
			anim.Config = image.Config{ColorModel: pal, Width: b.Dx(), Height: b.Dy()}
		} else if sc.bg.Bounds() != rgba.Bounds() || !samePalette(sc.q.pal, pal) {
			return fmt.Errorf("render: position %d has another board than the first: %w", i, ErrBadOptions)
		}
		sc.compose(rgba)
		sc.q.paletted(cur, rgba)
		frame := cur
		if i > 0 {
			frame = delta(prev, cur, pal)
		} else {
			frame = image.NewPaletted(cur.Bounds(), pal)
			copy(frame.Pix, cur.Pix)
		}
		anim.Image = append(anim.Image, frame)
		anim.Delay = append(anim.Delay, delay)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
		prev, cur = cur, prev
	}
	anim.Delay[len(anim.Delay)-1] = final
	if err := gif.EncodeAll(w, &anim); err != nil {
		return fmt.Errorf("render: encode gif: %w", err)
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
