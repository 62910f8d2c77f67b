package engine

import (
	"fmt"
	"slices"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
	"github.com/missivechess/missive/rules/chess"
)

// The chess-family evaluation is a weighted sum of features, each counted for
// White minus Black, with a middlegame and an endgame weight per feature blended
// by the phase (the non-pawn material on the board). The weights of each variant
// are data (weights/<variant>.txt, written by the tuner in engine/tune), so that
// the tuner and the engine compute one and the same function: evalFeatures fills
// the feature vector, evalWeights.score dots it with the weights.

// evalTerm indexes one feature of the chess-family evaluation.
type evalTerm int

// evalKinds are the piece kinds of the per-kind terms, in the order of their slots.
var evalKinds = [...]rules.PieceKind{rules.Pawn, rules.Knight, rules.Bishop, rules.Rook, rules.Queen, rules.Archbishop, rules.Chancellor, rules.King}

const numEvalKinds = len(evalKinds)

// The per-kind term groups: material (every kind but the king), centralisation and
// rank advance (every kind), mobility, attacks on the enemy king's zone, safe checks
// and low mobility (every kind but pawn and king). A term of kind slot i is group + i.
const (
	termMaterial evalTerm = 0                                         // slots 0..6
	termCentre            = termMaterial + evalTerm(numEvalKinds) - 1 // slots 0..7
	termAdvance           = termCentre + evalTerm(numEvalKinds)       // slots 0..7
	termMobility          = termAdvance + evalTerm(numEvalKinds)      // slots 1..6, at slot-1
	termKingZone          = termMobility + evalTerm(numEvalKinds) - 2 // slots 1..6, at slot-1
	termCheck             = termKingZone + evalTerm(numEvalKinds) - 2 // slots 1..6, at slot-1
	termTrapped           = termCheck + evalTerm(numEvalKinds) - 2    // slots 1..6, at slot-1
	termScalar            = termTrapped + evalTerm(numEvalKinds) - 2
)

// The single terms.
const (
	termKingDanger     = termScalar + iota // squared weighted attacks on the king zone
	termShelter                            // own pawns next to the king (at most 3)
	termDoubled                            // a pawn with an own pawn ahead on its file
	termIsolated                           // a pawn without own pawns on the next files
	termPassed                             // a pawn no enemy pawn can stop by capture or block
	termPassedAdv                          // passed pawns' advance
	termPassedAdv2                         // passed pawns' advance squared
	termPassedFree                         // passed pawns' advance when the cell ahead is empty
	termSupported                          // a pawn defended by an own pawn
	termPhalanx                            // a pawn with an own pawn beside it
	termBishopPair                         // two bishops or more
	termRookOpen                           // rook on a file without pawns
	termRookSemi                           // rook on a file without own pawns
	termChancellorOpen                     // chancellor on a file without pawns
	termChancellorSemi                     // chancellor on a file without own pawns
	termQueenOpen                          // queen on a file without own pawns
	termPawnThreat                         // enemy piece (not pawn or king) attacked by a pawn
	termHanging                            // enemy piece (not pawn or king) attacked and undefended
	termTempo                              // the side to move
	termKingWeak                           // cells by the enemy king we attack and it alone defends
	termKingFile                           // king on a file without own pawns
	termThreatUp                           // enemy piece attacked by a piece worth less (not a pawn)
	termOutpostKnight                      // knight on a cell in the enemy half that an own pawn defends and no enemy pawn can attack
	termOutpostBishop                      // bishop on such a cell
	termSpace                              // safe cells on ranks 2-4 of the middle files
	termSpaceBehind                        // those of them behind an own pawn
	termBackward                           // a pawn no own pawn can come to support whose next cell an enemy pawn attacks
	termConnectedAdv                       // supported or phalanx pawns' advance
	termPassedKingThem                     // passed pawns' advance times the enemy king's distance to the cell ahead
	termPassedKingUs                       // passed pawns' advance times the own king's distance to the cell ahead
	termBishopPawns                        // own pawns on the cell colour of an own bishop
	termKingStorm                          // enemy pawns on the king's and the next files at most three ranks ahead of it
	numEvalTerms
)

