package clock

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

var t0 = time.Date(2025, 3, 3, 12, 0, 0, 0, time.UTC)

// game returns a game in progress with White to move and the given clock.
func game(c storage.Clock) *storage.Game {
	return &storage.Game{Clock: c, ToMove: []rules.Side{rules.White}}
}

func TestDaysPerMove(t *testing.T) {
	g := game(storage.Clock{DaysPerMove: 2})
	Start(g, t0)
	if !g.Clock.Deadline.Equal(t0.Add(2*Day)) || !PeriodStart(g.Clock).Equal(t0) {
		t.Fatalf("deadline %v, period from %v", g.Clock.Deadline, PeriodStart(g.Clock))
	}
	if Late(g, t0.Add(2*Day-time.Minute)) != nil || len(Late(g, t0.Add(2*Day))) != 1 {
		t.Fatal("late before the deadline, or not late at it")
	}
	g.ToMove = []rules.Side{rules.Black}
	Advance(g, []rules.Side{rules.White}, false, t0.Add(Day))
	if !g.Clock.Deadline.Equal(t0.Add(3 * Day)) {
		t.Fatalf("the next period ends %v", g.Clock.Deadline)
	}
	GiveDay(g, rules.White) // White gives Black, who is to move, a day
	if !g.Clock.Deadline.Equal(t0.Add(4*Day)) || g.Clock.Given[rules.White] != 1 {
		t.Fatalf("after a day given: %v, given %v", g.Clock.Deadline, g.Clock.Given)
	}
	if !Runs(g.Clock) || Runs(storage.Clock{}) {
		t.Fatal("Runs")
	}
}

func TestBank(t *testing.T) {
	b, err := ParseBank("5+12h/6")
	if err != nil {
		t.Fatal(err)
	}
	g := game(storage.Clock{Bank: b})
	Start(g, t0)
	if g.Clock.Left != [2]time.Duration{5 * Day, 5 * Day} || !g.Clock.Deadline.Equal(t0.Add(5*Day)) {
		t.Fatalf("start: %v, deadline %v", g.Clock.Left, g.Clock.Deadline)
	}
	if left := BankLeft(g, rules.White, t0.Add(Day)); left != 4*Day {
		t.Fatalf("White has %v after a day", left)
	}
	// White takes two days: 3 left, plus the 12 hours.
	g.ToMove = []rules.Side{rules.Black}
	Advance(g, []rules.Side{rules.White}, false, t0.Add(2*Day))
	if g.Clock.Left[rules.White] != 3*Day+12*time.Hour || !g.Clock.Deadline.Equal(t0.Add(7*Day)) {
		t.Fatalf("after White's move: %v, deadline %v", g.Clock.Left, g.Clock.Deadline)
	}
	// Black at once: the increment stops at the cap of 6 days.
	g.ToMove = []rules.Side{rules.White}
	Advance(g, []rules.Side{rules.Black}, false, t0.Add(2*Day))
	if g.Clock.Left[rules.Black] != 5*Day+12*time.Hour {
		t.Fatalf("Black's bank %v", g.Clock.Left[rules.Black])
	}
	Charge(&g.Clock, rules.White, t0.Add(2*Day))
	if g.Clock.Left[rules.White] != 4*Day {
		t.Fatalf("an instant move gains the increment: %v", g.Clock.Left[rules.White])
	}
	if line := BanksLine(g, t0.Add(2*Day)); line != "banks: white 4d 0h, black 5d 12h" {
		t.Fatalf("banks line %q", line)
	}
}

func TestLeaveFreezesAndResumes(t *testing.T) {
	g := game(storage.Clock{DaysPerMove: 3})
	Start(g, t0)
	g.Clock.Paused = t0.Add(Day)
	if Late(g, t0.Add(10*Day)) != nil {
		t.Fatal("a frozen clock ran out")
	}
	Resume(&g.Clock, t0.Add(3*Day)) // two days frozen
	if !g.Clock.Paused.IsZero() || !g.Clock.Deadline.Equal(t0.Add(5*Day)) {
		t.Fatalf("after leave: paused %v, deadline %v", g.Clock.Paused, g.Clock.Deadline)
	}
	Restart(g, t0.Add(4*Day))
	if !g.Clock.Deadline.Equal(t0.Add(7 * Day)) {
		t.Fatalf("restarted: %v", g.Clock.Deadline)
	}
}

func TestParseBank(t *testing.T) {
	for in, want := range map[string]string{
		"30+1/45":  "time bank of 30 days + 1 day a move, up to 45 days",
		"5+0.5/15": "time bank of 5 days + 12 hours a move, up to 15 days",
		"5+12h/15": "time bank of 5 days + 12 hours a move, up to 15 days",
		"1.5+0/2":  "time bank of 1.5 days + 0 days a move, up to 2 days",
	} {
		b, err := ParseBank(in)
		if err != nil || BankText(b) != want {
			t.Errorf("%s: %v %v", in, b, err)
		}
	}
	for in, why := range map[string]string{
		"30":        "is not written that way",
		"30+1/20":   "the cap must be from its start",
		"61+0/61":   "the start must be 1 to 60 days",
		"5+8/20":    "at most 7 days",
		"5+0.3/20":  "not a whole number of hours",
		"x+1/2":     "not a whole number of hours",
		"0.5+0/10":  "the start must be 1 to 60 days",
		"100+0/100": "not a whole number of hours up to 90 days",
	} {
		_, err := ParseBank(in)
		var re *rules.Error
		if !errors.As(err, &re) || !errors.Is(err, ErrBadBank) || !strings.Contains(re.Text, why) {
			t.Errorf("%s: %v, want a refusal saying %q", in, err, why)
		}
	}
	if Text(3, nil) != "3 days per move" || Text(0, nil) != "no clock" {
		t.Error("Text")
	}
}
