package engine

import (
	"math/bits"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gess"
)

// gessMaxMoves bounds the moves of one Gess position (a few hundred is typical).
const gessMaxMoves = 2048

// gessGame searches Gess on a gess.Board. Repetitions are detected along the search
// path, which starts with the game's earlier positions that can still recur. Where
// the opponent could break every ring of the side to move next move, the search
// neither prunes moves unsearched nor passes (the null move); elsewhere it does
// both. Such a threat is not treated as check: the extension and the full-width
// quiescence that check brings explode on Gess's hundreds of moves.
type gessGame struct {
	b    gess.Board
	undo []gessUndo
	path []uint64 // hashes of the positions before the current one, game and search path
	tmp  []rules.Move
	// ringList caches both sides' rings for the stones hashed ringKey (ringOK once
	// set); blackKey is the hash's side-to-move key, taken out of ringKey.
	ringList [2][]rules.Square
	ringKey  uint64
	ringOK   bool
	blackKey uint64
	// threats caches threatened by position.
	threats []gessThreat
}

// gessUndo takes back one move, or a pass when null is set.
type gessUndo struct {
	u    gess.Undo
	null bool
}

// gessThreat is a cached threatened answer for the position hashed key.
type gessThreat struct {
	key        uint64
	threatened bool
	set        bool
}

// gessDims is the frame's geometry.
var gessDims = rules.Dims{Files: gess.Size, Ranks: gess.Size}

// gessThreatSlots is the size of the threat cache (a power of two).
const gessThreatSlots = 1 << 14

func newGessGame(p *gess.Position) *gessGame {
	g := &gessGame{
		b: p.Mutable(), tmp: make([]rules.Move, 0, gessMaxMoves), path: p.EarlierHashes(nil),
		threats: make([]gessThreat, gessThreatSlots),
	}
	for i := range g.ringList {
		g.ringList[i] = make([]rules.Square, 0, 64)
	}
	passed := g.b
	passed.Pass()
	g.blackKey = passed.Hash() ^ g.b.Hash()
	return g
}

func packGess(m rules.Move) mv { return mv(uint32(m.From)+1) | mv(uint32(m.To))<<10 }
func unpackGess(m mv) rules.Move {
	return rules.Move{From: rules.Square(m&1023) - 1, To: rules.Square(m >> 10)}
}
func (g *gessGame) maxMoves() int    { return gessMaxMoves }
func (g *gessGame) qDepth() int      { return maxQPlyGess }
func (g *gessGame) hash() uint64     { return g.b.Hash() }
func (g *gessGame) side() rules.Side { return g.b.Turn() }
func (g *gessGame) inCheck() bool    { return false }

// forwardPrune allows pruning unless the side to move could lose its rings next move:
// the static evaluation does not see that threat.
func (g *gessGame) forwardPrune() bool { return !g.threatened() }

// singular keeps singular extensions out of Gess: 200 games at 100 ms against the
// search without them scored +91 -109 (-31 Elo, margin 49).
func (g *gessGame) singular() bool { return false }

// razor keeps razoring out of Gess, where it was not measured.
func (g *gessGame) razor() bool { return false }

// standOnTable keeps the table's bounds out of Gess's stand pat: not measured there.
func (g *gessGame) standOnTable() bool { return false }

// canNull allows a pass unless the side to move could lose its rings next move.
func (g *gessGame) canNull() bool { return !g.threatened() }

func (g *gessGame) drift(e Score) Score { return e }

// bothArmed keeps Gess on the gentler reductions: the cut-node reduction and the
// steeper table scored +35 ± 90 and -12 ± 90 Elo there (60 games each at 100 ms).
func (g *gessGame) bothArmed() bool { return false }

// structureKey: Gess has no slowly changing structure to key a correction on.
func (g *gessGame) structureKey() (uint64, bool) { return 0, false }

// identity: Gess's histories are cleared for every search. Kept and halved as in
// the chess family, they cost Gess 56 ± 70 Elo in self-play (100 games, 100 ms).
func (g *gessGame) identity() (uint64, bool) { return 0, false }

func (g *gessGame) makeNull() {
	g.path = append(g.path, g.b.Hash())
	g.b.Pass()
	g.undo = append(g.undo, gessUndo{null: true})
}

// threatened reports whether the opponent, were it to move, could break every ring
// of the side to move with one move.
func (g *gessGame) threatened() bool {
	h := g.b.Hash()
	e := &g.threats[h&(gessThreatSlots-1)]
	if !e.set || e.key != h {
		*e = gessThreat{key: h, threatened: g.ringThreatened(), set: true}
	}
	return e.threatened
}

