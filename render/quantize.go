package render

import (
	"image"
	"image/color"
	"image/draw"
	"sort"
)

// Board pictures hold few colours: flat squares, flat piece bodies and the
// anti-aliased edges between them. A palette of at most maxColours colours is
// chosen once per background from a swatch of everything that can appear, and
// a lookup table maps any colour to its nearest entry. Paletted pictures encode
// as PNG several times faster than true colour (no row filters, a quarter of the
// bytes) and are what GIF needs anyway.

// maxColours leaves one of GIF's 256 indices free for transparency.
const maxColours = 255

// transparent is the palette index of "unchanged" in GIF delta frames.
const transparent = maxColours

// quantizer maps colours to a fixed palette.
type quantizer struct {
	pal color.Palette
	lut []uint8 // indexed by 5 bits each of red, green and blue
}

func lutIndex(r, g, b uint8) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }

// newQuantizer chooses a palette for the colours counted in hist (opaque RGB as
// 0xRRGGBB) and builds its lookup table.
func newQuantizer(hist map[uint32]int) *quantizer {
	type entry struct {
		c uint32
		n int
	}
	colours := make([]entry, 0, len(hist))
	for c, n := range hist {
		colours = append(colours, entry{c, n})
	}
	sort.Slice(colours, func(i, j int) bool {
		if colours[i].n != colours[j].n {
			return colours[i].n > colours[j].n
		}
		return colours[i].c < colours[j].c
	})
	// Take colours by frequency, skipping any within dist of one already taken;
	// the smallest dist that fits the palette wins.
	pick := func(dist int) []uint32 {
		var out []uint32
		for _, e := range colours {
			ok := true
			for _, p := range out {
				if colourDist(e.c, p) < dist {
					ok = false
					break
				}
			}
			if ok {
				out = append(out, e.c)
				if len(out) > maxColours {
					return nil
				}
			}
		}
		return out
	}
	var chosen []uint32
	for dist := 0; chosen == nil; dist = max(1, dist*3/2+1) {
		chosen = pick(dist * dist)
	}
	q := &quantizer{pal: make(color.Palette, len(chosen)), lut: make([]uint8, 1<<15)}
	for i, c := range chosen {
		q.pal[i] = color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 255}
	}
	for i := range q.lut {
		r, g, b := uint8(i>>10)<<3|4, uint8(i>>5&31)<<3|4, uint8(i&31)<<3|4
		q.lut[i] = uint8(nearest(chosen, uint32(r)<<16|uint32(g)<<8|uint32(b)))
	}
	// The most frequent colours (flat squares, frame, bodies) map to themselves exactly.
	for i := len(chosen) - 1; i >= 0; i-- {
		c := chosen[i]
		if i < 48 {
			q.lut[lutIndex(uint8(c>>16), uint8(c>>8), uint8(c))] = uint8(i)
		}
	}
	return q
}

func colourDist(a, b uint32) int {
	dr := int(a>>16&255) - int(b>>16&255)
	dg := int(a>>8&255) - int(b>>8&255)
	db := int(a&255) - int(b&255)
	return 2*dr*dr + 4*dg*dg + 3*db*db
}

func nearest(pal []uint32, c uint32) int {
	best, bd := 0, int(^uint(0)>>1)
	for i, p := range pal {
		if d := colourDist(c, p); d < bd {
			best, bd = i, d
			if d == 0 {
				break
			}
		}
	}
	return best
}

// count adds the colours of the pixels of img inside r to hist, every step-th pixel.
func count(hist map[uint32]int, img *image.RGBA, r image.Rectangle, step int) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y += step {
		row := img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]
		for i := 0; i < len(row); i += 4 * step {
			hist[uint32(row[i])<<16|uint32(row[i+1])<<8|uint32(row[i+2])]++
		}
	}
}

// paletted maps the opaque img to q's palette, writing into dst (same bounds).
func (q *quantizer) paletted(dst *image.Paletted, img *image.RGBA) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		src := img.Pix[img.PixOffset(b.Min.X, y):img.PixOffset(b.Max.X, y)]
		out := dst.Pix[dst.PixOffset(b.Min.X, y):dst.PixOffset(b.Max.X, y)]
		for x := range out {
			s := src[4*x : 4*x+3 : 4*x+3]
			out[x] = q.lut[int(s[0]>>3)<<10|int(s[1]>>3)<<5|int(s[2]>>3)]
		}
	}
}

// sample counts the colours of base's pixels in r with layers drawn over them in
// order, as the board is composed: uniform tints and sprites anchored at r.Min.
func sample(hist map[uint32]int, base *image.RGBA, r image.Rectangle, layers ...image.Image) {
	img := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(img, img.Bounds(), base, r.Min, draw.Src)
	for _, l := range layers {
		draw.Draw(img, img.Bounds(), l, l.Bounds().Min, draw.Over)
	}
	count(hist, img, img.Bounds(), 1)
}
