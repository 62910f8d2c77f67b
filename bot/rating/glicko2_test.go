package rating

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

// paperFigure is a number printed in the paper, kept as text so that the test
// knows how many decimal places the paper gives.
type paperFigure = json.Number

type example struct {
	Tau    float64 `json:"tau"`
	Player Rating  `json:"player"`
	Games  []struct {
		Opponent Rating  `json:"opponent"`
		Score    float64 `json:"score"`
	} `json:"games"`
	Paper struct {
		Mu, Phi   paperFigure
		MuJ       []paperFigure `json:"mu_j"`
		PhiJ      []paperFigure `json:"phi_j"`
		G, E      []paperFigure
		V, Delta  paperFigure
		SigmaNew  paperFigure `json:"sigma_new"`
		PhiStar   paperFigure `json:"phi_star"`
		PhiNew    paperFigure `json:"phi_new"`
		MuNew     paperFigure `json:"mu_new"`
		RatingNew paperFigure `json:"rating_new"`
		RDNew     paperFigure `json:"rd_new"`
	} `json:"paper"`
}

func loadExample(t *testing.T) example {
	t.Helper()
	data, err := os.ReadFile("testdata/glicko2_example.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var ex example
	if err := dec.Decode(&ex); err != nil {
		t.Fatal(err)
	}
	return ex
}

// decimals returns the number of decimal places the paper prints.
func decimals(f paperFigure) int {
	s := string(f)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

func value(t *testing.T, f paperFigure) float64 {
	t.Helper()
	x, err := f.Float64()
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// roundsTo checks that got, rounded to the paper's number of decimals, is the
// paper's figure.
func roundsTo(t *testing.T, name string, got float64, paper paperFigure) {
	t.Helper()
	want := value(t, paper)
	unit := math.Pow(10, -float64(decimals(paper)))
	if math.Abs(got-want) > unit/2+1e-12 {
		t.Errorf("%s = %.8f, the paper prints %s", name, got, paper)
	}
}

// within checks that got is within tol of the paper's figure.
func within(t *testing.T, name string, got float64, paper paperFigure, tol float64) {
	t.Helper()
	if want := value(t, paper); math.Abs(got-want) > tol {
		t.Errorf("%s = %.8f, the paper prints %s (tolerance %g)", name, got, paper, tol)
	}
}

func (ex example) results() []Result {
	var rs []Result
	for _, g := range ex.Games {
		rs = append(rs, Result{Opponent: g.Opponent, Score: g.Score})
	}
	return rs
}

// TestGlickmanExample checks the worked example of Glickman's description step
// by step against the figures it prints, to the paper's precision.
//
// The paper computes by hand, carrying rounded intermediates: it rounds E to
// three places before computing v and Δ, and prints σ' truncated (0.059996 as
// 0.05999). So v and Δ are compared within the error that rounding causes,
// step 5 is checked on the paper's own inputs, and the final rating and RD are
// checked both as the paper gets them (converting its four-place μ' and φ') and
// at full precision.
func TestGlickmanExample(t *testing.T) {
	ex := loadExample(t)
	p := ex.Paper
	cfg := DefaultConfig()
	cfg.Tau = ex.Tau

	// Step 2: the Glicko-2 scale.
	mu := (ex.Player.Value - DefaultValue) / Scale
	phi := ex.Player.RD / Scale
	roundsTo(t, "mu", mu, p.Mu)
	roundsTo(t, "phi", phi, p.Phi)
	for j, g0 := range ex.Games {
		muJ := (g0.Opponent.Value - DefaultValue) / Scale
		phiJ := g0.Opponent.RD / Scale
		roundsTo(t, "mu_j", muJ, p.MuJ[j])
		roundsTo(t, "phi_j", phiJ, p.PhiJ[j])
		roundsTo(t, "g(phi_j)", g(phiJ), p.G[j])
		roundsTo(t, "E", expected(mu, muJ, phiJ), p.E[j])
	}

	s := cfg.period(ex.Player, ex.results())
	// Steps 3 and 4, from E rounded to three places in the paper.
	within(t, "v", s.v, p.V, 0.001)
	within(t, "delta", s.delta, p.Delta, 0.001)

	// Step 5 on the paper's own v and Δ: σ' to the last printed place.
	sigma, rounds := cfg.volatility(value(t, p.Phi), ex.Player.Volatility, value(t, p.V), value(t, p.Delta))
	within(t, "sigma' (paper inputs)", sigma, p.SigmaNew, 1e-5)
	if rounds == 0 || rounds > 20 {
		t.Errorf("the Illinois iteration took %d rounds", rounds)
	}
	// Step 6 on the paper's figures.
	ps := math.Sqrt(math.Pow(value(t, p.Phi), 2) + math.Pow(value(t, p.SigmaNew), 2))
	roundsTo(t, "phi* (paper inputs)", ps, p.PhiStar)

	// The whole computation at full precision.
	within(t, "sigma'", s.sigma, p.SigmaNew, 1e-5)
	within(t, "phi*", s.phiStar, p.PhiStar, 1e-5)
	roundsTo(t, "phi'", s.phi, p.PhiNew)
	roundsTo(t, "mu'", s.mu, p.MuNew)

	// Step 8 as the paper does it, from its four-place μ' and φ'.
	roundsTo(t, "r' from the paper's mu'", value(t, p.MuNew)*Scale+DefaultValue, p.RatingNew)
	roundsTo(t, "RD' from the paper's phi'", value(t, p.PhiNew)*Scale, p.RDNew)

	got, err := cfg.Update(ex.Player, ex.results())
	if err != nil {
		t.Fatal(err)
	}
	within(t, "r'", got.Value, p.RatingNew, 0.01)
	within(t, "RD'", got.RD, p.RDNew, 0.01)
	within(t, "sigma'", got.Volatility, p.SigmaNew, 1e-5)
	if got.Games != 3 {
		t.Errorf("games = %d, want 3", got.Games)
	}
}

func TestUpdateWithoutGamesIsStepSix(t *testing.T) {
	cfg := DefaultConfig()
	r := Rating{Value: 1700, RD: 80, Volatility: 0.06, Games: 12}
	got, err := cfg.Update(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantRD := math.Sqrt(80*80 + math.Pow(0.06*Scale, 2))
	if got.Value != 1700 || got.Volatility != 0.06 || got.Games != 12 || math.Abs(got.RD-wantRD) > 1e-9 {
		t.Errorf("Update with no games = %+v, want RD %.6f and everything else unchanged", got, wantRD)
	}
}

func TestIdleGrowth(t *testing.T) {
	cfg := DefaultConfig()
	r := Rating{Value: 1800, RD: 50, Volatility: 0.06, Games: 40}
	step := math.Pow(0.06*Scale, 2)
	for _, n := range []float64{0, 0.5, 1, 10, 52} {
		got := cfg.Idle(r, n)
		want := math.Sqrt(50*50 + n*step)
		if math.Abs(got.RD-want) > 1e-9 || got.Value != 1800 || got.Volatility != 0.06 {
			t.Errorf("Idle(%v) = %+v, want RD %.4f", n, got, want)
		}
	}
	// n periods at once equal n single periods.
	one := r
	for range 10 {
		one = cfg.Idle(one, 1)
	}
	if d := math.Abs(one.RD - cfg.Idle(r, 10).RD); d > 1e-9 {
		t.Errorf("ten single periods differ from ten at once by %g", d)
	}
	if got := cfg.Idle(r, 1e9); got.RD != DefaultRD {
		t.Errorf("RD after a very long absence = %v, want the cap %v", got.RD, DefaultRD)
	}
	// The claims of the package documentation, with a weekly period.
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	r.Last = start
	year := cfg.At(r, start.AddDate(1, 0, 0))
	if year.RD < 88 || year.RD > 92 {
		t.Errorf("RD 50 after a year idle = %.1f, the documentation says about 90", year.RD)
	}
	if cfg.Provisional(year) {
		t.Errorf("a 40-game player idle for a year is provisional at RD %.1f", year.RD)
	}
	if two := cfg.At(r, start.AddDate(2, 0, 0)); !cfg.Provisional(two) {
		t.Errorf("a player idle for two years is not provisional at RD %.1f", two.RD)
	}
	if same := cfg.At(r, start.Add(-time.Hour)); same != r {
		t.Errorf("At before the last game changed the rating: %+v", same)
	}
	if fresh := cfg.At(New(), start); fresh != New() {
		t.Errorf("At changed a rating with no game: %+v", fresh)
	}
}

func TestProvisional(t *testing.T) {
	cfg := DefaultConfig()
	cases := []struct {
		r    Rating
		want bool
	}{
		{New(), true},
		{Rating{Value: 1500, RD: 110, Volatility: 0.06, Games: 5}, false},
		{Rating{Value: 1500, RD: 110.01, Volatility: 0.06, Games: 50}, true},
		{Rating{Value: 1500, RD: 60, Volatility: 0.06, Games: 4}, true},
	}
	for _, c := range cases {
		if got := cfg.Provisional(c.r); got != c.want {
			t.Errorf("Provisional(%+v) = %v, want %v", c.r, got, c.want)
		}
	}
	// A new player leaves the provisional state after a dozen or so games
	// against an established opponent of equal strength, drawing each.
	r, opp := New(), Rating{Value: 1500, RD: 50, Volatility: 0.06, Games: 100}
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	n := 0
	for cfg.Provisional(r) && n < 100 {
		var err error
		r, _, err = cfg.Game(r, opp, 0.5, at)
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n < 8 || n > 16 {
		t.Errorf("a new player stopped being provisional after %d games (RD %.1f), want about 10", n, r.RD)
	}
}

func TestGame(t *testing.T) {
	cfg := DefaultConfig()
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	a := Rating{Value: 1600, RD: 120, Volatility: 0.06, Games: 10, Last: at.AddDate(0, -2, 0)}
	b := Rating{Value: 1450, RD: 200, Volatility: 0.07, Games: 3, Last: at.AddDate(0, 0, -3)}
	na, nb, err := cfg.Game(a, b, 1, at)
	if err != nil {
		t.Fatal(err)
	}
	// Each side is one rating period against the other's pre-game rating,
	// both brought to the time of the game first.
	wa, _ := cfg.Update(cfg.At(a, at), []Result{{Opponent: cfg.At(b, at), Score: 1}})
	wb, _ := cfg.Update(cfg.At(b, at), []Result{{Opponent: cfg.At(a, at), Score: 0}})
	wa.Last, wb.Last = at, at
	if na != wa || nb != wb {
		t.Errorf("Game = %+v, %+v; want %+v, %+v", na, nb, wa, wb)
	}
	if na.Games != 11 || nb.Games != 4 || !na.Last.Equal(at) || !nb.Last.Equal(at) {
		t.Errorf("game counts or times not updated: %+v %+v", na, nb)
	}
	// Swapping the players mirrors the result.
	sb, sa, err := cfg.Game(b, a, 0, at)
	if err != nil || sa != na || sb != nb {
		t.Errorf("Game(b, a, 0) = %+v, %+v, %v; want %+v, %+v", sb, sa, err, nb, na)
	}
}

func TestBadInput(t *testing.T) {
	cfg := DefaultConfig()
	good := New()
	nan := math.NaN()
	bad := []struct {
		name string
		cfg  Config
		r    Rating
		res  []Result
	}{
		{"NaN rating", cfg, Rating{Value: nan, RD: 100, Volatility: 0.06}, nil},
		{"zero RD", cfg, Rating{Value: 1500, RD: 0, Volatility: 0.06}, nil},
		{"negative volatility", cfg, Rating{Value: 1500, RD: 100, Volatility: -1}, nil},
		{"infinite RD", cfg, Rating{Value: 1500, RD: math.Inf(1), Volatility: 0.06}, nil},
		{"negative games", cfg, Rating{Value: 1500, RD: 100, Volatility: 0.06, Games: -1}, nil},
		{"score above 1", cfg, good, []Result{{Opponent: good, Score: 1.5}}},
		{"NaN score", cfg, good, []Result{{Opponent: good, Score: nan}}},
		{"bad opponent", cfg, good, []Result{{Opponent: Rating{Value: 1500, RD: -3, Volatility: 0.06}, Score: 1}}},
		{"zero tau", Config{Period: time.Hour, MaxRD: 350}, good, nil},
		{"huge tau", Config{Tau: 1e6, Period: time.Hour, MaxRD: 350}, good, nil},
		{"zero period", Config{Tau: 0.5, MaxRD: 350}, good, nil},
	}
	for _, c := range bad {
		got, err := c.cfg.Update(c.r, c.res)
		if !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: error %v, want ErrBadInput", c.name, err)
		}
		if !same(got, c.r) {
			t.Errorf("%s: the rating changed on bad input: %+v", c.name, got)
		}
	}
}

// same reports whether two ratings are identical, NaNs included.
func same(a, b Rating) bool {
	bits := math.Float64bits
	return bits(a.Value) == bits(b.Value) && bits(a.RD) == bits(b.RD) &&
		bits(a.Volatility) == bits(b.Volatility) && a.Games == b.Games && a.Last.Equal(b.Last)
}

func TestGameBadInputChangesNothing(t *testing.T) {
	cfg := DefaultConfig()
	at := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	a := Rating{Value: 1600, RD: 120, Volatility: 0.06, Games: 10, Last: at.AddDate(-1, 0, 0)}
	b := Rating{Value: 1500, RD: 0, Volatility: 0.06}
	for _, c := range []struct {
		a, b  Rating
		score float64
	}{{a, b, 1}, {b, a, 0}, {a, New(), 2}} {
		x, y, err := cfg.Game(c.a, c.b, c.score, at)
		if !errors.Is(err, ErrBadInput) || !same(x, c.a) || !same(y, c.b) {
			t.Errorf("Game(%v, %v, %v) = %+v, %+v, %v; want both unchanged and ErrBadInput", c.a, c.b, c.score, x, y, err)
		}
	}
}

func TestRatingJSONIsStable(t *testing.T) {
	want, err := os.ReadFile("testdata/rating.json")
	if err != nil {
		t.Fatal(err)
	}
	r := Rating{Value: 1623.5, RD: 87.25, Volatility: 0.0599, Games: 42,
		Last: time.Date(2025, 6, 1, 18, 30, 0, 0, time.UTC)}
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != strings.TrimSpace(string(want)) {
		t.Errorf("JSON of a rating changed:\n got %s\nwant %s", got, want)
	}
	var back Rating
	if err := json.Unmarshal(want, &back); err != nil || back != r {
		t.Errorf("decoding the stored form gives %+v, %v", back, err)
	}
	fresh, _ := json.Marshal(New())
	if string(fresh) != `{"rating":1500,"rd":350,"volatility":0.06,"games":0}` {
		t.Errorf("JSON of a new rating = %s", fresh)
	}
}

// randomRating draws a rating from a wide but realistic range.
func randomRating(rng *rand.Rand) Rating {
	return Rating{
		Value:      800 + 2000*rng.Float64(),
		RD:         30 + 320*rng.Float64(),
		Volatility: 0.03 + 0.07*rng.Float64(),
		Games:      rng.IntN(100),
	}
}

func TestProperties(t *testing.T) {
	cfg := DefaultConfig()
	rng := rand.New(rand.NewPCG(1, 2))
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3000 {
		a, b := randomRating(rng), randomRating(rng)
		win, _, err := cfg.Game(a, b, 1, at)
		if err != nil {
			t.Fatal(err)
		}
		draw, _, _ := cfg.Game(a, b, 0.5, at)
		loss, _, _ := cfg.Game(a, b, 0, at)
		if !(win.Value > a.Value) || !(loss.Value < a.Value) {
			t.Fatalf("case %d: %v vs %v: win → %.2f, loss → %.2f", i, a, b, win.Value, loss.Value)
		}
		if !(win.Value > draw.Value && draw.Value > loss.Value) {
			t.Fatalf("case %d: win %.2f, draw %.2f, loss %.2f not in order", i, win.Value, draw.Value, loss.Value)
		}
		// A draw pulls the rating toward the opponent's.
		if (b.Value-a.Value)*(draw.Value-a.Value) < 0 {
			t.Fatalf("case %d: a draw against %.0f moved %.0f to %.2f", i, b.Value, a.Value, draw.Value)
		}
		// A game shrinks the deviation below its pre-period value φ*. It
		// shrinks it below the old RD too when the game is informative enough
		// to outweigh the period's growth: an RD of 100 or more, the default
		// volatility, an opponent within 400 points whose RD is at most 200.
		informative := a.RD >= 100 && a.Volatility <= DefaultVolatility &&
			math.Abs(a.Value-b.Value) <= 400 && b.RD <= 200
		for _, r := range []Rating{win, draw, loss} {
			phiStar := math.Sqrt(math.Pow(a.RD/Scale, 2)+math.Pow(r.Volatility, 2)) * Scale
			if !(r.RD < phiStar) || (informative && !(r.RD < a.RD)) {
				t.Fatalf("case %d: RD %.2f became %.2f (φ* %.2f) against %v", i, a.RD, r.RD, phiStar, b)
			}
		}
		// Symmetry: two equal players exchange equal amounts.
		e := a
		e.Last = time.Time{}
		x, y, _ := cfg.Game(e, e, 1, at)
		if d := (x.Value - e.Value) + (y.Value - e.Value); math.Abs(d) > 1e-9 {
			t.Fatalf("case %d: equal players gained and lost unequally (%g)", i, d)
		}
		if x.RD != y.RD || x.Volatility != y.Volatility {
			t.Fatalf("case %d: equal players got different RDs or volatilities", i)
		}
	}
}

// checkFinite fails when a rating computed from valid input is not a valid
// rating itself.
func checkFinite(t *testing.T, in, out Rating) {
	t.Helper()
	for _, x := range []float64{out.Value, out.RD, out.Volatility} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("from %+v the result %+v is not finite", in, out)
		}
	}
	if !(out.RD > 0 && out.Volatility > 0) {
		t.Fatalf("from %+v the result %+v has a non-positive RD or volatility", in, out)
	}
}

func TestExtremeInputs(t *testing.T) {
	values := []float64{-ValueLimit, -3000, 0, 1500, 4000, ValueLimit}
	rds := []float64{1e-300, 1, 30, 350, RDLimit}
	vols := []float64{MinVolatility, 0.06, 1, MaxVolatility}
	taus := []float64{0.01, 0.5, 1.2, MaxTau}
	for _, tau := range taus {
		cfg := DefaultConfig()
		cfg.Tau = tau
		for _, v := range values {
			for _, rd := range rds {
				for _, vol := range vols {
					r := Rating{Value: v, RD: rd, Volatility: vol}
					for _, ov := range []float64{-ValueLimit, 1500, ValueLimit} {
						for _, s := range []float64{0, 0.5, 1} {
							opp := Rating{Value: ov, RD: 350, Volatility: 0.06}
							out, err := cfg.Update(r, []Result{{Opponent: opp, Score: s}})
							if err != nil {
								t.Fatal(err)
							}
							checkFinite(t, r, out)
						}
					}
					checkFinite(t, r, cfg.Idle(r, 1e12))
				}
			}
		}
	}
}

func FuzzUpdate(f *testing.F) {
	f.Add(1500.0, 200.0, 0.06, 1400.0, 30.0, 1.0, 0.5)
	f.Add(-1e5, 1e-6, 10.0, 1e5, 1e4, 1.0, 0.01)
	f.Add(2800.0, 45.0, 0.03, 900.0, 350.0, 0.0, 1.2)
	f.Fuzz(func(t *testing.T, value, rd, vol, oppValue, oppRD, score, tau float64) {
		cfg := DefaultConfig()
		cfg.Tau = tau
		r := Rating{Value: value, RD: rd, Volatility: vol}
		opp := Rating{Value: oppValue, RD: oppRD, Volatility: 0.06}
		out, err := cfg.Update(r, []Result{{Opponent: opp, Score: score}})
		if err != nil {
			if !errors.Is(err, ErrBadInput) || !same(out, r) {
				t.Fatalf("error %v changed the rating or is not ErrBadInput", err)
			}
			return
		}
		checkFinite(t, r, out)
	})
}
