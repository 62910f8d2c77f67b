package chess

import (
	"fmt"
	"slices"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
)

type bb = board.Bitboard

const maxLeapClasses = 4

// compiledPiece is a PieceDef turned into lookups on one geometry.
type compiledPiece struct {
	leap       []bb
	orth, diag bool
}

func (d *compiledPiece) attacks(g *board.Geometry, from rules.Square, occ bb) bb {
	var a bb
	if d.leap != nil {
		a = d.leap[from&(board.MaxCells-1)]
	}
	if d.orth {
		a = a.Or(g.RookAttacks(from, occ))
	}
	if d.diag {
		a = a.Or(g.BishopAttacks(from, occ))
	}
	return a
}

// leapClass is one leap table and the kinds that use it, for reverse attack lookups.
type leapClass struct {
	table []bb
	kinds []rules.PieceKind
}

type castleRule struct {
	right                              uint8
	kingFrom, kingTo, rookFrom, rookTo rules.Square
	empty, safe                        bb
	kingside                           bool
}

// tables is a Spec compiled for one geometry: everything the generator looks up.
type tables struct {
	v           *Variant
	spec        *Spec
	geo         *board.Geometry
	kinds       []rules.PieceKind // non-pawn, non-king kinds, in generation order
	def         [numKinds]compiledPiece
	leapClasses []leapClass
	orthKinds   []rules.PieceKind
	diagKinds   []rules.PieceKind
	reachOf     [numKinds]uint8 // the attack groups (bits by state.reach's index) of each kind
	king        []bb
	pawnPush    [2][]bb
	pawnCap     [2][]bb
	pawnAttack  [2][]bb // pawnAttack[s][sq]: squares from which a pawn of s captures on sq
	pawnSide    [2][]bb
	pawnDouble  [2][]bb
	pawnBack    [2][]bb // pawnBack[s][sq]: the steps from sq that a later pawn step can undo
	fwd         [2]board.Direction
	promoZone   [2]bb
	pawnOK      [2]bb
	castles     [2][]castleRule
	sideRights  [2]uint8
	castleMask  [board.MaxCells]uint8
	mates       lonePieceMates // which lone pieces can mate which single guards
}

func isSet(ds []board.Direction, want []board.Direction) bool {
	if len(ds) != len(want) {
		return false
	}
	for _, d := range want {
		if !slices.Contains(ds, d) {
			return false
		}
	}
	return true
}

