package render

import (
	"image"
	"image/color"

	"github.com/missivechess/missive/rules"
)

// kit is everything cached for one background: the picture, the sprites for its
// cell size and theme, and the palette that fits both.
type kit struct {
	bg *image.RGBA
	sp *sprites
	q  *quantizer
}

// buildKit draws the background and chooses the palette from a sample of every
// colour a board with these parts can show.
func buildKit(k bgKey, t *theme, l layout, sp *sprites) (*kit, error) {
	bg, err := buildBackground(k, t, l)
	if err != nil {
		return nil, err
	}
	hist := make(map[uint32]int)
	count(hist, bg, bg.Bounds(), 2)
	u := func(c color.Color) image.Image { return image.NewUniform(c) }
	half := func(c color.NRGBA) image.Image { c.A /= 2; return u(c) }
	cell := image.Rect(0, 0, l.cell, l.cell)
	if k.stones {
		inner := l.rect(l.dims.Square(5, 5))
		ring := l.rect(l.dims.Square(0, 5))
		block := l.block(l.dims.Square(5, 5))
		for _, base := range []image.Rectangle{inner, ring} {
			strong := t.footprint
			strong.A = 230
			for _, tint := range []image.Image{u(color.Transparent), u(t.footprint), half(t.footprint), u(t.arrow), u(strong)} {
				sample(hist, bg, base, tint)
				for _, side := range rules.Sides {
					stone := sp.pieces[side][rules.Stone]
					sample(hist, bg, base, tint, stone)
					sample(hist, bg, base, stone, tint)
				}
			}
		}
		for _, side := range rules.Sides {
			for _, tint := range []image.Image{u(color.Transparent), u(t.footprint)} {
				sample(hist, bg, block, tint, sp.rings[side])
				sample(hist, bg, block, tint, sp.rings[side], sp.pieces[side][rules.Stone])
			}
		}
		return &kit{bg: bg, sp: sp, q: newQuantizer(hist)}, nil
	}
	plain := image.NewRGBA(cell)
	for _, sq := range []color.NRGBA{t.light, t.dark} {
		for _, tint := range []image.Image{u(color.Transparent), u(t.lastMove)} {
			sample(hist, plain, cell, u(sq), tint)
			sample(hist, plain, cell, u(sq), tint, u(t.arrow))
			for _, side := range rules.Sides {
				for kind := range pieceLayers {
					sample(hist, plain, cell, u(sq), tint, sp.pieces[side][kind])
				}
			}
		}
		for _, side := range rules.Sides {
			sample(hist, plain, cell, u(sq), sp.check, sp.pieces[side][rules.King])
			for _, ink := range []color.NRGBA{pieceInks[side].fill, pieceInks[side].outline} {
				sample(hist, plain, cell, u(ink), u(t.arrow))
			}
		}
	}
	sample(hist, plain, cell, sp.blocked)
	sample(hist, plain, cell, sp.blocked, u(t.arrow))
	return &kit{bg: bg, sp: sp, q: newQuantizer(hist)}, nil
}
