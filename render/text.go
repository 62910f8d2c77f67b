package render

import (
	"fmt"
	"strings"

	"github.com/missivechess/missive/rules"
)

// TextBoard returns board b as monospace text seen from viewer's side as look says
// (viewer's home at the bottom), with file letters above and below and rank
// numbers on both sides. Pieces are letters, upper case for White and lower case
// for Black; an empty cell is '.', a blocked cell '#' and a missing cell a blank.
// Stones are 'x' (Black) and 'o' (White), and the look's frame, where no stone
// rests, is blank.
func TextBoard(look rules.Look, b rules.Board, viewer rules.Side) (string, error) {
	if err := checkBoard(b, look.Stones); err != nil {
		return "", err
	}
	flip := look.Flipped(viewer)
	d := b.Dims
	files := make([]int, d.Files)
	for i := range files {
		files[i] = i
		if flip {
			files[i] = d.Files - 1 - i
		}
	}
	var sb strings.Builder
	edge := func() {
		sb.WriteString("   ")
		for _, f := range files {
			sb.WriteByte(' ')
			sb.WriteByte(byte('a' + f))
		}
		sb.WriteByte('\n')
	}
	edge()
	for i := 0; i < d.Ranks; i++ {
		r := d.Ranks - 1 - i
		if flip {
			r = i
		}
		fmt.Fprintf(&sb, "%2d ", r+1)
		for _, f := range files {
			sb.WriteByte(' ')
			sb.WriteByte(cellChar(b.Cells[d.Square(f, r)], inFrame(d, look.Frame, f, r)))
		}
		fmt.Fprintf(&sb, "  %d\n", r+1)
	}
	edge()
	return sb.String(), nil
}

func cellChar(c rules.Cell, margin bool) byte {
	switch {
	case c.State == rules.Missing:
		return ' '
	case c.State == rules.Blocked:
		return '#'
	case c.Piece.Kind == rules.Stone && c.Piece.Side == rules.Black:
		return 'x'
	case c.Piece.Kind == rules.Stone:
		return 'o'
	case !c.Piece.IsNone():
		return c.Piece.FENLetter()
	case margin:
		return ' '
	}
	return '.'
}

// TextWords are the words of a text board (TextIn) in its reader's language; a
// field left empty is English.
type TextWords struct {
	// Rings is the line under a Gess board naming the centres of each side's
	// rings, where "{white}" stands for White's list of cells and "{black}" for
	// Black's: "rings: white {white}; black {black}".
	Rings string
	// NoRings is the list of a side without rings: "none".
	NoRings string
}

// The English words of a text board.
const (
	englishRings   = "rings: white {white}; black {black}"
	englishNoRings = "none"
)

// Text returns pos as monospace text seen from viewer's side (see TextBoard),
// followed for Gess by a line naming the centres of each side's rings, in English.
func Text(pos rules.Position, viewer rules.Side) (string, error) {
	return TextIn(pos, viewer, TextWords{})
}

// TextIn is Text with the words of w: "rings: white l3; black l3" in English,
// "Ringe: Weiß l3; Schwarz l3" with German words. The board itself has none
// (cells are named as in notation).
func TextIn(pos rules.Position, viewer rules.Side, w TextWords) (string, error) {
	b := pos.Board()
	s, err := TextBoard(rules.LookOf(pos.Variant()), b, viewer)
	if err != nil {
		return "", err
	}
	if rp, ok := pos.(Ringer); ok {
		line, none := w.Rings, w.NoRings
		if line == "" {
			line = englishRings
		}
		if none == "" {
			none = englishNoRings
		}
		var lists [2]string
		for i, side := range rules.Sides {
			var names []string
			for _, c := range rp.Rings(side) {
				names = append(names, b.Name(c))
			}
			lists[i] = none
			if len(names) > 0 {
				lists[i] = strings.Join(names, " ")
			}
		}
		s += strings.NewReplacer("{white}", lists[0], "{black}", lists[1]).Replace(line) + "\n"
	}
	return s, nil
}