// ringThreatened looks for an enemy move landing within two squares (Chebyshev) of the
// centre of each ring of the side to move: its footprint would overlap every ring's
// block and so break them all.
func (g *gessGame) ringThreatened() bool {
	mine := g.ringsOf(g.b.Turn())
	if len(mine) == 0 {
		return false // the game is decided; terminal scores it
	}
	// The zone where a landing breaks every ring: the intersection of their 5x5 areas.
	lf, lr, hf, hr := 0, 0, gess.Size, gess.Size
	for _, c := range mine {
		f, r := int(c)%gess.Size, int(c)/gess.Size
		lf, lr, hf, hr = max(lf, f-2), max(lr, r-2), min(hf, f+2), min(hr, r+2)
	}
	if lf > hf || lr > hr {
		return false
	}
	opp := g.b
	opp.Pass()
	return opp.Reaches(gessDims.Square(lf, lr), gessDims.Square(hf, hr))
}

func (g *gessGame) toRules(m mv) rules.Move { return unpackGess(m) }
func (g *gessGame) histIndex(m mv) int {
	r := unpackGess(m)
	return (int(r.From)*401 + int(r.To)) & (histSize - 1)
}

func (g *gessGame) fromRules(m rules.Move) (mv, bool) {
	if m.Drop != rules.NoPiece || m.Promotion != rules.NoPiece || !g.b.IsLegal(m) {
		return 0, false
	}
	return packGess(m), true
}

func (g *gessGame) make(m mv) {
	g.path = append(g.path, g.b.Hash())
	g.undo = append(g.undo, gessUndo{u: g.b.Make(unpackGess(m))})
}

func (g *gessGame) unmake() {
	n := len(g.undo) - 1
	if u := g.undo[n]; u.null {
		g.b.Pass()
	} else {
		g.b.Unmake(u.u)
	}
	g.undo = g.undo[:n]
	g.path = g.path[:len(g.path)-1]
}

// moves generates every move; noisy keeps those that remove an enemy stone.
func (g *gessGame) moves(dst []mv, noisy bool) []mv {
	var all []rules.Move
	if noisy {
		all = g.b.AppendCaptures(g.tmp[:0])
	} else {
		all = g.b.AppendMoves(g.tmp[:0])
	}
	g.tmp = all[:0]
	for _, m := range all {
		dst = append(dst, packGess(m))
	}
	return dst
}

// captureScore orders moves by the enemy stones they remove, a move that breaks an
// enemy ring first (one per ring it breaks); a quiet move that closes in on an enemy
// ring scores 1, so that it is searched early and never pruned as quiet; 0 means
// any other quiet move.
func (g *gessGame) captureScore(m mv) int {
	r := unpackGess(m)
	took := g.b.Captures(r)
	if took == 0 {
		if g.approaches(r) {
			return 1
		}
		return 0
	}
	return took*10 + gessRingHit*g.ringsHit(r.To)
}

// gessApproach is the distance (Chebyshev, centre to ring centre) within which a
// move closing in on an enemy ring counts as an attack: from 3 squares away a
// footprint is next to the ring's block.
const gessApproach = 4

// approaches reports whether m brings a piece within gessApproach of an enemy ring,
// nearer than it stood.
func (g *gessGame) approaches(m rules.Move) bool {
	ff, fr := int(m.From)%gess.Size, int(m.From)/gess.Size
	tf, tr := int(m.To)%gess.Size, int(m.To)/gess.Size
	for _, c := range g.ringsOf(g.b.Turn().Other()) {
		cf, cr := int(c)%gess.Size, int(c)/gess.Size
		to := max(cf-tf, tf-cf, cr-tr, tr-cr)
		if to <= gessApproach && to < max(cf-ff, ff-cf, cr-fr, fr-cr) {
			return true
		}
	}
	return false
}

// prune skips, in the quiescence search, a capture that breaks no enemy ring and
// whose stones, with a margin for what else it changes, cannot lift stand past alpha.
func (g *gessGame) prune(m mv, stand, alpha Score) bool {
	r := unpackGess(m)
	if g.ringsHit(r.To) > 0 {
		return false
	}
	return stand+Score(g.b.Captures(r)*gessStone+gessDelta) <= alpha
}

