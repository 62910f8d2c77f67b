package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Align is how a column's cells line up.
type Align uint8

// The alignments of a column.
const (
	AlignLeft Align = iota
	AlignRight
	AlignCenter
)

// Column is one column of a Table: its header and alignment.
type Column struct {
	Header string
	Align  Align
}

// Row is one line of a Table; Muted rows are drawn greyed (a withdrawn player).
type Row struct {
	Cells []string
	Muted bool
}

// Table is text laid out in columns, drawn as a picture: standings, leaderboards.
//
// Each column is as wide as its widest cell or header, up to a cap beyond which
// cells are shortened with "…". Control characters are drawn as spaces, and a
// newline in Title or Note starts a new line. The Title is wrapped to at most
// three lines and the Note to at most twenty; text past that is cut with "…".
type Table struct {
	Title   string // bold, above the table; may be empty
	Columns []Column
	Rows    []Row
	Note    string // small text under the table, wrapped to the table's width (e.g. a tie-break legend); may be empty
}

// TableOptions say how to draw a Table.
type TableOptions struct {
	Theme string // a theme key (Themes()); empty for DefaultTheme
}

// MaxTableRows is the most rows a Table may have.
const MaxTableRows = 200

// maxTableColumns bounds the picture's width together with the cell cap.
const maxTableColumns = 32

// Table layout in pixels. Font sizes are in pixels too (72 DPI).
const (
	tableMargin   = 16  // around everything
	cellPadX      = 10  // left and right of a cell's text
	cellCap       = 280 // widest text of a cell before it is shortened
	minCellCap    = 40  // the cap may shrink to this to keep the picture under maxTableWidth
	rowHeight     = 28
	headerHeight  = 32
	headerRule    = 2 // the rule under the header
	bottomRule    = 1 // the line closing the table
	minTableWidth = 320
	maxTitleWidth = 560 // a wider title widens a narrow table up to this, then wraps
	maxTableWidth = MaxWidth - 2*tableMargin
	titleLineH    = 26
	titleGap      = 10 // between the title and the table
	noteLineH     = 18
	noteGap       = 10 // between the table and the note
	maxTitleLines = 3
	maxNoteLines  = 20

	cellSize  = 15
	titleSize = 20
	noteSize  = 13
)

// Table draws t. It refuses a table without columns or with more than 32, a row
// whose cells do not match the columns, more than MaxTableRows rows, an unknown
// alignment or an unknown theme with an error wrapping ErrBadOptions.
func (r *Renderer) Table(t Table, opts TableOptions) (*image.RGBA, error) {
	tl, err := r.prepareTable(t, opts)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, tl.w, tl.h))
	tl.draw(img)
	return img, nil
}

// TablePNG draws t (see Table) and writes it to w as a PNG with a palette fitted
// to the theme's table colours; nothing is written when t is refused.
func (r *Renderer) TablePNG(w io.Writer, t Table, opts TableOptions) error {
	tl, err := r.prepareTable(t, opts)
	if err != nil {
		return err
	}
	n := tl.w * tl.h
	buf := getTableBuf(5 * n)
	defer tableBufs.Put(buf)
	img := &image.RGBA{Pix: (*buf)[:4*n], Stride: 4 * tl.w, Rect: image.Rect(0, 0, tl.w, tl.h)}
	tl.draw(img)
	pal := &image.Paletted{Pix: (*buf)[4*n : 5*n], Stride: tl.w, Rect: img.Rect, Palette: tl.kit.q.pal}
	tl.kit.q.paletted(pal, img)
	return EncodePNG(w, pal)
}

// tableBufs recycles the pixels of TablePNG's scratch pictures, which vary in size.
var tableBufs sync.Pool // of *[]byte

func getTableBuf(n int) *[]byte {
	if b, ok := tableBufs.Get().(*[]byte); ok && cap(*b) >= n {
		*b = (*b)[:n]
		return b
	}
	b := make([]byte, n)
	return &b
}

