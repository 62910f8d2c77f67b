package clock

import (
	"embed"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

//go:embed locales/*.yaml
var localeFiles embed.FS

// Catalogue holds the clock's words in every language Missive speaks: amounts of
// days, days per move, time banks, what each side has left of its bank, and why a
// time bank is refused.
var Catalogue = i18n.MustLoad("clock", localeFiles)

// W writes the clock's words in one language. The zero W writes English, as the
// package-level functions do.
type W struct{ lang i18n.Lang }

// In returns the clock's words in language l (English when Missive does not speak it).
func In(l i18n.Lang) W { return W{lang: l} }

// English is the clock's words in the source language.
var English = In(i18n.English)

// l is the words' localizer (the zero language's is the English).
func (w W) l() *i18n.Localizer { return Catalogue.For(w.lang) }

// Lang returns the words' language.
func (w W) Lang() i18n.Lang { return w.l().Lang() }

// Days writes a bank's amount in days: "30 days", "12 hours", "1.5 days" ("1,5 Tage").
func (w W) Days(d time.Duration) string {
	switch {
	case d%Day == 0:
		return w.l().N("clock.days", int(d/Day), nil)
	case d < Day:
		return w.l().N("clock.hours", int(d/time.Hour), nil)
	}
	n := strconv.FormatFloat(float64(d)/float64(Day), 'f', -1, 64)
	return w.l().N("clock.days.decimal", n, i18n.Data{"Days": w.decimal(n)})
}

// decimal writes a number typed with a decimal point as prose of the language
// writes it: "1.5", "1,5".
func (w W) decimal(n string) string {
	if w.Lang() == i18n.English {
		return n
	}
	return strings.ReplaceAll(n, ".", ",")
}

// BankText names a time bank for people: "time bank of 30 days + 1 day a move, up
// to 45 days".
func (w W) BankText(b *storage.TimeBank) string {
	return w.l().T("clock.bank", i18n.Data{"Base": w.Days(b.Base()), "Increment": w.Days(b.Increment()), "Cap": w.Days(b.Cap())})
}

// Text names a clock's control for people: days per move, a time bank, or none.
func (w W) Text(days int, bank *storage.TimeBank) string {
	switch {
	case bank != nil:
		return w.BankText(bank)
	case days > 0:
		return w.l().N("clock.permove", days, nil)
	}
	return w.l().T("clock.none", nil)
}

// BanksLine says what each side has left of its bank in g: "banks: white 29d 4h,
// black 31d 0h"; empty when g has no time bank or has ended.
func (w W) BanksLine(g *storage.Game, now time.Time) string {
	if g.Clock.Bank == nil || !g.Active() {
		return ""
	}
	left := words.In(w.Lang()).Left
	return w.l().T("clock.banks", i18n.Data{"White": left(BankLeft(g, rules.White, now)), "Black": left(BankLeft(g, rules.Black, now))})
}

// BankFault says in a whole clause what is wrong with b, subject first, "" when it
// is within the bounds: subject is what the clause is about, already in the
// language (a time bank as the player typed it, or the words for "That time bank",
// clock.this). The English is "That time bank starts with 0 days; the start must
// be 1 to 60 days".
func (w W) BankFault(subject string, b *storage.TimeBank) string {
	f, days := bankFault(b)
	if f == "" {
		return ""
	}
	return w.fault(f, subject, i18n.Data{"Days": w.Days(days)})
}

// ThatBank is the subject of a sentence about the time bank a request asked for:
// "That time bank".
func (w W) ThatBank() string { return w.l().T("clock.this", nil) }

// fault words fault f of a bank (a key of clock.fault.*) with subject and data.
func (w W) fault(f, subject string, data i18n.Data) string {
	data["Bank"] = subject
	data["Most"] = faultMost[f]
	return w.l().T("clock.fault."+f, data)
}

// faultMost is the bound each fault names, in days.
var faultMost = map[string]int{"base": maxBankBaseDays, "increment": maxBankIncDays, "cap": maxBankCapDays, "hours": maxBankCapDays, "form": 0}

// bankFault returns which bound b breaks (a key of clock.fault.*) and the amount
// that breaks it; "" when none.
func bankFault(b *storage.TimeBank) (string, time.Duration) {
	switch {
	case b.BaseHours < 24 || b.BaseHours > maxBankBaseDays*24:
		return "base", b.Base()
	case b.IncrementHours < 0 || b.IncrementHours > maxBankIncDays*24:
		return "increment", b.Increment()
	case b.CapHours < b.BaseHours || b.CapHours > maxBankCapDays*24:
		return "cap", b.Cap()
	}
	return "", 0
}

// Sentence returns the sentence of a refused time bank (ParseBank's error) in the
// words' language, and false when err is not one.
func (w W) Sentence(err error) (string, bool) {
	var re *rules.Error
	if !errors.As(err, &re) || !errors.Is(err, ErrBadBank) || re.Key != badBankKey {
		return "", false
	}
	a := re.Args
	data := i18n.Data{"Part": a["Part"]}
	if h, err := strconv.Atoi(a["Hours"]); err == nil {
		data["Days"] = w.Days(time.Duration(h) * time.Hour)
	}
	return w.l().T(badBankKey, i18n.Data{"Fault": w.fault(a["Fault"], a["Bank"], data)}), true
}

// badBankKey is the catalogue's key of a refused time bank's sentence, which a
// ParseBank error carries (rules.Error's Key) with its fault's args: Fault (a key of
// clock.fault.*), Bank (the bank as typed, echoed), Hours (the amount at fault) and
// Part (the part that is not a number of hours, quoted).
const badBankKey = "clock.bad"

// badBank returns ParseBank's refusal of bank text t (echoed) for fault f.
func badBank(t, f string, hours int, part string) error {
	args := rules.Args{"Fault": f, "Bank": rules.Echo(t), "Hours": strconv.Itoa(hours), "Part": part}
	text, _ := English.Sentence(&rules.Error{Kind: ErrBadBank, Key: badBankKey, Args: args})
	return rules.RefuseAs(ErrBadBank, badBankKey, args, "%s", text)
}

// quoted quotes a part of a time bank as the English sentence shows it.
func quoted(part string) string { return fmt.Sprintf("%q", part) }
