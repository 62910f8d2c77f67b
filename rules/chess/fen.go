package chess

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
)

func badFEN(v *Variant, format string, args ...any) error {
	return fmt.Errorf("chess: bad %s FEN: %s: %w", v.spec.Name, fmt.Sprintf(format, args...), rules.ErrBadPosition)
}

// maxFENLength bounds the text ParsePosition reads.
const maxFENLength = 512

// parse reads and validates a FEN: board, side to move, castling rights, en
// passant square, then the optional halfmove clock and move number.
func (v *Variant) parse(text string) (*Position, error) {
	if len(text) > maxFENLength {
		return nil, badFEN(v, "the text is %d bytes long, far more than any position needs", len(text))
	}
	f := strings.Fields(text)
	if len(f) < 2 || len(f) > 6 {
		return nil, badFEN(v, "expected the board and the side to move, then optionally castling rights, en passant square, halfmove clock and move number (2 to 6 fields), got %d fields", len(f))
	}
	for len(f) < 4 {
		f = append(f, "-")
	}
	states, pieces, err := v.parseBoardField(f[0])
	if err != nil {
		return nil, err
	}
	d := v.spec.Dims
	t, err := v.tablesFor(states)
	if err != nil {
		return nil, err
	}
	s := state{t: t, ep: rules.NoSquare, king: [2]rules.Square{rules.NoSquare, rules.NoSquare}}
	var kings [2]int
	for sq, p := range pieces {
		if p == 0 {
			continue
		}
		if p.kind() == rules.King {
			kings[p.side()]++
		}
		s.put(rules.Square(sq), p)
	}
	for _, side := range rules.Sides {
		if kings[side] != 1 {
			return nil, badFEN(v, "%s has %d kings; each side has exactly one", side, kings[side])
		}
		if bad := s.pieces[side][rules.Pawn].AndNot(t.pawnOK[side]); bad.Any() {
			return nil, badFEN(v, "a %s pawn cannot stand on %s: %s pawns stand on ranks %d to %d", side, d.Name(bad.First()), side,
				v.spec.PawnRanks[side][0], v.spec.PawnRanks[side][1])
		}
		if err := v.checkMaterial(&s, side); err != nil {
			return nil, err
		}
	}
	switch f[1] {
	case "w":
		s.turn = rules.White
	case "b":
		s.turn = rules.Black
	default:
		return nil, badFEN(v, "side to move %q must be w or b", f[1])
	}
	if s.castling, err = v.parseCastling(&s, f[2]); err != nil {
		return nil, err
	}
	if err := v.parseEP(&s, f[3]); err != nil {
		return nil, err
	}
	s.halfmove, s.fullmove = 0, 1
	if len(f) > 4 {
		if s.halfmove, err = strconv.Atoi(f[4]); err != nil || s.halfmove < 0 || s.halfmove > 9999 {
			return nil, badFEN(v, "halfmove clock %q must be a number from 0 to 9999", f[4])
		}
	}
	if len(f) > 5 {
		if s.fullmove, err = strconv.Atoi(f[5]); err != nil || s.fullmove < 1 || s.fullmove > 99999 {
			return nil, badFEN(v, "move number %q must be a number from 1 to 99999", f[5])
		}
	}
	them := s.turn.Other()
	if s.attackersTo(s.king[them], s.turn, s.all()).Any() {
		return nil, badFEN(v, "%s is in check but it is %s's turn", them, s.turn)
	}
	if n := s.checkers().Count(); n > 2 {
		return nil, badFEN(v, "%s is in check from %d pieces at once, which no move can bring about", s.turn, n)
	}
	if s.ep != rules.NoSquare && !s.epCapturable(s.ep) {
		s.ep = rules.NoSquare // no legal capture: the square does not count
	}
	s.hash = s.computeHash()
	return newPosition(s, nil), nil
}

