package render

import (
	"image"

	"github.com/missivechess/missive/rules"
)

// layout places a board's bounding rectangle in a picture: a margin for the
// coordinates on every side and square cells. Unturned, file a is on the left
// and rank 1 at the bottom; turned (flip, for a viewer whose home is not there)
// the board is turned 180 degrees.
type layout struct {
	dims   rules.Dims
	flip   bool
	cell   int // side of a cell in pixels
	margin int // width of the coordinate margin
	x0, y0 int // top-left pixel of the board rectangle
	w, h   int // size of the picture
}

func newLayout(d rules.Dims, width int, flip bool) layout {
	m := width * 5 / 100
	cell := (width - 2*m) / d.Files
	extra := width - 2*m - cell*d.Files
	return layout{
		dims: d, flip: flip, cell: cell, margin: m,
		x0: m + extra/2, y0: m,
		w: width, h: cell*d.Ranks + 2*m,
	}
}

// column and row of sq on the picture, counted from the top-left cell.
func (l layout) colRow(sq rules.Square) (col, row int) {
	f, r := l.dims.File(sq), l.dims.Rank(sq)
	if l.flip {
		return l.dims.Files - 1 - f, r
	}
	return f, l.dims.Ranks - 1 - r
}

// rect returns the pixels of cell sq.
func (l layout) rect(sq rules.Square) image.Rectangle {
	c, r := l.colRow(sq)
	x, y := l.x0+c*l.cell, l.y0+r*l.cell
	return image.Rect(x, y, x+l.cell, y+l.cell)
}

// center returns the centre of cell sq in pixels.
func (l layout) center(sq rules.Square) (float64, float64) {
	c, r := l.colRow(sq)
	return float64(l.x0) + (float64(c)+0.5)*float64(l.cell), float64(l.y0) + (float64(r)+0.5)*float64(l.cell)
}

// block returns the pixels of the 3x3 block of cells centred on sq, clipped to the board.
func (l layout) block(sq rules.Square) image.Rectangle {
	r := l.rect(sq)
	r = image.Rect(r.Min.X-l.cell, r.Min.Y-l.cell, r.Max.X+l.cell, r.Max.Y+l.cell)
	return r.Intersect(l.boardRect())
}

// boardRect returns the pixels of the whole bounding rectangle.
func (l layout) boardRect() image.Rectangle {
	return image.Rect(l.x0, l.y0, l.x0+l.cell*l.dims.Files, l.y0+l.cell*l.dims.Ranks)
}
