package bot_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/engine"
)

// A bad option value is refused in the reader's language, naming the option as
// the reader's client shows it; the English is as it was.
func TestOptionRefusalsInTheReadersLanguage(t *testing.T) {
	create := bot.Request{Command: "tournament", Args: bot.Args{bot.SubcommandArg: "create", "rounds": "abc", "days": "3", "bank": "30+1/45"}}
	_, err := bot.IntArg(create, "rounds", 0)
	for l, want := range map[i18n.Lang]string{
		i18n.English: `rounds must be a whole number, not "abc".`,
		i18n.Russian: `Опция туры должна быть целым числом, а не "abc".`,
		i18n.German:  `Die Option runden muss eine ganze Zahl sein, nicht "abc".`,
	} {
		if got, ok := bot.SentenceIn(l, err); !ok || got != want {
			t.Errorf("IntArg in %s: %q, want %q", l, got, want)
		}
		if got, _ := bot.UserTextIn(l, err); got != want {
			t.Errorf("UserTextIn in %s: %q, want %q", l, got, want)
		}
	}
	if !errors.Is(err, bot.ErrRefused) {
		t.Errorf("IntArg's refusal is not ErrRefused: %v", err)
	}
	_, _, err = bot.ClockArgs(create, clock.DefaultDays)
	if got, _ := bot.SentenceIn(i18n.Russian, err); got != "Выберите дни на ход (дни) или запас времени (запас), но не то и другое." {
		t.Errorf("days and bank in Russian: %q", got)
	}
	if got, _ := bot.SentenceIn(i18n.English, err); got != "Choose days per move (days) or a time bank (bank), not both." {
		t.Errorf("days and bank in English: %q", got)
	}

	match := bot.Request{Command: "match", Args: bot.Args{bot.SubcommandArg: "start", "max_plies": "5"}}
	_, err = bot.BoundedArg(match, "max_plies", 0, 10, 20)
	if got, _ := bot.SentenceIn(i18n.English, err); got != "max_plies must be from 10 to 20, not 5." {
		t.Errorf("BoundedArg in English: %q", got)
	}
	if got, _ := bot.SentenceIn(i18n.Russian, err); !strings.HasPrefix(got, "Опция ") || !strings.HasSuffix(got, " должна быть от 10 до 20, а не 5.") {
		t.Errorf("BoundedArg in Russian: %q", got)
	}

	// A time bank out of bounds: the clock's own sentence, in the reader's language.
	_, _, err = bot.ClockArgs(bot.Request{Command: "tournament", Args: bot.Args{"bank": "70+1/80"}}, clock.DefaultDays)
	ru, _ := bot.SentenceIn(i18n.Russian, err)
	if !strings.HasPrefix(ru, "Запас времени записывается как") || !strings.Contains(ru, `"70+1/80" даёт в начале 70 дней`) {
		t.Errorf("a bad bank in Russian: %q", ru)
	}
	if en, _ := bot.SentenceIn(i18n.English, err); !strings.HasPrefix(en, "A time bank is written base+increment/cap in days") || !strings.Contains(en, `"70+1/80" starts with 70 days`) {
		t.Errorf("a bad bank in English: %q", en)
	}
	// clock.ParseBank's error as it is, and an engine level: UserTextIn words them.
	_, err = clock.ParseBank("1+1/0")
	if got, _ := bot.UserTextIn(i18n.Russian, err); !strings.HasPrefix(got, "Запас времени записывается как") {
		t.Errorf("ParseBank's refusal in Russian: %q", got)
	}
	_, err = engine.ParseLevel("99")
	if got, _ := bot.UserTextIn(i18n.Russian, err); !strings.HasPrefix(got, "Уровень движка") {
		t.Errorf("a level in Russian: %q", got)
	}
	_, err = bot.LevelArg(bot.Request{Args: bot.Args{"level": "zero"}}, "level")
	if got, _ := bot.SentenceIn(i18n.Russian, err); !strings.HasPrefix(got, "Уровень движка должен быть числом") {
		t.Errorf("LevelArg in Russian: %q", got)
	}
	// A refusal said again within a sentence of each reader's language.
	rw := bot.RewordIn(err, func(l i18n.Lang, reason string) string {
		if l == i18n.Russian {
			return "Первый движок: " + reason
		}
		return "First engine: " + reason
	})
	if got, _ := bot.SentenceIn(i18n.Russian, rw); !strings.HasPrefix(got, "Первый движок: Уровень движка") {
		t.Errorf("RewordIn in Russian: %q", got)
	}
	if got, _ := bot.UserTextIn(i18n.Russian, rw); !strings.HasPrefix(got, "Первый движок: Уровень движка") {
		t.Errorf("RewordIn through UserTextIn in Russian: %q", got)
	}
	if got, _ := bot.UserText(rw); !strings.HasPrefix(got, "First engine: The engine's level") {
		t.Errorf("RewordIn in English: %q", got)
	}
}

// A Russian organiser's tournament with a bad number of rounds is refused in
// Russian, naming the option as a Russian client shows it.
func TestBadOptionValueRefusedInRussian(t *testing.T) {
	h := bottest.New(t)
	r := h.Run(bot.Request{ID: "ru", User: bot.User{ID: "alice", Name: "alice"}, Locale: "ru"}, "tournament action:create variant:gothic rounds:много")
	if !r.Refused || r.Text != `Опция туры должна быть целым числом, а не "много".` {
		t.Errorf("the Russian refusal: %+v", r)
	}
	r = h.Run(bot.Request{ID: "en", User: bot.User{ID: "alice", Name: "alice"}, Locale: "en-GB"}, "tournament action:create variant:gothic rounds:many")
	if !r.Refused || r.Text != `rounds must be a whole number, not "many".` {
		t.Errorf("the English refusal: %+v", r)
	}
}
