package rating

import (
	"errors"
	"math"
	"testing"
)

func TestEloDifference(t *testing.T) {
	cases := []struct{ score, want float64 }{
		{0.5, 0},
		{0.75, 190.848501887865}, // 400·log10(3)
		{0.25, -190.848501887865},
		{10.0 / 11, 400}, // odds 10:1 are 400 points
		{1.0 / 11, -400},
		{1, math.Inf(1)},
		{0, math.Inf(-1)},
	}
	for _, c := range cases {
		got := EloDifference(c.score)
		if math.IsInf(c.want, 0) && got != c.want || !math.IsInf(c.want, 0) && math.Abs(got-c.want) > 1e-9 {
			t.Errorf("EloDifference(%v) = %v, want %v", c.score, got, c.want)
		}
	}
}

func TestMatchElo(t *testing.T) {
	cases := []struct {
		m                 Match
		diff, margin, los float64
	}{
		// 50 wins and 50 losses: score 0.5, per-game deviation 0.5, standard
		// error 0.05, interval 0.5 ± 0.098 = [0.402, 0.598]: ±68.99 Elo.
		{Match{50, 0, 50}, 0, 68.9887510667099, 0.5},
		// Draws narrow the interval: deviation sqrt(0.3·0.25) ≈ 0.274.
		{Match{30, 40, 30}, 0, 53.157979780053196, 0.5},
		{Match{60, 20, 20}, 147.19071411783776, 66.01338122038528, 0.9999961278917845},
		{Match{10, 5, 5}, 88.73949984654251, 143.87485226389836, 0.9016471987705266},
		{Match{120, 200, 80}, 34.86007028756008, 24.114195309073608, 0.9976611325094764},
		// The mirror image.
		{Match{80, 200, 120}, -34.86007028756008, 24.114195309073608, 1 - 0.9976611325094764},
	}
	for _, c := range cases {
		got, err := c.m.Elo()
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.Diff-c.diff) > 1e-9 || math.Abs(got.Margin-c.margin) > 1e-9 || math.Abs(got.LOS-c.los) > 1e-9 {
			t.Errorf("%+v.Elo() = %+v, want %v ± %v, LOS %v", c.m, got, c.diff, c.margin, c.los)
		}
	}
	if got, _ := (Match{10, 0, 0}).Elo(); !math.IsInf(got.Diff, 1) || !math.IsInf(got.Margin, 1) {
		t.Errorf("a clean sweep gives %+v, want +Inf ± Inf", got)
	}
	if got, _ := (Match{50, 0, 50}).Elo(); got.String() != "+0.0 ± 69.0 (LOS 50.0%)" {
		t.Errorf("String = %q", got.String())
	}
	for _, bad := range []Match{{}, {-1, 2, 3}} {
		if _, err := bad.Elo(); !errors.Is(err, ErrBadInput) {
			t.Errorf("%+v.Elo() error %v, want ErrBadInput", bad, err)
		}
	}
}
