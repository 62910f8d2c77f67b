package ratings_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/ratings"
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
		bottest.CheckSpec(t, ratings.Catalogue, spec)
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
