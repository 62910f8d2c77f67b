package clock

import (
	"slices"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// Day is the unit of the correspondence clock.
const Day = 24 * time.Hour

// DaysChoices are the days per move a game may have.
var DaysChoices = []int{1, 2, 3, 5, 7, 10, 14}

// DefaultDays is the days per move of a challenge that names none.
const DefaultDays = 3

// MaxGivenDays is the most extra days a player may give the opponent in a game.
const MaxGivenDays = 5

// ValidDays reports whether d is one of the allowed days per move.
func ValidDays(d int) bool { return slices.Contains(DaysChoices, d) }

// Start fills each side's bank (time-bank clocks) and sets g's first deadline,
// for a game just created.
func Start(g *storage.Game, now time.Time) {
	if b := g.Clock.Bank; b != nil {
		g.Clock.Left = [2]time.Duration{b.Base(), b.Base()}
	}
	if g.Active() {
		StartPeriod(g, now)
	}
}

// Runs reports whether c runs at all (days per move or a bank).
func Runs(c storage.Clock) bool { return c.DaysPerMove > 0 || c.Bank != nil }

// StartPeriod begins a new period at now for the sides due to act: its deadline is
// the days per move, or the smallest bank among them.
func StartPeriod(g *storage.Game, now time.Time) {
	if !Runs(g.Clock) {
		return
	}
	g.Clock.SetDeadline(now.Add(Allowance(g)))
	g.Clock.Since = now
}

// Allowance is how long the current period may last: the days per move, or the
// smallest bank of the sides due to act.
func Allowance(g *storage.Game) time.Duration {
	if g.Clock.Bank == nil {
		return time.Duration(g.Clock.DaysPerMove) * Day
	}
	var least time.Duration
	for i, side := range g.ToMove {
		if left := g.Clock.Left[side]; i == 0 || left < least {
			least = left
		}
	}
	return least
}

// Charge takes what side used of its bank since the period began and adds the
// increment, up to the cap (a bank already above it, by extra time given, keeps
// what it has).
func Charge(c *storage.Clock, side rules.Side, now time.Time) {
	if !c.Paused.IsZero() {
		now = c.Paused // the clock stood still from then
	}
	left := max(c.Left[side]-now.Sub(PeriodStart(*c)), 0)
	if grown := left + c.Bank.Increment(); grown > left {
		left = max(min(grown, c.Bank.Cap()), left)
	}
	c.Left[side] = left
}

// Advance updates g's clock after an entry was added: the sides that acted pay
// for the time they took (time-bank clocks), and a new period starts unless the
// entry was only one side's choice in a secret round that the other side has still
// to make; a finished game stops its clock. before is g.ToMove before the change,
// wasRound whether a secret round was on.
func Advance(g *storage.Game, before []rules.Side, wasRound bool, now time.Time) {
	_, isRound := record.Round(g.Position)
	partial := g.Active() && wasRound && isRound && len(g.ToMove) < len(before)
	if g.Clock.Bank != nil && !g.Clock.Deadline.IsZero() {
		for _, side := range before {
			if !partial || !slices.Contains(g.ToMove, side) {
				Charge(&g.Clock, side, now)
			}
		}
	}
	switch {
	case !g.Active():
		g.Clock.SetDeadline(time.Time{})
	case !partial:
		StartPeriod(g, now)
	case g.Clock.Bank != nil:
		if d := PeriodStart(g.Clock).Add(Allowance(g)); !d.Equal(g.Clock.Deadline) {
			since := PeriodStart(g.Clock)
			g.Clock.SetDeadline(d)
			g.Clock.Since = since
		}
	}
}

// Restart starts a new period for whoever is due to act in g, charging nobody:
// after a takeback.
func Restart(g *storage.Game, now time.Time) {
	if !g.Active() {
		g.Clock.SetDeadline(time.Time{})
		return
	}
	StartPeriod(g, now)
}

// Late returns the sides due to act in g whose time has run out at now.
func Late(g *storage.Game, now time.Time) []rules.Side {
	if g.Clock.Deadline.IsZero() || now.Before(g.Clock.Deadline) || !g.Clock.Paused.IsZero() {
		return nil
	}
	if g.Clock.Bank == nil {
		return g.ToMove
	}
	var out []rules.Side
	for _, side := range g.ToMove {
		if !now.Before(PeriodStart(g.Clock).Add(g.Clock.Left[side])) {
			out = append(out, side)
		}
	}
	return out
}

// BankLeft returns what side has left of its bank at now: what it had when the
// period began, less the time since, when it is due to act.
func BankLeft(g *storage.Game, side rules.Side, now time.Time) time.Duration {
	left := g.Clock.Left[side]
	if g.Awaits(side) && !g.Clock.Deadline.IsZero() {
		at := now
		if !g.Clock.Paused.IsZero() {
			at = g.Clock.Paused
		}
		left -= at.Sub(PeriodStart(g.Clock))
	}
	return max(left, 0)
}

// PeriodStart is when g's current period began.
func PeriodStart(c storage.Clock) time.Time {
	if !c.Since.IsZero() || c.Bank != nil {
		return c.Since
	}
	return c.Deadline.Add(-time.Duration(c.DaysPerMove) * Day)
}

// Resume ends c's pause at until: the period moves on by the time it was paused.
func Resume(c *storage.Clock, until time.Time) {
	if c.Paused.IsZero() {
		return
	}
	c.Shift(max(until.Sub(c.Paused), 0))
	c.Paused = time.Time{}
}

// GiveDay gives the opponent of side one more day in g, as side's gift: a time
// bank grows by a day, and a running period's deadline moves a day later (with a
// bank, to the period's start plus the smallest bank due). The caller checks that
// g has a clock and that side may still give.
func GiveDay(g *storage.Game, side rules.Side) {
	opp := side.Other()
	g.Clock.Given[side]++
	if g.Clock.Bank != nil {
		g.Clock.Left[opp] += Day
	}
	if g.Awaits(opp) {
		since := PeriodStart(g.Clock)
		deadline := g.Clock.Deadline.Add(Day)
		if g.Clock.Bank != nil {
			deadline = since.Add(Allowance(g))
		}
		g.Clock.SetDeadline(deadline)
		g.Clock.Since = since
	}
}
