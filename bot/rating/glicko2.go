package rating

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Defaults of the rating system; see Config for what each one controls.
const (
	// DefaultValue is the rating of an unrated player (Glickman, step 1).
	DefaultValue = 1500.0
	// DefaultRD is the rating deviation of an unrated player and the ceiling of
	// the inactivity growth.
	DefaultRD = 350.0
	// DefaultVolatility is the volatility of an unrated player.
	DefaultVolatility = 0.06
	// DefaultTau is the system constant τ, which limits how fast volatility moves.
	DefaultTau = 0.5
	// DefaultPeriod is the idle time that counts as one rating period for the
	// growth of RD while a player does not play.
	DefaultPeriod = 7 * 24 * time.Hour
	// DefaultProvisionalRD is the RD above which a rating is provisional.
	DefaultProvisionalRD = 110.0
	// DefaultProvisionalGames is the number of rated games below which a rating
	// is provisional whatever its RD.
	DefaultProvisionalGames = 5
)

// MaxTau is the largest system constant Config.Validate accepts.
const MaxTau = 10.0

// Scale is the factor between the Glicko scale and the Glicko-2 scale
// (400 / ln 10), as given in Glickman's description.
const Scale = 173.7178

// convergence is the tolerance ε of the Illinois iteration (Glickman, step 5).
const convergence = 0.000001

// maxIterations bounds the volatility iteration and its bracketing search so that
// no input can keep them running; the published example converges in 7.
const maxIterations = 200

// ErrBadInput marks a rating, score or configuration that cannot be rated.
var ErrBadInput = errors.New("rating: bad input")

// Rating is one player's Glicko-2 rating on the Glicko scale, as persisted.
//
// The JSON field names are stable: they are stored in the database.
type Rating struct {
	// Value is the rating r (1500 for a new player).
	Value float64 `json:"rating"`
	// RD is the rating deviation: the 95% interval is Value ± 2 RD.
	RD float64 `json:"rd"`
	// Volatility is σ, the expected fluctuation of the rating.
	Volatility float64 `json:"volatility"`
	// Games is the number of rated games played.
	Games int `json:"games"`
	// Last is when the last rated game ended; zero for a player who has none.
	// RD grows with the time since Last (see Config.At).
	Last time.Time `json:"last,omitzero"`
}

// New returns the rating of a player who has not played yet: 1500, RD 350, σ 0.06.
func New() Rating {
	return Rating{Value: DefaultValue, RD: DefaultRD, Volatility: DefaultVolatility}
}

// Interval returns the 95% confidence interval of the rating, Value ± 2 RD, as
// Glickman's description gives it.
func (r Rating) Interval() (low, high float64) {
	return r.Value - 2*r.RD, r.Value + 2*r.RD
}

// String formats the rating as "1500 ± 700".
func (r Rating) String() string {
	return fmt.Sprintf("%.0f ± %.0f", r.Value, 2*r.RD)
}

// Limits of the ratings the package accepts; anything beyond them is a damaged
// record, not a player.
const (
	// ValueLimit bounds the rating value.
	ValueLimit = 1e5
	// RDLimit bounds the rating deviation.
	RDLimit = 1e4
	// MinVolatility and MaxVolatility bound the volatility.
	MinVolatility, MaxVolatility = 1e-6, 10.0
)

// Validate reports whether the rating can take part in a computation: a finite
// value within ±ValueLimit, an RD above 0 and at most RDLimit, a volatility from
// MinVolatility to MaxVolatility, a non-negative game count.
func (r Rating) Validate() error {
	switch {
	case !(math.Abs(r.Value) <= ValueLimit):
		return fmt.Errorf("%w: rating value %v is not a number within ±%g", ErrBadInput, r.Value, ValueLimit)
	case !(r.RD > 0 && r.RD <= RDLimit):
		return fmt.Errorf("%w: rating deviation %v must be above 0 and at most %g", ErrBadInput, r.RD, RDLimit)
	case !(r.Volatility >= MinVolatility && r.Volatility <= MaxVolatility):
		return fmt.Errorf("%w: volatility %v must be from %g to %g", ErrBadInput, r.Volatility, MinVolatility, MaxVolatility)
	case r.Games < 0:
		return fmt.Errorf("%w: game count %d is negative", ErrBadInput, r.Games)
	}
	return nil
}

