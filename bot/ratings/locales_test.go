package ratings_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/ratings"
	"github.com/missivechess/missive/bot/words"
)

// The ratings' catalogue has every message in every language, with the English
// placeholders and the plural forms each language needs.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, ratings.Catalogue) }

// The English catalogue's names, descriptions and choices of /leaderboard and
// /profile are the specs' own, and every name is localised in every language.
func TestCatalogueMatchesSpecs(t *testing.T) {
	h := bottest.New(t)
	for _, name := range []string{ratings.CmdLeaderboard, ratings.CmdProfile} {
		spec, ok := h.Svc.Spec(name)
		if !ok {
			t.Fatalf("no /%s", name)
		}
		checkSpec(t, ratings.Catalogue, spec)
	}
}

// checkSpec compares a command's spec with catalogue c, subcommands and all.
func checkSpec(t *testing.T, c *i18n.Catalogue, spec bot.CommandSpec) {
	t.Helper()
	en := c.For(i18n.English)
	same := func(key, want string) {
		t.Helper()
		if got := en.T(key, nil); got != want {
			t.Errorf("%s: the catalogue says %q, the spec %q", key, got, want)
		}
	}
	localised := func(what string, names, descs bot.Texts) {
		t.Helper()
		if len(names) != len(i18n.Langs)-1 || len(descs) != len(i18n.Langs)-1 {
			t.Errorf("%s is not localised in every language: %v %v", what, names, descs)
		}
	}
	var walk func(key string, sc bot.CommandSpec)
	options := map[i18n.Lang]map[string]string{} // a language's option names: local name -> English name
	english := map[string]bool{}
	walk = func(key string, sc bot.CommandSpec) {
		same(key+".name", sc.Name)
		same(key+".desc", sc.Description)
		localised(key, sc.NameIn, sc.DescriptionIn)
		for _, o := range sc.Options {
			ok := key + ".option." + o.Name
			same(ok+".name", o.Name)
			same(ok+".desc", o.Description)
			localised(ok, o.NameIn, o.DescriptionIn)
			english[o.Name] = true
			for l, n := range o.NameIn {
				if options[l] == nil {
					options[l] = map[string]string{}
				}
				if other, ok := options[l][n]; ok && other != o.Name {
					t.Errorf("%s: %s names both %s and %s %q", spec.Name, l, other, o.Name, n)
				}
				options[l][n] = o.Name
			}
			for _, ch := range o.Choices {
				if o.Name == "variant" && !words.Catalogue.Has("variant."+ch.Value) {
					continue // a test's toy variant
				}
				same(ok+".choice."+ch.Value, ch.Name)
				if len(ch.NameIn) != len(i18n.Langs)-1 {
					t.Errorf("%s choice %s is not localised in every language: %v", ok, ch.Value, ch.NameIn)
				}
			}
		}
		for _, sub := range sc.Subcommands {
			walk(key+"."+sub.Name, sub)
		}
	}
	walk("command."+spec.Name, spec)
	for l, names := range options {
		for n, en := range names {
			if english[n] && n != en {
				t.Errorf("%s: %s names option %s %q, another option's English name", spec.Name, l, en, n)
			}
		}
	}
}

// German and Russian players read /leaderboard and /profile in their languages;
// a refusal too.
func TestRatingsInTheAskersLanguage(t *testing.T) {
	h := bottest.New(t)
	ask := func(user, locale, line string) bot.Reply {
		h.Seq++
		return h.Run(bot.Request{ID: fmt.Sprintf("req-%d", h.Seq), User: bot.User{ID: user, Name: user}, Locale: locale}, line)
	}
	if r := ask("carol", "de", "leaderboard variant:gothic"); r.Title != "Rangliste: Gothic Chess" || r.Text != "Hier hat noch niemand eine gewertete Partie Gothic Chess gespielt." {
		t.Errorf("German empty leaderboard: %+v", r)
	}
	g := h.Start("gothic", "rated:yes")
	h.Ok("bob", "resign game:"+g)
	r := ask("carol", "ru", "leaderboard variant:gothic")
	if text := r.PlainText(); r.Title != "Рейтинг-лист: Готические шахматы" || !strings.Contains(text, "Игрок") || !strings.Contains(text, "Рейтинг") ||
		!strings.Contains(text, "? — предварительный рейтинг") {
		t.Errorf("Russian leaderboard: %s\n%s", r.Title, text)
	}
	if text := ask("carol", "de", "profile player:alice").PlainText(); !strings.Contains(text, "Gothic Chess: ") || !strings.Contains(text, "1 Partie: 1 gewonnen, 0 remis, 0 verloren") ||
		!strings.Contains(text, "Wertungszahlen auf diesem Server") {
		t.Errorf("German profile:\n%s", text)
	}
	if text := ask("carol", "ru", "profile player:bob").PlainText(); !strings.Contains(text, "Готические шахматы: ") || !strings.Contains(text, "1 партия: побед 0, ничьих 0, поражений 1") {
		t.Errorf("Russian profile:\n%s", text)
	}
	if text := ask("carol", "ru", "profile").PlainText(); !strings.Contains(text, "У игрока carol здесь ещё нет рейтинговых партий.") {
		t.Errorf("Russian empty profile:\n%s", text)
	}
	if r := ask("carol", "ru", "leaderboard variant:gothic top:0"); !r.Refused || !strings.HasPrefix(r.Text, "Параметр сколько должен быть числом от 1 до 50") {
		t.Errorf("Russian refusal: %+v", r)
	}
}
