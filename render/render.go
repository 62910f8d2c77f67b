package render

import (
	"fmt"
	"image"
	"image/draw"
	"math"

	"github.com/fogleman/gg"
	"github.com/missivechess/missive/rules"
)

// Renderer draws boards and tables. It keeps the parts that do not change between
// moves (backgrounds, piece sprites per size and theme, table palettes per theme)
// in bounded caches and is safe for use by many goroutines at once.
type Renderer struct {
	kits    *cache[bgKey, kitEntry]
	sprites *cache[spriteKey, *sprites]
	tables  *cache[string, *tableKit] // by theme key
}

type kitEntry struct {
	kit *kit
	err error
}

// New returns a Renderer with empty caches.
func New() *Renderer {
	return &Renderer{
		kits:    newCache[bgKey, kitEntry](32),
		sprites: newCache[spriteKey, *sprites](16),
		tables:  newCache[string, *tableKit](8),
	}
}

// Ringer is implemented by Gess positions: the centres of side's rings.
type Ringer interface {
	Rings(side rules.Side) []rules.Square
}

// Board draws pos. It fills opts.Check with the king of the side to move when
// pos.InCheck() and opts.Rings from a position that has rings, replacing what
// the caller put there.
func (r *Renderer) Board(pos rules.Position, opts Options) (*image.RGBA, error) {
	return r.DrawBoard(rules.LookOf(pos.Variant()), pos.Board(), withPosition(pos, opts))
}

// withPosition returns opts with the check and ring marks of pos.
func withPosition(pos rules.Position, opts Options) Options {
	opts.Check = nil
	if pos.InCheck() {
		b := pos.Board()
		king := rules.Piece{Side: pos.Turn(), Kind: rules.King}
		for sq, c := range b.Cells {
			if c.Piece == king {
				opts.Check = append(opts.Check, rules.Square(sq))
			}
		}
	}
	opts.Rings = [2][]rules.Square{}
	if rp, ok := pos.(Ringer); ok {
		for _, s := range rules.Sides {
			opts.Rings[s] = rp.Rings(s)
		}
	}
	return opts
}

// DrawBoard draws board b as look says (a Go board or a chessboard, turned when
// the viewer's home is not at the bottom; rules.LookOf gives a variant's look). It
// refuses a board it cannot draw or options out of range with an error wrapping
// ErrBadOptions.
func (r *Renderer) DrawBoard(look rules.Look, b rules.Board, opts Options) (*image.RGBA, error) {
	sc, err := r.prepare(look, b, opts)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(sc.bg.Bounds())
	sc.compose(img)
	return img, nil
}

// scene is one board ready to be composed: checked input and the cached parts.
type scene struct {
	look rules.Look
	b    rules.Board
	o    resolved
	l    layout
	bg   *image.RGBA
	sp   *sprites
	q    *quantizer
}

func (r *Renderer) prepare(look rules.Look, b rules.Board, opts Options) (*scene, error) {
	if err := checkBoard(b, look.Stones); err != nil {
		return nil, err
	}
	o, err := opts.resolve(b.Dims)
	if err != nil {
		return nil, err
	}
	missing := make([]byte, len(b.Cells))
	for i, c := range b.Cells {
		if c.State == rules.Missing {
			missing[i] = 1
		}
	}
	l := newLayout(b.Dims, o.Width, look.Flipped(o.Viewer))
	key := bgKey{stones: look.Stones, frame: look.Frame, dims: b.Dims, missing: string(missing), theme: o.theme.key, width: o.Width, flip: l.flip}
	k := r.kits.get(key, func() kitEntry {
		sp := r.sprites.get(spriteKey{theme: o.theme.key, cell: l.cell, stones: look.Stones}, func() *sprites {
			return buildSprites(o.theme, l.cell, look.Stones)
		})
		k, err := buildKit(key, o.theme, l, sp)
		return kitEntry{k, err}
	})
	if k.err != nil {
		return nil, k.err
	}
	return &scene{look: look, b: b, o: o, l: l, bg: k.kit.bg, sp: k.kit.sp, q: k.kit.q}, nil
}

// checkBoard refuses a board whose cells do not match its size or hold impossible
// pieces: on a Go board (stones) stones are the only pieces, and only there.
func checkBoard(b rules.Board, stones bool) error {
	if b.Files < 1 || b.Ranks < 1 || b.Files > rules.MaxFiles || b.Ranks > rules.MaxFiles {
		return fmt.Errorf("render: a %dx%d board cannot be drawn: files and ranks must be 1 to %d: %w", b.Files, b.Ranks, rules.MaxFiles, ErrBadOptions)
	}
	if len(b.Cells) != b.Dims.Cells() {
		return fmt.Errorf("render: a %dx%d board needs %d cells, got %d: %w", b.Files, b.Ranks, b.Dims.Cells(), len(b.Cells), ErrBadOptions)
	}
	for i, c := range b.Cells {
		sq := rules.Square(i)
		switch {
		case c.State > rules.Blocked:
			return fmt.Errorf("render: cell %s has unknown state %d: %w", b.Name(sq), c.State, ErrBadOptions)
		case c.Piece.Kind > rules.Stone || c.Piece.Side > rules.Black:
			return fmt.Errorf("render: cell %s holds an unknown piece %v: %w", b.Name(sq), c.Piece, ErrBadOptions)
		case !c.Piece.IsNone() && (c.Piece.Kind == rules.Stone) != stones:
			return fmt.Errorf("render: cell %s holds a %v, which this game has not: %w", b.Name(sq), c.Piece, ErrBadOptions)
		case !c.Piece.IsNone() && c.State != rules.Playable:
			return fmt.Errorf("render: cell %s is missing or blocked but holds a %v: %w", b.Name(sq), c.Piece, ErrBadOptions)
		}
	}
	return nil
}

