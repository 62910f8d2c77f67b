package render

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"strings"
	"sync"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
)

// swissStandings is a 10-player Swiss after five rounds with one withdrawn player.
func swissStandings() Table {
	cols := []Column{
		{"#", AlignRight}, {"Player", AlignLeft}, {"Rating", AlignRight}, {"Pts", AlignRight},
		{"Bh", AlignRight}, {"SB", AlignRight}, {"W-D-L", AlignCenter}, {"Games", AlignRight},
	}
	rows := [][]string{
		{"1", "Magnus_the_Gothic", "2104", "4.5", "15.5", "12.25", "4-1-0", "5"},
		{"2", "ArchbishopAnna", "1987", "4", "16", "11.5", "3-2-0", "5"},
		{"3", "Chancellor Chen", "1950", "3.5", "14.5", "9.75", "3-1-1", "5"},
		{"4", "keltic_knight", "1822", "3", "13", "7", "3-0-2", "5"},
		{"5", "Zoë Ångström", "1795", "3", "12.5", "6.5", "2-2-1", "5"},
		{"6", "bob", "1650", "2.5", "13.5", "5.25", "2-1-2", "5"},
		{"7", "Ivan (withdrawn)", "1702", "2", "11", "4", "2-0-1", "3"},
		{"8", "gess_enjoyer_42", "1530", "1.5", "12", "2.75", "1-1-3", "5"},
		{"9", "Dmitri", "1480", "1", "11.5", "1.5", "1-0-4", "5"},
		{"10", "newcomer", "1500", "0", "10", "0", "0-0-5", "5"},
	}
	t := Table{
		Title:   "Gothic Spring Swiss — standings after round 5",
		Columns: cols,
		Note:    "Tie-breaks: Bh = Buchholz (the sum of the opponents' scores), SB = Sonneborn-Berger. Greyed players have withdrawn; their games so far still count for their opponents.",
	}
	for _, r := range rows {
		t.Rows = append(t.Rows, Row{Cells: r, Muted: strings.Contains(r[1], "withdrawn")})
	}
	return t
}

// leaderboard is a small table with a centred column, a name past the cap and no title.
func leaderboard() Table {
	return Table{
		Columns: []Column{{"Rank", AlignRight}, {"Player", AlignLeft}, {"Glicko", AlignCenter}, {"RD", AlignRight}},
		Rows: []Row{
			{Cells: []string{"1", "a player whose display name is far too long to fit in any sensible column", "1843", "52"}},
			{Cells: []string{"2", "Tom\tTab\nNewline", "1790", "61"}},
			{Cells: []string{"3", "Zhang 张伟 🎉\uFE0F", "1500", ""}},
		},
		Note: "Ratings are Glicko-2 per server and variant.\nPlayers with RD over 110 are provisional.",
	}
}

var tableGoldens = []struct {
	name  string
	table func() Table
	theme string
}{
	{"table_swiss_classic", swissStandings, ""},
	{"table_swiss_night", swissStandings, "night"},
	{"table_leaderboard_ocean", leaderboard, "ocean"},
}

func TestTableGolden(t *testing.T) {
	r := New()
	for _, c := range tableGoldens {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := r.TablePNG(&buf, c.table(), TableOptions{Theme: c.theme}); err != nil {
				t.Fatal(err)
			}
			checkGoldenPNG(t, c.name, buf.Bytes())
		})
	}
}

// TestTablePaletteFaithful checks that the paletted PNG is close to the true-colour picture.
func TestTablePaletteFaithful(t *testing.T) {
	r := New()
	for _, c := range tableGoldens {
		rgba, err := r.Table(c.table(), TableOptions{Theme: c.theme})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := r.TablePNG(&buf, c.table(), TableOptions{Theme: c.theme}); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if n, share := diffImages(rgba, img); n != 0 {
			t.Errorf("%s: %d pixels (%.3f%%) of the paletted picture are far from the true colours", c.name, n, 100*share)
		}
	}
}

