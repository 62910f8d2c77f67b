package engine

import (
	"fmt"
	"io"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/chess"
)

// This file is what the tuner (engine/tune) sees of the chess-family evaluation:
// the terms, a position's feature vector and the weights, so that it fits the very
// function the engine computes.

// EvalTerms returns the names of the chess-family evaluation's terms, in the order
// of Features.Values and EvalWeights.
func EvalTerms() []string { return append([]string(nil), evalTermNames[:]...) }

// Features is the feature vector of one chess-family position: each term counted
// for White minus Black, and the phase (non-pawn material, at most Full) that
// blends the middlegame weight (at Phase = Full) and the endgame weight (at 0).
// Values holds the scalar terms, the first len(Values) of EvalTerms; Squares the
// piece-square terms that do not cancel out, by their index in EvalTerms.
type Features struct {
	Values      []int32
	Squares     []TermCount
	Phase, Full int32
}

// TermCount is one term of a sparse feature vector: its index in EvalTerms and its
// count for White minus Black.
type TermCount struct {
	Term, Count int32
}

// EvalWeights are the middlegame and endgame weights of the terms (EvalTerms order).
type EvalWeights struct {
	MG, EG []int32
}

// Score returns the evaluation of f under w from White's view, exactly as the
// engine computes it.
func (w EvalWeights) Score(f Features) int {
	ew, ef := w.internal(), f.internal()
	return ew.packed().score(&ef)
}

// Write writes w as a weights file (weights/<variant>.txt) with comment as its header.
func (w EvalWeights) Write(out io.Writer, comment string) error {
	ew := w.internal()
	return writeWeights(out, &ew, comment)
}

// ReadEvalWeights reads a weights file; every term must be given exactly once.
func ReadEvalWeights(r io.Reader) (EvalWeights, error) {
	w, err := parseWeights(r)
	if err != nil {
		return EvalWeights{}, err
	}
	return exportWeights(w), nil
}

// WeightsFor returns the weights the engine uses for pos's variant (its weights
// file, or the hand-set prior when there is none) and the prior.
func WeightsFor(pos rules.Position) (current, prior EvalWeights, err error) {
	g, err := newChessGame(pos)
	if err != nil {
		return EvalWeights{}, EvalWeights{}, fmt.Errorf("engine: weights: %w", err)
	}
	return exportWeights(g.ev.w), exportWeights(priorWeights(g.b.Spec())), nil
}

// PositionFeatures returns the features of the chess-family position pos, its static
// evaluation from White's view and whether it is quiet: not in check, and no
// sequence of captures improves on the static evaluation for either side.
func PositionFeatures(pos rules.Position) (f Features, eval int, quiet bool, err error) {
	g, err := newChessGame(pos)
	if err != nil {
		return Features{}, 0, false, fmt.Errorf("engine: features: %w", err)
	}
	var ef evalFeatures
	g.ev.features(g.b, &ef, nil)
	f = Features{Values: append([]int32(nil), ef.v[:]...), Phase: ef.phase, Full: ef.full}
	var sq [numPsqTerms]int32
	for _, p := range ef.psq[:ef.npsq] {
		if p > 0 {
			sq[p-1]++
		} else {
			sq[-p-1]--
		}
	}
	for i, c := range sq {
		if c != 0 {
			f.Squares = append(f.Squares, TermCount{Term: int32(numEvalTerms) + int32(i), Count: c})
		}
	}
	stand := g.evaluate()
	eval = int(stand)
	if g.side() == rules.Black {
		eval = -eval
	}
	if g.inCheck() {
		return f, eval, false, nil
	}
	q := settle(g, -MateScore, MateScore, 0)
	return f, eval, q == stand, nil
}

// settle is a plain quiescence search (captures and promotions that the engine's
// quiescence search would not prune, stand pat, at most eight plies) for deciding
// whether a position is quiet.
func settle(g *chessGame, alpha, beta Score, ply int) Score {
	stand := g.evaluate()
	if stand >= beta || ply >= 8 {
		return stand
	}
	alpha = max(alpha, stand)
	best := stand
	for _, m := range g.moves(make([]mv, 0, chess.MaxMoves), true) {
		if g.prune(m, stand, alpha) {
			continue
		}
		g.make(m)
		v := -settle(g, -beta, -alpha, ply+1)
		g.unmake()
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return best
}

func (w EvalWeights) internal() evalWeights {
	var ew evalWeights
	copy(ew.mg[:], w.MG)
	copy(ew.eg[:], w.EG)
	return ew
}

func (f Features) internal() evalFeatures {
	ef := evalFeatures{phase: f.Phase, full: max(f.Full, 1)}
	copy(ef.v[:], f.Values)
	for _, tc := range f.Squares {
		s, c := rules.White, tc.Count
		if c < 0 {
			s, c = rules.Black, -c
		}
		for range c {
			ef.addPsq(s, evalTerm(tc.Term))
		}
	}
	return ef
}

func exportWeights(w *evalWeights) EvalWeights {
	return EvalWeights{MG: append([]int32(nil), w.mg[:]...), EG: append([]int32(nil), w.eg[:]...)}
}