// The piece-square terms follow the scalar terms: one per kind slot and cell of a
// side-relative board folded onto its left half (file a is also the last file),
// psqFiles wide and psqRanks high, enough for every board of the family (10x10):
//
//	rank 10  45 46 47 48 49
//	 ...
//	rank 2    5  6  7  8  9
//	rank 1    0  1  2  3  4
//	          a  b  c  d  e   (a = the side's outer files, e = the middle)
//
// A weights file may leave them out (weight 0).
const (
	psqFiles     = 5
	psqRanks     = 10
	psqCells     = psqFiles * psqRanks
	numPsqTerms  = numEvalKinds * psqCells
	numAllTerms  = int(numEvalTerms) + numPsqTerms
	maxPsqPieces = 128 // entries of one position's piece-square list
)

// psqTerm returns the piece-square term of kind slot on folded cell c.
func psqTerm(slot int, c int16) evalTerm {
	return numEvalTerms + evalTerm(slot*psqCells+int(c))
}

// evalTermNames names every term as the weights files do.
var evalTermNames = func() [numAllTerms]string {
	var n [numAllTerms]string
	for i, k := range evalKinds {
		for c := range int16(psqCells) {
			n[psqTerm(i, c)] = fmt.Sprintf("psq.%s.%c%d", k, 'a'+c%psqFiles, 1+c/psqFiles)
		}
		if k != rules.King {
			n[termMaterial+evalTerm(i)] = "material." + k.String()
		}
		n[termCentre+evalTerm(i)] = "centre." + k.String()
		n[termAdvance+evalTerm(i)] = "advance." + k.String()
		if k != rules.King && k != rules.Pawn {
			n[termMobility+evalTerm(i)-1] = "mobility." + k.String()
			n[termKingZone+evalTerm(i)-1] = "kingzone." + k.String()
			n[termCheck+evalTerm(i)-1] = "check." + k.String()
			n[termTrapped+evalTerm(i)-1] = "trapped." + k.String()
		}
	}
	for t, s := range map[evalTerm]string{
		termKingDanger: "kingdanger", termShelter: "shelter", termDoubled: "pawn.doubled",
		termIsolated: "pawn.isolated", termPassed: "pawn.passed", termPassedAdv: "pawn.passed.advance",
		termPassedAdv2: "pawn.passed.advance2", termPassedFree: "pawn.passed.free",
		termSupported: "pawn.supported", termPhalanx: "pawn.phalanx", termBishopPair: "bishop.pair",
		termRookOpen: "rook.open", termRookSemi: "rook.semiopen", termChancellorOpen: "chancellor.open",
		termChancellorSemi: "chancellor.semiopen", termQueenOpen: "queen.open",
		termPawnThreat: "threat.pawn", termHanging: "threat.hanging", termTempo: "tempo",
		termKingWeak: "king.weak", termKingFile: "king.file", termThreatUp: "threat.up",
		termOutpostKnight: "outpost.knight", termOutpostBishop: "outpost.bishop", termSpace: "space",
		termSpaceBehind: "space.behind", termBackward: "pawn.backward", termConnectedAdv: "pawn.connected.advance",
		termPassedKingThem: "pawn.passed.king.them", termPassedKingUs: "pawn.passed.king.us",
		termBishopPawns: "bishop.pawns", termKingStorm: "king.storm",
	} {
		n[t] = s
	}
	return n
}()

// kingDangerUnit weighs one attacked king-zone cell by the attacker's kind slot.
var kingDangerUnit = [numEvalKinds]int{0, 2, 2, 3, 5, 4, 5, 0}

// Further units of king danger: a safe check, a weak cell by the king.
const (
	checkDangerUnit = 3
	weakDangerUnit  = 1
)

// trappedBelow is the mobility under which a piece counts as trapped (by how much).
const trappedBelow = 3

// evalFeatures is the feature vector of one position: each scalar term counted for
// White minus Black, the piece-square terms as a list (+1+term for a White piece,
// -1-term for a Black one), and the phase that blends the middlegame and endgame
// weights.
type evalFeatures struct {
	v     [numEvalTerms]int32
	psq   [maxPsqPieces]int16
	npsq  int
	phase int32 // non-pawn material by the spec's values, at most full
	full  int32 // the phase of the start position
	// pawnSum is the packed weighted sum of the pawn-only terms when they come
	// from a pawnCache instead of being listed (see features).
	pawnSum int64
}

