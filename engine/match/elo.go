package match

import (
	"errors"
	"fmt"
	"math"

	"github.com/missivechess/missive/rules"
)

// ErrBadRecord marks a match record that has no Elo estimate: no games, or a
// negative count.
var ErrBadRecord = errors.New("match: bad record")

// z975 is the 97.5% quantile of the standard normal distribution: a two-sided
// 95% interval is the mean ± z975 standard errors.
const z975 = 1.959963984540054

// EloDifference returns the Elo difference that makes score the expected score
// of the stronger side under the logistic model: 400·log10(score / (1 - score)). A
// score of 0.5 gives 0, 0.75 gives about 190.85; 0 and 1 give -Inf and +Inf.
func EloDifference(score float64) float64 {
	return 400 * math.Log10(score/(1-score))
}

// Record is the score of a match from its first player's side.
type Record struct {
	Wins, Draws, Losses int
}

// Add counts a finished game whose outcome is o, the first player having played
// side first: a win, a loss, or else a draw.
func (r *Record) Add(o rules.Outcome, first rules.Side) {
	switch {
	case o.Status == rules.Won && o.Winner == first:
		r.Wins++
	case o.Status == rules.Won:
		r.Losses++
	default:
		r.Draws++
	}
}

// Games returns the number of games of the match.
func (r Record) Games() int { return r.Wins + r.Draws + r.Losses }

// Points returns the first player's points: a win counts 1, a draw ½.
func (r Record) Points() float64 { return float64(r.Wins) + float64(r.Draws)/2 }

// Score returns the first player's share of the points, from 0 to 1 (0 for no games).
func (r Record) Score() float64 {
	if r.Games() == 0 {
		return 0
	}
	return r.Points() / float64(r.Games())
}

// Estimate is an estimate of the Elo difference between two players from a match.
type Estimate struct {
	// Diff is the Elo difference implied by the score (positive: the first
	// player is stronger); ±Inf when one side scored every point.
	Diff float64
	// Margin is the half-width of the 95% confidence interval of Diff; +Inf
	// when the interval reaches a score of 0 or 1, or when every game had the
	// same result (a sample without spread gives no margin).
	Margin float64
	// LOS is the likelihood of superiority of the first player, from 0 to 1,
	// computed from wins and losses alone.
	LOS float64
}

// Elo estimates the Elo difference from the match and its 95% error margin.
//
// The score's standard error is the standard deviation of the per-game result
// (1, 0.5 or 0) divided by the square root of the number of games; the interval
// is the score ± 1.96 standard errors, clamped to [0, 1], mapped through
// EloDifference, and the margin is half its width. This is the estimate the
// usual engine-match tools print. LOS = Φ((W - L) / sqrt(W + L)).
func (r Record) Elo() (Estimate, error) {
	if r.Wins < 0 || r.Draws < 0 || r.Losses < 0 {
		return Estimate{}, fmt.Errorf("%w: match score %d/%d/%d has a negative count", ErrBadRecord, r.Wins, r.Draws, r.Losses)
	}
	n := float64(r.Games())
	if n == 0 {
		return Estimate{}, fmt.Errorf("%w: a match with no games has no Elo estimate", ErrBadRecord)
	}
	s := r.Score()
	w, d, l := float64(r.Wins)/n, float64(r.Draws)/n, float64(r.Losses)/n
	variance := w*(1-s)*(1-s) + d*(0.5-s)*(0.5-s) + l*s*s
	se := math.Sqrt(variance / n)
	lo := math.Max(0, s-z975*se)
	hi := math.Min(1, s+z975*se)
	margin := math.Inf(1)
	if lo > 0 && hi < 1 && se > 0 {
		margin = (EloDifference(hi) - EloDifference(lo)) / 2
	}
	los := 0.5
	if decisive := float64(r.Wins + r.Losses); decisive > 0 {
		los = 0.5 * (1 + math.Erf(float64(r.Wins-r.Losses)/math.Sqrt(2*decisive)))
	}
	return Estimate{Diff: EloDifference(s), Margin: margin, LOS: los}, nil
}

// sweepBound returns the Elo difference that a clean sweep of n games shows at
// least, with 95% confidence: the lower end of the exact (Clopper-Pearson)
// two-sided interval of the win rate, 0.025^(1/n), which bounds the score from
// below.
func sweepBound(n int) float64 {
	return EloDifference(math.Pow(0.025, 1/float64(n)))
}

// EloText writes the Elo difference of the match for people, first being the
// first player's name; the command line and the bot word it alike. A one-sided
// score is unbounded: it is never written as a clamped figure, nor as infinity.
func (r Record) EloText(first string) string {
	e, err := r.Elo()
	switch {
	case err != nil:
		return "not known before a game is finished"
	case math.IsInf(e.Diff, 0):
		did, bound, word := "won", sweepBound(r.Games()), "at least"
		if e.Diff < 0 {
			did, bound, word = "lost", -bound, "at most"
		}
		if bound*e.Diff <= 0 { // too few games for the bound to be on the winner's side
			return fmt.Sprintf("unbounded, as %s %s every game; play more games for an estimate", first, did)
		}
		return fmt.Sprintf("unbounded, as %s %s every game; %s %+.0f with 95%% confidence", first, did, word, bound)
	case r.Draws == r.Games():
		return "+0, as every game was drawn; play more games for an error margin"
	case math.IsInf(e.Margin, 0):
		return fmt.Sprintf("%+.0f, margin too wide to say with so few games", e.Diff)
	}
	return fmt.Sprintf("%+.0f ± %.0f (95%%), likelihood of superiority %.1f%%", e.Diff, e.Margin, 100*e.LOS)
}
