package render

import (
	"fmt"
	"image"
	"image/draw"
	"strconv"
	"sync"

	"github.com/fogleman/gg"
	"github.com/missivechess/missive/rules"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
)

// bgKey names one background: everything drawn before the pieces that does not
// change from move to move.
type bgKey struct {
	stones  bool // a Go board (rules.Look.Stones)
	frame   int  // its outer ring's width in cells (rules.Look.Frame)
	dims    rules.Dims
	missing string // one byte per cell, 1 where the cell is Missing
	theme   string
	width   int
	flip    bool
}

// labelFont is the embedded Go Bold font (BSD licence, golang.org/x/image/font/gofont).
var labelFont = sync.OnceValues(func() (*opentype.Font, error) { return opentype.Parse(gobold.TTF) })

func labelFace(size float64) (font.Face, error) {
	f, err := labelFont()
	if err != nil {
		return nil, fmt.Errorf("render: label font: %w", err)
	}
	return opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
}

func fill(img *image.RGBA, r image.Rectangle, c image.Image) {
	draw.Draw(img, r, c, image.Point{}, draw.Over)
}

// buildBackground draws the frame, the cells and the coordinates.
func buildBackground(k bgKey, t *theme, l layout) (*image.RGBA, error) {
	img := image.NewRGBA(image.Rect(0, 0, l.w, l.h))
	draw.Draw(img, img.Bounds(), image.NewUniform(t.frame), image.Point{}, draw.Src)
	if k.stones {
		drawGoBoard(img, t, l, k.frame)
	} else {
		light, dark := image.NewUniform(t.light), image.NewUniform(t.dark)
		for sq := rules.Square(0); int(sq) < l.dims.Cells(); sq++ {
			if k.missing[sq] == 1 {
				continue
			}
			c := dark
			if (l.dims.File(sq)+l.dims.Rank(sq))%2 == 1 {
				c = light
			}
			fill(img, l.rect(sq), c)
		}
	}
	if err := drawLabels(img, t, l); err != nil {
		return nil, err
	}
	return img, nil
}

// drawGoBoard draws a Go board in its frame (Gess's 20x20): the outer ring, frame
// cells wide, as a darker margin and the playing area inside it (Gess's 18x18) as a
// Go board whose lines run through the cell centres.
func drawGoBoard(img *image.RGBA, t *theme, l layout, frame int) {
	board := l.boardRect()
	fill(img, board, image.NewUniform(t.goRing))
	ring := frame * l.cell
	inner := image.Rect(board.Min.X+ring, board.Min.Y+ring, board.Max.X-ring, board.Max.Y-ring)
	fill(img, inner, image.NewUniform(t.goBoard))
	dc := gg.NewContextForRGBA(img)
	f := float64(l.cell)
	lo, hi := (float64(frame)+0.5)*f, (float64(l.dims.Files-frame)-0.5)*f
	x0, y0 := float64(l.x0), float64(l.y0)
	dc.SetColor(t.goLine)
	dc.SetLineWidth(max(1, f/30))
	for i := frame; i < l.dims.Files-frame; i++ {
		p := (float64(i) + 0.5) * f
		dc.DrawLine(x0+p, y0+lo, x0+p, y0+hi)
		dc.DrawLine(x0+lo, y0+p, x0+hi, y0+p)
	}
	dc.Stroke()
	dc.SetLineWidth(max(1.5, f/16))
	dc.DrawRectangle(x0+lo, y0+lo, hi-lo, hi-lo)
	dc.Stroke()
	// small marks on the ring cells, so that a footprint centre there can be counted
	dc.SetColor(t.goLine)
	for i := 0; i < l.dims.Files; i++ {
		for j := 0; j < l.dims.Ranks; j++ {
			if inFrame(l.dims, frame, i, j) {
				dc.DrawCircle(x0+(float64(i)+0.5)*f, y0+(float64(j)+0.5)*f, max(1, f/18))
			}
		}
	}
	dc.Fill()
}

// inFrame reports whether the cell at file f and rank r lies in the outer ring,
// frame cells wide, of a board of size d.
func inFrame(d rules.Dims, frame, f, r int) bool {
	return f < frame || r < frame || f >= d.Files-frame || r >= d.Ranks-frame
}

// drawLabels writes file letters above and below the board and rank numbers on both sides.
func drawLabels(img *image.RGBA, t *theme, l layout) error {
	face, err := labelFace(float64(l.margin) * 0.55)
	if err != nil {
		return err
	}
	defer face.Close()
	dc := gg.NewContextForRGBA(img)
	dc.SetFontFace(face)
	dc.SetColor(t.label)
	m := float64(l.margin)
	board := l.boardRect()
	for f := 0; f < l.dims.Files; f++ {
		x, _ := l.center(l.dims.Square(f, 0))
		s := string(rune('a' + f))
		dc.DrawStringAnchored(s, x, float64(board.Min.Y)-m/2, 0.5, 0.35)
		dc.DrawStringAnchored(s, x, float64(board.Max.Y)+m/2, 0.5, 0.35)
	}
	for r := 0; r < l.dims.Ranks; r++ {
		_, y := l.center(l.dims.Square(0, r))
		s := strconv.Itoa(r + 1)
		dc.DrawStringAnchored(s, float64(board.Min.X)-m/2, y, 0.5, 0.35)
		dc.DrawStringAnchored(s, float64(board.Max.X)+m/2, y, 0.5, 0.35)
	}
	return nil
}