// parseBoardField reads the board part of a FEN into cell states and pieces,
// checking the rank and file counts and the variant's holes.
func (v *Variant) parseBoardField(field string) ([]rules.CellState, []piece, error) {
	d := v.spec.Dims
	ranks := strings.Split(field, "/")
	if len(ranks) != d.Ranks {
		return nil, nil, badFEN(v, "the board has %d ranks separated by '/'; a %s board has %d", len(ranks), v.spec.Name, d.Ranks)
	}
	states := make([]rules.CellState, d.Cells())
	pieces := make([]piece, d.Cells())
	holes := 0
	for i, row := range ranks {
		r := d.Ranks - 1 - i
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c >= '0' && c <= '9':
				k := j
				for k < len(row) && row[k] >= '0' && row[k] <= '9' {
					k++
				}
				n, _ := strconv.Atoi(row[j:k])
				if n == 0 || k-j > 2 {
					return nil, nil, badFEN(v, "rank %d: %q is not a count of empty cells", r+1, row[j:k])
				}
				file += n
				j = k - 1
			case c == '*':
				if file < d.Files {
					states[d.Square(file, r)] = rules.Blocked
				}
				file++
				holes++
			default:
				k, ok := rules.PieceKindFromLetter(c)
				if !ok || !v.hasKind(k) {
					return nil, nil, badFEN(v, "rank %d: unknown piece letter %q; %s uses %s, upper case for White", r+1, c, v.spec.Name, v.kindNames())
				}
				side := rules.White
				if c >= 'a' && c <= 'z' {
					side = rules.Black
				}
				if file < d.Files {
					pieces[d.Square(file, r)] = mkPiece(side, k)
				}
				file++
			}
			if file > d.Files {
				return nil, nil, badFEN(v, "rank %d has more than %d cells", r+1, d.Files)
			}
		}
		if file != d.Files {
			return nil, nil, badFEN(v, "rank %d has %d cells; the board has %d files", r+1, file, d.Files)
		}
	}
	// Holes: Missing cells are fixed by the variant, Blocked cells are per position.
	for sq := rules.Square(0); int(sq) < d.Cells(); sq++ {
		star := states[sq] == rules.Blocked
		switch {
		case v.missing[sq] == rules.Missing && !star:
			if pieces[sq] != 0 {
				return nil, nil, badFEN(v, "%s is not a cell of the %s board, so no piece can stand there (write '*')", d.Name(sq), v.spec.Name)
			}
			return nil, nil, badFEN(v, "%s is not a cell of the %s board; write '*' for it", d.Name(sq), v.spec.Name)
		case v.missing[sq] == rules.Missing:
			states[sq] = rules.Missing
		case star && v.spec.Blocked == 0:
			return nil, nil, badFEN(v, "%s is a cell of the board; only cells that do not exist are written '*'", d.Name(sq))
		}
	}
	if v.spec.Blocked > 0 && holes != v.spec.Blocked {
		return nil, nil, badFEN(v, "the board has %d blocked cells ('*'); a %s board has exactly %d", holes, v.spec.Name, v.spec.Blocked)
	}
	return states, pieces, nil
}

// ParseBoard reads the board part of a FEN (pieces, '*' holes) without the rules
// of play (kings, check), for a phase before play such as Go-Chess's placement.
func (v *Variant) ParseBoard(field string) (rules.Board, error) {
	states, pieces, err := v.parseBoardField(field)
	if err != nil {
		return rules.Board{}, err
	}
	b := rules.Board{Dims: v.spec.Dims, Cells: make([]rules.Cell, len(states))}
	for i := range states {
		b.Cells[i] = rules.Cell{State: states[i], Piece: pieces[i].rules()}
	}
	return b, nil
}

func (v *Variant) checkMaterial(s *state, side rules.Side) error {
	sc := v.spec.StartCounts
	if sc == nil {
		return nil
	}
	pawnsGone := sc[rules.Pawn] - s.pieces[side][rules.Pawn].Count()
	if pawnsGone < 0 {
		return badFEN(v, "%s has %d pawns; a side starts with %d", side, s.pieces[side][rules.Pawn].Count(), sc[rules.Pawn])
	}
	extra := 0
	for _, pd := range v.spec.Pieces {
		if pd.Kind == rules.King {
			continue
		}
		if n := s.pieces[side][pd.Kind].Count() - sc[pd.Kind]; n > 0 {
			if len(v.spec.Pawn.Promotions) == 0 {
				return badFEN(v, "%s has %d %ss; a side has at most %d and pawns never promote", side, s.pieces[side][pd.Kind].Count(), pd.Kind, sc[pd.Kind])
			}
			extra += n
		}
	}
	if extra > pawnsGone {
		return badFEN(v, "%s has %d promoted pieces but only %d pawns missing", side, extra, pawnsGone)
	}
	if v.spec.OppositeBishops {
		b := s.pieces[side][rules.Bishop]
		if b.Count() == 2 && b.And(s.t.geo.Light()).Count() != 1 {
			return badFEN(v, "%s's two bishops stand on cells of one colour; they are placed on different colours", side)
		}
	}
	return nil
}

