package clock

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// ErrBadBank is the kind of a refused time bank's error, which carries the
// player's sentence (a rules.Error).
var ErrBadBank = errors.New("clock: not a time bank")

// BankPresets are the time banks offered as the bank option's suggestions:
// SchemingMind's 30+1 capped at 45, 10+1 capped at 30, and 5 days + 12 hours capped
// at 15.
var BankPresets = []string{"30+1/45", "10+1/30", "5+0.5/15"}

// ParseBank reads a time bank written base+increment/cap in days, such as 30+1/45,
// 5+0.5/15 or 5+12h/15 (a part may end in d for days or h for hours; every part
// must come to whole hours).
func ParseBank(t string) (*storage.TimeBank, error) {
	bad := func(why string) error {
		return rules.Refuse(ErrBadBank, "A time bank is written base+increment/cap in days, such as 30+1/45 (30 days, 1 more after each move, at most 45) or 5+0.5/15; %s %s.",
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
	if why := BankFault(b); why != "" {
		return nil, bad(why)
	}
	return b, nil
}

// BankFault says what is wrong with b ("" when it is within the bounds).
func BankFault(b *storage.TimeBank) string {
	switch {
	case b.BaseHours < 24 || b.BaseHours > maxBankBaseDays*24:
		return fmt.Sprintf("starts with %s; the start must be 1 to %d days", Days(b.Base()), maxBankBaseDays)
	case b.IncrementHours < 0 || b.IncrementHours > maxBankIncDays*24:
		return fmt.Sprintf("adds %s a move; at most %d days", Days(b.Increment()), maxBankIncDays)
	case b.CapHours < b.BaseHours || b.CapHours > maxBankCapDays*24:
		return fmt.Sprintf("is capped at %s; the cap must be from its start to %d days", Days(b.Cap()), maxBankCapDays)
	}
	return ""
}

// Days writes a bank's amount in days: "30 days", "12 hours", "1.5 days".
func Days(d time.Duration) string {
	switch {
	case d%Day == 0:
		return words.Plural(int(d/Day), "day")
	case d < Day:
		return words.Plural(int(d/time.Hour), "hour")
	}
	return strconv.FormatFloat(float64(d)/float64(Day), 'f', -1, 64) + " days"
}

// BankText names a time bank for people: "time bank of 30 days + 1 day a move, up
// to 45 days".
func BankText(b *storage.TimeBank) string {
	return fmt.Sprintf("time bank of %s + %s a move, up to %s", Days(b.Base()), Days(b.Increment()), Days(b.Cap()))
}

// Text names a clock's control for people: days per move, a time bank, or
// none.
func Text(days int, bank *storage.TimeBank) string {
	switch {
	case bank != nil:
		return BankText(bank)
	case days > 0:
		return words.Plural(days, "day") + " per move"
	}
	return "no clock"
}

// BanksLine says what each side has left of its bank in g: "banks: White 29d 4h,
// Black 31d 0h"; empty when g has no time bank or has ended.
func BanksLine(g *storage.Game, now time.Time) string {
	if g.Clock.Bank == nil || !g.Active() {
		return ""
	}
	var parts []string
	for _, side := range rules.Sides {
		parts = append(parts, fmt.Sprintf("%s %s", side, words.Left(BankLeft(g, side, now))))
	}
	return "banks: " + strings.Join(parts, ", ")
}

// Time-bank bounds, in days: a bank starts with 1 to 60 days, gains at most a week a
// move, and is capped at no more than 90 days (and no less than its start).
const (
	maxBankBaseDays = 60
	maxBankIncDays  = 7
	maxBankCapDays  = 90
)