// Result is one game of a rating period from the rated player's side.
type Result struct {
	// Opponent is the opponent's rating before the period.
	Opponent Rating
	// Score is 1 for a win, 0.5 for a draw and 0 for a loss.
	Score float64
}

// Config holds the parameters of the rating system; the zero value is not
// usable, start from DefaultConfig.
type Config struct {
	// Tau is the system constant τ (Glickman suggests 0.3 to 1.2).
	Tau float64
	// Period is the idle time that counts as one rating period when RD grows
	// for inactivity (see At).
	Period time.Duration
	// MaxRD caps the growth of RD for inactivity.
	MaxRD float64
	// ProvisionalRD is the RD above which a rating is provisional.
	ProvisionalRD float64
	// ProvisionalGames is the number of rated games below which a rating is
	// provisional.
	ProvisionalGames int
}

// DefaultConfig returns the configuration Missive uses unless told otherwise.
func DefaultConfig() Config {
	return Config{
		Tau:              DefaultTau,
		Period:           DefaultPeriod,
		MaxRD:            DefaultRD,
		ProvisionalRD:    DefaultProvisionalRD,
		ProvisionalGames: DefaultProvisionalGames,
	}
}

// Validate reports whether the configuration is usable.
func (c Config) Validate() error {
	switch {
	case !(c.Tau > 0 && c.Tau <= MaxTau):
		return fmt.Errorf("%w: the system constant tau is %v; give a number above 0 and at most %v (Glickman suggests 0.3 to 1.2)", ErrBadInput, c.Tau, MaxTau)
	case c.Period <= 0:
		return fmt.Errorf("%w: the rating period is %v; give a positive duration such as 168h", ErrBadInput, c.Period)
	case !(c.MaxRD > 0) || math.IsInf(c.MaxRD, 0):
		return fmt.Errorf("%w: the maximum RD is %v; give a positive number such as 350", ErrBadInput, c.MaxRD)
	case !(c.ProvisionalRD >= 0) || math.IsInf(c.ProvisionalRD, 0):
		return fmt.Errorf("%w: the provisional RD threshold is %v; give a number such as 110", ErrBadInput, c.ProvisionalRD)
	case c.ProvisionalGames < 0:
		return fmt.Errorf("%w: the provisional game count is %d; give zero or more", ErrBadInput, c.ProvisionalGames)
	}
	return nil
}

// Provisional reports whether the rating is provisional: RD above
// ProvisionalRD, or fewer than ProvisionalGames rated games.
func (c Config) Provisional(r Rating) bool {
	return r.RD > c.ProvisionalRD || r.Games < c.ProvisionalGames
}

// Idle returns the rating after the given number of rating periods without a
// game: Glickman's step 6 alone, φ' = sqrt(φ² + n·σ²), the value and the
// volatility unchanged and RD capped at MaxRD. The number of periods may be
// fractional; zero or less changes nothing.
func (c Config) Idle(r Rating, periods float64) Rating {
	if !(periods > 0) {
		return r
	}
	phi := r.RD / Scale
	phi = math.Sqrt(phi*phi + periods*r.Volatility*r.Volatility)
	r.RD = math.Min(phi*Scale, math.Max(c.MaxRD, r.RD))
	return r
}

// At returns the rating as it stands at time t: RD grown for the idle rating
// periods (Period each, fractional) since the last rated game, as Idle does. A
// rating with no game yet, or a time before its last game, is returned as it is.
// Use it to show a rating and before rating a game; the stored value is not
// changed by the passing of time.
func (c Config) At(r Rating, t time.Time) Rating {
	if r.Last.IsZero() || !t.After(r.Last) || c.Period <= 0 {
		return r
	}
	return c.Idle(r, float64(t.Sub(r.Last))/float64(c.Period))
}

// Game rates one finished game between a and b ending at time at, where scoreA
// is a's score (1, 0.5 or 0; b scores 1 - scoreA). Both ratings are first
// brought to time at (At), then the game is applied as a rating period of its
// own for each player against the other's pre-game rating. Both game counts
// grow by one and Last becomes at. On an error both come back unchanged.
func (c Config) Game(a, b Rating, scoreA float64, at time.Time) (Rating, Rating, error) {
	preA, preB := c.At(a, at), c.At(b, at)
	newA, err := c.Update(preA, []Result{{Opponent: preB, Score: scoreA}})
	if err != nil {
		return a, b, err
	}
	newB, err := c.Update(preB, []Result{{Opponent: preA, Score: 1 - scoreA}})
	if err != nil {
		return a, b, err
	}
	newA.Last, newB.Last = at, at
	return newA, newB, nil
}

