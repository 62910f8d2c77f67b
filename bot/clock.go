package bot

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
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

// startClock fills each side's bank (time-bank clocks) and sets g's first deadline,
// for a game just created.
func startClock(g *storage.Game, now time.Time) {
	if b := g.Clock.Bank; b != nil {
		g.Clock.Left = [2]time.Duration{b.Base(), b.Base()}
	}
	if g.Active() {
		startPeriod(g, now)
	}
}

// hasClock reports whether c runs at all (days per move or a bank).
func hasClock(c storage.Clock) bool { return c.DaysPerMove > 0 || c.Bank != nil }

// startPeriod begins a new period at now for the sides due to act: its deadline is
// the days per move, or the smallest bank among them.
func startPeriod(g *storage.Game, now time.Time) {
	if !hasClock(g.Clock) {
		return
	}
	g.Clock.SetDeadline(now.Add(allowance(g)))
	g.Clock.Since = now
}

// allowance is how long the current period may last: the days per move, or the
// smallest bank of the sides due to act.
func allowance(g *storage.Game) time.Duration {
	if g.Clock.Bank == nil {
		return time.Duration(g.Clock.DaysPerMove) * day
	}
	var least time.Duration
	for i, side := range g.ToMove {
		if left := g.Clock.Left[side]; i == 0 || left < least {
			least = left
		}
	}
	return least
}

// charge takes what side used of its bank since the period began and adds the
// increment, up to the cap (a bank already above it, by extra time given, keeps
// what it has).
func charge(c *storage.Clock, side rules.Side, now time.Time) {
	if !c.Paused.IsZero() {
		now = c.Paused // the clock stood still from then
	}
	left := max(c.Left[side]-now.Sub(periodStart(*c)), 0)
	if grown := left + c.Bank.Increment(); grown > left {
		left = max(min(grown, c.Bank.Cap()), left)
	}
	c.Left[side] = left
}

// advanceClock updates g's clock after an entry was added: the sides that acted pay
// for the time they took (time-bank clocks), and a new period starts unless the
// entry was only one side's choice in a secret round that the other side has still
// to make; a finished game stops its clock. before is g.ToMove before the change,
// wasRound whether a secret round was on.
func advanceClock(g *storage.Game, before []rules.Side, wasRound bool, now time.Time) {
	_, isRound := inRound(g.Position)
	partial := g.Active() && wasRound && isRound && len(g.ToMove) < len(before)
	if g.Clock.Bank != nil && !g.Clock.Deadline.IsZero() {
		for _, side := range before {
			if !partial || !slices.Contains(g.ToMove, side) {
				charge(&g.Clock, side, now)
			}
		}
	}
	switch {
	case !g.Active():
		g.Clock.SetDeadline(time.Time{})
	case !partial:
		startPeriod(g, now)
	case g.Clock.Bank != nil:
		if d := periodStart(g.Clock).Add(allowance(g)); !d.Equal(g.Clock.Deadline) {
			since := periodStart(g.Clock)
			g.Clock.SetDeadline(d)
			g.Clock.Since = since
		}
	}
}

// restartClock starts a new period for whoever is due to act in g, charging nobody:
// after a takeback.
func restartClock(g *storage.Game, now time.Time) {
	if !g.Active() {
		g.Clock.SetDeadline(time.Time{})
		return
	}
	startPeriod(g, now)
}

// late returns the sides due to act in g whose time has run out at now.
func late(g *storage.Game, now time.Time) []rules.Side {
	if g.Clock.Deadline.IsZero() || now.Before(g.Clock.Deadline) || !g.Clock.Paused.IsZero() {
		return nil
	}
	if g.Clock.Bank == nil {
		return g.ToMove
	}
	var out []rules.Side
	for _, side := range g.ToMove {
		if !now.Before(periodStart(g.Clock).Add(g.Clock.Left[side])) {
			out = append(out, side)
		}
	}
	return out
}

// bankLeft returns what side has left of its bank at now: what it had when the
// period began, less the time since, when it is due to act.
func bankLeft(g *storage.Game, side rules.Side, now time.Time) time.Duration {
	left := g.Clock.Left[side]
	if g.Awaits(side) && !g.Clock.Deadline.IsZero() {
		at := now
		if !g.Clock.Paused.IsZero() {
			at = g.Clock.Paused
		}
		left -= at.Sub(periodStart(g.Clock))
	}
	return max(left, 0)
}

