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

// Text returns pos as monospace text seen from viewer's side (see TextBoard),
// followed for Gess by a line naming the centres of each side's rings.
func Text(pos rules.Position, viewer rules.Side) (string, error) {
	b := pos.Board()
	s, err := TextBoard(rules.LookOf(pos.Variant()), b, viewer)
	if err != nil {
		return "", err
	}
	if rp, ok := pos.(Ringer); ok {
		var parts []string
		for _, side := range rules.Sides {
			names := []string{}
			for _, c := range rp.Rings(side) {
				names = append(names, b.Name(c))
			}
			if len(names) == 0 {
				names = append(names, "none")
			}
			parts = append(parts, side.String()+" "+strings.Join(names, " "))
		}
		s += "rings: " + strings.Join(parts, "; ") + "\n"
	}
	return s, nil
}