func TestTableSize(t *testing.T) {
	img, err := New().Table(swissStandings(), TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	if w < 500 || w > 900 {
		t.Errorf("10-player standings are %d px wide, want 500 to 900", w)
	}
	if rowHeight < 26 || rowHeight > 30 {
		t.Errorf("row height %d, want 26 to 30", rowHeight)
	}
	if h < 10*rowHeight || h > 10*rowHeight+300 {
		t.Errorf("10-player standings are %d px high", h)
	}
}

func TestTableErrors(t *testing.T) {
	cols := []Column{{"#", AlignRight}, {"Player", AlignLeft}}
	tooMany := Table{Columns: cols}
	for range MaxTableRows + 1 {
		tooMany.Rows = append(tooMany.Rows, Row{Cells: []string{"1", "x"}})
	}
	for _, c := range []struct {
		name  string
		table Table
		opts  TableOptions
		want  string
	}{
		{"no columns", Table{Rows: []Row{{Cells: []string{"a"}}}}, TableOptions{}, "at least one column"},
		{"short row", Table{Columns: cols, Rows: []Row{{Cells: []string{"1", "a"}}, {Cells: []string{"2", "b"}}, {Cells: []string{"3"}}}}, TableOptions{}, "row 3 of 3 has 1 cells"},
		{"long row", Table{Columns: cols, Rows: []Row{{Cells: []string{"1", "a", "x"}}}}, TableOptions{}, "row 1 of 1 has 3 cells"},
		{"too many rows", tooMany, TableOptions{}, "at most 200 rows"},
		{"too many columns", Table{Columns: make([]Column, maxTableColumns+1)}, TableOptions{}, "columns is too wide"},
		{"bad alignment", Table{Columns: []Column{{"x", Align(7)}}}, TableOptions{}, "unknown alignment"},
		{"unknown theme", Table{Columns: cols}, TableOptions{Theme: "neon"}, `no theme "neon"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := New().TablePNG(&buf, c.table, c.opts)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), "render: ") || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrBadOptions) {
				t.Errorf("error %q, want one starting with \"render: \", saying %q and wrapping ErrBadOptions", err, c.want)
			}
			if buf.Len() != 0 {
				t.Errorf("%d bytes written on error", buf.Len())
			}
			if img, err := New().Table(c.table, c.opts); err == nil || img != nil {
				t.Errorf("Table: %v, %v", img, err)
			}
		})
	}
	// the theme error reads as the board's
	_, boardErr := lookupTheme("neon")
	_, tableErr := New().Table(Table{Columns: cols}, TableOptions{Theme: "neon"})
	if boardErr.Error() != tableErr.Error() {
		t.Errorf("table theme error %q, board theme error %q", tableErr, boardErr)
	}
}

func TestTableEmptyAndThemes(t *testing.T) {
	r := New()
	header := Table{Columns: []Column{{"Player", AlignLeft}, {"Pts", AlignRight}}}
	img, err := r.Table(header, TableOptions{Theme: "Ocean "})
	if err != nil {
		t.Fatal(err)
	}
	if h := img.Bounds().Dy(); h != 2*tableMargin+headerHeight+headerRule+bottomRule {
		t.Errorf("header-only table is %d px high", h)
	}
	if w := img.Bounds().Dx(); w != minTableWidth+2*tableMargin {
		t.Errorf("narrow table is %d px wide, want the minimum %d", w, minTableWidth+2*tableMargin)
	}
	for _, key := range Themes() {
		st := tableStyleFor(themes[key])
		// text must stand out from its backgrounds
		for _, p := range [][2]uint8{
			{lum8(st.text), lum8(st.rowA)}, {lum8(st.text), lum8(st.rowB)},
			{lum8(st.headText), lum8(st.head)}, {lum8(st.title), lum8(st.page)},
		} {
			if d := int(p[0]) - int(p[1]); d < 90 && d > -90 {
				t.Errorf("theme %s: text and background too close in brightness (%d, %d)", key, p[0], p[1])
			}
		}
		if st.rowA == st.rowB {
			t.Errorf("theme %s: no zebra stripes", key)
		}
		if st.muted == st.text {
			t.Errorf("theme %s: muted rows are not greyed", key)
		}
	}
}

func lum8(c interface{ RGBA() (r, g, b, a uint32) }) uint8 {
	r, g, b, _ := c.RGBA()
	return uint8((2126*(r>>8) + 7152*(g>>8) + 722*(b>>8)) / 10000)
}

// TestTableWidthCap checks that a longer name widens the picture up to the cap and no further.
func TestTableWidthCap(t *testing.T) {
	r := New()
	const base = "Magnus_the_Gothic" // the widest name of swissStandings
	width := func(name string) int {
		tb := swissStandings()
		tb.Rows[0].Cells[1] = name
		img, err := r.Table(tb, TableOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return img.Bounds().Dx()
	}
	f, err := loadTableFaces()
	if err != nil {
		t.Fatal(err)
	}
	baseWidth := width(base)
	for n := 2; n <= 8; n += 2 { // all under the cap
		name := base + strings.Repeat("m", n)
		if got, want := width(name), baseWidth+f.cell.width(name)-f.cell.width(base); got != want {
			t.Errorf("%d letters longer: %d px wide, want %d", n, got, want)
		}
	}
	// past the cap the name is shortened with "…" to within one letter of the cap
	capped := width(strings.Repeat("m", 200))
	most := baseWidth + cellCap - f.cell.width(base)
	if capped > most || capped <= most-f.cell.get('m').adv {
		t.Errorf("capped width %d, want just under %d", capped, most)
	}
	if w := width(strings.Repeat("m", 2000)); w != capped {
		t.Errorf("a longer name past the cap changed the width: %d then %d", capped, w)
	}
	if s, w := f.cell.fit(strings.Repeat("m", 200), cellCap); !strings.HasSuffix(s, "…") || w > cellCap || w != f.cell.width(s) {
		t.Errorf("fit: %q, %d px", s, w)
	}
}

// TestTableManyColumns checks that a table of many wide columns is kept under MaxWidth.
func TestTableManyColumns(t *testing.T) {
	var tb Table
	row := Row{}
	for i := range maxTableColumns {
		tb.Columns = append(tb.Columns, Column{Header: fmt.Sprintf("Round %d", i+1)})
		row.Cells = append(row.Cells, strings.Repeat("long text ", 20))
	}
	tb.Rows = []Row{row, row}
	img, err := New().Table(tb, TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w > MaxWidth {
		t.Errorf("table of %d wide columns is %d px wide, over %d", maxTableColumns, w, MaxWidth)
	}
}

func TestTableWrap(t *testing.T) {
	f, err := loadTableFaces()
	if err != nil {
		t.Fatal(err)
	}
	g := f.note
	long := strings.Repeat("Buchholz ", 200)
	lines := g.wrap(long, 300, maxNoteLines)
	if len(lines) != maxNoteLines || !strings.HasSuffix(lines[len(lines)-1], "…") {
		t.Errorf("long note: %d lines, last %q", len(lines), lines[len(lines)-1])
	}
	for _, l := range lines {
		if g.width(l) > 300 {
			t.Errorf("line %q is %d px wide, over 300", l, g.width(l))
		}
	}
	if got := g.wrap("one\n\ntwo three\n\n", 1000, 5); strings.Join(got, "|") != "one||two three" {
		t.Errorf("wrap kept %q", got)
	}
	word := g.wrap(strings.Repeat("x", 300), 100, 50)
	if len(word) < 2 || strings.Join(word, "") != strings.Repeat("x", 300) {
		t.Errorf("a long word broke into %q", word)
	}
	// runes the font lacks: shown as U+FFFD, or dropped when invisible
	if g.width("a\u200db\uFE0F") != g.width("ab") || g.width("😀") != g.width("\uFFFD") || g.width("😀") == 0 {
		t.Errorf("missing runes: %d, %d, %d px", g.width("a\u200db\uFE0F"), g.width("😀"), g.width("\uFFFD"))
	}
	if got := cleanText("a\tb\nc\x00", false); got != "a b c " {
		t.Errorf("cleanText: %q", got)
	}
}

// TestTableFontHasNoKerning guards glyphSet's assumption that the Go fonts carry no kerning.
func TestTableFontHasNoKerning(t *testing.T) {
	for _, load := range []func() (*opentype.Font, error){regularFont, labelFont} {
		fnt, err := load()
		if err != nil {
			t.Fatal(err)
		}
		face, err := opentype.NewFace(fnt, &opentype.FaceOptions{Size: cellSize, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"AV", "To", "Wa", "LT", "Yo", "r.", "11"} {
			r := []rune(p)
			if d := face.Kern(r[0], r[1]); d != 0 {
				t.Errorf("kerning of %q is %v; glyphSet ignores kerning", p, d)
			}
		}
	}
	f, err := loadTableFaces()
	if err != nil {
		t.Fatal(err)
	}
	if f.cell.get('…').adv == 0 {
		t.Error("the cell font has no ellipsis")
	}
}

// TestTableConcurrent draws tables from many goroutines at once, in every theme,
// with one Renderer and with the shared one; run it with -race.
func TestTableConcurrent(t *testing.T) {
	r := New()
	themeKeys := Themes()
	want := map[string][]byte{}
	for _, key := range themeKeys {
		var buf bytes.Buffer
		if err := r.TablePNG(&buf, swissStandings(), TableOptions{Theme: key}); err != nil {
			t.Fatal(err)
		}
		want[key] = buf.Bytes()
	}
	fresh := New() // its palettes are built while the goroutines race for them
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := themeKeys[i%len(themeKeys)]
			tb := swissStandings()
			// a rune drawn nowhere else, so glyph caches fill while others read them
			tb.Rows[5].Cells[1] = fmt.Sprintf("bob %c", rune('Α'+i))
			var buf bytes.Buffer
			var err error
			switch i % 3 {
			case 0:
				err = fresh.TablePNG(&buf, tb, TableOptions{Theme: key})
			case 1:
				err = TablePNG(&buf, tb, TableOptions{Theme: key})
			default:
				_, err = r.Table(tb, TableOptions{Theme: key})
			}
			if err != nil {
				errs <- err
				return
			}
			var same bytes.Buffer
			if err := r.TablePNG(&same, swissStandings(), TableOptions{Theme: key}); err != nil {
				errs <- err
				return
			}
			if !bytes.Equal(same.Bytes(), want[key]) {
				errs <- fmt.Errorf("theme %s: a table drawn concurrently differs from the one drawn alone", key)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// standings100 is a 100-player table of eight columns.
func standings100() Table {
	t := swissStandings()
	t.Rows = nil
	for i := range 100 {
		t.Rows = append(t.Rows, Row{
			Cells: []string{
				fmt.Sprint(i + 1), fmt.Sprintf("player_%03d %s", i, strings.Repeat("x", i%13)),
				fmt.Sprint(2200 - 7*i), fmt.Sprintf("%.1f", float64(180-i)/20), fmt.Sprintf("%.1f", float64(700-i*3)/20),
				fmt.Sprintf("%.2f", float64(5000-i*47)/100), fmt.Sprintf("%d-%d-%d", 9-i/12, i%3, i/12), "9",
			},
			Muted: i%17 == 5,
		})
	}
	return t
}

// BenchmarkTablePNG draws and encodes 100-player standings.
func BenchmarkTablePNG(b *testing.B) {
	r := New()
	t := standings100()
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := r.TablePNG(&buf, t, TableOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "png-bytes")
}

// FuzzTablePNG draws tables of arbitrary text: each either draws as a PNG of
// the width limit at most, or is refused with ErrBadOptions and writes nothing.
func FuzzTablePNG(f *testing.F) {
	f.Add("Spring Swiss", "Player\tPts", "alice\t3\nbob (w/d)\t1", "Tie-breaks: BH = Buchholz.", uint8(2), false)
	f.Add("", "", "", "", uint8(0), true)
	f.Add("😀\x00\u200d", "a\tb\tc", "漢字\t\x7f\t\u202e", "\n\n\n", uint8(3), true)
	f.Fuzz(func(t *testing.T, title, header, body, note string, cols uint8, muted bool) {
		tbl := Table{Title: title, Note: note}
		for i, h := range strings.Split(header, "\t") {
			if i < int(cols%40) {
				tbl.Columns = append(tbl.Columns, Column{Header: h, Align: Align(i % 3)})
			}
		}
		for _, line := range strings.Split(body, "\n") {
			tbl.Rows = append(tbl.Rows, Row{Cells: strings.Split(line, "\t"), Muted: muted})
		}
		var buf bytes.Buffer
		err := TablePNG(&buf, tbl, TableOptions{})
		if err != nil {
			if !errors.Is(err, ErrBadOptions) || buf.Len() != 0 {
				t.Fatalf("refused with %v after writing %d bytes", err, buf.Len())
			}
			return
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("not a PNG: %v", err)
		}
		if w := img.Bounds().Dx(); w > MaxWidth || w < 1 {
			t.Fatalf("width %d", w)
		}
	})
}
