package chess

import (
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
)

// enemy holds one side's attackers grouped by how they attack.
type enemy struct {
	side  rules.Side
	leap  [maxLeapClasses]bb
	orth  bb
	diag  bb
	pawns bb
}

// enemyOf returns the pieces of side grouped by how they attack.
func (s *state) enemyOf(side rules.Side) (e enemy) {
	r := &s.reach[side]
	e.side = side
	copy(e.leap[:], r[:maxLeapClasses])
	e.orth, e.diag = r[reachOrth], r[reachDiag]
	e.pawns = s.pieces[side][rules.Pawn]
	return e
}

// attackers returns the pieces of e attacking sq when occ is occupied.
func (s *state) attackers(sq rules.Square, e *enemy, occ bb) bb {
	t, g := s.t, s.t.geo
	i := sq & (board.MaxCells - 1)
	a := t.pawnAttack[e.side][i].And(e.pawns)
	for c := range t.leapClasses {
		a = a.Or(t.leapClasses[c].table[i].And(e.leap[c]))
	}
	if g.OrthRays(sq).And(e.orth).Any() {
		a = a.Or(g.RookAttacks(sq, occ).And(e.orth))
	}
	if g.DiagRays(sq).And(e.diag).Any() {
		a = a.Or(g.BishopAttacks(sq, occ).And(e.diag))
	}
	return a
}

// attacked reports whether any piece of e attacks sq when occ is occupied.
func (s *state) attacked(sq rules.Square, e *enemy, occ bb) bool {
	t, g := s.t, s.t.geo
	i := sq & (board.MaxCells - 1)
	if t.pawnAttack[e.side][i].And(e.pawns).Any() {
		return true
	}
	for c := range t.leapClasses {
		if t.leapClasses[c].table[i].And(e.leap[c]).Any() {
			return true
		}
	}
	if g.OrthRays(sq).And(e.orth).Any() && g.RookAttacks(sq, occ).And(e.orth).Any() {
		return true
	}
	return g.DiagRays(sq).And(e.diag).Any() && g.BishopAttacks(sq, occ).And(e.diag).Any()
}

// attackersTo returns the pieces of side attacking sq when occ is occupied.
func (s *state) attackersTo(sq rules.Square, side rules.Side, occ bb) bb {
	e := s.enemyOf(side)
	return s.attackers(sq, &e, occ)
}

// checkers returns the enemy pieces giving check to the side to move.
func (s *state) checkers() bb {
	return s.attackersTo(s.king[s.turn], s.turn.Other(), s.all())
}

// inCheck reports whether the side to move is in check.
func (s *state) inCheck() bool { return s.checkers().Any() }

// Generation modes.
const (
	genAll      = 0
	genCaptures = 1 // captures and promotions only
	genPseudo   = 2 // ignore checks and pins (used to explain illegal input)
)

type pin struct {
	sq  rules.Square
	ray bb
}

// generate appends the moves of the side to move to dst: the legal ones, or with
// genPseudo every move that ignores its own king's safety.
func (s *state) generate(dst []Move, mode int) []Move {
	t, g := s.t, s.t.geo
	us, them := s.turn, s.turn.Other()
	own, opp := s.occ[us], s.occ[them]
	occ := own.Or(opp)
	ksq := s.king[us]
	e := s.enemyOf(them)
	pseudo := mode&genPseudo != 0
	capturesOnly := mode&genCaptures != 0

	var checkers bb
	if !pseudo {
		checkers = s.attackers(ksq, &e, occ)
	}
	// King steps.
	kt := t.king[ksq&(board.MaxCells-1)].AndNot(own)
	if capturesOnly {
		kt = kt.And(opp)
	}
	noKing := occ.Clear(ksq)
	for kt.Any() {
		to := kt.PopFirst()
		if pseudo || !s.attacked(to, &e, noKing) {
			dst = append(dst, mkMove(ksq, to))
		}
	}
	if checkers.More() {
		return dst
	}
	mask := g.Open().AndNot(own)
	if checkers.Any() {
		c := checkers.First()
		mask = g.Between(ksq, c).Set(c)
	}
	// Pins: own pieces alone between the king and an enemy rider.
	var pinned bb
	var pins [16]pin
	np := 0
	if !pseudo {
		snipers := g.OrthRays(ksq).And(e.orth).Or(g.DiagRays(ksq).And(e.diag))
		for snipers.Any() {
			sn := snipers.PopFirst()
			btw := g.Between(ksq, sn)
			if b := btw.And(occ); b.Any() && !b.More() && b.And(own).Any() {
				pinned = pinned.Or(b)
				pins[np] = pin{sq: b.First(), ray: btw.Set(sn)}
				np++
			}
		}
	}
	pinRay := func(sq rules.Square) bb {
		for i := 0; i < np; i++ {
			if pins[i].sq == sq {
				return pins[i].ray
			}
		}
		return bb{}
	}
	pieceMask := mask
	if capturesOnly {
		pieceMask = mask.And(opp)
	}
	for _, k := range t.kinds {
		d := &t.def[k]
		pcs := s.pieces[us][k]
		for pcs.Any() {
			from := pcs.PopFirst()
			att := d.attacks(g, from, occ).And(pieceMask)
			if pinned.Has(from) {
				att = att.And(pinRay(from))
			}
			for att.Any() {
				dst = append(dst, mkMove(from, att.PopFirst()))
			}
		}
	}
	// Pawns.
	empty := g.Open().AndNot(occ)
	promos := t.spec.Pawn.Promotions
	pawns := s.pieces[us][rules.Pawn]
	for pawns.Any() {
		from := pawns.PopFirst()
		i := from & (board.MaxCells - 1)
		lim := mask
		if pinned.Has(from) {
			lim = lim.And(pinRay(from))
		}
		push := t.pawnPush[us][i].And(empty)
		if push.IsEmpty() && t.spec.Pawn.SidewaysWhenBlocked {
			push = t.pawnSide[us][i].And(empty)
		} else if dbl := t.pawnDouble[us][i]; dbl.Any() && push.Any() && !capturesOnly {
			if dbl = dbl.And(empty).And(lim); dbl.Any() {
				dst = append(dst, mkMove(from, dbl.First())|flagDouble)
			}
		}
		if capturesOnly {
			push = push.And(t.promoZone[us])
		}
		targets := push.Or(t.pawnCap[us][i].And(opp)).And(lim)
		for targets.Any() {
			to := targets.PopFirst()
			m := mkMove(from, to)
			if t.promoZone[us].Has(to) {
				for _, k := range promos {
					dst = append(dst, m|Move(k)<<14)
				}
			} else {
				dst = append(dst, m)
			}
		}
	}
	if s.ep != rules.NoSquare {
		c := t.pawnAttack[us][s.ep&(board.MaxCells-1)].And(s.pieces[us][rules.Pawn])
		for c.Any() {
			from := c.PopFirst()
			if pseudo || s.epLegal(from, s.ep) {
				dst = append(dst, mkMove(from, s.ep)|flagEP)
			}
		}
	}
	// Castling: the king's move, never out of, through or into check.
	if s.castling&t.sideRights[us] != 0 && !capturesOnly && checkers.IsEmpty() {
	castles:
		for i := range t.castles[us] {
			c := &t.castles[us][i]
			if s.castling&c.right == 0 || occ.And(c.empty).Any() {
				continue
			}
			if !pseudo {
				safe := c.safe
				for safe.Any() {
					if s.attacked(safe.PopFirst(), &e, occ) {
						continue castles
					}
				}
			}
			dst = append(dst, mkMove(c.kingFrom, c.kingTo)|flagCastle)
		}
	}
	return dst
}
