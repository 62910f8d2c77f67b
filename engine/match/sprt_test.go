package match

import (
	"errors"
	"math"
	"testing"
)

// The expected ratios below were computed independently (Python, the GSPRT
// formula of Fishtest's stat_util with its 1e-3 regularisation); the first is
// also worked by hand: μ = 0.7, σ² = 0.16, s1 - s0 = 0.014389,
// 100 · 0.014389 · 0.385611 / 0.32 ≈ 1.734.
func TestSPRTLLRKnownValues(t *testing.T) {
	cases := []struct {
		name string
		sprt SPRT
		llr  func(SPRT) float64
		want float64
	}{
		{"trinomial +60 =20 -20, [0,10]", SPRT{0, 10, 0.05, 0.05}, func(s SPRT) float64 { return s.LLR(Record{Wins: 60, Draws: 20, Losses: 20}) }, 1.7336962023912044},
		{"trinomial +1100 =1500 -1000, [0,5]", SPRT{0, 5, 0.05, 0.05}, func(s SPRT) float64 { return s.LLR(Record{Wins: 1100, Draws: 1500, Losses: 1000}) }, 1.8303256187348835},
		{"trinomial +1000 =1500 -1100, [-3,3]", SPRT{-3, 3, 0.05, 0.05}, func(s SPRT) float64 { return s.LLR(Record{Wins: 1000, Draws: 1500, Losses: 1100}) }, -2.964313665290699},
		{"pentanomial 10/80/200/100/12, [0,5]", SPRT{0, 5, 0.05, 0.05}, func(s SPRT) float64 { return s.LLR5(Pentanomial{10, 80, 200, 100, 12}) }, 0.7905609214457612},
		{"pentanomial sweep of 10 pairs, [0,5]", SPRT{0, 5, 0.05, 0.05}, func(s SPRT) float64 { return s.LLR5(Pentanomial{0, 0, 0, 0, 10}) }, 190.64640416187558},
	}
	for _, c := range cases {
		if got := c.llr(c.sprt); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: LLR = %.12f, want %.12f", c.name, got, c.want)
		}
	}
}

func TestSPRTBoundsAndVerdicts(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	lo, hi := s.Bounds()
	if math.Abs(lo+2.9444389791664403) > 1e-12 || math.Abs(hi-2.9444389791664403) > 1e-12 {
		t.Fatalf("bounds = %v, %v; want ±2.944439", lo, hi)
	}
	for _, c := range []struct {
		llr  float64
		want Verdict
	}{{0, Continue}, {2.9, Continue}, {-2.9, Continue}, {3, AcceptH1}, {-3, AcceptH0}} {
		if got := s.Decide(c.llr); got != c.want {
			t.Errorf("Decide(%v) = %v, want %v", c.llr, got, c.want)
		}
	}
	// An even match leans to H0 when H1 is a gain, and no games leave it undecided.
	if llr := s.LLR(Record{Wins: 300, Draws: 400, Losses: 300}); llr >= 0 {
		t.Errorf("an even match gives LLR %v, want below 0", llr)
	}
	if llr := s.LLR(Record{}); llr != 0 {
		t.Errorf("no games give LLR %v, want 0", llr)
	}
}

func TestSPRTValidate(t *testing.T) {
	for _, bad := range []SPRT{{5, 0, 0.05, 0.05}, {0, 0, 0.05, 0.05}, {0, 5, 0, 0.05}, {0, 5, 0.05, 0.5}} {
		if err := bad.Validate(); !errors.Is(err, ErrBadSPRT) {
			t.Errorf("%+v: Validate = %v, want ErrBadSPRT", bad, err)
		}
	}
	if err := (SPRT{0, 5, 0.05, 0.05}).Validate(); err != nil {
		t.Errorf("good parameters refused: %v", err)
	}
}

// A lopsided start decides nothing before MinPairs pairs, however large its ratio.
func TestSPRTVerdictWaitsForMinPairs(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	if llr := s.LLR5(Pentanomial{0, 0, 0, 0, 1}); llr < 3 {
		t.Fatalf("one won pair gives LLR %v; the guard below would test nothing", llr)
	}
	if v := s.Verdict(Pentanomial{0, 0, 0, 0, MinPairs - 1}); v != Continue {
		t.Errorf("%d won pairs: %v, want undecided", MinPairs-1, v)
	}
	if v := s.Verdict(Pentanomial{0, 0, 0, 0, MinPairs}); v != AcceptH1 {
		t.Errorf("%d won pairs: %v, want H1", MinPairs, v)
	}
	if v := s.Verdict(Pentanomial{MinPairs, 0, 0, 0, 0}); v != AcceptH0 {
		t.Errorf("%d lost pairs: %v, want H0", MinPairs, v)
	}
}
