package render

import (
	"image"
	"image/color"
	"math"

	"github.com/fogleman/gg"
	"github.com/missivechess/missive/rules"
)

// sprites are the pictures composed onto a board, drawn once per theme and cell size.
type sprites struct {
	pieces  [2][rules.Stone + 1]*image.RGBA // indexed by side and kind; Stone is a Go stone
	blocked *image.RGBA                     // a Go-Chess blocked cell
	check   *image.RGBA                     // the glow under a king in check
	rings   [2]*image.RGBA                  // Gess: the halo of a ring, 3x3 cells
}

type spriteKey struct {
	theme  string
	cell   int
	stones bool
}

// buildSprites draws the sprites of a theme and cell size: Go stones and ring
// halos for a Go board (stones), chess pieces otherwise.
func buildSprites(t *theme, cell int, stones bool) *sprites {
	s := &sprites{blocked: drawBlocked(t, cell), check: drawCheck(t, cell)}
	for _, side := range rules.Sides {
		if stones {
			s.pieces[side][rules.Stone] = drawStone(side, cell)
			s.rings[side] = drawRingHalo(t, side, cell)
			continue
		}
		for k := range pieceLayers {
			s.pieces[side][k] = drawPiece(k, side, cell)
		}
	}
	return s
}

// drawStone draws a Go stone filling most of a cell, lit from the top left.
func drawStone(side rules.Side, cell int) *image.RGBA {
	dc := gg.NewContext(cell, cell)
	c := float64(cell) / 2
	r := float64(cell) * 0.46
	dc.DrawCircle(c+r*0.07, c+r*0.1, r)
	dc.SetRGBA255(0, 0, 0, 70)
	dc.Fill()
	g := gg.NewRadialGradient(c-r*0.35, c-r*0.4, r*0.05, c, c, r*1.05)
	if side == rules.Black {
		g.AddColorStop(0, rgb(110, 110, 112))
		g.AddColorStop(0.45, rgb(38, 38, 40))
		g.AddColorStop(1, rgb(8, 8, 10))
	} else {
		g.AddColorStop(0, rgb(255, 255, 255))
		g.AddColorStop(0.55, rgb(238, 238, 234))
		g.AddColorStop(1, rgb(196, 196, 190))
	}
	dc.DrawCircle(c, c, r)
	dc.SetFillStyle(g)
	dc.FillPreserve()
	if side == rules.White {
		dc.SetColor(rgb(120, 120, 116))
	} else {
		dc.SetColor(rgb(0, 0, 0))
	}
	dc.SetLineWidth(math.Max(1, float64(cell)/36))
	dc.Stroke()
	return dc.Image().(*image.RGBA)
}

// drawRingHalo draws the band that joins the eight stones of a ring, 3x3 cells.
func drawRingHalo(t *theme, side rules.Side, cell int) *image.RGBA {
	n := 3 * cell
	dc := gg.NewContext(n, n)
	f := float64(cell)
	col := t.ringBlack
	if side == rules.White {
		col = t.ringWhite
	}
	under := col
	under.A = 90
	dc.SetColor(under)
	dc.DrawRoundedRectangle(f*0.08, f*0.08, 3*f-f*0.16, 3*f-f*0.16, f*0.6)
	dc.Fill()
	dc.SetColor(col)
	dc.SetLineWidth(f * 0.12)
	dc.DrawRoundedRectangle(f*0.08, f*0.08, 3*f-f*0.16, 3*f-f*0.16, f*0.6)
	dc.Stroke()
	dc.DrawCircle(1.5*f, 1.5*f, f*0.22)
	dc.SetLineWidth(f * 0.1)
	dc.Stroke()
	return dc.Image().(*image.RGBA)
}

// drawBlocked draws a blocked cell as a hatched stone slab, unlike any square.
func drawBlocked(t *theme, cell int) *image.RGBA {
	dc := gg.NewContext(cell, cell)
	f := float64(cell)
	dc.SetColor(t.blockEdge)
	dc.Clear()
	in := f * 0.07
	dc.DrawRoundedRectangle(in, in, f-2*in, f-2*in, f*0.1)
	dc.SetColor(t.blockA)
	dc.FillPreserve()
	dc.Clip()
	dc.SetColor(t.blockB)
	dc.SetLineWidth(f * 0.08)
	step := f * 0.2
	for x := -f; x < 2*f; x += step {
		dc.DrawLine(x, f, x+f, 0)
	}
	dc.Stroke()
	dc.ResetClip()
	// a light bevel on the top and left edges, a dark one on the others
	dc.SetLineWidth(math.Max(1, f*0.03))
	dc.SetColor(color.NRGBA{255, 255, 255, 60})
	dc.MoveTo(in, f-in)
	dc.LineTo(in, in)
	dc.LineTo(f-in, in)
	dc.Stroke()
	return dc.Image().(*image.RGBA)
}

// drawCheck draws the red glow laid under a king in check.
func drawCheck(t *theme, cell int) *image.RGBA {
	dc := gg.NewContext(cell, cell)
	f := float64(cell)
	g := gg.NewRadialGradient(f/2, f/2, 0, f/2, f/2, f*0.62)
	c := t.check
	g.AddColorStop(0, c)
	g.AddColorStop(0.3, c)
	g.AddColorStop(1, color.NRGBA{c.R, c.G, c.B, 0})
	dc.SetFillStyle(g)
	dc.DrawRectangle(0, 0, f, f)
	dc.Fill()
	return dc.Image().(*image.RGBA)
}