func (v *Variant) parseCastling(s *state, field string) (uint8, error) {
	if field == "-" {
		return 0, nil
	}
	t := s.t
	var rights uint8
	for i := 0; i < len(field); i++ {
		c := field[i]
		side := rules.White
		if c >= 'a' && c <= 'z' {
			side, c = rules.Black, c-('a'-'A')
		}
		var rule *castleRule
		for j := range t.castles[side] {
			if r := &t.castles[side][j]; (c == 'K') == r.kingside && (c == 'K' || c == 'Q') {
				rule = r
			}
		}
		if rule == nil {
			if len(t.castles[side]) == 0 {
				return 0, badFEN(v, "castling field %q: there is no castling in %s; write '-'", field, v.spec.Name)
			}
			return 0, badFEN(v, "castling field %q: %q is not a castling right (use K, Q, k, q or '-')", field, field[i])
		}
		if rights&rule.right != 0 {
			return 0, badFEN(v, "castling field %q names a right twice", field)
		}
		d := v.spec.Dims
		if s.sq[rule.kingFrom] != mkPiece(side, rules.King) {
			return 0, badFEN(v, "castling right %q needs the %s king on %s", field[i], side, d.Name(rule.kingFrom))
		}
		if s.sq[rule.rookFrom] != mkPiece(side, rules.Rook) {
			return 0, badFEN(v, "castling right %q needs a %s rook on %s", field[i], side, d.Name(rule.rookFrom))
		}
		rights |= rule.right
	}
	return rights, nil
}

func (v *Variant) parseEP(s *state, field string) error {
	if field == "-" {
		return nil
	}
	t, d := s.t, v.spec.Dims
	if !v.spec.Pawn.EnPassant {
		return badFEN(v, "en passant field %q: %s has no en passant; write '-'", field, v.spec.Name)
	}
	ep, err := d.ParseSquare(field)
	if err != nil {
		return badFEN(v, "en passant field %q is not a square", field)
	}
	mover := s.turn.Other() // the side that just double-stepped
	from := t.geo.Step(ep, mirror(board.South, mover))
	to := t.geo.Step(ep, t.fwd[mover])
	if from == rules.NoSquare || to == rules.NoSquare || s.sq[from] != 0 || s.sq[ep] != 0 ||
		s.sq[to] != mkPiece(mover, rules.Pawn) || !t.pawnDouble[mover][from].Has(to) {
		return badFEN(v, "en passant square %s is impossible: a %s pawn must just have stepped from %s to %s over it",
			field, mover, d.Name(from), d.Name(to))
	}
	s.ep = ep
	return nil
}

// fen formats s as a FEN.
func (s *state) fen() string {
	t := s.t
	d := t.spec.Dims
	var b strings.Builder
	for r := d.Ranks - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < d.Files; f++ {
			sq := d.Square(f, r)
			p := s.sq[sq]
			if p == 0 && t.geo.IsOpen(sq) {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			if p == 0 {
				b.WriteByte('*')
			} else {
				b.WriteByte(p.rules().FENLetter())
			}
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteByte("wb"[s.turn])
	b.WriteByte(' ')
	b.WriteString(s.castlingField())
	b.WriteByte(' ')
	b.WriteString(d.Name(s.ep))
	fmt.Fprintf(&b, " %d %d", s.halfmove, s.fullmove)
	return b.String()
}

func (s *state) castlingField() string {
	var c []byte
	for _, x := range []struct {
		bit    uint8
		letter byte
	}{{1, 'K'}, {2, 'Q'}, {4, 'k'}, {8, 'q'}} {
		if s.castling&x.bit != 0 {
			c = append(c, x.letter)
		}
	}
	if len(c) == 0 {
		return "-"
	}
	return string(c)
}