func compileTables(v *Variant, g *board.Geometry) (*tables, error) {
	sp := &v.spec
	t := &tables{v: v, spec: sp, geo: g}
	d := sp.Dims
	var haveKing bool
	for _, pd := range sp.Pieces {
		if pd.Kind == rules.NoPiece || pd.Kind == rules.Pawn || int(pd.Kind) >= numKinds {
			return nil, fmt.Errorf("chess: %s: piece kind %v cannot be defined", sp.Key, pd.Kind)
		}
		for _, o := range pd.Leaps {
			if !slices.Contains(pd.Leaps, board.Offset{File: -o.File, Rank: -o.Rank}) {
				return nil, fmt.Errorf("chess: %s: the %v's leaps are not symmetric", sp.Key, pd.Kind)
			}
		}
		c := &t.def[pd.Kind]
		switch {
		case len(pd.Slides) == 0:
		case isSet(pd.Slides, board.Orthogonal):
			c.orth = true
		case isSet(pd.Slides, board.Diagonal):
			c.diag = true
		case isSet(pd.Slides, append(append([]board.Direction{}, board.Orthogonal...), board.Diagonal...)):
			c.orth, c.diag = true, true
		default:
			return nil, fmt.Errorf("chess: %s: the %v must slide like a rook, a bishop or a queen", sp.Key, pd.Kind)
		}
		if len(pd.Leaps) > 0 {
			c.leap = g.LeapTable(pd.Leaps)
			placed := false
			for i := range t.leapClasses {
				if slices.Equal(t.leapClasses[i].table, c.leap) {
					c.leap = t.leapClasses[i].table
					t.leapClasses[i].kinds = append(t.leapClasses[i].kinds, pd.Kind)
					placed = true
					break
				}
			}
			if !placed {
				if len(t.leapClasses) == maxLeapClasses {
					return nil, fmt.Errorf("chess: %s: too many different leaps", sp.Key)
				}
				t.leapClasses = append(t.leapClasses, leapClass{table: c.leap, kinds: []rules.PieceKind{pd.Kind}})
			}
		}
		if c.orth {
			t.orthKinds = append(t.orthKinds, pd.Kind)
		}
		if c.diag {
			t.diagKinds = append(t.diagKinds, pd.Kind)
		}
		if pd.Kind == rules.King {
			haveKing = true
			if c.orth || c.diag || c.leap == nil {
				return nil, fmt.Errorf("chess: %s: the king must be a leaper", sp.Key)
			}
			t.king = c.leap
		} else {
			t.kinds = append(t.kinds, pd.Kind)
		}
	}
	if !haveKing {
		return nil, fmt.Errorf("chess: %s: no king defined", sp.Key)
	}
	pr := &sp.Pawn
	if (pr.DoubleStep || pr.EnPassant || pr.SidewaysWhenBlocked) && !slices.Equal(pr.Pushes, []board.Direction{board.North}) {
		return nil, fmt.Errorf("chess: %s: double step, en passant and sideways steps need a pawn that pushes North only", sp.Key)
	}
	steps := slices.Clone(pr.Pushes)
	if pr.SidewaysWhenBlocked {
		steps = append(steps, board.East, board.West)
	}
	for _, dir := range pr.Reversible {
		if !slices.Contains(steps, dir) || !slices.Contains(steps, dir.Opposite()) {
			return nil, fmt.Errorf("chess: %s: the pawn step %v is not a step that another step undoes", sp.Key, dir)
		}
	}
	for _, s := range rules.Sides {
		t.fwd[s] = board.North.ForSide(s)
		for _, tab := range []*[]bb{&t.pawnPush[s], &t.pawnCap[s], &t.pawnAttack[s], &t.pawnSide[s], &t.pawnDouble[s], &t.pawnBack[s]} {
			*tab = make([]bb, board.MaxCells)
		}
		lo, hi := sp.PawnRanks[s][0]-1, sp.PawnRanks[s][1]-1
		for sq := rules.Square(0); int(sq) < d.Cells(); sq++ {
			if !g.IsOpen(sq) {
				continue
			}
			r := d.Rank(sq)
			if r >= lo && r <= hi {
				t.pawnOK[s] = t.pawnOK[s].Set(sq)
			}
			if len(pr.Promotions) > 0 && ((s == rules.White && r == hi+1) || (s == rules.Black && r == lo-1)) {
				t.promoZone[s] = t.promoZone[s].Set(sq)
			}
			for _, dir := range pr.Pushes {
				if to := g.Step(sq, dir.ForSide(s)); to != rules.NoSquare {
					t.pawnPush[s][sq] = t.pawnPush[s][sq].Set(to)
				}
			}
			for _, dir := range pr.Captures {
				if to := g.Step(sq, dir.ForSide(s)); to != rules.NoSquare {
					t.pawnCap[s][sq] = t.pawnCap[s][sq].Set(to)
					t.pawnAttack[s][to] = t.pawnAttack[s][to].Set(sq)
				}
			}
			if pr.SidewaysWhenBlocked {
				for _, dir := range []board.Direction{board.East, board.West} {
					if to := g.Step(sq, dir); to != rules.NoSquare {
						t.pawnSide[s][sq] = t.pawnSide[s][sq].Set(to)
					}
				}
			}
			for _, dir := range pr.Reversible {
				if to := g.Step(sq, dir.ForSide(s)); to != rules.NoSquare {
					t.pawnBack[s][sq] = t.pawnBack[s][sq].Set(to)
				}
			}
			start := lo
			if s == rules.Black {
				start = hi
			}
			if pr.DoubleStep && r == start {
				if mid := g.Step(sq, t.fwd[s]); mid != rules.NoSquare {
					if to := g.Step(mid, t.fwd[s]); to != rules.NoSquare {
						t.pawnDouble[s][sq] = board.Bit(to)
					}
				}
			}
		}
	}
	for _, s := range rules.Sides {
		for sq := range t.pawnBack[s] {
			t.pawnBack[s][sq] = t.pawnBack[s][sq].AndNot(t.promoZone[s])
		}
	}
	for i := range t.castleMask {
		t.castleMask[i] = 15
	}
	for _, c := range sp.Castlings {
		for _, s := range rules.Sides {
			sq := func(name string) rules.Square {
				x, err := d.ParseSquare(name)
				if err != nil {
					return rules.NoSquare
				}
				if s == rules.Black {
					x = d.Square(d.File(x), d.Ranks-1-d.Rank(x))
				}
				return x
			}
			cr := castleRule{kingFrom: sq(c.From), kingTo: sq(c.To), rookFrom: sq(c.RookFrom), rookTo: sq(c.RookTo)}
			if cr.kingFrom == rules.NoSquare || cr.kingTo == rules.NoSquare || cr.rookFrom == rules.NoSquare || cr.rookTo == rules.NoSquare {
				return nil, fmt.Errorf("chess: %s: castling %c names a square off the board", sp.Key, c.Right)
			}
			switch c.Right {
			case 'K':
				cr.right, cr.kingside = 1, true
			case 'Q':
				cr.right = 2
			default:
				return nil, fmt.Errorf("chess: %s: castling right %q must be K or Q", sp.Key, c.Right)
			}
			if s == rules.Black {
				cr.right <<= 2
			}
			kr := board.Bit(cr.kingFrom).Or(board.Bit(cr.rookFrom))
			cr.empty = g.Between(cr.kingFrom, cr.rookFrom).Or(g.Between(cr.kingFrom, cr.kingTo)).Set(cr.kingTo).Set(cr.rookTo).AndNot(kr)
			cr.safe = g.Between(cr.kingFrom, cr.kingTo).Set(cr.kingTo)
			t.castles[s] = append(t.castles[s], cr)
			t.sideRights[s] |= cr.right
			t.castleMask[cr.kingFrom] &^= cr.right
			t.castleMask[cr.rookFrom] &^= cr.right
		}
	}
	for _, s := range rules.Sides {
		for _, c := range t.castles[s] {
			t.castleMask[c.kingFrom] &^= t.sideRights[s]
		}
	}
	for i, c := range t.leapClasses {
		for _, k := range c.kinds {
			t.reachOf[k] |= 1 << i
		}
	}
	for _, k := range t.orthKinds {
		t.reachOf[k] |= 1 << reachOrth
	}
	for _, k := range t.diagKinds {
		t.reachOf[k] |= 1 << reachDiag
	}
	return t, nil
}

// The attack groups a state keeps the pieces of (state.reach): one per leap class,
// then the orthogonal and the diagonal sliders.
const (
	reachOrth = maxLeapClasses
	reachDiag = maxLeapClasses + 1
	numReach  = maxLeapClasses + 2
)
