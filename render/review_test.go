package render

import (
	"bytes"
	"errors"
	"image/png"
	"math"
	"slices"
	"testing"
)

// sampleReview is a 40-move game that White wins after Black's blunder at move 23.
func sampleReview() Review {
	rv := Review{
		Title: "Review of game 12: Gothic Chess, alice vs bob", WhiteName: "alice", Black: "bob",
		GraphTop: "White", GraphBot: "Black", Decisive: -1,
		Rows: []ReviewRow{{"Accuracy", "91%", "74%"}, {"Inaccuracies", "2", "3"}, {"Mistakes", "1", "1"}, {"Blunders", "0", "1"}},
		Note: "Accuracy is the mean over a player's moves of 103.17 × e^(−0.0435 × the winning chance lost, in points) − 3.17.",
	}
	for i := range 80 {
		c := 50 + 8*math.Sin(float64(i)/6)
		if i >= 45 {
			c = 50 + 40*(1-math.Exp(-float64(i-44)/4))
		}
		p := ReviewPoint{White: c, Number: i/2 + 1, Label: "move"}
		switch i {
		case 17:
			p.Mark = MarkMistake
		case 30:
			p.Mark = MarkInaccuracy
		case 45:
			p.Mark, p.Label = MarkBlunder, "23... Qg5??"
			rv.Decisive = i
		case 61:
			p.Mark = MarkMistake
		}
		rv.Points = append(rv.Points, p)
	}
	return rv
}

// The review picture matches its golden image (with the usual tolerance), is
// readable at Discord's preview size, and marks its blunder in red where the
// graph says.
func TestReviewGolden(t *testing.T) {
	r := New()
	for _, theme := range []string{"classic", "night"} {
		var b bytes.Buffer
		if err := r.ReviewPNG(&b, sampleReview(), TableOptions{Theme: theme}); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if w := img.Bounds().Dx(); w < 400 || w > 550 {
			t.Fatalf("%d px wide, want 400-550 for Discord's preview", w)
		}
		checkGoldenPNG(t, "review_"+theme, b.Bytes())
	}
	// The blunder's mark: red at its point on the graph.
	rv := sampleReview()
	img, _ := r.Review(rv, TableOptions{})
	faces, _ := loadTableFaces()
	top := reviewMargin + len(faces.title.wrap(rv.Title, reviewWidth-2*reviewMargin, 2))*titleLineH + titleGap
	w, at := float64(reviewWidth-2*reviewMargin), 45.5
	x := reviewMargin + int(w*at/80)
	y := top + reviewGraphH/2 - int((rv.Points[45].White-50)/50*reviewGraphH/2)
	if c := img.RGBAAt(x, y); !closeColour(c, markBlunder, 30) {
		t.Fatalf("at the blunder (%d,%d) the colour is %v, want red", x, y, c)
	}
}

// Bad reviews are refused, not drawn.
func TestReviewRefused(t *testing.T) {
	r := New()
	for name, rv := range map[string]Review{
		"no moves":     {Decisive: -1},
		"bad decisive": {Points: []ReviewPoint{{White: 50}}, Decisive: 3},
	} {
		if _, err := r.Review(rv, TableOptions{}); !errors.Is(err, ErrBadOptions) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := r.Review(sampleReview(), TableOptions{Theme: "nope"}); err == nil {
		t.Error("an unknown theme was accepted")
	}
}

// engineReview is sampleReview between two engines whose names differ only at the
// end, its blunder pushing White's chance to the top of the graph.
func engineReview() Review {
	rv := sampleReview()
	rv.WhiteName, rv.Black = "Missive engine (level 3)", "Missive engine (level 5)"
	rv.Points[45].White = 99
	rv.Rows[0].Black = "—"
	return rv
}

// Names too long for their column that begin alike are still told apart, and
// every line fits its column.
func TestReviewNamesToldApart(t *testing.T) {
	faces, err := loadTableFaces()
	if err != nil {
		t.Fatal(err)
	}
	width := (reviewWidth-2*reviewMargin-150)/2 - cellPadX
	for _, tc := range [][2]string{
		{"Missive engine (level 3)", "Missive engine (level 5)"},
		{"A rather long player name number one", "A rather long player name number two"},
		{"alice", "bob"},
	} {
		got := reviewNames(faces.head, tc[0], tc[1], width)
		if slices.Equal(got[0], got[1]) {
			t.Errorf("%q and %q are both shown as %q", tc[0], tc[1], got[0])
		}
		for _, lines := range got {
			for _, l := range lines {
				if w := faces.head.width(l); w > width {
					t.Errorf("%q is %d px wide, its column %d", l, w, width)
				}
			}
		}
	}
}

// The decisive moment's label is never under its own mark: with the point at the
// top of the graph the label goes to the bottom, and no red shows inside it.
func TestReviewDecisiveLabelClear(t *testing.T) {
	r := New()
	rv := engineReview()
	var b bytes.Buffer
	if err := r.ReviewPNG(&b, rv, TableOptions{Theme: "classic"}); err != nil {
		t.Fatal(err)
	}
	checkGoldenPNG(t, "review_engines_classic", b.Bytes())
	img, _ := png.Decode(bytes.NewReader(b.Bytes()))
	faces, _ := loadTableFaces()
	top := reviewMargin + len(faces.title.wrap(rv.Title, reviewWidth-2*reviewMargin, 2))*titleLineH + titleGap
	w, at := float64(reviewWidth-2*reviewMargin), 45.5
	x := reviewMargin + int(w*at/80)
	th, err := lookupTheme("classic")
	if err != nil {
		t.Fatal(err)
	}
	page := tableStyleFor(th).page
	band := func(y0 int) (pageShare float64, red bool) {
		n, p := 0, 0
		for y := y0 + 2; y < y0+noteLineH-2; y++ {
			for dx := -30; dx <= 30; dx++ {
				c := img.At(x+dx, y)
				n++
				if closeColour(c, page, 8) {
					p++
				}
				red = red || closeColour(c, markBlunder, 40)
			}
		}
		return float64(p) / float64(n), red
	}
	topShare, topRed := band(top + 3)
	botShare, botRed := band(top + reviewGraphH - 3 - noteLineH)
	label := topShare > 0.5 && !topRed || botShare > 0.5 && !botRed
	if !label {
		t.Errorf("no clear label: top band %.0f%% page (red %v), bottom band %.0f%% page (red %v)", 100*topShare, topRed, 100*botShare, botRed)
	}
}
