package render_test

import (
	"bytes"
	"image"
	"image/gif"
	"strings"
	"testing"

	"github.com/missivechess/missive/render"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

// inks counts the near-black and near-white pixels of the top and bottom fifths of img.
func inks(img image.Image) (topDark, topLight, bottomDark, bottomLight int) {
	b := img.Bounds()
	band := b.Dy() / 5
	for y := b.Min.Y; y < b.Max.Y; y++ {
		top, bottom := y < b.Min.Y+band, y >= b.Max.Y-band
		if !top && !bottom {
			continue
		}
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			dark := r < 50<<8 && g < 50<<8 && bl < 50<<8
			light := r > 225<<8 && g > 225<<8 && bl > 225<<8
			switch {
			case top && dark:
				topDark++
			case top && light:
				topLight++
			case bottom && dark:
				bottomDark++
			case bottom && light:
				bottomLight++
			}
		}
	}
	return
}

// checkOwnStonesBelow fails unless viewer's stones fill the bottom of img and the
// opponent's the top (Black's stones are dark, White's light).
func checkOwnStonesBelow(t *testing.T, what string, img image.Image, viewer rules.Side) {
	t.Helper()
	td, tl, bd, bl := inks(img)
	blackBelow := bd > 4*td && tl > 4*bl
	whiteBelow := bl > 4*tl && td > 4*bd
	if (viewer == rules.Black && !blackBelow) || (viewer == rules.White && !whiteBelow) {
		t.Errorf("%s for %v: dark pixels top %d bottom %d, light top %d bottom %d: the viewer's stones are not at the bottom",
			what, viewer, td, bd, tl, bl)
	}
}

// Each Gess player sees their own stones nearest to them, in pictures, animations
// and text (issue 16: Black starts on ranks 2-7, so White's view is the turned one).
func TestGessViewersSeeTheirOwnStonesBelow(t *testing.T) {
	v, err := variants.Registry().Lookup("gess")
	if err != nil {
		t.Fatal(err)
	}
	start := v.Start(0)
	m, err := start.ParseMove("c3-c6")
	if err != nil {
		t.Fatal(err)
	}
	for _, viewer := range rules.Sides {
		img, err := render.Board(start, render.Options{Viewer: viewer})
		if err != nil {
			t.Fatal(err)
		}
		checkOwnStonesBelow(t, "picture", img, viewer)

		var buf bytes.Buffer
		if err := render.GIF(&buf, start, []rules.Move{m}, render.GIFOptions{Options: render.Options{Viewer: viewer}}); err != nil {
			t.Fatal(err)
		}
		anim, err := gif.DecodeAll(&buf)
		if err != nil {
			t.Fatal(err)
		}
		checkOwnStonesBelow(t, "GIF", anim.Image[0], viewer)

		text, err := render.Text(start, viewer)
		if err != nil {
			t.Fatal(err)
		}
		own, theirs := map[rules.Side]string{rules.Black: "x", rules.White: "o"}[viewer], map[rules.Side]string{rules.Black: "o", rules.White: "x"}[viewer]
		rows := strings.Split(text, "\n")
		top, bottom := strings.Join(rows[1:8], "\n"), strings.Join(rows[14:21], "\n") // ranks only, not the file letters
		if strings.Contains(top, own) || !strings.Contains(top, theirs) || strings.Contains(bottom, theirs) || !strings.Contains(bottom, own) {
			t.Errorf("text for %v: own stones %q must be at the bottom:\n%s", viewer, own, text)
		}
	}
}

// Chess players keep their view: White's pieces (upper case) at the bottom for
// White, Black's for Black.
func TestChessViewersSeeTheirOwnPiecesBelow(t *testing.T) {
	for _, key := range []string{"gothic", "keltic"} {
		v, err := variants.Registry().Lookup(key)
		if err != nil {
			t.Fatal(err)
		}
		for _, viewer := range rules.Sides {
			text, err := render.Text(v.Start(0), viewer)
			if err != nil {
				t.Fatal(err)
			}
			rows := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			last := rows[len(rows)-2] // the bottom rank, above the file letters
			wantUpper := viewer == rules.White
			if hasUpper := strings.ContainsAny(last, "RNBQKCA"); hasUpper != wantUpper || strings.ContainsAny(last, "rnbqkca") == wantUpper {
				t.Errorf("%s for %v: bottom rank %q", key, viewer, last)
			}
		}
	}
}