// addPsq lists the piece-square term t for side s.
func (f *evalFeatures) addPsq(s rules.Side, t evalTerm) {
	if f.npsq == maxPsqPieces {
		return
	}
	e := int16(t-numEvalTerms) + 1
	if s == rules.Black {
		e = -e
	}
	f.psq[f.npsq] = e
	f.npsq++
}

// chessEval holds what the evaluation of one chess-family variant looks up: its
// weights and tables of the board's geometry.
type chessEval struct {
	geo   *board.Geometry
	w     *evalWeights
	pw    *packedWeights       // w packed for scoring
	value [rules.Stone + 1]int // the spec's centipawns by kind (ordering, phase)
	slot  [rules.Stone + 1]int // kind -> slot in evalKinds, -1 when absent
	// how each kind attacks
	knight                 []board.Bitboard
	kingRing               []board.Bitboard
	leaper, slideB, slideR [rules.Stone + 1]bool
	centre                 []int32    // centralisation per square
	psqCell                [2][]int16 // folded side-relative cell of each square
	advance                [2][]int32 // ranks advanced from the side's own edge
	pawnCap                [2][]board.Bitboard
	pawnFrom               [2][]board.Bitboard // the cells a pawn steps (without capturing) to each square from
	fwd                    [2]board.Direction
	file                   []board.Bitboard // the cells of the file of each square
	adjFiles               []board.Bitboard // the cells of the neighbouring files
	front                  [2][]board.Bitboard
	passMask               [2][]board.Bitboard // front span on the file and the next files
	promoFile              [2][]bool           // the file has a cell on the side's last rank
	promo                  bool                // pawns promote moving forward: pawn-structure terms apply
	space                  [2]board.Bitboard   // ranks 2-4 of the middle files, from each side
	dark                   board.Bitboard      // the board's cells that are not light
	full                   int32
}

// evalFor builds the evaluation of the variant sp describes on geo.
func evalFor(sp chess.Spec, geo *board.Geometry) *chessEval {
	w, ok := tunedWeights[sp.Key]
	if !ok {
		w = priorWeights(sp)
	}
	return evalWith(sp, geo, w)
}

