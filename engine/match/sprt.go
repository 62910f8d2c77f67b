package match

import (
	"errors"
	"fmt"
	"math"
)

// ErrBadSPRT marks SPRT parameters that cannot decide anything.
var ErrBadSPRT = errors.New("match: bad SPRT parameters")

// SPRT is a sequential probability ratio test of the hypothesis H1 "the first
// player is Elo1 stronger" against H0 "it is Elo0 stronger", with false
// positive rate Alpha and false negative rate Beta. Elo is logistic Elo, as
// EloDifference computes it.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Verdict is the state of an SPRT.
type Verdict int

// Verdicts: go on playing, or one of the hypotheses is accepted.
const (
	Continue Verdict = iota
	AcceptH0
	AcceptH1
)

// String names the verdict.
func (v Verdict) String() string {
	switch v {
	case AcceptH0:
		return "H0 accepted (no gain)"
	case AcceptH1:
		return "H1 accepted (gain)"
	}
	return "undecided"
}

// Validate reports parameters that make no test: Elo1 must exceed Elo0 and the
// error rates lie strictly between 0 and ½.
func (t SPRT) Validate() error {
	switch {
	case !(t.Elo1 > t.Elo0):
		return fmt.Errorf("%w: elo1 (%g) must be above elo0 (%g)", ErrBadSPRT, t.Elo1, t.Elo0)
	case !(t.Alpha > 0 && t.Alpha < 0.5 && t.Beta > 0 && t.Beta < 0.5):
		return fmt.Errorf("%w: alpha (%g) and beta (%g) must lie between 0 and 0.5", ErrBadSPRT, t.Alpha, t.Beta)
	}
	return nil
}

// Bounds returns the log-likelihood ratios at which the test stops: H0 is
// accepted at or below lower, ln(β/(1-α)), H1 at or above upper, ln((1-β)/α).
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// Decide returns the verdict for the log-likelihood ratio llr.
func (t SPRT) Decide(llr float64) Verdict {
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}

// expectedScore is the logistic model's expected score of a side elo stronger.
func expectedScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// regularisation is added to every outcome count before the LLR is computed, as
// Fishtest does, so that a run of identical results (zero variance) still gives
// a finite ratio; it is negligible once a few games are played.
const regularisation = 1e-3

// gsprt returns the generalised SPRT's log-likelihood ratio of observations
// taking the values xs (scores from 0 to 1) with counts n, under the normal
// approximation: N·(s1-s0)·(2μ-s0-s1) / (2σ²), where μ and σ² are the sample's
// mean and variance per observation and s0, s1 the expected scores at Elo0 and
// Elo1 (Michel Van den Bergh's GSPRT, as used by Fishtest and fastchess).
func (t SPRT) gsprt(xs []float64, n []int) float64 {
	var total, mu float64
	counts := make([]float64, len(n))
	games := 0
	for i, c := range n {
		games += c
		counts[i] = float64(c) + regularisation
		total += counts[i]
	}
	for i, x := range xs {
		mu += counts[i] * x / total
	}
	var variance float64
	for i, x := range xs {
		variance += counts[i] * (x - mu) * (x - mu) / total
	}
	if games == 0 || variance <= 0 {
		return 0
	}
	s0, s1 := expectedScore(t.Elo0), expectedScore(t.Elo1)
	return total * (s1 - s0) * (2*mu - s0 - s1) / (2 * variance)
}

// LLR returns the log-likelihood ratio of r under the trinomial model (each game
// a win, draw or loss, independent of the others).
func (t SPRT) LLR(r Record) float64 {
	return t.gsprt([]float64{0, 0.5, 1}, []int{r.Losses, r.Draws, r.Wins})
}

// Pentanomial counts the game pairs of a match (the two games of one opening,
// one with each colour) by the first player's points in the pair: index i holds
// the pairs that scored i/2 points, from 0 to 2.
type Pentanomial [5]int

// Pairs returns the number of pairs counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// LLR5 returns the log-likelihood ratio of the pairs p under the pentanomial
// model, which is sounder than the trinomial one when both games of a pair
// share an opening (their results are correlated).
func (t SPRT) LLR5(p Pentanomial) float64 {
	return t.gsprt([]float64{0, 0.25, 0.5, 0.75, 1}, p[:])
}

// MinPairs is the number of game pairs before which Verdict never decides: the
// normal approximation behind the ratio needs a sample with some spread, and a
// few lopsided pairs have almost none.
const MinPairs = 10

// Verdict returns the test's verdict on the pairs p: undecided below MinPairs
// pairs, else Decide on their pentanomial LLR.
func (t SPRT) Verdict(p Pentanomial) Verdict {
	if p.Pairs() < MinPairs {
		return Continue
	}
	return t.Decide(t.LLR5(p))
}
