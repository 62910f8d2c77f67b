package settings_test

import (
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/settings"
)

// /settings language keeps the player's language; auto follows their Discord client
// again, which the bot remembers from their last interaction; a language Missive
// does not speak is refused and changes nothing.
func TestSettingsLanguage(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "settings theme:night") // alice has settings
	// A request from a German client: remembered, no choice made.
	h.Run(bot.Request{ID: "de-1", User: bot.User{ID: "alice", Name: "alice"}, Locale: "de"}, "settings")
	if p := h.Player("alice"); p.Locale != "de" || p.Lang != "" || bot.PlayerLang(p) != i18n.German {
		t.Fatalf("after a German request: lang %q locale %q", p.Lang, p.Locale)
	}
	r := h.Ok("alice", "settings language:pt-BR")
	if p := h.Player("alice"); p.Lang != "pt-BR" || bot.PlayerLang(p) != i18n.Portuguese {
		t.Errorf("after language:pt-BR: lang %q", p.Lang)
	}
	if !settings.HasField(r, "Language", "Português do Brasil") {
		t.Errorf("the settings do not show the language: %+v", r.Fields)
	}
	// The choice wins over the client's locale, which is still remembered.
	h.Run(bot.Request{ID: "ru-1", User: bot.User{ID: "alice", Name: "alice"}, Locale: "ru"}, "settings")
	if p := h.Player("alice"); bot.PlayerLang(p) != i18n.Portuguese || p.Locale != "ru" {
		t.Errorf("a Russian client changed the choice: lang %q locale %q", p.Lang, p.Locale)
	}
	h.Refused("alice", "settings language:tlh", `I do not speak "tlh" yet`)
	if p := h.Player("alice"); p.Lang != "pt-BR" {
		t.Errorf("a refused language changed the setting to %q", p.Lang)
	}
	r = h.Ok("alice", "settings language:auto")
	if p := h.Player("alice"); p.Lang != "" || bot.PlayerLang(p) != i18n.Russian {
		t.Errorf("after auto: lang %q locale %q", p.Lang, p.Locale)
	}
	if !settings.HasField(r, "Language", "auto: Русский") {
		t.Errorf("the settings do not show auto: %+v", r.Fields)
	}
}

// A locale is remembered only for a player who has settings: a request makes no
// record of its own.
func TestLocaleMakesNoRecord(t *testing.T) {
	h := bottest.New(t)
	h.Run(bot.Request{ID: "x", User: bot.User{ID: "zoe", Name: "zoe"}, Locale: "fr"}, "settings")
	if p := h.Player("zoe"); p.Version != 0 || p.Locale != "" {
		t.Errorf("a request made a record: %+v", p)
	}
}
