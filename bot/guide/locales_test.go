package guide_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/guide"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
)

// The guide's catalogue has every message in every language, with the English
// placeholders.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, guide.Catalogue) }

// The English catalogue's names and descriptions of /help and /rules are the
// specs' own, so that the translations translate what Discord shows in English.
func TestCatalogueMatchesSpecs(t *testing.T) {
	h := bottest.New(t)
	en := guide.Catalogue.For(i18n.English)
	for _, name := range []string{guide.CmdHelp, guide.CmdRules} {
		spec, ok := h.Svc.Spec(name)
		if !ok {
			t.Fatalf("no /%s", name)
		}
		key := "command." + name
		if en.T(key+".name", nil) != spec.Name || en.T(key+".desc", nil) != spec.Description {
			t.Errorf("/%s: the catalogue says %q, %q; the spec %q, %q", name, en.T(key+".name", nil), en.T(key+".desc", nil), spec.Name, spec.Description)
		}
		for _, o := range spec.Options {
			if got := en.T(key+".option."+o.Name+".desc", nil); got != o.Description {
				t.Errorf("/%s %s: the catalogue says %q, the spec %q", name, o.Name, got, o.Description)
			}
			if got := en.T(key+".option."+o.Name+".name", nil); got != o.Name {
				t.Errorf("/%s %s: the catalogue names it %q", name, o.Name, got)
			}
			for _, ch := range o.Choices {
				if id := key + ".option." + o.Name + ".choice." + ch.Value; guide.Catalogue.Has(id) && en.T(id, nil) != ch.Name {
					t.Errorf("/%s %s: the catalogue names the choice %s %q, the spec %q", name, o.Name, ch.Value, en.T(id, nil), ch.Name)
				}
			}
		}
		if len(spec.NameIn) != len(i18n.Langs)-1 || len(spec.DescriptionIn) != len(i18n.Langs)-1 {
			t.Errorf("/%s is not localised in every language: %v %v", name, spec.NameIn, spec.DescriptionIn)
		}
	}
}

// /help answers in the asker's language: from their client's locale, or from the
// language they chose, which wins; a refusal too.
func TestHelpInTheAskersLanguage(t *testing.T) {
	h := bottest.New(t)
	ask := func(locale, line string) bot.Reply { return ask(h, locale, line) }
	if r := ask("de", "help"); r.Title != "Missive: Fernschach in Gothic Chess, Keltischem Schach, Go-Chess und Gess" || !strings.Contains(r.Text, "Züge schreibst du in englischer Notation") {
		t.Errorf("German /help: %s\n%s", r.Title, r.Text)
	}
	if r := ask("de", "help"); !strings.Contains(r.Text, "\n/regeln: Die Regeln eines Spiels") || !strings.Contains(r.Text, "\n/brett: ") {
		t.Errorf("German /help does not list the commands under their German names: %s", r.Text)
	}
	if r := ask("es-419", "help"); !strings.Contains(r.Text, "**Cómo jugar**") {
		t.Errorf("Latin American Spanish /help: %s", r.Text)
	}
	if r := ask("ja", "help"); !strings.Contains(r.Text, "**How to play**") || strings.Contains(r.Text, "English notation") {
		t.Errorf("/help for a locale Missive does not speak is not the English: %s", r.Text)
	}
	if r := ask("ru", "help command:nosuch"); !r.Refused || !strings.HasPrefix(r.Text, "Команды") {
		t.Errorf("Russian refusal: %+v", r)
	}
	h.Ok("bob", "settings language:fr")
	if r := ask("de", "help"); !strings.Contains(r.Text, "**Comment jouer**") {
		t.Errorf("the chosen language does not win over the client's: %s", r.Text)
	}
}

// ask runs line for bob with his client in locale.
func ask(h *bottest.Harness, locale, line string) bot.Reply {
	h.Seq++
	return h.Run(bot.Request{ID: fmt.Sprintf("req-%d", h.Seq), User: bot.User{ID: "bob", Name: "bob"}, Locale: locale}, line)
}

