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
	ask := func(locale, line string) bot.Reply {
		h.Seq++
		return h.Run(bot.Request{ID: fmt.Sprintf("req-%d", h.Seq), User: bot.User{ID: "bob", Name: "bob"}, Locale: locale}, line)
	}
	if r := ask("de", "help"); r.Title != "Missive: Fernschach in Gothic Chess, Keltischem Schach, Go-Chess und Gess" || !strings.Contains(r.Text, "Züge schreibst du in englischer Notation") {
		t.Errorf("German /help: %s\n%s", r.Title, r.Text)
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