// Update applies one rating period to the player: Glickman's steps 2 to 8 over
// the period's results against the opponents' pre-period ratings. With no
// results only step 6 applies (RD grows by one period, uncapped, as in the
// paper). The game count grows by the number of results; Last is left to the
// caller.
func (c Config) Update(r Rating, results []Result) (Rating, error) {
	if err := c.Validate(); err != nil {
		return r, err
	}
	if err := r.Validate(); err != nil {
		return r, err
	}
	for i, res := range results {
		if err := res.Opponent.Validate(); err != nil {
			return r, fmt.Errorf("opponent of game %d: %w", i+1, err)
		}
		if !(res.Score >= 0 && res.Score <= 1) {
			return r, fmt.Errorf("%w: score %v of game %d must be between 0 and 1", ErrBadInput, res.Score, i+1)
		}
	}
	s := c.period(r, results)
	out := r
	out.Value = s.mu*Scale + DefaultValue
	out.RD = s.phi * Scale
	out.Volatility = s.sigma
	out.Games += len(results)
	return out, nil
}

// steps holds the quantities of one rating period on the Glicko-2 scale, kept
// apart so that tests can check them against the published example.
type steps struct {
	v, delta         float64 // estimated variance and improvement (steps 3, 4)
	sigma            float64 // new volatility (step 5)
	phiStar          float64 // pre-period deviation (step 6)
	mu, phi          float64 // new rating and deviation (step 7)
	volatilityRounds int     // iterations of the Illinois algorithm
}

// g is Glickman's g(φ), which discounts a game by the opponent's uncertainty.
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// maxLogit bounds the argument of the logistic function in expected, so that an
// expected score is never exactly 0 or 1 (which would make v infinite). It only
// matters for rating differences beyond about 5,000 points.
const maxLogit = 30

// expected is Glickman's E(μ, μj, φj), the expected score against opponent j.
func expected(mu, muJ, phiJ float64) float64 {
	x := math.Max(-maxLogit, math.Min(maxLogit, g(phiJ)*(mu-muJ)))
	return 1 / (1 + math.Exp(-x))
}

// period computes one rating period on validated input.
func (c Config) period(r Rating, results []Result) steps {
	mu := (r.Value - DefaultValue) / Scale
	phi := r.RD / Scale
	sigma := r.Volatility
	if len(results) == 0 {
		ps := math.Sqrt(phi*phi + sigma*sigma)
		return steps{sigma: sigma, phiStar: ps, mu: mu, phi: ps}
	}
	var info, sum float64 // Σ g²E(1-E) and Σ g(s-E)
	for _, res := range results {
		muJ := (res.Opponent.Value - DefaultValue) / Scale
		phiJ := res.Opponent.RD / Scale
		gj, e := g(phiJ), expected(mu, muJ, phiJ)
		info += gj * gj * e * (1 - e)
		sum += gj * (res.Score - e)
	}
	v := 1 / info
	delta := v * sum
	newSigma, rounds := c.volatility(phi, sigma, v, delta)
	phiStar := math.Sqrt(phi*phi + newSigma*newSigma)
	newPhi := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	return steps{
		v: v, delta: delta, sigma: newSigma, phiStar: phiStar,
		mu: mu + newPhi*newPhi*sum, phi: newPhi, volatilityRounds: rounds,
	}
}

// volatility is step 5: the Illinois algorithm (regula falsi with the Illinois
// modification) for the root of f, exactly as in Glickman's description, with
// "f(C)·f(B) ≤ 0" so that a root hit exactly ends the iteration.
func (c Config) volatility(phi, sigma, v, delta float64) (float64, int) {
	tau := c.Tau
	a := math.Log(sigma * sigma)
	d2, p2 := delta*delta, phi*phi
	f := func(x float64) float64 {
		ex := math.Exp(x)
		den := p2 + v + ex
		return ex*(d2-p2-v-ex)/(2*den*den) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if d2 > p2+v {
		B = math.Log(d2 - p2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 && k < maxIterations {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	rounds := 0
	for math.Abs(B-A) > convergence && rounds < maxIterations {
		rounds++
		if fB == fA { // flat: no secant; A and B are as good as each other
			break
		}
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2), rounds
}
