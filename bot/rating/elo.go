package rating

import (
	"fmt"
	"math"
)

// z975 is the 97.5% quantile of the standard normal distribution: a two-sided
// 95% interval is the mean ± z975 standard errors.
const z975 = 1.959963984540054

// EloDifference returns the Elo difference that makes score the expected score
// of the stronger side under the logistic model: 400·log10(score / (1 - score)). A
// score of 0.5 gives 0, 0.75 gives about 190.85; 0 and 1 give -Inf and +Inf.
func EloDifference(score float64) float64 {
	return 400 * math.Log10(score/(1-score))
}

// Match is the score of a match from the first player's side.
type Match struct {
	Wins, Draws, Losses int
}

// Games returns the number of games of the match.
func (m Match) Games() int { return m.Wins + m.Draws + m.Losses }

// Score returns the first player's share of the points, from 0 to 1.
func (m Match) Score() float64 {
	return (float64(m.Wins) + float64(m.Draws)/2) / float64(m.Games())
}

// Elo is an estimate of the Elo difference between two players from a match.
type Elo struct {
	// Diff is the Elo difference implied by the score (positive: the first
	// player is stronger); ±Inf when one side scored every point.
	Diff float64
	// Margin is the half-width of the 95% confidence interval of Diff; +Inf
	// when the interval reaches a score of 0 or 1.
	Margin float64
	// LOS is the likelihood of superiority of the first player, from 0 to 1,
	// computed from wins and losses alone.
	LOS float64
}

// String formats the estimate as "+35.2 ± 20.1 (LOS 99.9%)".
func (e Elo) String() string {
	return fmt.Sprintf("%+.1f ± %.1f (LOS %.1f%%)", e.Diff, e.Margin, 100*e.LOS)
}

// Elo estimates the Elo difference from the match and its 95% error margin.
//
// The score's standard error is the standard deviation of the per-game result
// (1, 0.5 or 0) divided by the square root of the number of games; the interval
// is the score ± 1.96 standard errors, clamped to [0, 1], mapped through
// EloDifference, and the margin is half its width. This is the estimate the
// usual engine-match tools print. LOS = Φ((W - L) / sqrt(W + L)).
func (m Match) Elo() (Elo, error) {
	if m.Wins < 0 || m.Draws < 0 || m.Losses < 0 {
		return Elo{}, fmt.Errorf("%w: match score %d/%d/%d has a negative count", ErrBadInput, m.Wins, m.Draws, m.Losses)
	}
	n := float64(m.Games())
	if n == 0 {
		return Elo{}, fmt.Errorf("%w: a match with no games has no Elo estimate", ErrBadInput)
	}
	s := m.Score()
	w, d, l := float64(m.Wins)/n, float64(m.Draws)/n, float64(m.Losses)/n
	variance := w*(1-s)*(1-s) + d*(0.5-s)*(0.5-s) + l*s*s
	se := math.Sqrt(variance / n)
	lo := math.Max(0, s-z975*se)
	hi := math.Min(1, s+z975*se)
	margin := math.Inf(1)
	if lo > 0 && hi < 1 {
		margin = (EloDifference(hi) - EloDifference(lo)) / 2
	}
	los := 0.5
	if decisive := float64(m.Wins + m.Losses); decisive > 0 {
		los = 0.5 * (1 + math.Erf(float64(m.Wins-m.Losses)/math.Sqrt(2*decisive)))
	}
	return Elo{Diff: EloDifference(s), Margin: margin, LOS: los}, nil
}
