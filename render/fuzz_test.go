package render

import (
	"bytes"
	"errors"
	"image/png"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
)

// FuzzDrawBoard feeds arbitrary boards and marks to the renderer: it must either
// draw a picture of the promised size or refuse with ErrBadOptions, never panic.
func FuzzDrawBoard(f *testing.F) {
	f.Add(uint8(10), uint8(8), []byte("rnbqckabnr"), false, uint8(0), int16(0), int16(11))
	f.Add(uint8(9), uint8(7), []byte("***bkb***"), false, uint8(1), int16(-1), int16(40))
	f.Add(uint8(20), uint8(20), []byte("  S s S s"), true, uint8(0), int16(44), int16(104))
	f.Add(uint8(1), uint8(1), []byte("#"), true, uint8(1), int16(0), int16(0))
	f.Add(uint8(21), uint8(3), []byte{}, false, uint8(0), int16(3), int16(500))
	r := New()
	f.Fuzz(func(t *testing.T, files, ranks uint8, cells []byte, gess bool, viewer uint8, from, to int16) {
		d := rules.Dims{Files: int(files), Ranks: int(ranks)}
		if d.Cells() > 400 {
			d.Ranks = 400 / max(1, d.Files)
		}
		b := rules.Board{Dims: d, Cells: make([]rules.Cell, max(0, d.Cells()))}
		for i := range b.Cells {
			if i >= len(cells) {
				break
			}
			switch c := cells[i]; c {
			case '*':
				b.Cells[i].State = rules.Missing
			case '#':
				b.Cells[i].State = rules.Blocked
			case ' ':
			default:
				if k, ok := rules.PieceKindFromLetter(c); ok {
					b.Cells[i].Piece = rules.Piece{Kind: k, Side: rules.Side(c>>5) & 1}
				} else {
					b.Cells[i].Piece = rules.Piece{Kind: rules.PieceKind(c % 12), Side: rules.Side(c % 3)}
				}
			}
		}
		variant := "gothic"
		if gess {
			variant = "gess"
		}
		m := rules.Move{From: rules.Square(from), To: rules.Square(to)}
		opts := Options{Viewer: rules.Side(viewer % 3), Width: MinWidth, LastMove: &m,
			Check: []rules.Square{rules.Square(to)}, Arrows: []Arrow{{rules.Square(from), rules.Square(to)}},
			Rings: [2][]rules.Square{{rules.Square(to)}, {rules.Square(from)}}}
		var buf bytes.Buffer
		err := r.DrawPNG(&buf, lookOf(variant), b, opts)
		if err != nil {
			if !errors.Is(err, ErrBadOptions) {
				t.Fatalf("error %v does not wrap ErrBadOptions", err)
			}
			return
		}
		img, err := png.Decode(&buf)
		if err != nil || img.Bounds().Dx() != MinWidth {
			t.Fatalf("picture: %v, %v", img.Bounds(), err)
		}
		s, err := TextBoard(lookOf(variant), b, opts.Viewer%2)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(s, "\n"); got != d.Ranks+2 {
			t.Fatalf("text board has %d lines, want %d", got, d.Ranks+2)
		}
	})
}