// checkTable refuses a table that cannot be drawn.
func checkTable(t Table) error {
	if len(t.Columns) == 0 {
		return fmt.Errorf("render: a table needs at least one column: %w", ErrBadOptions)
	}
	if len(t.Columns) > maxTableColumns {
		return fmt.Errorf("render: a table of %d columns is too wide: at most %d columns: %w", len(t.Columns), maxTableColumns, ErrBadOptions)
	}
	if len(t.Rows) > MaxTableRows {
		return fmt.Errorf("render: a table of %d rows is too long: at most %d rows: %w", len(t.Rows), MaxTableRows, ErrBadOptions)
	}
	for i, c := range t.Columns {
		if c.Align > AlignCenter {
			return fmt.Errorf("render: table column %d (%q) has unknown alignment %d: %w", i+1, c.Header, c.Align, ErrBadOptions)
		}
	}
	for i, row := range t.Rows {
		if len(row.Cells) != len(t.Columns) {
			return fmt.Errorf("render: table row %d of %d has %d cells, but the table has %d columns: %w", i+1, len(t.Rows), len(row.Cells), len(t.Columns), ErrBadOptions)
		}
	}
	return nil
}

// tableStyle holds the colours of a table in one theme.
type tableStyle struct {
	page       color.NRGBA // around the table, under the title and the note
	rowA, rowB color.NRGBA // zebra stripes, first row rowA
	head       color.NRGBA // the header band
	rule       color.NRGBA // the rule under the header and the line closing the table
	text       color.NRGBA
	muted      color.NRGBA // the text of Muted rows
	headText   color.NRGBA
	title      color.NRGBA
	note       color.NRGBA
}

// tableStyleFor derives a table's colours from a board theme: a light page with
// the frame colour as header band for light boards, a dark page otherwise.
func tableStyleFor(t *theme) tableStyle {
	white, black := rgb(255, 255, 255), rgb(0, 0, 0)
	var s tableStyle
	if luminance(t.light) >= 0.65 {
		s.page = mix(t.light, white, 0.6)
		s.rowA = s.page
		s.rowB = mix(s.page, t.dark, 0.16)
		s.head = t.frame
		s.headText = mix(t.label, white, 0.3)
		s.rule = t.dark
		s.text = mix(t.frame, black, 0.2)
		s.title = t.frame
		s.note = mix(t.frame, s.page, 0.25)
	} else {
		s.page = t.frame
		s.rowA = mix(t.frame, t.dark, 0.2)
		s.rowB = mix(t.frame, t.dark, 0.36)
		s.head = t.dark
		s.headText = mix(t.label, white, 0.7)
		s.rule = t.light
		s.text = mix(t.label, white, 0.5)
		s.title = mix(t.label, white, 0.6)
		s.note = t.label
	}
	s.muted = mix(s.text, mix(s.rowA, s.rowB, 0.5), 0.55)
	return s
}

// mix returns a moved the share f of the way to b.
func mix(a, b color.NRGBA, f float64) color.NRGBA {
	m := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*f + 0.5) }
	return rgb(m(a.R, b.R), m(a.G, b.G), m(a.B, b.B))
}

func luminance(c color.NRGBA) float64 {
	return (0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)) / 255
}

// tableKit is what is cached per theme: the colours and a palette that fits them.
type tableKit struct {
	st tableStyle
	q  *quantizer
}

// buildTableKit chooses the palette from every colour a table can show: the flat
// fills and each text colour blended at every coverage over its backgrounds.
func buildTableKit(t *theme) *tableKit {
	st := tableStyleFor(t)
	hist := make(map[uint32]int)
	key := func(c color.NRGBA) uint32 { return uint32(c.R)<<16 | uint32(c.G)<<8 | uint32(c.B) }
	for _, c := range []color.NRGBA{st.page, st.rowA, st.rowB, st.head, st.rule} {
		hist[key(c)] += 1 << 24
	}
	for _, c := range []color.NRGBA{st.text, st.muted, st.headText, st.title, st.note} {
		hist[key(c)] += 1 << 16
	}
	ramp := image.NewAlpha(image.Rect(0, 0, 256, 1))
	for i := range ramp.Pix {
		ramp.Pix[i] = uint8(i)
	}
	strip := image.NewRGBA(ramp.Rect)
	for _, p := range []struct {
		bg  color.NRGBA
		fgs []color.NRGBA
	}{
		{st.page, []color.NRGBA{st.title, st.note}},
		{st.rowA, []color.NRGBA{st.text, st.muted}},
		{st.rowB, []color.NRGBA{st.text, st.muted}},
		{st.head, []color.NRGBA{st.headText}},
	} {
		for _, fg := range p.fgs {
			draw.Draw(strip, strip.Rect, image.NewUniform(p.bg), image.Point{}, draw.Src)
			draw.DrawMask(strip, strip.Rect, image.NewUniform(fg), image.Point{}, ramp, image.Point{}, draw.Over)
			count(hist, strip, strip.Rect, 1)
		}
	}
	return &tableKit{st: st, q: newQuantizer(hist)}
}

