package bot

import (
	"slices"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// day is the unit of the correspondence clock.
const day = 24 * time.Hour

// engineRetry is how soon the scheduler looks again at a game whose engine player
// has not moved (its job may have been lost in a restart, or failed).
const engineRetry = time.Minute

// validDays reports whether d is one of the allowed days per move.
func validDays(d int) bool { return slices.Contains(DaysChoices, d) }

// startClock sets g's first deadline, for a game just created.
func startClock(g *storage.Game, now time.Time) {
	if g.Clock.DaysPerMove > 0 && g.Active() {
		g.Clock.SetDeadline(now.Add(time.Duration(g.Clock.DaysPerMove) * day))
	}
}

// advanceClock updates g's clock after an entry was added or taken back: a new
// period starts unless the entry was only one side's choice in a secret round that
// the other side has still to make; a finished game stops its clock. before is
// g.ToMove before the change, wasRound whether a secret round was on.
func advanceClock(g *storage.Game, before []rules.Side, wasRound bool, now time.Time) {
	if !g.Active() {
		g.Clock.SetDeadline(time.Time{})
		return
	}
	_, isRound := inRound(g.Position)
	partial := wasRound && isRound && len(g.ToMove) < len(before)
	if !partial && g.Clock.DaysPerMove > 0 {
		g.Clock.SetDeadline(now.Add(time.Duration(g.Clock.DaysPerMove) * day))
	}
}

// periodStart is when g's current period began (its deadline less the days per move).
func periodStart(c storage.Clock) time.Time {
	return c.Deadline.Add(-time.Duration(c.DaysPerMove) * day)
}

// dueReminder is a reminder whose time has come.
type dueReminder struct {
	side  rules.Side
	hours int
}

// planWake sets g.Clock.Wake to the next time the scheduler must look at g before its
// deadline: the next unsent reminder of a player due to act, or soon when an engine
// player is due. It returns the reminders already due at now and not yet sent (the
// caller marks and sends them); several due at once give one reminder, the most
// urgent, and the others are marked as sent with it.
func planWake(tx *storage.Tx, g *storage.Game, now time.Time) ([]dueReminder, error) {
	g.Clock.Wake = time.Time{}
	if !g.Active() || g.Clock.Deadline.IsZero() {
		return nil, nil
	}
	start := periodStart(g.Clock)
	var due []dueReminder
	var wake time.Time
	earliest := func(t time.Time) {
		if wake.IsZero() || t.Before(wake) {
			wake = t
		}
	}
	for _, side := range g.ToMove {
		seat := g.Player(side)
		if seat.IsEngine() {
			earliest(now.Add(engineRetry))
			continue
		}
		p, err := settings(tx, seat.ID)
		if err != nil {
			return nil, err
		}
		var ready []int
		for _, h := range reminderHours(p) {
			at := g.Clock.Deadline.Add(-time.Duration(h) * time.Hour)
			if !at.After(start) || g.Clock.HasSent(seat.ID, h) {
				continue // the period began after this reminder's time, or it was sent
			}
			if at.After(now) {
				earliest(at)
			} else {
				ready = append(ready, h)
			}
		}
		if len(ready) > 0 {
			slices.Sort(ready)
			for _, h := range ready {
				g.Clock.MarkSent(seat.ID, h)
			}
			due = append(due, dueReminder{side: side, hours: ready[0]})
		}
	}
	if !wake.IsZero() && wake.Before(g.Clock.Deadline) {
		g.Clock.Wake = wake
	}
	return due, nil
}