// compose draws the scene into img, which has the background's bounds.
func (s *scene) compose(img *image.RGBA) {
	copy(img.Pix, s.bg.Pix)
	l, t, sp := s.l, s.o.theme, s.sp
	over := func(src *image.RGBA, at image.Rectangle) {
		draw.Draw(img, at, src, image.Point{}, draw.Over)
	}
	for sq, c := range s.b.Cells {
		if c.State == rules.Blocked {
			draw.Draw(img, l.rect(rules.Square(sq)), sp.blocked, image.Point{}, draw.Src)
		}
	}
	if m := s.o.LastMove; m != nil {
		if s.look.Stones {
			s.footprints(img, *m)
		} else {
			tint := image.NewUniform(t.lastMove)
			if m.From != rules.NoSquare {
				fill(img, l.rect(m.From), tint)
			}
			fill(img, l.rect(m.To), tint)
		}
	}
	for _, sq := range s.o.Placed {
		fill(img, l.rect(sq), image.NewUniform(t.lastMove))
	}
	for _, sq := range s.o.Check {
		over(sp.check, l.rect(sq))
	}
	if s.look.Stones {
		for _, side := range rules.Sides {
			for _, c := range s.o.Rings[side] {
				over(sp.rings[side], l.rect(c).Inset(-l.cell))
			}
		}
	}
	for sq, c := range s.b.Cells {
		if c.Piece.IsNone() {
			continue
		}
		if p := sp.pieces[c.Piece.Side][c.Piece.Kind]; p != nil {
			over(p, l.rect(rules.Square(sq)))
		}
	}
	if len(s.o.Arrows) > 0 {
		s.arrows(img)
	}
}

// footprints tints the moved 3x3 block of a Go board (Gess) at its destination and, more lightly, where it came from.
func (s *scene) footprints(img *image.RGBA, m rules.Move) {
	t, l := s.o.theme, s.l
	if m.From != rules.NoSquare {
		c := t.footprint
		c.A /= 2
		fill(img, l.block(m.From), image.NewUniform(c))
	}
	to := l.block(m.To)
	fill(img, to, image.NewUniform(t.footprint))
	strong := t.footprint
	strong.A = 230
	edge := image.NewUniform(strong)
	w := max(2, l.cell/12)
	fill(img, image.Rect(to.Min.X, to.Min.Y, to.Max.X, to.Min.Y+w), edge)
	fill(img, image.Rect(to.Min.X, to.Max.Y-w, to.Max.X, to.Max.Y), edge)
	fill(img, image.Rect(to.Min.X, to.Min.Y+w, to.Min.X+w, to.Max.Y-w), edge)
	fill(img, image.Rect(to.Max.X-w, to.Min.Y+w, to.Max.X, to.Max.Y-w), edge)
}

// arrows draws the hint arrows, each one filled polygon so that its translucent
// colour is even.
func (s *scene) arrows(img *image.RGBA) {
	dc := gg.NewContextForRGBA(img)
	dc.SetColor(s.o.theme.arrow)
	f := float64(s.l.cell)
	shaft, head, headLen := f*0.17, f*0.5, f*0.45
	for _, a := range s.o.Arrows {
		x0, y0 := s.l.center(a.From)
		x1, y1 := s.l.center(a.To)
		dx, dy := x1-x0, y1-y0
		n := math.Hypot(dx, dy)
		if n < 1 {
			continue
		}
		ux, uy := dx/n, dy/n
		nx, ny := -uy, ux
		// start a little off the centre of the from square, stop at the to square's centre
		x0, y0 = x0+ux*f*0.2, y0+uy*f*0.2
		bx, by := x1-ux*headLen, y1-uy*headLen
		pt := func(x, y, side float64) (float64, float64) { return x + nx*side, y + ny*side }
		dc.MoveTo(pt(x0, y0, shaft/2))
		dc.LineTo(pt(bx, by, shaft/2))
		dc.LineTo(pt(bx, by, head/2))
		dc.LineTo(x1, y1)
		dc.LineTo(pt(bx, by, -head/2))
		dc.LineTo(pt(bx, by, -shaft/2))
		dc.LineTo(pt(x0, y0, -shaft/2))
		dc.ClosePath()
		dc.Fill()
	}
}
