package bot

import (
	"slices"
	"strconv"
	"time"

	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// engineRetry is how soon the scheduler looks again at a game whose engine player
// has not moved (its job may have been lost in a restart, or failed).
const engineRetry = time.Minute

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
	start := clock.PeriodStart(g.Clock)
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
		p, err := Settings(tx, seat.ID)
		if err != nil {
			return nil, err
		}
		var ready []int
		for _, h := range ReminderHours(p) {
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

// CompleteBank suggests the preset time banks, named in the asker's language.
func CompleteBank(tx *storage.Tx, req Request, add func(label, value string) bool) {
	l, _ := AskerLang(tx, req)
	for _, p := range clock.BankPresets {
		b, _ := clock.ParseBank(p)
		if !add(p+": "+BankTextIn(l, b), p) {
			break
		}
	}
}

// ClockTextIn names a clock's control for a reader of language l, as clock.Text
// does in English: days per move, a time bank, or none (the clock's words,
// clock.In).
func ClockTextIn(l i18n.Lang, days int, bank *storage.TimeBank) string {
	return clock.In(l).Text(days, bank)
}

// BankTextIn names a time bank in language l, as clock.BankText does in English:
// "time bank of 30 days + 1 day a move, up to 45 days".
func BankTextIn(l i18n.Lang, b *storage.TimeBank) string { return clock.In(l).BankText(b) }

// BanksLineIn says what each side has left of its bank in g, in language l, as
// clock.BanksLine does in English: "banks: white 29d 4h, black 31d 0h"; empty when
// g has no time bank or has ended.
func BanksLineIn(l i18n.Lang, g *storage.Game, now time.Time) string {
	return clock.In(l).BanksLine(g, now)
}

// BankOption is the option that asks for a time-bank clock instead of days per move.
func BankOption() OptionSpec {
	return OptionSpec{Name: "bank", Description: "A time bank instead of days per move: base+increment/cap in days, such as 30+1/45",
		Type: OptString, Autocomplete: true, MaxLength: 20}
}

// ClockArgs reads a request's clock: days per move (days, def when absent) or a time
// bank (bank), not both. With a bank, days is 0.
func ClockArgs(req Request, def int) (int, *storage.TimeBank, error) {
	if t := req.Args.Get("bank"); t != "" {
		if req.Args.Has("days") {
			return 0, nil, RefuseIn(ErrRefused, func(l i18n.Lang) string {
				return catalogue.For(l).T("refusal.daysorbank", i18n.Data{"Days": OptionNameIn(l, req, "days"), "Bank": OptionNameIn(l, req, "bank")})
			})
		}
		b, err := clock.ParseBank(t)
		if err != nil {
			english := rules.SentenceOf(err)
			return 0, nil, RefuseIn(ErrRefused, func(l i18n.Lang) string {
				if s, ok := clock.In(l).Sentence(err); ok {
					return s
				}
				return english
			})
		}
		return 0, b, nil
	}
	t := req.Args.Get("days")
	if t == "" {
		return def, nil, nil
	}
	days, err := strconv.Atoi(t)
	if err != nil || !clock.ValidDays(days) {
		return 0, nil, refusal(ErrRefused, "refusal.days", func(w words.W) i18n.Data {
			return i18n.Data{"Choices": w.OrInts(clock.DaysChoices), "Days": rules.Echo(t)}
		})
	}
	return days, nil, nil
}
