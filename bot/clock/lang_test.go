package clock

import (
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// The clock's catalogue has every message in every language, with the English
// placeholders and every plural form.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, Catalogue) }

// The clock's words in German and Russian: plural forms by the language's rules,
// decimal commas in prose, the banks left, and a refused time bank's sentence.
func TestWordsInEachLanguage(t *testing.T) {
	b, err := ParseBank("5+0.5/21")
	if err != nil {
		t.Fatal(err)
	}
	g := game(storage.Clock{Bank: b})
	Start(g, t0)
	de := words.In(i18n.German)
	for _, c := range []struct {
		lang      i18n.Lang
		got, want string
	}{
		{i18n.German, In(i18n.German).Days(36 * time.Hour), "1,5 Tage"},
		{i18n.German, In(i18n.German).Text(1, nil), "1 Tag pro Zug"},
		{i18n.German, In(i18n.German).BankText(b), "Zeitkonto: 5 Tage + 12 Stunden pro Zug, höchstens 21 Tage"},
		{i18n.German, In(i18n.German).Text(0, nil), "ohne Uhr"},
		{i18n.German, In(i18n.German).BanksLine(g, t0.Add(Day)), "Zeitkonten: Weiß " + de.Left(4*Day) + ", Schwarz " + de.Left(5*Day)},
		{i18n.Russian, In(i18n.Russian).Days(36 * time.Hour), "1,5 дня"},
		{i18n.Russian, In(i18n.Russian).Text(2, nil), "2 дня на ход"},
		{i18n.Russian, In(i18n.Russian).Text(5, nil), "5 дней на ход"},
		{i18n.Russian, In(i18n.Russian).Days(21 * Day), "21 день"},
		{i18n.Russian, In(i18n.Russian).Days(time.Hour), "1 час"},
		{i18n.French, In(i18n.French).Days(36 * time.Hour), "1,5 jour"},
		{i18n.English, In(i18n.English).BankText(b), "time bank of 5 days + 12 hours a move, up to 21 days"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.lang, c.got, c.want)
		}
	}
	_, err = ParseBank("5+8/20")
	if s, ok := In(i18n.German).Sentence(err); !ok || !strings.HasPrefix(s, "Ein Zeitkonto schreibst du") || !strings.Contains(s, `"5+8/20" schreibt 8 Tage pro Zug gut; höchstens 7 Tage`) {
		t.Errorf("German refusal %q %v", s, ok)
	}
	if s, ok := In(i18n.Russian).Sentence(err); !ok || !strings.Contains(s, `"5+8/20" добавляет 8 дней за ход`) {
		t.Errorf("Russian refusal %q %v", s, ok)
	}
	if s, ok := English.Sentence(err); !ok || s != rules.SentenceOf(err) {
		t.Errorf("English refusal %q is not the error's own %q", s, rules.SentenceOf(err))
	}
	if _, ok := In(i18n.German).Sentence(ErrBadBank); ok {
		t.Error("a bare kind is worded")
	}
	over := &storage.TimeBank{BaseHours: 61 * 24, CapHours: 61 * 24}
	if s := In(i18n.German).BankFault(In(i18n.German).ThatBank(), over); s != "Dieses Zeitkonto hat zu Beginn 61 Tage; der Start muss 1 bis 60 Tage betragen" {
		t.Errorf("German fault %q", s)
	}
	if s := BankFault(over); s != "starts with 61 days; the start must be 1 to 60 days" {
		t.Errorf("English fault %q", s)
	}
}
