package engine

import (
	"slices"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/chess"
)

// seeKing is the exchange value of a king: it may capture last, never be captured.
const seeKing = 100_000

// exchangeOrder returns pawn, king and the other kinds of a chess-family board from
// least to most valuable (the king last), the order in which an exchange spends
// its attackers.
func exchangeOrder(kinds []rules.PieceKind, value *[rules.Stone + 1]int) []rules.PieceKind {
	order := []rules.PieceKind{rules.Pawn, rules.King}
	for _, k := range kinds {
		if !slices.Contains(order, k) {
			order = append(order, k)
		}
	}
	val := func(k rules.PieceKind) int {
		if k == rules.King {
			return seeKing
		}
		return value[k]
	}
	slices.SortStableFunc(order, func(a, b rules.PieceKind) int { return val(a) - val(b) })
	return order
}

// seeValue is the exchange value of kind.
func (c *chessGame) seeValue(k rules.PieceKind) int {
	if k == rules.King {
		return seeKing
	}
	return c.ev.value[k]
}

// see reports whether the static exchange on m's target cell, both sides
// recapturing with their least valuable piece for as long as it pays, wins at
// least threshold centipawns for the side making m. Pins are ignored; sliders
// behind the capturers (x-rays) join in as the cell's attackers are recomputed.
func (c *chessGame) see(m mv, threshold int) bool {
	cm := chess.Move(m)
	if cm.IsCastling() {
		return threshold <= 0
	}
	b := c.b
	from, to := cm.From(), cm.To()
	victim := 0
	if cm.IsEnPassant() {
		victim = c.ev.value[rules.Pawn]
	} else if p := b.PieceAt(to); p.Kind != rules.NoPiece {
		victim = c.seeValue(p.Kind)
	}
	attacker := c.seeValue(b.PieceAt(from).Kind)
	if p := cm.Promotion(); p != rules.NoPiece {
		victim += c.ev.value[p] - c.ev.value[rules.Pawn]
		attacker = c.ev.value[p]
	}
	swap := victim - threshold
	if swap < 0 {
		return false
	}
	swap = attacker - swap
	if swap <= 0 {
		return true
	}
	occ := b.Occupied(rules.White).Or(b.Occupied(rules.Black)).Clear(from).Set(to)
	// (After en passant the captured pawn is left standing: it can only hide an x-ray.)
	stm := b.Turn()
	attackers := b.AttackersWith(to, occ)
	res := true
	for {
		stm = stm.Other()
		mine := attackers.And(b.Occupied(stm))
		if !mine.Any() {
			break
		}
		res = !res
		var kind rules.PieceKind
		var sq rules.Square
		for _, k := range c.exchange {
			if x := mine.And(b.Pieces(stm, k)); x.Any() {
				kind, sq = k, x.First()
				break
			}
		}
		if kind == rules.King {
			// The king may take last only if the other side has nothing left there.
			if attackers.And(b.Occupied(stm.Other())).Any() {
				return !res
			}
			return res
		}
		swap = c.ev.value[kind] - swap
		if swap < boolInt(res) {
			break
		}
		occ = occ.Clear(sq)
		attackers = b.AttackersWith(to, occ)
	}
	return res
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// pieceTo indexes m by the kind it moves and its target, below contSize.
func (c *chessGame) pieceTo(m mv) int {
	cm := chess.Move(m)
	return int(c.b.PieceAt(cm.From()).Kind)<<7 | int(cm.To())&127
}

// nullReduction grows with depth and with the static evaluation's margin over beta.
func (c *chessGame) nullReduction(depth int, over Score) int {
	return 3 + depth/3 + min(int(over)/200, 3)
}

// victim indexes the kind m captures (a pawn taken en passant), 0 for none.
func (c *chessGame) victim(m mv) int {
	cm := chess.Move(m)
	if cm.IsEnPassant() {
		return int(rules.Pawn)
	}
	if cm.IsCastling() {
		return 0
	}
	return int(c.b.PieceAt(cm.To()).Kind)
}
