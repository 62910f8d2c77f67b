package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/fogleman/gg"
)

// Mark is how a point of a review graph is marked.
type Mark uint8

// The marks of a review graph; only mistakes and blunders are drawn.
const (
	MarkNone Mark = iota
	MarkInaccuracy
	MarkMistake
	MarkBlunder
)

// ReviewPoint is one move of a reviewed game.
type ReviewPoint struct {
	White  float64 // White's winning chance after the move, 0..100
	Number int     // the move number shown at a mark
	Mark   Mark
	Label  string // the move as people read it ("12... Qg5"), for the decisive moment
}

// ReviewRow is one line of the players' panel: a label and each player's figure.
type ReviewRow struct {
	Label        string
	White, Black string
}

// Review is a reviewed game as a picture: a graph of White's winning chance across
// the game (White's advantage above the middle line, Black's below) with the
// mistakes and blunders marked at their move numbers and the decisive moment
// labelled, over a panel with each player's figures (Rows) and a note.
type Review struct {
	Title              string
	WhiteName, Black   string
	Points             []ReviewPoint
	Decisive           int // index in Points; -1 for none
	Rows               []ReviewRow
	Note               string // small text at the bottom, such as how accuracy is computed
	GraphTop, GraphBot string // labels of the graph's halves, such as "White" and "Black"
	// DecisiveLabel labels the decisive moment in the reader's language, the move
	// and all ("Entscheidend: 12... Qg5"); empty: "Decisive: " and the point's Label.
	DecisiveLabel string
}

// Review picture layout, in pixels: readable at Discord's preview width.
const (
	reviewWidth    = 520
	reviewMargin   = 14
	reviewGraphH   = 200
	reviewRowH     = 24
	reviewMaxMoves = 2000
	markRadius     = 5
)

// The colours of marks: mistakes orange, blunders red.
var (
	markMistake = rgb(232, 140, 24)
	markBlunder = rgb(214, 40, 40)
)

// ReviewPNG draws rv (see Review) in a board theme's colours and writes it to w.
func (r *Renderer) ReviewPNG(w io.Writer, rv Review, opts TableOptions) error {
	img, err := r.Review(rv, opts)
	if err != nil {
		return err
	}
	return EncodePNG(w, img)
}

