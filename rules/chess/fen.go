package chess

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
)

// badFEN refuses a position text with the sentence fen.<key> of the rules'
// catalogue, args its placeholders; format and a write it in English.
func badFEN(key string, args rules.Args, format string, a ...any) error {
	return rules.RefuseAs(rules.ErrBadPosition, "fen."+key, args, format, a...)
}

// itoa writes n for a refusal's args.
func itoa(n int) string { return strconv.Itoa(n) }

// plural returns one or many as n asks.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// maxFENLength bounds the text ParsePosition reads.
const maxFENLength = 512

// parse reads and validates a FEN: board, side to move, castling rights, en
// passant square, then the optional halfmove clock and move number.
func (v *Variant) parse(text string) (*Position, error) {
	if len(text) > maxFENLength {
		return nil, badFEN("toolong", rules.Args{"Count": itoa(len(text)), "Variant": v.spec.Key}, "That position text is %d characters long, far more than any %s position needs.", len(text), v.spec.Name)
	}
	f := strings.Fields(text)
	if len(f) < 2 || len(f) > 6 {
		return nil, badFEN("fields", rules.Args{"Fields": itoa(len(f))}, "A FEN has six fields separated by spaces: the board, the side to move, castling rights, the en passant square, the halfmove clock and the move number (the last four may be left out); this one has %d.", len(f))
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
			return nil, badFEN("kings", rules.Args{"Kings": itoa(kings[side]), "OfSide": side.String()}, "The FEN has %d %s kings; each side has exactly one.", kings[side], side)
		}
		if bad := s.pieces[side][rules.Pawn].AndNot(t.pawnOK[side]); bad.Any() {
			return nil, badFEN("pawnrank", rules.Args{"OfSide": side.String(), "Square": d.Name(bad.First()), "From": itoa(v.spec.PawnRanks[side][0]), "To": itoa(v.spec.PawnRanks[side][1])},
				"A %s pawn cannot stand on %s: %s pawns stand on ranks %d to %d.", side, d.Name(bad.First()), side,
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
		return nil, badFEN("turn", rules.Args{"Text": rules.Echo(f[1])}, "The side to move is w or b, not %s.", rules.Echo(f[1]))
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
			return nil, badFEN("halfmove", rules.Args{"Text": rules.Echo(f[4])}, "The halfmove clock is a number from 0 to 9999, not %s.", rules.Echo(f[4]))
		}
	}
	if len(f) > 5 {
		if s.fullmove, err = strconv.Atoi(f[5]); err != nil || s.fullmove < 1 || s.fullmove > 99999 {
			return nil, badFEN("fullmove", rules.Args{"Text": rules.Echo(f[5])}, "The move number is a number from 1 to 99999, not %s.", rules.Echo(f[5]))
		}
	}
	them := s.turn.Other()
	if s.attackersTo(s.king[them], s.turn, s.all()).Any() {
		return nil, badFEN("check.waiting", rules.Args{"KingOfSide": them.String(), "TurnSide": s.turn.String()}, "The %s king is in check while it is %s's turn to move, which no game can reach.", them, s.turn)
	}
	if n := s.checkers().Count(); n > 2 {
		return nil, badFEN("check.many", rules.Args{"OfSide": s.turn.String(), "Checkers": itoa(n)}, "The %s king is in check from %d pieces at once, which no move can bring about.", s.turn, n)
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
		return nil, nil, badFEN("ranks", rules.Args{"Count": itoa(len(ranks)), "Variant": v.spec.Key, "Ranks": itoa(d.Ranks)},
			"The board of this FEN has %d %s separated by '/'; a %s board has %d.", len(ranks), plural(len(ranks), "rank", "ranks"), v.spec.Name, d.Ranks)
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
					return nil, nil, badFEN("run", rules.Args{"Rank": itoa(r + 1), "Text": rules.Echo(row[j:k])}, "Rank %d of the FEN has %s, which is not a count of empty cells.", r+1, rules.Echo(row[j:k]))
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
					return nil, nil, badFEN("letter", rules.Args{"Rank": itoa(r + 1), "Letter": strconv.QuoteRune(rune(c)), "Variant": v.spec.Key, "UsedPieces": v.kindArg()},
						"Rank %d of the FEN has the unknown piece letter %q; %s uses %s, upper case for White.", r+1, c, v.spec.Name, v.kindNames())
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
				return nil, nil, badFEN("long", rules.Args{"Rank": itoa(r + 1), "Files": itoa(d.Files)}, "Rank %d of the FEN has more than %d cells.", r+1, d.Files)
			}
		}
		if file != d.Files {
			return nil, nil, badFEN("short", rules.Args{"Rank": itoa(r + 1), "Cells": itoa(file), "Files": itoa(d.Files)}, "Rank %d of the FEN has %d cells; the board has %d files.", r+1, file, d.Files)
		}
	}
	// Holes: Missing cells are fixed by the variant, Blocked cells are per position.
	for sq := rules.Square(0); int(sq) < d.Cells(); sq++ {
		star := states[sq] == rules.Blocked
		switch {
		case v.missing[sq] == rules.Missing && !star:
			if pieces[sq] != 0 {
				return nil, nil, badFEN("missing.piece", rules.Args{"Square": d.Name(sq), "Variant": v.spec.Key}, "The FEN puts a piece on %s, which is not a cell of the %s board; write '*' for it.", d.Name(sq), v.spec.Name)
			}
			return nil, nil, badFEN("missing", rules.Args{"Square": d.Name(sq), "Variant": v.spec.Key}, "The FEN has %s, which is not a cell of the %s board; write '*' for it.", d.Name(sq), v.spec.Name)
		case v.missing[sq] == rules.Missing:
			states[sq] = rules.Missing
		case star && v.spec.Blocked == 0:
			return nil, nil, badFEN("star", rules.Args{"Square": d.Name(sq), "Variant": v.spec.Key}, "The FEN writes '*' for %s, a cell of the %s board; only cells that do not exist are written '*'.", d.Name(sq), v.spec.Name)
		}
	}
	if v.spec.Blocked > 0 && holes != v.spec.Blocked {
		return nil, nil, badFEN("blocked", rules.Args{"Holes": itoa(holes), "Variant": v.spec.Key, "Blocked": itoa(v.spec.Blocked)}, "The FEN has %d blocked cells ('*'); a %s board has exactly %d.", holes, v.spec.Name, v.spec.Blocked)
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
		return badFEN("pawns", rules.Args{"OfSide": side.String(), "Pawns": itoa(s.pieces[side][rules.Pawn].Count()), "Start": itoa(sc[rules.Pawn])},
			"The FEN gives %s %d pawns; a side starts with %d.", side, s.pieces[side][rules.Pawn].Count(), sc[rules.Pawn])
	}
	extra := 0
	for _, pd := range v.spec.Pieces {
		if pd.Kind == rules.King {
			continue
		}
		if n := s.pieces[side][pd.Kind].Count() - sc[pd.Kind]; n > 0 {
			if len(v.spec.Pawn.Promotions) == 0 {
				return badFEN("toomany", rules.Args{"OfSide": side.String(), "Have": itoa(s.pieces[side][pd.Kind].Count()), "Piece": pd.Kind.String(), "Start": itoa(sc[pd.Kind])},
					"The FEN gives %s %d %ss; a side has at most %d and pawns never promote.", side, s.pieces[side][pd.Kind].Count(), pd.Kind, sc[pd.Kind])
			}
			extra += n
		}
	}
	if extra > pawnsGone {
		return badFEN("promoted", rules.Args{"OfSide": side.String(), "Extra": itoa(extra), "Missing": itoa(pawnsGone)}, "The FEN gives %s %d promoted pieces but only %d pawns are missing.", side, extra, pawnsGone)
	}
	if v.spec.OppositeBishops {
		b := s.pieces[side][rules.Bishop]
		if b.Count() == 2 && b.And(s.t.geo.Light()).Count() != 1 {
			return badFEN("bishops", rules.Args{"OfSide": side.String()}, "The %s bishops stand on cells of one colour; a side's two bishops are placed on different colours.", side)
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
				return 0, badFEN("castling.none", rules.Args{"Variant": v.spec.Key, "Text": rules.Echo(field)}, "There is no castling in %s; write '-' for the castling field, not %s.", v.spec.Name, rules.Echo(field))
			}
			return 0, badFEN("castling.letter", rules.Args{"Text": rules.Echo(field), "Letter": strconv.QuoteRune(rune(field[i]))}, "The castling field %s has %q, which is not a castling right; use K, Q, k, q or '-'.", rules.Echo(field), field[i])
		}
		if rights&rule.right != 0 {
			return 0, badFEN("castling.twice", rules.Args{"Text": rules.Echo(field)}, "The castling field %s names a right twice.", rules.Echo(field))
		}
		d := v.spec.Dims
		if s.sq[rule.kingFrom] != mkPiece(side, rules.King) {
			return 0, badFEN("castling.king", rules.Args{"Right": string(field[i]), "OfSide": side.String(), "Square": d.Name(rule.kingFrom)}, "The castling right %c needs the %s king on %s.", field[i], side, d.Name(rule.kingFrom))
		}
		if s.sq[rule.rookFrom] != mkPiece(side, rules.Rook) {
			return 0, badFEN("castling.rook", rules.Args{"Right": string(field[i]), "OfSide": side.String(), "Square": d.Name(rule.rookFrom)}, "The castling right %c needs a %s rook on %s.", field[i], side, d.Name(rule.rookFrom))
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
		return badFEN("ep.none", rules.Args{"Variant": v.spec.Key, "Text": rules.Echo(field)}, "There is no en passant in %s; write '-' for the en passant field, not %s.", v.spec.Name, rules.Echo(field))
	}
	ep, err := d.ParseSquare(field)
	if err != nil {
		return badFEN("ep.square", rules.Args{"Text": rules.Echo(field)}, "The en passant field is a square or '-', not %s.", rules.Echo(field))
	}
	// The side that just moved double-stepped from its pawns' start rank over ep.
	mover := s.turn.Other()
	start := v.spec.PawnRanks[mover][0] // 1-based
	if mover == rules.Black {
		start = v.spec.PawnRanks[mover][1]
	}
	from := t.geo.Step(ep, board.South.ForSide(mover))
	if from == rules.NoSquare || !t.pawnDouble[mover][from].Any() {
		epRank := start + 1
		if mover == rules.Black {
			epRank = start - 1
		}
		return badFEN("ep.rank", rules.Args{"TurnSide": s.turn.String(), "Rank": itoa(epRank), "PawnOfSide": mover.String(), "Square": d.Name(ep)},
			"With %s to move, an en passant square is on rank %d, just behind a %s pawn that has stepped two squares; %s is not.",
			s.turn, epRank, mover, d.Name(ep))
	}
	to := t.geo.Step(ep, t.fwd[mover])
	if s.sq[from] != 0 || s.sq[ep] != 0 || s.sq[to] != mkPiece(mover, rules.Pawn) {
		return badFEN("ep.pawn", rules.Args{"Square": d.Name(ep), "OfSide": mover.String(), "To": d.Name(to), "From": d.Name(from)},
			"The en passant square %s needs a %s pawn on %s that has just stepped there from %s, with %s and %s empty.",
			d.Name(ep), mover, d.Name(to), d.Name(from), d.Name(from), d.Name(ep))
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
