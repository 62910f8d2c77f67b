package engine

import (
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
// rank advance (every kind), mobility and attacks on the enemy king's zone (every
// kind but pawn and king). A term of kind slot i is group + i.
const (
	termMaterial evalTerm = 0                                         // slots 0..6
	termCentre            = termMaterial + evalTerm(numEvalKinds) - 1 // slots 0..7
	termAdvance           = termCentre + evalTerm(numEvalKinds)       // slots 0..7
	termMobility          = termAdvance + evalTerm(numEvalKinds)      // slots 1..6, at slot-1
	termKingZone          = termMobility + evalTerm(numEvalKinds) - 2 // slots 1..6, at slot-1
	termScalar            = termKingZone + evalTerm(numEvalKinds) - 2
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
	numEvalTerms
)

// evalTermNames names every term as the weights files do.
var evalTermNames = func() [numEvalTerms]string {
	var n [numEvalTerms]string
	for i, k := range evalKinds {
		if k != rules.King {
			n[termMaterial+evalTerm(i)] = "material." + k.String()
		}
		n[termCentre+evalTerm(i)] = "centre." + k.String()
		n[termAdvance+evalTerm(i)] = "advance." + k.String()
		if k != rules.King && k != rules.Pawn {
			n[termMobility+evalTerm(i)-1] = "mobility." + k.String()
			n[termKingZone+evalTerm(i)-1] = "kingzone." + k.String()
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
	} {
		n[t] = s
	}
	return n
}()

// kingDangerUnit weighs one attacked king-zone cell by the attacker's kind slot.
var kingDangerUnit = [numEvalKinds]int{0, 2, 2, 3, 5, 4, 5, 0}

// evalFeatures is the feature vector of one position: each term counted for White
// minus Black, and the phase that blends the middlegame and endgame weights.
type evalFeatures struct {
	v     [numEvalTerms]int32
	phase int32 // non-pawn material by the spec's values, at most full
	full  int32 // the phase of the start position
}

// chessEval holds what the evaluation of one chess-family variant looks up: its
// weights and tables of the board's geometry.
type chessEval struct {
	geo   *board.Geometry
	w     *evalWeights
	value [rules.Stone + 1]int // the spec's centipawns by kind (ordering, phase)
	slot  [rules.Stone + 1]int // kind -> slot in evalKinds, -1 when absent
	// how each kind attacks
	knight                 []board.Bitboard
	kingRing               []board.Bitboard
	leaper, slideB, slideR [rules.Stone + 1]bool
	centre                 []int32    // centralisation per square
	advance                [2][]int32 // ranks advanced from the side's own edge
	pawnCap                [2][]board.Bitboard
	fwd                    [2]board.Direction
	file                   []board.Bitboard // the cells of the file of each square
	adjFiles               []board.Bitboard // the cells of the neighbouring files
	front                  [2][]board.Bitboard
	passMask               [2][]board.Bitboard // front span on the file and the next files
	promoFile              [2][]bool           // the file has a cell on the side's last rank
	promo                  bool                // pawns promote moving forward: pawn-structure terms apply
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
	e := &chessEval{geo: geo, w: w, promo: len(sp.Pawn.Promotions) > 0}
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
	for s := range 2 {
		e.advance[s] = make([]int32, n)
		e.pawnCap[s] = make([]board.Bitboard, n)
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

// evaluate scores b for the side to move: the weighted features, blended by phase.
func (e *chessEval) evaluate(b *chess.SearchBoard) Score {
	var f evalFeatures
	e.features(b, &f)
	s := e.w.score(&f)
	if b.Turn() == rules.Black {
		s = -s
	}
	return Score(s)
}

// features fills f with the features of b (White minus Black).
func (e *chessEval) features(b *chess.SearchBoard, f *evalFeatures) {
	f.full = e.full
	occ := b.Occupied(rules.White).Or(b.Occupied(rules.Black))
	var pawns, pawnAtt, attacked, zone [2]board.Bitboard
	var danger [2]int
	sign := [2]int32{1, -1}
	for _, s := range rules.Sides {
		pawns[s] = b.Pieces(s, rules.Pawn)
		for p := pawns[s]; p.Any(); {
			pawnAtt[s] = pawnAtt[s].Or(e.pawnCap[s][p.PopFirst()])
		}
		if k := b.King(s); k >= 0 {
			zone[s] = e.kingRing[k].Set(k)
		}
	}
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
				a := e.attacks(kind, sq, occ)
				attacked[s] = attacked[s].Or(a)
				f.v[termCentre+evalTerm(slot)] += sg * e.centre[sq]
				f.v[termAdvance+evalTerm(slot)] += sg * e.advance[s][sq]
				f.v[termMobility+evalTerm(slot)-1] += sg * int32(a.And(area).Count())
				if z := a.And(zone[them]).Count(); z > 0 {
					f.v[termKingZone+evalTerm(slot)-1] += sg * int32(z)
					danger[s] += z * kingDangerUnit[slot]
				}
				switch kind {
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
		if k := b.King(s); k >= 0 {
			attacked[s] = attacked[s].Or(e.kingRing[k])
			f.v[termCentre+evalTerm(e.slot[rules.King])] += sg * e.centre[k]
			f.v[termAdvance+evalTerm(e.slot[rules.King])] += sg * e.advance[s][k]
			f.v[termShelter] += sg * int32(min(pawns[s].And(e.kingRing[k]).Count(), 3))
		}
		ps := int32(e.slot[rules.Pawn])
		f.v[termMaterial+evalTerm(ps)] += sg * int32(pawns[s].Count())
		for p := pawns[s]; p.Any(); {
			sq := p.PopFirst()
			adv := e.advance[s][sq]
			f.v[termCentre+evalTerm(ps)] += sg * e.centre[sq]
			f.v[termAdvance+evalTerm(ps)] += sg * adv
			if pawnAtt[s].Has(sq) {
				f.v[termSupported] += sg
			}
			if nb := e.geo.Step(sq, board.East); nb != rules.NoSquare && pawns[s].Has(nb) {
				f.v[termPhalanx] += sg
			}
			if !e.promo {
				continue
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
				if ahead := e.geo.Step(sq, e.fwd[s]); ahead != rules.NoSquare && !occ.Has(ahead) {
					f.v[termPassedFree] += sg * adv
				}
			}
		}
	}
	for _, s := range rules.Sides {
		them := s ^ 1
		sg := sign[s]
		targets := b.Occupied(them).AndNot(pawns[them])
		if k := b.King(them); k >= 0 {
			targets = targets.Clear(k)
		}
		f.v[termPawnThreat] += sg * int32(targets.And(pawnAtt[s]).Count())
		f.v[termHanging] += sg * int32(targets.And(attacked[s]).AndNot(attacked[them]).Count())
		f.v[termKingDanger] += sg * int32(danger[s]*danger[s]/16)
	}
	f.phase = min(f.phase, f.full)
	if b.Turn() == rules.White {
		f.v[termTempo] = 1
	} else {
		f.v[termTempo] = -1
	}
}
