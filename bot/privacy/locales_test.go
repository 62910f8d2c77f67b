package privacy_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/privacy"
)

// The privacy feature's catalogue has every message in every language, with the
// English placeholders.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, privacy.Catalogue) }

// The English catalogue's names and descriptions of /privacy are the spec's own,
// and every language localises them.
func TestCatalogueMatchesSpecs(t *testing.T) {
	h := bottest.New(t)
	spec, ok := h.Svc.Spec(privacy.CmdPrivacy)
	if !ok {
		t.Fatal("no /privacy")
	}
	bottest.CheckSpec(t, privacy.Catalogue, spec)
}

// /privacy answers a German and a Russian player in their language: the summary,
// the question before deleting, a refusal and the confirmation.
func TestPrivacyInTheAskersLanguage(t *testing.T) {
	h, _, _ := played(t)
	ask := func(user, locale, line string) bot.Reply {
		h.Seq++
		return h.Run(bot.Request{ID: fmt.Sprintf("req-%d", h.Seq), User: bot.User{ID: user, Name: user}, Locale: locale}, line)
	}
	if r := ask("alice", "de", "privacy action:show"); r.Title != "Deine Daten" || !strings.Contains(r.Text, "- Wertungszahlen: 1.") ||
		!strings.Contains(r.Text, "mit 0 bedingten Zugfolgen") || !strings.Contains(r.Text, "/datenschutz löschen") {
		t.Errorf("German /privacy show: %s\n%s", r.Title, r.Text)
	}
	if r := ask("alice", "ru", "privacy action:show"); r.Title != "Ваши данные" || !strings.Contains(r.Text, "Рейтинги: 1.") {
		t.Errorf("Russian /privacy show: %s\n%s", r.Title, r.Text)
	}
	id := h.Start("gothic", "")
	if r := ask("alice", "ru", "privacy action:delete"); !r.Refused || !strings.Contains(r.Text, "у вас 1 незавершённая партия ("+id+")") {
		t.Errorf("Russian refusal: %+v", r)
	}
	h.Ok("alice", "resign game:"+id)
	r := ask("alice", "de", "privacy action:delete")
	if r.Title != "Deine Daten löschen?" || !strings.Contains(r.Text, "1 Wertungszahl, 3 Herausforderungen") || len(r.Actions) != 1 || r.Actions[0].Label != "Meine Daten löschen" {
		t.Errorf("German /privacy delete: %+v", r)
	}
	if r := ask("bob", "ru", "privacy action:whatever"); !r.Refused || !strings.HasPrefix(r.Text, "Укажите") {
		t.Errorf("Russian refusal of an action: %+v", r)
	}
	if r := ask("alice", "ru", "privacy action:delete confirm:yes"); r.Title != "Ваши данные удалены" || !strings.Contains(r.Text, "1 рейтинг") {
		t.Errorf("Russian deletion: %s\n%s", r.Title, r.Text)
	}
	if r := ask("carol", "ja", "privacy action:show"); r.Title != "Your data" {
		t.Errorf("a language Missive does not speak is not the English: %s", r.Title)
	}
}
