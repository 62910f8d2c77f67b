package gess

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
)

// maxStones is the number of stones each side starts with; no move adds any.
const maxStones = 43

// String returns the position text: the 20 ranks from rank 20 down to rank 1, each
// as 20 characters from file a to file t ('x' a black stone, 'o' a white stone, '.'
// an empty square), separated by '/', then a space and the side to move, 'b' or 'w'.
func (p *Position) String() string { return p.board.String() }

// String returns the position text of b, as Position.String writes it.
func (b *Board) String() string {
	var sb strings.Builder
	sb.Grow(Size*(Size+1) + 2)
	for r := Size - 1; r >= 0; r-- {
		for f := 0; f < Size; f++ {
			switch p := b.At(square(f, r)); {
			case p.IsNone():
				sb.WriteByte('.')
			case p.Side == rules.Black:
				sb.WriteByte('x')
			default:
				sb.WriteByte('o')
			}
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteByte(' ')
	if b.turn == rules.Black {
		sb.WriteByte('b')
	} else {
		sb.WriteByte('w')
	}
	return sb.String()
}

// ParsePosition reads a position text as String or CompactString writes it (a
// run of empty squares may be given as its number, as in FEN). The rows may also be
// separated by new lines (a pasted grid), the letters may be upper case, and the side
// may be spelt out ("black", "white"). Anything else, and any impossible position (a
// stone on the outer ring, more than 43 stones of a side), is refused with an error
// wrapping rules.ErrBadPosition that says what is wrong. The position has no history.
func ParsePosition(text string) (*Position, error) {
	fields := strings.Fields(text)
	if len(fields) < 2 {
		return nil, badPosition("fields."+fieldKey(len(fields)), rules.Args{}, "A Gess position is 20 rows of x (black), o (white) and . (empty), rank 20 first, separated by '/', then a space and the side to move (b or w); this text has %s.", fieldCount(len(fields)))
	}
	var b Board
	switch strings.ToLower(fields[len(fields)-1]) {
	case "b", "black":
		b.turn = rules.Black
	case "w", "white":
		b.turn = rules.White
	default:
		return nil, badPosition("turn", rules.Args{"Text": rules.Echo(fields[len(fields)-1])}, "The position text ends with the side to move, b or w, not %s.", rules.Echo(fields[len(fields)-1]))
	}
	rows := strings.Split(strings.Join(fields[:len(fields)-1], "/"), "/")
	if len(rows) != Size {
		return nil, badPosition("rows", rules.Args{"Count": strconv.Itoa(len(rows))}, "The position has %d rows; a Gess position has %d (rank 20 first, separated by '/' or new lines).", len(rows), Size)
	}
	for i, row := range rows {
		r := Size - 1 - i
		row, err := expandRuns(row, r)
		if err != nil {
			return nil, err
		}
		if len(row) != Size {
			return nil, badPosition("row", rules.Args{"Rank": strconv.Itoa(r + 1), "Count": strconv.Itoa(len(row))}, "The row of rank %d has %d squares; a row has %d (files a-t).", r+1, len(row), Size)
		}
		for f := 0; f < Size; f++ {
			var side rules.Side
			switch row[f] {
			case '.':
				continue
			case 'x', 'X':
				side = rules.Black
			case 'o', 'O':
				side = rules.White
			default:
				return nil, badPosition("char", rules.Args{"Char": strconv.QuoteRune(rune(row[f])), "Square": squareName(square(f, r))},
					"The character %q on %s means nothing here: write x for black, o for white and . for an empty square.", row[f], squareName(square(f, r)))
			}
			if !inPlay(f, r) {
				return nil, badPosition("ring", rules.Args{"OfSide": side.String(), "Square": squareName(square(f, r))},
					"The position has a %s stone on %s, on the outer ring; stones stand only on the playing area b2-s19.", side, squareName(square(f, r)))
			}
			b.put(side, f, r)
		}
	}
	for _, s := range rules.Sides {
		if n := b.Count(s); n > maxStones {
			return nil, badPosition("stones", rules.Args{"OfSide": s.String(), "Count": strconv.Itoa(n)}, "The position gives %s %d stones; each side starts with %d and no move adds any.", s, n, maxStones)
		}
	}
	b.rehash()
	return newPosition(b, nil), nil
}

// CompactString returns the position text with each run of empty squares written
// as its length, as FEN does ("20" for an empty rank, "2xxx15"), which ParsePosition
// reads too. It is at most 233 characters long (a rank of k stones takes at most
// 2k+2, and there are 86 stones at most), where String's text is 421, so that a PGN
// tag holding it keeps within the standard's 255 characters a line; it implements
// rules.Compacter.
func (p *Position) CompactString() string {
	var sb strings.Builder
	text := p.board.String()
	rows, turn, _ := strings.Cut(text, " ")
	for i, row := range strings.Split(rows, "/") {
		if i > 0 {
			sb.WriteByte('/')
		}
		empty := 0
		for j := 0; j <= len(row); j++ {
			if j < len(row) && row[j] == '.' {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			if j < len(row) {
				sb.WriteByte(row[j])
			}
		}
	}
	return sb.String() + " " + turn
}

// expandRuns writes the runs of empty squares of a rank's text given as numbers
// (CompactString) as dots; rank r is named in a refusal.
func expandRuns(row string, r int) (string, error) {
	if strings.IndexFunc(row, func(c rune) bool { return c >= '0' && c <= '9' }) < 0 {
		return row, nil
	}
	var b strings.Builder
	for i := 0; i < len(row); {
		j := i
		for j < len(row) && row[j] >= '0' && row[j] <= '9' {
			j++
		}
		if j == i {
			b.WriteByte(row[i])
			i++
			continue
		}
		n, err := strconv.Atoi(row[i:j])
		if err != nil || n < 1 || n > Size || row[i] == '0' {
			return "", badPosition("run", rules.Args{"Rank": strconv.Itoa(r + 1), "Text": rules.Echo(row[i:j])}, "The row of rank %d counts %s empty squares; a run of empty squares is a number from 1 to %d.", r+1, rules.Echo(row[i:j]), Size)
		}
		b.WriteString(strings.Repeat(".", n))
		i = j
	}
	return b.String(), nil
}

// badPosition refuses a position text with the sentence gess.position.<key> of
// the rules' catalogue, args its placeholders; format and a write it in English.
func badPosition(key string, args rules.Args, format string, a ...any) error {
	return rules.RefuseAs(rules.ErrBadPosition, "gess.position."+key, args, format, a...)
}

// UCI returns the canonical stored form of m, the two centres such as "m3m6".
func (p *Position) UCI(m rules.Move) string {
	if !dims.Contains(m.From) || !dims.Contains(m.To) {
		return "0000"
	}
	return squareName(m.From) + squareName(m.To)
}

// SAN returns the display form of m: "m3-m6", or "m3xm6" when the move removes
// stones (captured under the destination footprint, or pushed onto the outer ring).
func (p *Position) SAN(m rules.Move) string {
	if !dims.Contains(m.From) || !dims.Contains(m.To) {
		return "--"
	}
	sep := "-"
	if p.board.IsLegal(m) {
		b := p.board
		if b.Make(m).Removed() > 0 {
			sep = "x"
		}
	}
	return squareName(m.From) + sep + squareName(m.To)
}

// ParseMove reads a move as two centres, "m3-m6", "m3m6" or "m3xm6", in either letter
// case (spaces and typographic dashes allowed), and returns it when it is legal. The error wraps rules.ErrBadNotation when the
// text is not of that form, rules.ErrGameOver once the game is decided, and
// rules.ErrIllegalMove otherwise, saying which rule the move breaks.
func (p *Position) ParseMove(text string) (rules.Move, error) {
	s := strings.ToLower(strings.Join(strings.Fields(text), ""))
	s = strings.NewReplacer("–", "-", "—", "-").Replace(s) // dashes a phone may type
	f0, r0, n0 := scanCentre(s)
	if n0 == 0 {
		return rules.NullMove, badMove(text)
	}
	rest := s[n0:]
	if strings.HasPrefix(rest, "-") || strings.HasPrefix(rest, "x") {
		rest = rest[1:]
	}
	f1, r1, n1 := scanCentre(rest)
	if n1 == 0 || n1 != len(rest) {
		return rules.NullMove, badMove(text)
	}
	if !inFrame(f0, r0) {
		return rules.NullMove, rules.RefuseAs(rules.ErrIllegalMove, "gess.illegal.outside", rules.Args{"Move": rules.Echo(text), "From": coordName(f0, r0)},
			"You cannot play %s: %s is outside the frame (files a-t, ranks 1-20), so no piece is centred there.", rules.Echo(text), coordName(f0, r0))
	}
	if !inFrame(f1, r1) {
		return rules.NullMove, rules.RefuseAs(rules.ErrIllegalMove, "gess.illegal.leaves", rules.Args{"Move": rules.Echo(text), "To": coordName(f1, r1)},
			"You cannot play %s: the centre would leave the frame at %s; a piece's centre stays on a1-t20.", rules.Echo(text), coordName(f1, r1))
	}
	if p.outcome.IsOver() {
		return rules.NullMove, rules.GameOver(p.outcome)
	}
	m := rules.Move{From: square(f0, r0), To: square(f1, r1)}
	if err := p.board.explain(m); err != nil {
		return rules.NullMove, err
	}
	return m, nil
}

func badMove(text string) error {
	const how = "name the centre of the piece and where it goes, like m3-m6 or m3m6"
	if strings.TrimSpace(text) == "" {
		return rules.RefuseAs(rules.ErrBadNotation, "gess.notation.empty", nil, "Write a move: %s.", how)
	}
	return rules.RefuseAs(rules.ErrBadNotation, "gess.notation.unreadable", rules.Args{"Text": rules.Echo(text)}, "I cannot read %s as a move; %s.", rules.Echo(text), how)
}

// fieldCount says how many fields a text has, in words for a sentence.
func fieldCount(n int) string {
	switch n {
	case 0:
		return "nothing in it"
	case 1:
		return "one field"
	}
	return fmt.Sprintf("%d fields", n)
}

// fieldKey names fieldCount's sentence for a text of fewer than two fields:
// "none" or "one".
func fieldKey(n int) string {
	if n == 0 {
		return "none"
	}
	return "one"
}

// scanCentre reads a letter and a rank number of up to three digits at the start of
// s (lower case), even outside the frame, and returns the zero-based file and rank
// with the bytes used, or n == 0 when s does not start that way.
func scanCentre(s string) (f, r, n int) {
	if len(s) < 2 || s[0] < 'a' || s[0] > 'z' {
		return 0, 0, 0
	}
	i := 1
	for i < len(s) && i <= 3 && s[i] >= '0' && s[i] <= '9' {
		r = r*10 + int(s[i]-'0')
		i++
	}
	if i == 1 || s[1] == '0' && i > 2 {
		return 0, 0, 0
	}
	return int(s[0] - 'a'), r - 1, i
}

// coordName names zero-based file and rank even outside the frame.
func coordName(f, r int) string { return fmt.Sprintf("%c%d", 'a'+f, r+1) }