// tableLayout is a checked table measured and ready to draw.
type tableLayout struct {
	t      Table
	kit    *tableKit
	f      *tableFaces
	w, h   int
	colX   []int // left edge of each column, from the table's left
	colW   []int
	textW  []int // widest text of each column's cells
	title  []string
	note   []string
	tableY int // top of the header band
}

func (r *Renderer) prepareTable(t Table, opts TableOptions) (*tableLayout, error) {
	if err := checkTable(t); err != nil {
		return nil, err
	}
	th, err := lookupTheme(opts.Theme)
	if err != nil {
		return nil, err
	}
	f, err := loadTableFaces()
	if err != nil {
		return nil, err
	}
	kit := r.tables.get(th.key, func() *tableKit { return buildTableKit(th) })
	l := &tableLayout{t: t, kit: kit, f: f}

	// natural width of each column's text, each cell counted up to the cap
	n := len(t.Columns)
	natural := make([]int, n)
	for i, c := range t.Columns {
		_, natural[i] = f.head.fit(cleanText(c.Header, false), cellCap)
	}
	for _, row := range t.Rows {
		for i, c := range row.Cells {
			_, w := f.cell.fit(cleanText(c, false), cellCap)
			natural[i] = max(natural[i], w)
		}
	}
	// lower the cap until the table fits the widest picture
	limit := cellCap
	total := func(limit int) int {
		s := 0
		for _, w := range natural {
			s += min(w, limit) + 2*cellPadX
		}
		return s
	}
	for limit > minCellCap && total(limit) > maxTableWidth {
		limit -= 4
	}
	l.textW = make([]int, n)
	l.colW = make([]int, n)
	l.colX = make([]int, n)
	width := 0
	for i, w := range natural {
		l.textW[i] = min(w, limit)
		l.colW[i] = l.textW[i] + 2*cellPadX
		width += l.colW[i]
	}
	// a narrow table is widened for its title, the room going to the first
	// left-aligned column (the names, in standings) or else the last
	title := cleanText(t.Title, true)
	want := minTableWidth
	for _, line := range strings.Split(title, "\n") {
		want = max(want, min(f.title.width(line), maxTitleWidth))
	}
	if width < want {
		grow := n - 1
		for i, c := range t.Columns {
			if c.Align == AlignLeft {
				grow = i
				break
			}
		}
		l.colW[grow] += want - width
		width = want
	}
	for i := 1; i < n; i++ {
		l.colX[i] = l.colX[i-1] + l.colW[i-1]
	}
	if title != "" {
		l.title = f.title.wrap(title, width, maxTitleLines)
	}
	if note := cleanText(t.Note, true); note != "" {
		l.note = f.note.wrap(note, width, maxNoteLines)
	}

	l.w = width + 2*tableMargin
	l.tableY = tableMargin
	if len(l.title) > 0 {
		l.tableY += len(l.title)*titleLineH + titleGap
	}
	l.h = l.tableY + headerHeight + headerRule + len(t.Rows)*rowHeight + bottomRule + tableMargin
	if len(l.note) > 0 {
		l.h += noteGap + len(l.note)*noteLineH
	}
	return l, nil
}

