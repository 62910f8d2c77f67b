package bot_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/storage"
)

// A reply is in the asker's language (their choice, else their client's), a post
// in the server's, a direct message in the player's (their choice, else their last
// interaction's); English when nothing is known.
func TestLocalizers(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, l := range i18n.Langs {
		fsys["locales/active."+string(l)+".yaml"] = &fstest.MapFile{Data: []byte("lang: \"" + string(l) + "\"\n")}
	}
	cat, err := i18n.Load("demo", fsys)
	if err != nil {
		t.Fatal(err)
	}
	h := bottest.New(t)
	ctx := context.Background()
	req := bot.Request{User: bot.User{ID: "alice", Name: "alice"}, Locale: "pt-BR", GuildLocale: "ru", Place: bot.Place{Guild: "g", Channel: "c"}}
	if got := h.Svc.AskerLocalizer(ctx, cat, req).T("lang", nil); got != "pt-BR" {
		t.Errorf("asker: %s", got)
	}
	dm := func() string {
		var s string
		if err := h.Svc.Read(ctx, func(tx *storage.Tx) error {
			loc, err := bot.PlayerLocalizer(tx, cat, "alice")
			s = loc.T("lang", nil)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if got := dm(); got != "en" {
		t.Errorf("a player without settings: %s", got)
	}
	h.Ok("alice", "settings theme:night")
	h.Run(bot.Request{ID: "es", User: bot.User{ID: "alice", Name: "alice"}, Locale: "es-419"}, "settings")
	if got := dm(); got != "es" {
		t.Errorf("after a Spanish interaction: %s", got)
	}
	h.Ok("alice", "settings language:de")
	if got := dm(); got != "de" {
		t.Errorf("after language:de: %s", got)
	}
	if got := h.Svc.AskerLocalizer(ctx, cat, req).T("lang", nil); got != "de" {
		t.Errorf("the asker's choice does not win over the client: %s", got)
	}
}

// An answer posted for many to read in a server (an adapter's first board in a
// game's thread) is in the server's language, whatever the asker chose; outside a
// server it is the asker's.
func TestPublicAnswerInTheServersLanguage(t *testing.T) {
	h := bottest.New(t)
	h.Ok("bob", "settings language:de")
	lang := func(req bot.Request) i18n.Lang {
		var l i18n.Lang
		if err := h.Svc.Read(context.Background(), func(tx *storage.Tx) (err error) {
			l, err = bot.AskerLang(tx, req)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return l
	}
	req := bot.Request{User: bot.User{ID: "bob", Name: "bob"}, Locale: "ru", GuildLocale: "fr", Place: bot.Place{Guild: "g", Channel: "c"}}
	if got := lang(req); got != i18n.German {
		t.Errorf("bob's own answer: %s", got)
	}
	req.Public = true
	if got := lang(req); got != i18n.French {
		t.Errorf("a public answer in a French server: %s", got)
	}
	req.Place = bot.Place{}
	if got := lang(req); got != i18n.German {
		t.Errorf("a public answer outside a server: %s", got)
	}
}

// /help's synopsis and options of a command in each language name them as the
// reader's client does, with the options' kinds in the language and a boolean
// written as it is typed (true/false, which ParseBool reads); English as before.
func TestHelpIn(t *testing.T) {
	h := bottest.New(t)
	spec, ok := h.Svc.Spec("board")
	if !ok {
		t.Fatal("no /board")
	}
	if spec.HelpIn(i18n.English) != spec.Help() || spec.UsageIn(i18n.English) != spec.Usage() || !strings.HasPrefix(spec.Usage(), "/board [game:<string>]") {
		t.Errorf("English: %q", spec.Help())
	}
	de := spec.HelpIn(i18n.German)
	for _, want := range []string{"/brett [partie:<Text>] [text:<true/false>]", "  partie:"} {
		if !strings.Contains(de, want) {
			t.Errorf("German /help board lacks %q:\n%s", want, de)
		}
	}
	if v, ok := bot.ParseBool("true"); !v || !ok {
		t.Error("true is not read as a boolean")
	}
}
