package settings_test

import (
	"context"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/settings"
	"github.com/missivechess/missive/storage"
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
	if !settings.HasField(r, "Idioma", "Português do Brasil") { // the answer in the language chosen
		t.Errorf("the settings do not show the language: %+v", r.Fields)
	}
	// The choice wins over the client's locale, which is still remembered.
	h.Run(bot.Request{ID: "ru-1", User: bot.User{ID: "alice", Name: "alice"}, Locale: "ru"}, "settings")
	if p := h.Player("alice"); bot.PlayerLang(p) != i18n.Portuguese || p.Locale != "ru" {
		t.Errorf("a Russian client changed the choice: lang %q locale %q", p.Lang, p.Locale)
	}
	h.Refused("alice", "settings language:tlh", `Ainda não falo "tlh"`) // in her language, pt-BR
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

// An admin chooses the server's language with /settings server_language; a member
// who may not manage the server, or a request outside a server, is refused and
// changes nothing; without a choice the server's language is Discord's
// guild_locale, remembered for the posts no interaction carries.
func TestServerLanguage(t *testing.T) {
	h := bottest.New(t)
	ctx := context.Background()
	lang := func(guild, guildLocale string) i18n.Lang {
		var l i18n.Lang
		if err := h.Svc.Read(ctx, func(tx *storage.Tx) (err error) {
			l, err = bot.ServerLang(tx, guild, guildLocale)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return l
	}
	g1 := bot.Place{Guild: "g1", Channel: "c1"}
	if r := h.Where("bob", g1, bot.ContextGuild, false, "settings server_language:de"); !r.Refused || !strings.Contains(r.Text, "Only a member who may manage the server") {
		t.Errorf("a member set the server's language: %+v", r)
	}
	if r := h.Do("carol", "settings server_language:de"); !r.Refused || !strings.Contains(r.Text, "chosen in that server") {
		t.Errorf("the language of no server was set: %+v", r)
	}
	if l := lang("g1", "fr"); l != i18n.French {
		t.Fatalf("a refusal changed g1's language to %s", l)
	}
	r := h.Where("carol", g1, bot.ContextGuild, true, "settings server_language:de")
	if r.Refused || !settings.HasField(r, "Server language", "Deutsch") {
		t.Fatalf("an admin's choice: %+v", r)
	}
	if l := lang("g1", "fr"); l != i18n.German {
		t.Errorf("g1 with a German choice and a French guild_locale speaks %s", l)
	}
	h.Where("carol", g1, bot.ContextGuild, true, "settings server_language:auto")
	if l := lang("g1", "fr"); l != i18n.French {
		t.Errorf("g1 on auto speaks %s, not its guild_locale", l)
	}
	// A Russian server's locale is remembered for the scheduler's posts.
	h.Run(bot.Request{ID: "ru", User: bot.User{ID: "dave", Name: "dave"}, Place: bot.Place{Guild: "g2", Channel: "c2"}, Context: bot.ContextGuild, GuildLocale: "ru"}, "settings")
	if l := lang("g2", ""); l != i18n.Russian {
		t.Errorf("g2's remembered language: %s", l)
	}
	if l := lang("g3", ""); l != i18n.English {
		t.Errorf("an unknown server speaks %s", l)
	}
}
