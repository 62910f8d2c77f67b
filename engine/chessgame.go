package engine

import (
	"slices"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
	"github.com/missivechess/missive/rules/chess"
)

// chessGame searches the chess family (Gothic, Keltic, Go-Chess) on a chess.SearchBoard.
type chessGame struct {
	b        *chess.SearchBoard
	ev       *chessEval
	exchange []rules.PieceKind // kinds from least to most valuable (see)
	tmp      [chess.MaxMoves]chess.Move
}

func newChessGame(p rules.Position) (*chessGame, error) {
	b, err := chess.NewSearchBoard(p)
	if err != nil {
		return nil, err
	}
	ev := evalFor(b.Spec(), b.Geometry())
	return &chessGame{b: b, ev: ev, exchange: exchangeOrder(b.Kinds(), &ev.value)}, nil
}

func (c *chessGame) moves(dst []mv, noisy bool) []mv {
	var cm []chess.Move
	if noisy {
		cm = c.b.GenerateCaptures(c.tmp[:0])
	} else {
		cm = c.b.GenerateMoves(c.tmp[:0])
	}
	for _, m := range cm {
		dst = append(dst, mv(m))
	}
	return dst
}

func (c *chessGame) make(m mv)        { c.b.Make(chess.Move(m)) }
func (c *chessGame) unmake()          { c.b.Unmake() }
func (c *chessGame) makeNull()        { c.b.MakeNull() }
func (c *chessGame) hash() uint64     { return c.b.Hash() }
func (c *chessGame) inCheck() bool    { return c.b.InCheck() }
func (c *chessGame) side() rules.Side { return c.b.Turn() }
func (c *chessGame) maxMoves() int    { return chess.MaxMoves }
func (c *chessGame) qDepth() int      { return 0 }

func (c *chessGame) terminal(ply int) (Score, bool) {
	b := c.b
	if b.InsufficientMaterial() {
		return drawScore, true
	}
	// Within the search a single repetition is scored as the draw it can force.
	if b.Repetitions() >= 2 {
		return drawScore, true
	}
	if b.HalfmoveClock() >= 100 && !b.InCheck() {
		return drawScore, true
	}
	return 0, false
}

func (c *chessGame) noMoves(ply int) Score {
	if c.b.InCheck() {
		return -MateScore + Score(ply)
	}
	return drawScore
}

func (c *chessGame) captureScore(m mv) int {
	cm := chess.Move(m)
	sc := 0
	if p := cm.Promotion(); p != rules.NoPiece {
		sc += c.ev.value[p]
	}
	if cm.IsEnPassant() {
		return sc + 10*c.ev.value[rules.Pawn]
	}
	victim := c.b.PieceAt(cm.To())
	if victim.Kind == rules.NoPiece || cm.IsCastling() {
		return sc
	}
	attacker := c.b.PieceAt(cm.From())
	return sc + 10*c.ev.value[victim.Kind] - c.ev.value[attacker.Kind]/10 + 1
}

// prune skips captures that lose material in the exchange on their cell, and
// captures whose gain plus a margin stays below alpha.
func (c *chessGame) prune(m mv, stand, alpha Score) bool {
	cm := chess.Move(m)
	gain := 0
	if p := cm.Promotion(); p != rules.NoPiece {
		gain += c.ev.value[p] - c.ev.value[rules.Pawn]
	}
	victim := rules.Pawn
	if !cm.IsEnPassant() {
		victim = c.b.PieceAt(cm.To()).Kind
	}
	gain += c.ev.value[victim]
	if stand+Score(gain)+200 < alpha {
		return true
	}
	return !c.see(m, 0)
}

// canNull allows a null move unless the side to move is in check or has only king
// and pawns (where zugzwang is common and a pass would be unsound).
func (c *chessGame) canNull() bool {
	us := c.b.Turn()
	for _, k := range c.b.Kinds() {
		if k != rules.King && c.b.Pieces(us, k).Any() {
			return true
		}
	}
	return false
}

func (c *chessGame) histIndex(m mv) int {
	return int(chess.Move(m).From())<<7 | int(chess.Move(m).To())
}

func (c *chessGame) toRules(m mv) rules.Move { return chess.Move(m).ToRules() }

func (c *chessGame) fromRules(m rules.Move) (mv, bool) {
	x, ok := c.b.FromRules(m)
	return mv(x), ok
}

func (c *chessGame) evaluate() Score { return c.ev.evaluate(c.b) }

// chessEval holds the evaluation terms of one chess-family variant.
type chessEval struct {
	geo      *board.Geometry
	value    [rules.Stone + 1]int // centipawns by kind
	mobility [rules.Stone + 1]int // centipawns per reachable cell
	knight   []board.Bitboard
	kingRing []board.Bitboard
	leaper   [rules.Stone + 1]bool // kind has the knight's leap
	slideB   [rules.Stone + 1]bool
	slideR   [rules.Stone + 1]bool
	centre   []int // centralisation 0..max per square
	promo    bool  // pawns promote: reward their advance
	lastRank [2]int
	ranks    int
	openFrac int // percent of open cells in the bounding rectangle
}