// Review draws rv; it refuses an unknown theme, a graph of no moves or of more than
// 2000, or a decisive moment that is not one of the points, with an error wrapping
// ErrBadOptions.
func (r *Renderer) Review(rv Review, opts TableOptions) (*image.RGBA, error) {
	th, err := lookupTheme(opts.Theme)
	if err != nil {
		return nil, err
	}
	if n := len(rv.Points); n == 0 || n > reviewMaxMoves {
		return nil, fmt.Errorf("render: a review graph needs 1 to %d moves, not %d: %w", reviewMaxMoves, n, ErrBadOptions)
	}
	if rv.Decisive >= len(rv.Points) || rv.Decisive < -1 {
		return nil, fmt.Errorf("render: the decisive moment %d is not one of the %d moves: %w", rv.Decisive, len(rv.Points), ErrBadOptions)
	}
	faces, err := loadTableFaces()
	if err != nil {
		return nil, err
	}
	st := tableStyleFor(th)
	inner := reviewWidth - 2*reviewMargin
	titleLines := faces.title.wrap(rv.Title, inner, 2)
	noteLines := faces.note.wrap(rv.Note, inner, 6)
	colW := (inner - 150) / 2
	names := reviewNames(faces.head, rv.WhiteName, rv.Black, colW-cellPadX)
	headH := headerHeight + (max(len(names[0]), len(names[1]))-1)*reviewHeadLineH
	y := reviewMargin
	h := reviewMargin + len(titleLines)*titleLineH + titleGap + reviewGraphH + 22 + // graph and its axis labels
		headH + len(rv.Rows)*reviewRowH + noteGap + len(noteLines)*noteLineH + reviewMargin
	img := image.NewRGBA(image.Rect(0, 0, reviewWidth, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(st.page), image.Point{}, draw.Src)
	u := func(c color.Color) image.Image { return image.NewUniform(c) }
	for _, line := range titleLines {
		faces.title.draw(img, reviewMargin, y+faces.title.capHeight+4, line, u(st.title))
		y += titleLineH
	}
	y += titleGap
	graph := image.Rect(reviewMargin, y, reviewWidth-reviewMargin, y+reviewGraphH)
	drawReviewGraph(img, graph, rv, th, st, faces)
	y = graph.Max.Y + 22

	// The players' panel: a header with the names, then one row per figure.
	cols := [3]int{reviewMargin + cellPadX, reviewMargin + 150, reviewMargin + 150 + colW}
	fill(img, image.Rect(reviewMargin, y, reviewWidth-reviewMargin, y+headH), u(st.head))
	base := func(top, height int, g *glyphSet) int { return top + (height+g.capHeight)/2 }
	for i, lines := range names {
		top := y + (headH-headerHeight-(len(lines)-1)*reviewHeadLineH)/2
		for k, line := range lines {
			faces.head.draw(img, cols[i+1], base(top+k*reviewHeadLineH, headerHeight, faces.head), line, u(st.headText))
		}
	}
	y += headH
	for i, row := range rv.Rows {
		bg := st.rowA
		if i%2 == 1 {
			bg = st.rowB
		}
		fill(img, image.Rect(reviewMargin, y, reviewWidth-reviewMargin, y+reviewRowH), u(bg))
		by := base(y, reviewRowH, faces.cell)
		for c, s := range []string{row.Label, row.White, row.Black} {
			s, _ = faces.cell.fit(s, max(colW, 140)-cellPadX)
			faces.cell.draw(img, cols[c], by, s, u(st.text))
		}
		y += reviewRowH
	}
	fill(img, image.Rect(reviewMargin, y, reviewWidth-reviewMargin, y+bottomRule), u(st.rule))
	y += noteGap
	for _, line := range noteLines {
		faces.note.draw(img, reviewMargin, y+faces.note.capHeight+2, line, u(st.note))
		y += noteLineH
	}
	return img, nil
}

// reviewHeadLineH is the height of each further line of a player's name in the
// review's header.
const reviewHeadLineH = 20

// reviewNames lays out the players' names for header columns width pixels wide:
// each on one line when it fits, else on two, broken before a parenthesis where it
// has one ("Missive engine" over "(level 3)") and at spaces otherwise. Two different
// names that would still read alike are shown by their ends instead ("…(level 3)").
func reviewNames(g *glyphSet, white, black string, width int) [2][]string {
	lay := func(name string) []string {
		if g.width(name) <= width {
			return []string{name}
		}
		if i := strings.LastIndex(name, " ("); i > 0 {
			a, _ := g.fit(name[:i], width)
			b, _ := g.fit(name[i+1:], width)
			return []string{a, b}
		}
		return g.wrap(name, width, 2)
	}
	out := [2][]string{lay(white), lay(black)}
	if white != black && slices.Equal(out[0], out[1]) {
		for i, name := range []string{white, black} {
			out[i] = []string{tail(g, name, width)}
		}
	}
	return out
}

// tail returns the longest end of s that fits in width pixels after "…".
func tail(g *glyphSet, s string, width int) string {
	r := []rune(s)
	w := g.get('…').adv
	i := len(r)
	for i > 0 && w+g.get(r[i-1]).adv <= width {
		i--
		w += g.get(r[i]).adv
	}
	if i == 0 {
		return s
	}
	return "…" + string(r[i:])
}

// drawReviewGraph draws the graph of rv's points in g: White's share above the
// middle in light, Black's below in dark, the marks and the decisive moment.
func drawReviewGraph(img *image.RGBA, g image.Rectangle, rv Review, th *theme, st tableStyle, faces *tableFaces) {
	u := func(c color.Color) image.Image { return image.NewUniform(c) }
	light, dark := mix(th.light, rgb(255, 255, 255), 0.5), mix(th.dark, rgb(0, 0, 0), 0.55)
	fill(img, g, u(mix(light, dark, 0.5)))
	n := len(rv.Points)
	x0, w := float64(g.Min.X), float64(g.Dx())
	yMid, hh := float64(g.Min.Y)+float64(g.Dy())/2, float64(g.Dy())/2
	// Points sit at the middle of their slot so that one move still shows.
	px := func(i int) float64 { return x0 + w*(float64(i)+0.5)/float64(n) }
	py := func(c float64) float64 { return yMid - (min(max(c, 0), 100)-50)/50*hh }
	dc := gg.NewContextForRGBA(img)
	area := func(above bool, c color.NRGBA) {
		dc.MoveTo(x0, yMid)
		dc.LineTo(px(0), yMid)
		for i, p := range rv.Points {
			v := p.White
			if above {
				v = max(v, 50)
			} else {
				v = min(v, 50)
			}
			dc.LineTo(px(i), py(v))
		}
		dc.LineTo(px(n-1), yMid)
		dc.ClosePath()
		dc.SetColor(c)
		dc.Fill()
	}
	area(true, light)
	area(false, dark)
	dc.SetColor(st.rule)
	dc.SetLineWidth(1)
	dc.DrawLine(x0, yMid, x0+w, yMid)
	dc.Stroke()
	dc.SetColor(mix(st.rule, st.page, 0.4))
	dc.SetLineWidth(2)
	for i, p := range rv.Points {
		if i == 0 {
			dc.MoveTo(px(i), py(p.White))
		} else {
			dc.LineTo(px(i), py(p.White))
		}
	}
	dc.Stroke()
	dc.SetColor(st.rule)
	dc.DrawRectangle(x0+0.5, float64(g.Min.Y)+0.5, w-1, float64(g.Dy())-1)
	dc.SetLineWidth(1)
	dc.Stroke()

	// The decisive moment: a line across the graph, drawn under the marks, and its
	// label over them, at the top of the graph unless the moment's point is there,
	// then at the bottom, so that its mark never hides the label.
	labelTop := true
	if d := rv.Decisive; d >= 0 {
		x := px(d)
		dc.SetColor(markBlunder)
		dc.SetDash(4, 3)
		dc.DrawLine(x, float64(g.Min.Y), x, float64(g.Max.Y))
		dc.Stroke()
		dc.SetDash()
		labelTop = py(rv.Points[d].White) > float64(g.Min.Y+3+noteLineH+markRadius+2)
	}
	// Marks, with their move numbers below the graph where they do not overlap.
	lastLabel := math.Inf(-1)
	for i, p := range rv.Points {
		if p.Mark < MarkMistake {
			continue
		}
		c := markMistake
		if p.Mark == MarkBlunder {
			c = markBlunder
		}
		x, y := px(i), py(p.White)
		dc.SetColor(st.page)
		dc.DrawCircle(x, y, markRadius+1.5)
		dc.Fill()
		dc.SetColor(c)
		dc.DrawCircle(x, y, markRadius)
		dc.Fill()
		s := fmt.Sprint(p.Number)
		sw := float64(faces.note.width(s))
		if x-sw/2 > lastLabel+4 {
			faces.note.draw(img, int(x-sw/2), g.Max.Y+4+faces.note.capHeight, s, u(c))
			lastLabel = x + sw/2
		}
	}
	if d := rv.Decisive; d >= 0 {
		label := rv.DecisiveLabel
		if label == "" {
			label = "Decisive: " + rv.Points[d].Label
		}
		lw := faces.note.width(label) + 8
		lx := min(max(int(px(d))-lw/2, g.Min.X+2), g.Max.X-lw-2)
		ly := g.Min.Y + 3
		if !labelTop {
			ly = g.Max.Y - 3 - noteLineH
		}
		fill(img, image.Rect(lx, ly, lx+lw, ly+noteLineH), u(st.page))
		faces.note.draw(img, lx+4, ly+faces.note.capHeight+3, label, u(st.text))
	}
	// The halves' names at the left edge.
	if rv.GraphTop != "" {
		faces.note.draw(img, g.Min.X+5, g.Min.Y+faces.note.capHeight+5+boolPx(labelTop && rv.Decisive >= 0 && px(rv.Decisive) < x0+90, noteLineH), rv.GraphTop, u(mix(dark, light, 0.2)))
	}
	if rv.GraphBot != "" {
		faces.note.draw(img, g.Min.X+5, g.Max.Y-6-boolPx(!labelTop && rv.Decisive >= 0 && px(rv.Decisive) < x0+90, noteLineH), rv.GraphBot, u(mix(light, dark, 0.2)))
	}
}

// boolPx returns px when b is set, else 0.
func boolPx(b bool, px int) int {
	if b {
		return px
	}
	return 0
}
