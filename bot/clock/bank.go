package clock

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

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
	rest, capText, ok := strings.Cut(strings.ReplaceAll(strings.ToLower(t), " ", ""), "/")
	base, inc, ok2 := strings.Cut(rest, "+")
	if !ok || !ok2 {
		return nil, badBank(t, "form", 0, "")
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
			return nil, badBank(t, "hours", 0, quoted(part))
		}
		hours[i] = int(h)
	}
	b := &storage.TimeBank{BaseHours: hours[0], IncrementHours: hours[1], CapHours: hours[2]}
	if f, d := bankFault(b); f != "" {
		return nil, badBank(t, f, int(d/time.Hour), "")
	}
	return b, nil
}

// BankFault says what is wrong with b ("" when it is within the bounds), in
// English, as a verb phrase: "starts with 0 days; the start must be 1 to 60 days"
// (see W.BankFault for a whole clause in a language).
func BankFault(b *storage.TimeBank) string {
	return strings.TrimSpace(English.BankFault("", b)) // the English clause, its subject left out
}

// Days writes a bank's amount in days: "30 days", "12 hours", "1.5 days".
func Days(d time.Duration) string { return English.Days(d) }

// BankText names a time bank for people: "time bank of 30 days + 1 day a move, up
// to 45 days".
func BankText(b *storage.TimeBank) string { return English.BankText(b) }

// Text names a clock's control for people: days per move, a time bank, or
// none.
func Text(days int, bank *storage.TimeBank) string { return English.Text(days, bank) }

// BanksLine says what each side has left of its bank in g: "banks: white 29d 4h,
// black 31d 0h"; empty when g has no time bank or has ended.
func BanksLine(g *storage.Game, now time.Time) string { return English.BanksLine(g, now) }

// Time-bank bounds, in days: a bank starts with 1 to 60 days, gains at most a week a
// move, and is capped at no more than 90 days (and no less than its start).
const (
	maxBankBaseDays = 60
	maxBankIncDays  = 7
	maxBankCapDays  = 90
)