// periodStart is when g's current period began.
func periodStart(c storage.Clock) time.Time {
	if !c.Since.IsZero() || c.Bank != nil {
		return c.Since
	}
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
	if !g.Active() || g.Clock.Deadline.IsZero() || !g.Clock.Paused.IsZero() {
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

// Time-bank bounds, in days: a bank starts with 1 to 60 days, gains at most a week a
// move, and is capped at no more than 90 days (and no less than its start).
const (
	maxBankBaseDays = 60
	maxBankIncDays  = 7
	maxBankCapDays  = 90
)

// BankPresets are the time banks offered as the bank option's suggestions:
// SchemingMind's 30+1 capped at 45, 10+1 capped at 30, and 5 days + 12 hours capped
// at 15.
var BankPresets = []string{"30+1/45", "10+1/30", "5+0.5/15"}

// parseBank reads a time bank written base+increment/cap in days, such as 30+1/45,
// 5+0.5/15 or 5+12h/15 (a part may end in d for days or h for hours; every part
// must come to whole hours).
func parseBank(t string) (*storage.TimeBank, error) {
	bad := func(why string) error {
		return refuse(ErrRefused, "A time bank is written base+increment/cap in days, such as 30+1/45 (30 days, 1 more after each move, at most 45) or 5+0.5/15; %s %s.",
			rules.Echo(t), why)
	}
	rest, capText, ok := strings.Cut(strings.ReplaceAll(strings.ToLower(t), " ", ""), "/")
	base, inc, ok2 := strings.Cut(rest, "+")
	if !ok || !ok2 {
		return nil, bad("is not written that way")
	}
	var hours [3]int
	for i, part := range []string{base, inc, capText} {
		unit := 24.0
		if n, ok := strings.CutSuffix(part, "h"); ok {
			part, unit = n, 1
		} else {
			part = strings.TrimSuffix(part, "d")
		}
		f, err := strconv.ParseFloat(part, 64)
		h := f * unit
		if err != nil || f < 0 || h != math.Trunc(h) || h > maxBankCapDays*24 {
			return nil, bad(fmt.Sprintf("has %q, which is not a whole number of hours up to %d days", part, maxBankCapDays))
		}
		hours[i] = int(h)
	}
	b := &storage.TimeBank{BaseHours: hours[0], IncrementHours: hours[1], CapHours: hours[2]}
	if why := bankFault(b); why != "" {
		return nil, bad(why)
	}
	return b, nil
}

// bankFault says what is wrong with b ("" when it is within the bounds).
func bankFault(b *storage.TimeBank) string {
	switch {
	case b.BaseHours < 24 || b.BaseHours > maxBankBaseDays*24:
		return fmt.Sprintf("starts with %s; the start must be 1 to %d days", bankDays(b.Base()), maxBankBaseDays)
	case b.IncrementHours < 0 || b.IncrementHours > maxBankIncDays*24:
		return fmt.Sprintf("adds %s a move; at most %d days", bankDays(b.Increment()), maxBankIncDays)
	case b.CapHours < b.BaseHours || b.CapHours > maxBankCapDays*24:
		return fmt.Sprintf("is capped at %s; the cap must be from its start to %d days", bankDays(b.Cap()), maxBankCapDays)
	}
	return ""
}

// bankDays writes a bank's amount in days: "30 days", "12 hours", "1.5 days".
func bankDays(d time.Duration) string {
	switch {
	case d%day == 0:
		return plural(int(d/day), "day")
	case d < day:
		return plural(int(d/time.Hour), "hour")
	}
	return strconv.FormatFloat(float64(d)/float64(day), 'f', -1, 64) + " days"
}

// bankText names a time bank for people: "time bank of 30 days + 1 day a move, up
// to 45 days".
func bankText(b *storage.TimeBank) string {
	return fmt.Sprintf("time bank of %s + %s a move, up to %s", bankDays(b.Base()), bankDays(b.Increment()), bankDays(b.Cap()))
}

// clockText names a clock's control for people: days per move, a time bank, or
// none.
func clockText(days int, bank *storage.TimeBank) string {
	switch {
	case bank != nil:
		return bankText(bank)
	case days > 0:
		return plural(days, "day") + " per move"
	}
	return "no clock"
}

// banksLine says what each side has left of its bank in g: "banks: White 29d 4h,
// Black 31d 0h"; empty when g has no time bank or has ended.
func banksLine(g *storage.Game, now time.Time) string {
	if g.Clock.Bank == nil || !g.Active() {
		return ""
	}
	var parts []string
	for _, side := range rules.Sides {
		parts = append(parts, fmt.Sprintf("%s %s", side, formatLeft(bankLeft(g, side, now))))
	}
	return "banks: " + strings.Join(parts, ", ")
}

// completeBank suggests the preset time banks.
func completeBank(_ *storage.Tx, _ Request, add func(label, value string) bool) {
	for _, p := range BankPresets {
		b, _ := parseBank(p)
		if !add(p+": "+bankText(b), p) {
			break
		}
	}
}

// bankOption is the option that asks for a time-bank clock instead of days per move.
func bankOption() OptionSpec {
	return OptionSpec{Name: "bank", Description: "A time bank instead of days per move: base+increment/cap in days, such as 30+1/45",
		Type: OptString, Autocomplete: true, MaxLength: 20}
}

// clockArgs reads a request's clock: days per move (days, def when absent) or a time
// bank (bank), not both. With a bank, days is 0.
func clockArgs(req Request, def int) (int, *storage.TimeBank, error) {
	if t := req.Args.Get("bank"); t != "" {
		if req.Args.Has("days") {
			return 0, nil, refuse(ErrRefused, "Choose days per move (days) or a time bank (bank), not both.")
		}
		b, err := parseBank(t)
		return 0, b, err
	}
	t := req.Args.Get("days")
	if t == "" {
		return def, nil, nil
	}
	days, err := strconv.Atoi(t)
	if err != nil || !validDays(days) {
		return 0, nil, refuse(ErrRefused, "Days per move must be one of %s, not %s.", joinInts(DaysChoices), rules.Echo(t))
	}
	return days, nil, nil
}

// leaveText says whether leave freezes the clocks of a tournament's games.
func leaveText(refused bool) string {
	if refused {
		return "not allowed: clocks run during leave"
	}
	return "allowed (/leave)"
}

// bankLeaveRules describes time banks, leave, extra time and the digest, for the
// /rules cards.
func (s *Service) bankLeaveRules() string {
	return fmt.Sprintf("A game may have a time bank instead of days per move (/challenge bank:30+1/45): each side starts with 30 days, "+
		"gains 1 day after each of its moves but never beyond 45, and loses on time when its bank runs out; reminders come before that. "+
		"/moretime gives your opponent one more day (at most %d in a game). /leave start freezes your clocks in every game: "+
		"%d days a calendar year (UTC), deadlines and reminders move on by the leave taken, your opponents are told, and a move of yours ends it; "+
		"a tournament may refuse leave in its games. /settings digest_hour sends you a daily list of the games waiting for your move.",
		MaxMoreTimeDays, s.leaveDays())
}