// draw paints the table over all of img, which has the layout's size.
func (l *tableLayout) draw(img *image.RGBA) {
	st, f := l.kit.st, l.f
	u := func(c color.NRGBA) *image.Uniform { return image.NewUniform(c) }
	left, right := tableMargin, l.w-tableMargin
	band := func(y0, y1 int, c color.NRGBA) {
		draw.Draw(img, image.Rect(left, y0, right, y1), u(c), image.Point{}, draw.Src)
	}
	draw.Draw(img, img.Rect, u(st.page), image.Point{}, draw.Src)

	y := tableMargin
	for _, line := range l.title {
		f.title.draw(img, left, baseline(y, titleLineH, f.title), line, u(st.title))
		y += titleLineH
	}

	// cells draws one line of the table in the band from y0, h high
	cells := func(texts []string, g *glyphSet, y0, h int, ink *image.Uniform) {
		by := baseline(y0, h, g)
		for i, s := range texts {
			s, w := g.fit(cleanText(s, false), l.textW[i])
			x := left + l.colX[i]
			switch l.t.Columns[i].Align {
			case AlignRight:
				x += l.colW[i] - cellPadX - w
			case AlignCenter:
				x += (l.colW[i] - w) / 2
			default:
				x += cellPadX
			}
			g.draw(img, x, by, s, ink)
		}
	}

	y = l.tableY
	band(y, y+headerHeight, st.head)
	headers := make([]string, len(l.t.Columns))
	for i, c := range l.t.Columns {
		headers[i] = c.Header
	}
	cells(headers, f.head, y, headerHeight, u(st.headText))
	y += headerHeight
	band(y, y+headerRule, st.rule)
	y += headerRule

	text, muted := u(st.text), u(st.muted)
	for i, row := range l.t.Rows {
		bg := st.rowA
		if i%2 == 1 {
			bg = st.rowB
		}
		band(y, y+rowHeight, bg)
		ink := text
		if row.Muted {
			ink = muted
		}
		cells(row.Cells, f.cell, y, rowHeight, ink)
		y += rowHeight
	}
	band(y, y+bottomRule, st.rule)
	y += bottomRule

	if len(l.note) > 0 {
		y += noteGap
		for _, line := range l.note {
			f.note.draw(img, left, baseline(y, noteLineH, f.note), line, u(st.note))
			y += noteLineH
		}
	}
}

// baseline returns the baseline that centres capital letters of g in the band from y, h high.
func baseline(y, h int, g *glyphSet) int { return y + (h+g.capHeight+1)/2 }

// cleanText replaces control characters with spaces, keeping newlines when lines is set.
func cleanText(s string, lines bool) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	clean := true
	for _, r := range s {
		if unicode.IsControl(r) || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' && lines:
			return r
		case unicode.IsControl(r):
			return ' '
		}
		return r
	}, s)
}

// tableFaces are the fonts of a table: Go Regular for cells and the note, Go Bold
// for the header and the title.
type tableFaces struct {
	cell, head, title, note *glyphSet
}

// regularFont is the embedded Go Regular font (BSD licence, golang.org/x/image/font/gofont).
var regularFont = sync.OnceValues(func() (*opentype.Font, error) { return opentype.Parse(goregular.TTF) })

// loadTableFaces returns the table fonts, parsed once per process; their glyph
// caches are shared by every Renderer.
var loadTableFaces = sync.OnceValues(func() (*tableFaces, error) {
	regular, err := regularFont()
	if err != nil {
		return nil, fmt.Errorf("render: table font: %w", err)
	}
	bold, err := labelFont()
	if err != nil {
		return nil, fmt.Errorf("render: table font: %w", err)
	}
	var f tableFaces
	for _, s := range []struct {
		dst  **glyphSet
		font *opentype.Font
		size float64
	}{{&f.cell, regular, cellSize}, {&f.head, bold, cellSize}, {&f.title, bold, titleSize}, {&f.note, regular, noteSize}} {
		if *s.dst, err = newGlyphSet(s.font, s.size); err != nil {
			return nil, fmt.Errorf("render: table font: %w", err)
		}
	}
	return &f, nil
})

// glyphSet draws one font at one size from glyphs rasterized once and kept, so
// that it is fast and safe for concurrent use (an opentype face is neither). It
// places text on whole pixels, where fully hinted glyphs and advances are exact,
// and ignores kerning, which the Go fonts do not have.
type glyphSet struct {
	font      *opentype.Font
	size      float64
	capHeight int
	mu        sync.RWMutex
	glyphs    map[rune]glyph
}

// glyph is one rasterized rune: its coverage, placed with the dot at (0, 0), and its advance.
type glyph struct {
	mask *image.Alpha
	adv  int
}

// maxGlyphs bounds a glyphSet's cache; runes past it are rasterized each time.
const maxGlyphs = 4096

func newGlyphSet(f *opentype.Font, size float64) (*glyphSet, error) {
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	defer face.Close()
	return &glyphSet{font: f, size: size, capHeight: face.Metrics().CapHeight.Round(), glyphs: make(map[rune]glyph)}, nil
}

func (g *glyphSet) get(r rune) glyph {
	g.mu.RLock()
	e, ok := g.glyphs[r]
	g.mu.RUnlock()
	if ok {
		return e
	}
	e = g.rasterize(r)
	g.mu.Lock()
	if len(g.glyphs) < maxGlyphs {
		g.glyphs[r] = e
	}
	g.mu.Unlock()
	return e
}