// evalWith builds the evaluation of sp on geo with weights w.
func evalWith(sp chess.Spec, geo *board.Geometry, w *evalWeights) *chessEval {
	e := &chessEval{geo: geo, w: w, pw: w.packed(), promo: len(sp.Pawn.Promotions) > 0}
	for k, v := range sp.Values {
		e.value[k] = v
	}
	e.value[rules.King] = 0
	for i := range e.slot {
		e.slot[i] = -1
	}
	for i, k := range evalKinds {
		e.slot[k] = i
	}
	for _, pd := range sp.Pieces {
		if pd.Kind == rules.King {
			continue
		}
		e.leaper[pd.Kind] = containsAll(pd.Leaps, board.KnightLeaps)
		e.slideB[pd.Kind] = containsAny(pd.Slides, board.Diagonal)
		e.slideR[pd.Kind] = containsAny(pd.Slides, board.Orthogonal)
	}
	for k, n := range sp.StartCounts {
		if k != rules.Pawn && k != rules.King {
			e.full += int32(n * e.value[k] * 2)
		}
	}
	e.full = max(e.full, 1)
	e.knight = geo.LeapTable(board.KnightLeaps)
	e.kingRing = geo.LeapTable(board.KingSteps)
	d := geo.Dims()
	n := d.Cells()
	e.centre = make([]int32, n)
	e.file = make([]board.Bitboard, n)
	e.adjFiles = make([]board.Bitboard, n)
	e.fwd = [2]board.Direction{board.North, board.South}
	e.dark = geo.Open().AndNot(geo.Light())
	for s := range 2 {
		e.advance[s] = make([]int32, n)
		e.psqCell[s] = make([]int16, n)
		e.pawnCap[s] = make([]board.Bitboard, n)
		e.pawnFrom[s] = make([]board.Bitboard, n)
		e.front[s] = make([]board.Bitboard, n)
		e.passMask[s] = make([]board.Bitboard, n)
	}
	files := make([]board.Bitboard, d.Files)
	e.promoFile = [2][]bool{make([]bool, d.Files), make([]bool, d.Files)}
	for sq := rules.Square(0); int(sq) < n; sq++ {
		if geo.IsOpen(sq) {
			files[d.File(sq)] = files[d.File(sq)].Set(sq)
			// Keltic's pawns on the outer files must step sideways before they
			// can promote: only a file that reaches the last rank makes passers.
			switch d.Rank(sq) {
			case d.Ranks - 1:
				e.promoFile[rules.White][d.File(sq)] = true
			case 0:
				e.promoFile[rules.Black][d.File(sq)] = true
			}
		}
	}
	for sq := rules.Square(0); int(sq) < n; sq++ {
		f, r := d.File(sq), d.Rank(sq)
		e.centre[sq] = int32(min(f, d.Files-1-f, 4) + min(r, d.Ranks-1-r, 4))
		e.advance[rules.White][sq] = int32(r)
		e.advance[rules.Black][sq] = int32(d.Ranks - 1 - r)
		if f >= 2 && f < d.Files-2 && geo.IsOpen(sq) {
			if r >= 1 && r <= 3 {
				e.space[rules.White] = e.space[rules.White].Set(sq)
			}
			if d.Ranks-1-r >= 1 && d.Ranks-1-r <= 3 {
				e.space[rules.Black] = e.space[rules.Black].Set(sq)
			}
		}
		ff := int16(min(f, d.Files-1-f, psqFiles-1))
		e.psqCell[rules.White][sq] = int16(min(r, psqRanks-1))*psqFiles + ff
		e.psqCell[rules.Black][sq] = int16(min(d.Ranks-1-r, psqRanks-1))*psqFiles + ff
		e.file[sq] = files[f]
		if f > 0 {
			e.adjFiles[sq] = e.adjFiles[sq].Or(files[f-1])
		}
		if f < d.Files-1 {
			e.adjFiles[sq] = e.adjFiles[sq].Or(files[f+1])
		}
		for _, s := range rules.Sides {
			for _, dir := range sp.Pawn.Captures {
				if to := geo.Step(sq, dir.ForSide(s)); to != rules.NoSquare {
					e.pawnCap[s][sq] = e.pawnCap[s][sq].Set(to)
				}
			}
			for _, dir := range sp.Pawn.Pushes {
				if to := geo.Step(sq, dir.ForSide(s)); to != rules.NoSquare {
					e.pawnFrom[s][to] = e.pawnFrom[s][to].Set(sq)
				}
			}
			ahead := e.file[sq].Or(e.adjFiles[sq])
			var front, span board.Bitboard
			for c := ahead; c.Any(); {
				x := c.PopFirst()
				if (s == rules.White && d.Rank(x) > r) || (s == rules.Black && d.Rank(x) < r) {
					span = span.Set(x)
					if d.File(x) == f {
						front = front.Set(x)
					}
				}
			}
			e.front[s][sq], e.passMask[s][sq] = front, span
		}
	}
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

// kingSteps is the number of king steps between a and b on a board of dims d.
func kingSteps(d rules.Dims, a, b rules.Square) int {
	return max(abs(d.File(a)-d.File(b)), abs(d.Rank(a)-d.Rank(b)))
}

// evaluate scores b for the side to move: the weighted features, blended by phase.
func (e *chessEval) evaluate(b *chess.SearchBoard, pc pawnCache) Score {
	var f evalFeatures
	e.features(b, &f, pc)
	s := e.pw.score(&f)
	if b.Turn() == rules.Black {
		s = -s
	}
	return Score(s)
}

// features fills f with the features of b (White minus Black).
//
// With pc set, the terms of the pawns alone are not listed in f: their weighted
// sum comes from pc (computed once per pawn structure) into f.pawnSum.
func (e *chessEval) features(b *chess.SearchBoard, f *evalFeatures, pc pawnCache) {
	f.full = e.full
	occ := b.Occupied(rules.White).Or(b.Occupied(rules.Black))
	// attacked: every cell a side attacks (the king's ring too); pieceAtt: by its
	// pawns and pieces; byKind: by the pieces of one kind slot.
	var pawns, attacked, pieceAtt, zone [2]board.Bitboard
	var byKind [2][numEvalKinds]board.Bitboard
	var danger [2]int
	sign := [2]int32{1, -1}
	for _, s := range rules.Sides {
		pawns[s] = b.Pieces(s, rules.Pawn)
		if k := b.King(s); k >= 0 {
			zone[s] = e.kingRing[k].Set(k)
		}
	}
	var ps *pawnStructure
	if pc != nil {
		ps = pc.entry(pawns)
		if !ps.ok || ps.pawns != pawns {
			var pf evalFeatures
			*ps = e.pawnStructure(pawns, &pf)
			ps.sum = e.pw.sum(&pf)
		}
		f.pawnSum = ps.sum
	} else {
		st := e.pawnStructure(pawns, f)
		ps = &st
	}
	pawnAtt := ps.att
	for _, s := range rules.Sides {
		them := s ^ 1
		sg := sign[s]
		own := b.Occupied(s)
		area := e.geo.Open().AndNot(own).AndNot(pawnAtt[them])
		attacked[s] = pawnAtt[s]
		for _, kind := range b.Kinds() {
			slot := e.slot[kind]
			bb := b.Pieces(s, kind)
			n := bb.Count()
			if n == 0 {
				continue
			}
			f.v[termMaterial+evalTerm(slot)] += sg * int32(n)
			f.phase += int32(n * e.value[kind])
			if kind == rules.Bishop && n >= 2 {
				f.v[termBishopPair] += sg
			}
			for bb.Any() {
				sq := bb.PopFirst()
				f.addPsq(s, psqTerm(slot, e.psqCell[s][sq]))
				a := e.attacks(kind, sq, occ)
				attacked[s] = attacked[s].Or(a)
				byKind[s][slot] = byKind[s][slot].Or(a)
				f.v[termCentre+evalTerm(slot)] += sg * e.centre[sq]
				f.v[termAdvance+evalTerm(slot)] += sg * e.advance[s][sq]
				mob := a.And(area).Count()
				f.v[termMobility+evalTerm(slot)-1] += sg * int32(mob)
				if mob < trappedBelow {
					f.v[termTrapped+evalTerm(slot)-1] += sg * int32(trappedBelow-mob)
				}
				if z := a.And(zone[them]).Count(); z > 0 {
					f.v[termKingZone+evalTerm(slot)-1] += sg * int32(z)
					danger[s] += z * kingDangerUnit[slot]
				}
				switch kind {
				case rules.Knight, rules.Bishop:
					if kind == rules.Bishop {
						colour := e.dark
						if e.geo.Light().Has(sq) {
							colour = e.geo.Light()
						}
						f.v[termBishopPawns] += sg * int32(pawns[s].And(colour).Count())
					}
					if e.promo && 2*e.advance[s][sq] >= int32(e.geo.Dims().Ranks) && pawnAtt[s].Has(sq) &&
						e.passMask[s][sq].AndNot(e.file[sq]).And(pawns[them]).IsEmpty() {
						if kind == rules.Knight {
							f.v[termOutpostKnight] += sg
						} else {
							f.v[termOutpostBishop] += sg
						}
					}
				case rules.Rook, rules.Chancellor, rules.Queen:
					fl := e.file[sq]
					if fl.And(pawns[s]).Any() {
						break
					}
					open := fl.And(pawns[them]).IsEmpty()
					switch {
					case kind == rules.Queen:
						f.v[termQueenOpen] += sg
					case kind == rules.Rook && open:
						f.v[termRookOpen] += sg
					case kind == rules.Rook:
						f.v[termRookSemi] += sg
					case open:
						f.v[termChancellorOpen] += sg
					default:
						f.v[termChancellorSemi] += sg
					}
				}
			}
		}
		pieceAtt[s] = attacked[s]
		if k := b.King(s); k >= 0 {
			attacked[s] = attacked[s].Or(e.kingRing[k])
			ks := e.slot[rules.King]
			f.addPsq(s, psqTerm(ks, e.psqCell[s][k]))
			f.v[termCentre+evalTerm(ks)] += sg * e.centre[k]
			f.v[termAdvance+evalTerm(ks)] += sg * e.advance[s][k]
			f.v[termShelter] += sg * int32(min(pawns[s].And(e.kingRing[k]).Count(), 3))
			if e.file[k].And(pawns[s]).IsEmpty() {
				f.v[termKingFile] += sg
			}
			if e.promo {
				storm := e.file[k].Or(e.adjFiles[k]).And(pawns[them])
				for storm.Any() {
					if ahead := e.advance[s][storm.PopFirst()] - e.advance[s][k]; ahead > 0 && ahead <= 3 {
						f.v[termKingStorm] += sg
					}
				}
			}
		}
		// Passed pawns against the pieces: a free stop cell, the kings' distances.
		for p := ps.passed[s]; p.Any(); {
			sq := p.PopFirst()
			adv := e.advance[s][sq]
			stop := e.geo.Step(sq, e.fwd[s])
			if !occ.Has(stop) {
				f.v[termPassedFree] += sg * adv
			}
			if k := b.King(them); k >= 0 {
				f.v[termPassedKingThem] += sg * adv * int32(kingSteps(e.geo.Dims(), k, stop))
			}
			if k := b.King(s); k >= 0 {
				f.v[termPassedKingUs] += sg * adv * int32(kingSteps(e.geo.Dims(), k, stop))
			}
		}
	}
	for _, s := range rules.Sides {
		them := s ^ 1
		sg := sign[s]
		targets := b.Occupied(them).AndNot(pawns[them])
		k := b.King(them)
		if k >= 0 {
			targets = targets.Clear(k)
		}
		// The cells from which each kind of piece would check the king: the leap,
		// the diagonals and the lines from the king, each found once.
		var fromKing [3]board.Bitboard
		if k >= 0 {
			fromKing = [3]board.Bitboard{e.knight[k], e.geo.BishopAttacks(k, occ), e.geo.RookAttacks(k, occ)}
		}
		f.v[termPawnThreat] += sg * int32(targets.And(pawnAtt[s]).Count())
		f.v[termHanging] += sg * int32(targets.And(attacked[s]).AndNot(attacked[them]).Count())
		for _, kind := range b.Kinds() {
			slot := e.slot[kind]
			if kind == rules.Pawn || kind == rules.King || byKind[s][slot].IsEmpty() {
				continue
			}
			for t := targets.And(byKind[s][slot]); t.Any(); {
				if v := b.PieceAt(t.PopFirst()); e.value[v.Kind] > e.value[kind] {
					f.v[termThreatUp] += sg
				}
			}
			if k < 0 {
				continue
			}
			// Safe checks: cells from which a piece of this kind would check,
			// that one of ours reaches, not own-occupied and not defended.
			var checks board.Bitboard
			for i, has := range [3]bool{e.leaper[kind], e.slideB[kind], e.slideR[kind]} {
				if has {
					checks = checks.Or(fromKing[i])
				}
			}
			safe := checks.And(byKind[s][slot]).AndNot(b.Occupied(s)).AndNot(attacked[them])
			if c := safe.Count(); c > 0 {
				f.v[termCheck+evalTerm(slot)-1] += sg * int32(c)
				danger[s] += c * checkDangerUnit
			}
		}
		if k >= 0 {
			// Weak cells by the king: attacked by us, defended by the king alone.
			weak := e.kingRing[k].And(attacked[s]).AndNot(pieceAtt[them])
			if c := weak.Count(); c > 0 {
				f.v[termKingWeak] += sg * int32(c)
				danger[s] += c * weakDangerUnit
			}
		}
		f.v[termKingDanger] += sg * int32(danger[s]*danger[s]/16)
	}
	f.phase = min(f.phase, f.full)
	if b.Turn() == rules.White {
		f.v[termTempo] = 1
	} else {
		f.v[termTempo] = -1
	}
}

// pawnStructure is what the pawns alone decide, kept per structure in a pawnCache.
type pawnStructure struct {
	pawns  [2]board.Bitboard // the structure: each side's pawns
	att    [2]board.Bitboard // the cells each side's pawns attack
	passed [2]board.Bitboard // each side's passed pawns that have a stop cell
	sum    int64             // the packed weighted sum of the pawn-only terms
	ok     bool
}

// pawnCache keeps pawn structures by a hash of the pawns; its length is a power of
// two. Each search has its own (in its searchMem), cleared when the search starts.
type pawnCache []pawnStructure

// entry returns the slot of the structure pawns (which may hold another).
func (pc pawnCache) entry(pawns [2]board.Bitboard) *pawnStructure {
	return &pc[pawnHash(pawns)&uint64(len(pc)-1)]
}

// pawnHash hashes the pawns of both sides.
func pawnHash(pawns [2]board.Bitboard) uint64 {
	w, b := pawns[rules.White], pawns[rules.Black]
	h := (w.Lo ^ w.Hi*0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
	h ^= (b.Lo ^ b.Hi*0x94d049bb133111eb) * 0xd6e8feb86659fd93
	return h ^ h>>29
}

// pawnStructure adds the terms of the pawns alone (material, placement, structure,
// passed pawns, space) to f and returns the structure's attacks and passed pawns.
func (e *chessEval) pawnStructure(pawns [2]board.Bitboard, f *evalFeatures) pawnStructure {
	st := pawnStructure{pawns: pawns, ok: true}
	pawnAtt := &st.att
	for _, s := range rules.Sides {
		for p := pawns[s]; p.Any(); {
			pawnAtt[s] = pawnAtt[s].Or(e.pawnCap[s][p.PopFirst()])
		}
	}
	sign := [2]int32{1, -1}
	for _, s := range rules.Sides {
		them := s ^ 1
		sg := sign[s]
		if e.promo {
			safe := e.space[s].AndNot(pawns[s]).AndNot(pawnAtt[them])
			f.v[termSpace] += sg * int32(safe.Count())
			for c := safe; c.Any(); {
				if e.front[s][c.PopFirst()].And(pawns[s]).Any() {
					f.v[termSpaceBehind] += sg
				}
			}
		}
		ps := e.slot[rules.Pawn]
		f.v[termMaterial+evalTerm(ps)] += sg * int32(pawns[s].Count())
		for p := pawns[s]; p.Any(); {
			sq := p.PopFirst()
			f.addPsq(s, psqTerm(ps, e.psqCell[s][sq]))
			adv := e.advance[s][sq]
			f.v[termCentre+evalTerm(ps)] += sg * e.centre[sq]
			f.v[termAdvance+evalTerm(ps)] += sg * adv
			connected := false
			if pawnAtt[s].Has(sq) {
				f.v[termSupported] += sg
				connected = true
			}
			if nb := e.geo.Step(sq, board.East); nb != rules.NoSquare && pawns[s].Has(nb) {
				f.v[termPhalanx] += sg
				connected = true
			}
			if !e.promo {
				continue
			}
			if nb := e.geo.Step(sq, board.West); connected || nb != rules.NoSquare && pawns[s].Has(nb) {
				f.v[termConnectedAdv] += sg * adv
			}
			stop := e.geo.Step(sq, e.fwd[s])
			if !connected && stop != rules.NoSquare && pawnAtt[them].Has(stop) &&
				e.passMask[them][sq].AndNot(e.file[sq]).And(pawns[s]).IsEmpty() {
				f.v[termBackward] += sg
			}
			if e.front[s][sq].And(pawns[s]).Any() {
				f.v[termDoubled] += sg
				continue
			}
			if e.adjFiles[sq].And(pawns[s]).IsEmpty() {
				f.v[termIsolated] += sg
			}
			if e.promoFile[s][e.geo.Dims().File(sq)] && e.passMask[s][sq].And(pawns[them]).IsEmpty() {
				f.v[termPassed] += sg
				f.v[termPassedAdv] += sg * adv
				f.v[termPassedAdv2] += sg * adv * adv
				if stop != rules.NoSquare {
					st.passed[s] = st.passed[s].Set(sq)
				}
			}
		}
	}
	return st
}
