package render_test

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/missivechess/missive/render"
	"github.com/missivechess/missive/rules"
)

// Every piece of the set is a well-formed SVG document in its side's ink, and a
// kind the set lacks is refused.
func TestPieceSVG(t *testing.T) {
	for _, side := range rules.Sides {
		for _, k := range rules.PieceKinds {
			b, err := render.PieceSVG(rules.Piece{Side: side, Kind: k})
			if err != nil {
				t.Fatalf("PieceSVG(%s %s): %v", side, k, err)
			}
			d := xml.NewDecoder(strings.NewReader(string(b)))
			for {
				if _, err := d.Token(); err != nil {
					if err.Error() != "EOF" {
						t.Errorf("%s %s: not well-formed: %v", side, k, err)
					}
					break
				}
			}
			fill := map[rules.Side]string{rules.White: "#fcf9f0", rules.Black: "#2c2c2e"}[side]
			if k != rules.Stone && !strings.Contains(string(b), `fill="`+fill+`"`) {
				t.Errorf("%s %s has no body in %s: %s", side, k, fill, b)
			}
		}
	}
	if _, err := render.PieceSVG(rules.Piece{Kind: rules.PieceKind(42)}); err == nil {
		t.Error("PieceSVG of an unknown kind succeeded")
	}
	if p, err := render.PaletteOf("ocean"); err != nil || p.Light != "#dee3e6" {
		t.Errorf("PaletteOf(ocean) = %+v, %v", p, err)
	}
	if _, err := render.PaletteOf("nope"); err == nil {
		t.Error("PaletteOf(nope) succeeded")
	}
}
