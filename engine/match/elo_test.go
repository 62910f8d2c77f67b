package match

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
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

func TestRecordElo(t *testing.T) {
	cases := []struct {
		r                 Record
		diff, margin, los float64
	}{
		// 50 wins and 50 losses: score 0.5, per-game deviation 0.5, standard
		// error 0.05, interval 0.5 ± 0.098 = [0.402, 0.598]: ±68.99 Elo.
		{Record{50, 0, 50}, 0, 68.9887510667099, 0.5},
		// Draws narrow the interval: deviation sqrt(0.3·0.25) ≈ 0.274.
		{Record{30, 40, 30}, 0, 53.157979780053196, 0.5},
		{Record{60, 20, 20}, 147.19071411783776, 66.01338122038528, 0.9999961278917845},
		{Record{10, 5, 5}, 88.73949984654251, 143.87485226389836, 0.9016471987705266},
		{Record{120, 200, 80}, 34.86007028756008, 24.114195309073608, 0.9976611325094764},
		// The mirror image.
		{Record{80, 200, 120}, -34.86007028756008, 24.114195309073608, 1 - 0.9976611325094764},
	}
	for _, c := range cases {
		got, err := c.r.Elo()
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.Diff-c.diff) > 1e-9 || math.Abs(got.Margin-c.margin) > 1e-9 || math.Abs(got.LOS-c.los) > 1e-9 {
			t.Errorf("%+v.Elo() = %+v, want %v ± %v, LOS %v", c.r, got, c.diff, c.margin, c.los)
		}
	}
	if got, _ := (Record{10, 0, 0}).Elo(); !math.IsInf(got.Diff, 1) || !math.IsInf(got.Margin, 1) {
		t.Errorf("a clean sweep gives %+v, want +Inf ± Inf", got)
	}
	if got := (Record{50, 0, 50}).EloText("a"); got != "+0 ± 69 (95%), likelihood of superiority 50.0%" {
		t.Errorf("EloText = %q", got)
	}
	for _, bad := range []Record{{}, {-1, 2, 3}} {
		if _, err := bad.Elo(); !errors.Is(err, ErrBadRecord) {
			t.Errorf("%+v.Elo() error %v, want ErrBadRecord", bad, err)
		}
	}
}

// A one-sided score is unbounded: never a clamped figure with a zero margin, never
// infinity. With enough games the exact interval bounds it on one side.
func TestEloTextOneSided(t *testing.T) {
	cases := []struct {
		r    Record
		want string
	}{
		{Record{Wins: 2}, "unbounded, as a won every game; play more games for an estimate"},
		{Record{Losses: 1}, "unbounded, as a lost every game; play more games for an estimate"},
		// 0.025^(1/10) = 0.6915: the score is at least that, 140.2 Elo.
		{Record{Wins: 10}, "unbounded, as a won every game; at least +140 with 95% confidence"},
		{Record{Losses: 10}, "unbounded, as a lost every game; at most -140 with 95% confidence"},
		{Record{Draws: 4}, "+0, as every game was drawn; play more games for an error margin"},
		{Record{Wins: 2, Draws: 1, Losses: 1}, "+89, margin too wide to say with so few games"},
		{Record{}, "not known before a game is finished"},
	}
	for _, c := range cases {
		got := c.r.EloText("a")
		if got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
		if strings.Contains(got, "Inf") || strings.Contains(got, "∞") || strings.Contains(got, "± 0") {
			t.Errorf("%+v: %q shows infinity or a zero margin", c.r, got)
		}
	}
	// Five games are too few for the bound to reach the winner's side; six are not.
	if b := sweepBound(5); b >= 0 {
		t.Errorf("bound of 5 wins %v, want below 0", b)
	}
	if b := sweepBound(6); b <= 0 {
		t.Errorf("bound of 6 wins %v, want above 0", b)
	}
}

func TestRecordAdd(t *testing.T) {
	var r Record
	r.Add(rules.Win(rules.White, rules.Checkmate), rules.White)
	r.Add(rules.Win(rules.White, rules.Checkmate), rules.Black)
	r.Add(rules.Win(rules.Black, rules.Resignation), rules.Black)
	r.Add(rules.Draw(rules.Adjudication), rules.White)
	if r != (Record{Wins: 2, Draws: 1, Losses: 1}) || r.Points() != 2.5 || r.Score() != 0.625 {
		t.Errorf("record %+v, points %v", r, r.Points())
	}
}

func ExampleRecord_EloText() {
	r := Record{Wins: 60, Draws: 20, Losses: 20}
	e, _ := r.Elo()
	fmt.Printf("%+.1f ± %.1f (LOS %.1f%%)\n", e.Diff, e.Margin, 100*e.LOS)
	fmt.Println(r.EloText("alice"))
	fmt.Println(Record{Wins: 12}.EloText("alice"))
	// Output:
	// +147.2 ± 66.0 (LOS 100.0%)
	// +147 ± 66 (95%), likelihood of superiority 100.0%
	// unbounded, as alice won every game; at least +178 with 95% confidence
}
