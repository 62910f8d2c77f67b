package render

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
)

// PieceSVG returns p drawn as an SVG document on a 100x100 box: the same piece
// set, inks and strokes as the pictures (drawPiece), for the web pages. A stone
// is a Go stone as drawStone lights it.
func PieceSVG(p rules.Piece) ([]byte, error) {
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">`)
	if p.Kind == rules.Stone {
		stoneSVG(&b, p.Side)
		b.WriteString(`</svg>`)
		return []byte(b.String()), nil
	}
	layers, ok := pieceLayers[p.Kind]
	if !ok || p.Side > rules.Black {
		return nil, fmt.Errorf("render: no piece %s: %w", p, ErrBadOptions)
	}
	ink := pieceInks[p.Side]
	const lw = 3.2 // drawPiece's line width on a 100-pixel sprite
	paths := make([]string, len(layers))
	for i, l := range layers {
		m := xform{s: 1}
		if l.at != nil {
			m = *l.at
		}
		ops, err := parsePath(l.d)
		if err != nil {
			return nil, err
		}
		paths[i] = svgPath(ops, m)
	}
	fmt.Fprintf(&b, `<g fill="none" stroke="%s" stroke-width="%s" stroke-linejoin="round" stroke-linecap="round">`, hexColor(ink.outline), num(2*lw))
	for i, l := range layers {
		if l.how == body {
			fmt.Fprintf(&b, `<path d="%s"/>`, paths[i])
		}
	}
	b.WriteString(`</g><g stroke-linejoin="round" stroke-linecap="round">`)
	for i, l := range layers {
		switch l.how {
		case body:
			fmt.Fprintf(&b, `<path d="%s" fill="%s" stroke="%s" stroke-width="%s"/>`, paths[i], hexColor(ink.fill), hexColor(ink.inner), num(lw*0.75))
		case detail:
			fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="%s" stroke-width="%s"/>`, paths[i], hexColor(ink.detail), num(lw*0.8))
		case spot:
			fmt.Fprintf(&b, `<path d="%s" fill="%s"/>`, paths[i], hexColor(ink.detail))
		}
	}
	b.WriteString(`</g></svg>`)
	return []byte(b.String()), nil
}

// stoneSVG writes a Go stone lit from the top left, with drawStone's colours.
func stoneSVG(b *strings.Builder, side rules.Side) {
	stops := [3]string{"#ffffff", "#eeeeea", "#c4c4be"}
	at := [3]string{"0", "0.55", "1"}
	edge := "#787874"
	if side == rules.Black {
		stops, at, edge = [3]string{"#6e6e70", "#262628", "#08080a"}, [3]string{"0", "0.45", "1"}, "#000000"
	}
	id := "stone-" + side.String() // unique when several stones share a document
	fmt.Fprintf(b, `<defs><radialGradient id="%s" cx="0.5" cy="0.5" r="0.525" fx="0.325" fy="0.3">`, id)
	for i := range stops {
		fmt.Fprintf(b, `<stop offset="%s" stop-color="%s"/>`, at[i], stops[i])
	}
	fmt.Fprintf(b, `</radialGradient></defs><circle cx="53.2" cy="54.6" r="46" fill="#000" fill-opacity="0.27"/>`+
		`<circle cx="50" cy="50" r="46" fill="url(#%s)" stroke="%s" stroke-width="2.8"/>`, id, edge)
}

// svgPath writes ops as SVG path data, mapped through m; a circle (O) becomes two
// arcs.
func svgPath(ops []pathOp, m xform) string {
	var b strings.Builder
	pt := func(x, y float64) {
		x, y = m.apply(x, y)
		b.WriteString(num(x) + " " + num(y) + " ")
	}
	for _, op := range ops {
		a := op.args
		switch op.cmd {
		case 'M', 'L', 'C', 'Q':
			b.WriteByte(op.cmd)
			b.WriteByte(' ')
			for i := 0; i < len(a); i += 2 {
				pt(a[i], a[i+1])
			}
		case 'Z':
			b.WriteString("Z ")
		case 'O':
			cx, cy := m.apply(a[0], a[1])
			r := a[2] * m.s
			fmt.Fprintf(&b, "M %s %s A %s %s 0 1 0 %s %s A %s %s 0 1 0 %s %s Z ",
				num(cx-r), num(cy), num(r), num(r), num(cx+r), num(cy), num(r), num(r), num(cx-r), num(cy))
		}
	}
	return strings.TrimSpace(b.String())
}

// num writes v with at most two decimals.
func num(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }

// Palette is a theme's colours as CSS colours (#rrggbb or rgba()), for pages that
// draw boards in the pictures' colours.
type Palette struct {
	Light, Dark, Frame, Label, LastMove, Check, Arrow string
	Block, BlockEdge, GoBoard, GoRing, GoLine         string
	RingBlack, RingWhite, Footprint                   string
}

// PaletteOf returns the colours of theme key (DefaultTheme when empty).
func PaletteOf(key string) (Palette, error) {
	t, err := lookupTheme(key)
	if err != nil {
		return Palette{}, err
	}
	c := cssColor
	return Palette{Light: c(t.light), Dark: c(t.dark), Frame: c(t.frame), Label: c(t.label), LastMove: c(t.lastMove),
		Check: c(t.check), Arrow: c(t.arrow), Block: c(t.blockA), BlockEdge: c(t.blockEdge), GoBoard: c(t.goBoard),
		GoRing: c(t.goRing), GoLine: c(t.goLine), RingBlack: c(t.ringBlack), RingWhite: c(t.ringWhite), Footprint: c(t.footprint)}, nil
}

func hexColor(c color.NRGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// cssColor writes c as #rrggbb, or rgba() when it is translucent.
func cssColor(c color.NRGBA) string {
	if c.A == 255 {
		return hexColor(c)
	}
	return fmt.Sprintf("rgba(%d,%d,%d,%.3f)", c.R, c.G, c.B, float64(c.A)/255)
}