// evalFor builds the evaluation of the variant sp describes: its piece values, how
// its pieces move (a bishop that also leaps, as in Keltic, counts fewer cells of
// mobility) and whether its pawns promote.
func evalFor(sp chess.Spec, geo *board.Geometry) *chessEval {
	e := &chessEval{geo: geo, promo: len(sp.Pawn.Promotions) > 0}
	for k, v := range sp.Values {
		e.value[k] = v
	}
	e.value[rules.King] = 0
	e.mobility = [rules.Stone + 1]int{rules.Knight: 4, rules.Bishop: 3, rules.Rook: 2, rules.Queen: 1, rules.Chancellor: 2, rules.Archbishop: 3}
	for _, pd := range sp.Pieces {
		if pd.Kind == rules.King {
			continue
		}
		e.leaper[pd.Kind] = containsAll(pd.Leaps, board.KnightLeaps)
		e.slideB[pd.Kind] = containsAny(pd.Slides, board.Diagonal)
		e.slideR[pd.Kind] = containsAny(pd.Slides, board.Orthogonal)
	}
	if e.leaper[rules.Bishop] {
		e.mobility[rules.Bishop] = 2
	}
	e.knight = geo.LeapTable(board.KnightLeaps)
	e.kingRing = geo.LeapTable(board.KingSteps)
	d := geo.Dims()
	e.ranks = d.Ranks
	e.lastRank = [2]int{d.Ranks - 1, 0}
	e.centre = make([]int, board.MaxCells)
	open := 0
	for sq := rules.Square(0); int(sq) < d.Cells(); sq++ {
		if geo.IsOpen(sq) {
			open++
		}
		f, r := d.File(sq), d.Rank(sq)
		df := min(f, d.Files-1-f)
		dr := min(r, d.Ranks-1-r)
		e.centre[sq] = min(df, 4) + min(dr, 4)
	}
	e.openFrac = 100 * open / d.Cells()
	return e
}

// containsAll reports whether every element of want is in have.
func containsAll[T comparable](have, want []T) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// containsAny reports whether some element of want is in have.
func containsAny[T comparable](have, want []T) bool {
	return slices.ContainsFunc(want, func(w T) bool { return slices.Contains(have, w) })
}

// attacks returns the cells a piece of kind on sq attacks with occupancy occ.
func (e *chessEval) attacks(kind rules.PieceKind, sq rules.Square, occ board.Bitboard) board.Bitboard {
	var a board.Bitboard
	if e.leaper[kind] {
		a = e.knight[sq]
	}
	if e.slideB[kind] {
		a = a.Or(e.geo.BishopAttacks(sq, occ))
	}
	if e.slideR[kind] {
		a = a.Or(e.geo.RookAttacks(sq, occ))
	}
	return a
}

// evaluate scores b for the side to move: material, mobility, centralisation, pawn
// advance (where pawns promote) and king safety (shelter and attackers near the king).
func (e *chessEval) evaluate(b *chess.SearchBoard) Score {
	var score [2]int
	var phase int // non-pawn material on the board
	occ := b.Occupied(rules.White).Or(b.Occupied(rules.Black))
	var kingZone [2]board.Bitboard
	for _, s := range rules.Sides {
		k := b.King(s)
		if k >= 0 {
			kingZone[s] = e.kingRing[k].Set(k)
		}
	}
	var attackUnits [2]int
	for _, s := range rules.Sides {
		own := b.Occupied(s)
		for _, kind := range b.Kinds() {
			if kind == rules.King || kind == rules.Pawn {
				continue
			}
			bb := b.Pieces(s, kind)
			for bb.Any() {
				sq := bb.PopFirst()
				phase += e.value[kind]
				score[s] += e.value[kind]
				a := e.attacks(kind, sq, occ)
				score[s] += e.mobility[kind] * a.AndNot(own).Count()
				score[s] += 2 * e.centre[sq]
				if z := a.And(kingZone[s^1]); z.Any() {
					attackUnits[s] += z.Count() * (1 + e.value[kind]/300)
				}
			}
		}
		pawns := b.Pieces(s, rules.Pawn)
		for pawns.Any() {
			sq := pawns.PopFirst()
			score[s] += e.value[rules.Pawn]
			if e.promo {
				r := e.geo.Dims().Rank(sq)
				adv := r - 1
				if s == rules.Black {
					adv = e.ranks - 2 - r
				}
				adv = max(adv, 0)
				score[s] += adv * adv * e.value[rules.Pawn] / 20
				f := e.geo.Dims().File(sq)
				if f > 1 && f < e.geo.Dims().Files-2 {
					score[s] += 3 * adv
				}
			} else {
				score[s] += e.centre[sq]
			}
		}
	}
	// King safety scales with the enemy's attacking material.
	full := 2 * (e.value[rules.Queen] + 2*e.value[rules.Rook] + 2*e.value[rules.Bishop] + 2*e.value[rules.Knight])
	for _, s := range rules.Sides {
		k := b.King(s)
		if k < 0 {
			continue
		}
		shelter := b.Pieces(s, rules.Pawn).And(e.kingRing[k]).Count()
		mid := min(phase, full)
		safety := 8*min(shelter, 3) - e.centre[k]*4 - attackUnits[s^1]*attackUnits[s^1]/2
		score[s] += safety * mid / max(full, 1)
		// In the endgame the king belongs in the centre.
		score[s] += e.centre[k] * 4 * (full - mid) / max(full, 1)
	}
	us := b.Turn()
	return Score(score[us]-score[us^1]) + 10
}

func (c *chessGame) forwardPrune() bool { return true }
