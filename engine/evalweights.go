package engine

import (
	"bufio"
	"embed"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/chess"
)

// ErrBadWeights is wrapped by the errors about a weights file that does not give
// every term of the evaluation exactly once.
var ErrBadWeights = errors.New("engine: bad evaluation weights")

// evalWeights are the middlegame and endgame weights of every term (the scalar
// terms, then the piece-square terms), in centipawns per unit of the feature.
type evalWeights struct {
	mg, eg [numAllTerms]int32
}

// packedWeights are evalWeights with each term's two weights in one number, the
// middlegame weight in the high 32 bits and the endgame weight in the low 32 bits,
// so that a feature is multiplied once for both phases.
type packedWeights [numAllTerms]int64

// packed returns w packed for scoring.
func (w *evalWeights) packed() *packedWeights {
	var p packedWeights
	for i := range p {
		p[i] = int64(w.mg[i])<<32 + int64(w.eg[i])
	}
	return &p
}

// score dots f with w and blends the two phases: White's view, in centipawns. The
// sums stay far inside 31 bits, so each phase's sum is read back exactly.
func (w *packedWeights) score(f *evalFeatures) int {
	sum := w.sum(f) + f.pawnSum
	eg := int(int32(sum))
	mg := int((sum - int64(eg)) >> 32)
	return (mg*int(f.phase) + eg*int(f.full-f.phase)) / int(f.full)
}

// sum returns the packed weighted sum of f's listed features.
func (w *packedWeights) sum(f *evalFeatures) int64 {
	var sum int64
	for i, x := range f.v {
		sum += int64(x) * w[i]
	}
	for _, p := range f.psq[:f.npsq] {
		if p > 0 {
			sum += w[int(numEvalTerms)+int(p)-1]
		} else {
			sum -= w[int(numEvalTerms)-int(p)-1]
		}
	}
	return sum
}

//go:embed weights
var weightFiles embed.FS

// tunedWeights are the weights of each chess-family variant, by variant key, read
// from weights/<key>.txt when the package loads; a file that lacks a term stops
// the program at once (TestWeightFilesComplete keeps them whole).
var tunedWeights = func() map[string]*evalWeights {
	m := map[string]*evalWeights{}
	entries, err := weightFiles.ReadDir("weights")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		key, ok := strings.CutSuffix(e.Name(), ".txt")
		if !ok {
			continue
		}
		f, err := weightFiles.Open("weights/" + e.Name())
		if err != nil {
			panic(err)
		}
		w, err := parseWeights(f)
		f.Close()
		if err != nil {
			panic(fmt.Sprintf("engine: weights/%s: %v", e.Name(), err))
		}
		m[key] = w
	}
	return m
}()

// parseWeights reads a weights file: one "name mg eg" line per term, blank lines
// and lines starting with # ignored. Every scalar term must be given exactly once;
// a piece-square term may be left out (weight 0), not given twice.
func parseWeights(r io.Reader) (*evalWeights, error) {
	index := make(map[string]evalTerm, numAllTerms)
	for t, n := range evalTermNames {
		index[n] = evalTerm(t)
	}
	w := &evalWeights{}
	var seen [numAllTerms]bool
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 3 {
			return nil, fmt.Errorf("%w: line %d: want \"name mg eg\", got %q", ErrBadWeights, line, text)
		}
		t, ok := index[fields[0]]
		if !ok {
			return nil, fmt.Errorf("%w: line %d: no term %q", ErrBadWeights, line, fields[0])
		}
		if seen[t] {
			return nil, fmt.Errorf("%w: line %d: term %q given twice", ErrBadWeights, line, fields[0])
		}
		seen[t] = true
		for i, p := range []*int32{&w.mg[t], &w.eg[t]} {
			v, err := strconv.ParseInt(fields[1+i], 10, 32)
			if err != nil {
				return nil, fmt.Errorf("%w: line %d: %w", ErrBadWeights, line, err)
			}
			*p = int32(v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("engine: reading weights: %w", err)
	}
	for t, ok := range seen[:numEvalTerms] {
		if !ok {
			return nil, fmt.Errorf("%w: term %q missing", ErrBadWeights, evalTermNames[t])
		}
	}
	return w, nil
}

// writeWeights writes w in the format parseWeights reads, with comment as the header.
func writeWeights(out io.Writer, w *evalWeights, comment string) error {
	bw := bufio.NewWriter(out)
	for _, l := range strings.Split(strings.TrimSpace(comment), "\n") {
		fmt.Fprintf(bw, "# %s\n", l)
	}
	for t, n := range evalTermNames {
		if evalTerm(t) >= numEvalTerms && w.mg[t] == 0 && w.eg[t] == 0 {
			continue
		}
		fmt.Fprintf(bw, "%s %d %d\n", n, w.mg[t], w.eg[t])
	}
	return bw.Flush()
}

// priorWeights are hand-set starting weights for sp (the tuner's starting point and
// the evaluation of a variant without a weights file): the spec's piece values and
// guesses for the rest.
func priorWeights(sp chess.Spec) *evalWeights {
	w := &evalWeights{}
	set := func(t evalTerm, mg, eg int32) { w.mg[t], w.eg[t] = mg, eg }
	mob := map[rules.PieceKind]int32{rules.Knight: 4, rules.Bishop: 3, rules.Rook: 2, rules.Queen: 1, rules.Chancellor: 2, rules.Archbishop: 3}
	for i, k := range evalKinds {
		t := evalTerm(i)
		if k != rules.King {
			v := int32(sp.Values[k])
			set(termMaterial+t, v, v)
		}
		switch k {
		case rules.King:
			set(termCentre+t, -4, 4)
			set(termAdvance+t, -8, 0)
		case rules.Pawn:
			set(termCentre+t, 2, 0)
			set(termAdvance+t, 3, 6)
		default:
			set(termCentre+t, 2, 2)
			set(termMobility+t-1, mob[k], mob[k])
			set(termKingZone+t-1, 2, 0)
		}
	}
	set(termKingDanger, 1, 0)
	set(termShelter, 8, 0)
	set(termDoubled, -10, -20)
	set(termIsolated, -10, -15)
	set(termPassed, 5, 10)
	set(termPassedAdv, 3, 8)
	set(termPassedAdv2, 1, 3)
	set(termPassedFree, 1, 3)
	set(termSupported, 5, 5)
	set(termPhalanx, 3, 3)
	set(termBishopPair, 30, 50)
	set(termRookOpen, 20, 10)
	set(termRookSemi, 10, 5)
	set(termChancellorOpen, 15, 10)
	set(termChancellorSemi, 8, 5)
	set(termQueenOpen, 5, 5)
	set(termPawnThreat, 30, 30)
	set(termHanging, 20, 20)
	set(termTempo, 10, 10)
	return w
}