// gessDelta is the margin of prune, in centipawns.
const gessDelta = 150

// gessRingHit is the ordering bonus of a move for each enemy ring it breaks.
const gessRingHit = 1000

// ringsOf returns side's rings, found once per arrangement of stones; the list is
// valid until the board changes.
func (g *gessGame) ringsOf(side rules.Side) []rules.Square {
	key := g.b.Hash()
	if g.b.Turn() == rules.Black {
		key ^= g.blackKey
	}
	if !g.ringOK || g.ringKey != key {
		for _, s := range rules.Sides {
			g.ringList[s] = g.b.AppendRings(s, g.ringList[s][:0])
		}
		g.ringKey, g.ringOK = key, true
	}
	return g.ringList[side]
}

// ringsHit returns the number of the opponent's rings that a footprint landing on to
// breaks: every ring whose block it overlaps, as the overlap always covers a
// perimeter stone.
func (g *gessGame) ringsHit(to rules.Square) int {
	n := 0
	tf, tr := int(to)%gess.Size, int(to)/gess.Size
	for _, c := range g.ringsOf(g.b.Turn().Other()) {
		cf, cr := int(c)%gess.Size, int(c)/gess.Size
		if cf-tf <= 2 && tf-cf <= 2 && cr-tr <= 2 && tr-cr <= 2 {
			n++
		}
	}
	return n
}

func (g *gessGame) terminal(ply int) (Score, bool) {
	b := &g.b
	// The ring rule (as gess.Board.Outcome): the side that moved loses without a ring,
	// else the side to move does.
	switch {
	case len(g.ringsOf(b.Turn().Other())) == 0:
		return MateScore - Score(ply), true
	case len(g.ringsOf(b.Turn())) == 0:
		return -MateScore + Score(ply), true
	}
	h := b.Hash()
	for i := len(g.path) - 2; i >= 0; i -= 2 {
		if g.path[i] == h {
			return drawScore, true
		}
	}
	return 0, false
}

// noMoves: a player with a ring always has a move; without one the game is over.
func (g *gessGame) noMoves(ply int) Score { return -MateScore + Score(ply) }

// Gess evaluation weights (centipawn-like units).
const (
	gessStone      = 20  // per stone
	gessSpareRing  = 250 // each ring beyond the first
	gessRingDanger = 12  // per enemy stone near a ring
	gessNeighbour  = 2   // per pair of adjacent own stones (pieces able to move)
	gessPressure   = 6   // per own stone near an enemy ring
)

// evaluate scores the side to move: stone count, rings (a spare ring is a lifeline),
// enemy stones near one's rings (threats to them), own stones near the enemy's rings,
// and connectivity of stones (a stone with neighbours forms a piece with directions:
// a cheap measure of mobility).
func (g *gessGame) evaluate() Score {
	b := &g.b
	var score [2]int
	var stones [2]gess.Rows
	for _, s := range rules.Sides {
		stones[s] = b.Rows(s)
	}
	for _, s := range rules.Sides {
		score[s] += gessStone * b.Count(s)
		rings := g.ringsOf(s)
		if len(rings) > 1 {
			score[s] += gessSpareRing * min(len(rings)-1, 3)
		}
		danger := 0
		for _, c := range rings {
			danger = max(danger, near(&stones[s^1], c, 3))
			score[s^1] += gessPressure * near(&stones[s^1], c, 4) / max(len(rings), 1)
		}
		if len(rings) == 1 {
			score[s] -= gessRingDanger * danger
		} else {
			score[s] -= gessRingDanger * danger / 3
		}
		// Connectivity: horizontally and vertically adjacent own stones.
		for r := 1; r < 21; r++ {
			row := stones[s][r]
			score[s] += gessNeighbour * (bits.OnesCount32(row&(row>>1)) + bits.OnesCount32(row&stones[s][r+1]))
		}
	}
	us := b.Turn()
	return Score(score[us] - score[us^1])
}

// near counts stones of rows within distance d (Chebyshev) of centre c.
func near(rows *gess.Rows, c rules.Square, d int) int {
	f, r := int(c)%gess.Size, int(c)/gess.Size
	lo, hi := max(f+1-d, 0), min(f+1+d, 21)
	mask := uint32(1<<(hi+1)-1) &^ uint32(1<<lo-1)
	n := 0
	for rr := max(r+1-d, 0); rr <= min(r+1+d, 21); rr++ {
		n += bits.OnesCount32(rows[rr] & mask)
	}
	return n
}