// /rules answers in the asker's language, with the glossary's words for the pieces
// and rules and the English name of Keltic Chess on its first mention; every field
// of every card fits Discord in every language, the fair-clock rule included.
func TestRulesInTheAskersLanguage(t *testing.T) {
	h := bottest.New(t)
	want := map[string]map[string][]string{
		"de": {
			"gothic":  {"Regeln · Gothic Chess", "Kanzler (C)", "Erzbischof (A)", "Rochade", "Hausregel: automatisches Remis", "K+N+N gegen K"},
			"keltic":  {"Regeln · Keltisches Schach", "Keltisches Schach (Keltic Chess)", "Seitwärtsschritt", "d7, e7, f7"},
			"gochess": {"Setzrunde", "gesperrt", "Hausregel: kein wählbares Feld", "/place d4"},
			"gess":    {"Ring", "Rand", "Hausregel: Remis durch Vereinbarung", "m3-m6"},
		},
		"ru": {
			"gothic":  {"Правила · Готические шахматы", "Канцлер (C)", "архиепископ (A)", "Рокировка", "K+N+N против K"},
			"keltic":  {"Кельтские шахматы (Keltic Chess)", "ход в сторону"},
			"gochess": {"этап", "заблокирован", "домашнее правило: время истекло у обоих"},
			"gess":    {"Кольцо", "внешнем крае", "Домашнее правило: ничья по соглашению", "m3-m6"},
		},
	}
	for locale, cards := range want {
		for v, words := range cards {
			r := ask(h, locale, "rules variant:"+v)
			text := r.Title + "\n" + r.PlainText()
			for _, w := range words {
				if w = i18n.Commands(i18n.Of(locale), w); !strings.Contains(text, w) {
					t.Errorf("the %s card in %s lacks %q:\n%s", v, locale, w, text)
				}
			}
			if strings.Contains(text, "House rule") || strings.Contains(text, "Each move has") {
				t.Errorf("the %s card in %s has English left:\n%s", v, locale, text)
			}
		}
	}
	if r := ask(h, "de", "rules variant:xiangqi"); !r.Refused || !strings.HasPrefix(r.Text, "Welches Spiel?") {
		t.Errorf("German refusal: %+v", r)
	}
	for _, l := range i18n.Langs {
		locale := l.DiscordLocales()[0]
		for _, v := range []string{"gothic", "keltic", "gochess", "gess"} {
			r := ask(h, locale, "rules variant:"+v)
			outage := false
			for _, f := range r.Fields {
				if n := len([]rune(f.Value)); n > 1024 || len([]rune(f.Name)) > 256 {
					t.Errorf("the %s card's field %q in %s has %d characters, more than Discord's 1024", v, f.Name, l, n)
				}
				outage = outage || strings.Contains(f.Value, guide.Catalogue.For(l).T("rules.outage", nil))
			}
			if !outage || len([]rune(r.Text)) > 4096 {
				t.Errorf("the %s card in %s lacks the fair-clock rule or is longer than Discord's 4096: %+v", v, l, r)
			}
		}
	}
}

// The catalogue's English fair-clock rule is the one the cards are held to.
func TestOutageRuleInCatalogue(t *testing.T) {
	if got := guide.Catalogue.For(i18n.English).T("rules.outage", nil); got != guide.OutageRule {
		t.Errorf("the catalogue's rule %q is not %q", got, guide.OutageRule)
	}
}

// One command's help is in the asker's language, under the names their client shows.
func TestCommandHelpInTheAskersLanguage(t *testing.T) {
	h := bottest.New(t)
	r := ask(h, "de", "help command:regeln")
	if r.Refused || r.Title != "/regeln" || !strings.Contains(r.Text, "/regeln variante:gess|gochess|gothic|keltic") || !strings.Contains(r.Text, "Das Spiel (Pflicht)") {
		t.Errorf("German /help command:regeln: %+v", r)
	}
	if r := ask(h, "en-US", "help command:rules"); r.Title != "/rules" || !strings.Contains(r.Text, "The game (required)") {
		t.Errorf("English /help command:rules: %+v", r)
	}
}