// rasterize draws r with a face of its own: opentype faces are cheap to make
// (their font is parsed once) and not safe to share. A rune the font lacks is
// drawn as U+FFFD, or as nothing when it is invisible anyway (a zero-width
// joiner, a variation selector, a combining mark).
func (g *glyphSet) rasterize(r rune) glyph {
	var buf sfnt.Buffer
	if x, err := g.font.GlyphIndex(&buf, r); err != nil || x == 0 {
		if unicode.In(r, unicode.Cf, unicode.Mn, unicode.Me, unicode.Variation_Selector) {
			return glyph{mask: image.NewAlpha(image.Rectangle{})}
		}
		r = utf8.RuneError
	}
	face, err := opentype.NewFace(g.font, &opentype.FaceOptions{Size: g.size, DPI: 72, Hinting: font.HintingFull})
	if err != nil { // cannot happen: newGlyphSet made one with the same options
		return glyph{mask: image.NewAlpha(image.Rectangle{})}
	}
	defer face.Close()
	dr, mask, mp, adv, ok := face.Glyph(fixed.Point26_6{}, r)
	if !ok {
		return glyph{mask: image.NewAlpha(image.Rectangle{})}
	}
	m := image.NewAlpha(dr)
	if mask != nil {
		draw.Draw(m, dr, mask, mp, draw.Src)
	}
	return glyph{mask: m, adv: adv.Round()}
}

// width returns the width of s in pixels.
func (g *glyphSet) width(s string) int {
	w := 0
	for _, r := range s {
		w += g.get(r).adv
	}
	return w
}

// fit returns s and its width when s is at most max pixels wide, or else s
// shortened to fit with "…" and the shortened width.
func (g *glyphSet) fit(s string, max int) (string, int) {
	w := 0
	for _, r := range s {
		if w += g.get(r).adv; w > max {
			return g.shorten(s, max)
		}
	}
	return s, w
}

// shorten returns the longest start of s that fits in max pixels with "…" after it, and its width.
func (g *glyphSet) shorten(s string, max int) (string, int) {
	ell := g.get('…').adv
	w, cut := 0, 0
	for i, r := range s {
		a := g.get(r).adv
		if w+a+ell > max {
			break
		}
		w += a
		cut = i + utf8.RuneLen(r)
	}
	head := strings.TrimRight(s[:cut], " ")
	return head + "…", g.width(head) + ell
}

// wrap breaks s into lines at most width pixels wide, at spaces where it can and
// at newlines. Past maxLines the text is cut and the last line ends with "…".
func (g *glyphSet) wrap(s string, width, maxLines int) []string {
	var lines []string
	space := g.get(' ').adv
	full := func() bool { return len(lines) > maxLines }
	for _, para := range strings.Split(s, "\n") {
		line, lw := "", 0
		for _, word := range strings.Fields(para) {
			if full() {
				break
			}
			ww := g.width(word)
			if line != "" && lw+space+ww <= width {
				line, lw = line+" "+word, lw+space+ww
				continue
			}
			if line != "" {
				lines = append(lines, line)
			}
			// a word wider than a line is broken where it must be
			for ww > width && !full() {
				cut, cw := 0, 0
				for i, r := range word {
					a := g.get(r).adv
					if cw+a > width && i > 0 {
						break
					}
					cw += a
					cut = i + utf8.RuneLen(r)
				}
				lines = append(lines, word[:cut])
				word, ww = word[cut:], ww-cw
			}
			line, lw = word, ww
		}
		if full() {
			break
		}
		lines = append(lines, line)
	}
	// drop blank lines at the end
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		last := lines[maxLines-1]
		if g.width(last)+g.get('…').adv <= width {
			lines[maxLines-1] = last + "…"
		} else {
			lines[maxLines-1], _ = g.shorten(last, width)
		}
	}
	return lines
}

// draw writes s with its baseline starting at (x, y) in the colour of ink.
func (g *glyphSet) draw(dst *image.RGBA, x, y int, s string, ink image.Image) {
	for _, r := range s {
		e := g.get(r)
		if !e.mask.Rect.Empty() {
			dr := e.mask.Rect.Add(image.Pt(x, y))
			draw.DrawMask(dst, dr, ink, image.Point{}, e.mask, e.mask.Rect.Min, draw.Over)
		}
		x += e.adv
	}
}
