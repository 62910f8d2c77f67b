package settings

import (
	"errors"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// langAuto is the language choice that follows the player's Discord client.
const langAuto = "auto"

// serverLanguageOption is /settings server_language: the language of the posts many
// read in the server (games' threads, tournament news), which only a member who may
// manage the server chooses; auto follows the server's Discord language.
func serverLanguageOption() bot.OptionSpec {
	o := languageOption()
	o.Name, o.Description = "server_language", "Admins: the language of this server's game threads and news (auto: the server's)"
	o.Choices[0].Name = "Auto (the server's Discord language)"
	return o
}

// setServerLanguage applies req's server_language, if any, and reports whether it
// changed the server's settings; only a member who may manage the server may, and
// only in a server.
func setServerLanguage(tx *bot.Tx, loc *i18n.Localizer, req bot.Request) (bool, error) {
	t := req.Args.Get("server_language")
	if t == "" {
		return false, nil
	}
	if req.Place.Guild == "" {
		return false, refuse(bot.ErrRefused, loc, "settings.server.outside", nil)
	}
	if !req.Admin {
		return false, refuse(bot.ErrRefused, loc, "settings.server.admin", nil)
	}
	lang, err := parseLanguage(loc, t)
	if err != nil {
		return false, err
	}
	sv, err := tx.Server(req.Place.Guild)
	if errors.Is(err, storage.ErrNotFound) {
		sv, err = &storage.Server{ID: req.Place.Guild}, nil
	}
	if err != nil {
		return false, err
	}
	sv.Lang = lang
	return true, tx.PutServer(sv)
}

// serverLanguageField describes the language of req's server in loc's language.
func serverLanguageField(tx *bot.Tx, loc *i18n.Localizer, req bot.Request) (bot.Field, error) {
	lang, err := bot.ServerLang(tx.Tx, req.Place.Guild, req.GuildLocale)
	if err != nil {
		return bot.Field{}, err
	}
	value := loc.T("settings.language.auto", i18n.Data{"Language": lang.Name()})
	if sv, err := tx.Server(req.Place.Guild); err == nil && sv.Lang != "" {
		value = lang.Name()
	}
	return bot.Field{Name: loc.T("settings.field.server_language", nil), Value: value, Inline: true}, nil
}

// languageOption is /settings language: the language the bot speaks to the player
// in, whatever their client's; auto follows the client again.
func languageOption() bot.OptionSpec {
	choices := []bot.OptionChoice{{Name: "Auto (your Discord language)", Value: langAuto}}
	for _, l := range i18n.Langs {
		choices = append(choices, bot.OptionChoice{Name: l.Name(), Value: string(l)})
	}
	return bot.OptionSpec{Name: "language", Description: "The language I write to you in (auto: your Discord language)", Type: bot.OptString, Choices: choices}
}

// parseLanguage reads a language choice: the code to store, "" for auto; a
// refusal in loc's language.
func parseLanguage(loc *i18n.Localizer, s string) (string, error) {
	if strings.EqualFold(s, langAuto) {
		return "", nil
	}
	l, ok := i18n.Parse(s)
	if !ok {
		codes := make([]string, len(i18n.Langs))
		for i, l := range i18n.Langs {
			codes[i] = string(l)
		}
		return "", refuse(bot.ErrRefused, loc, "settings.language.bad", i18n.Data{"Value": rules.Echo(s), "Codes": strings.Join(codes, ", ")})
	}
	return string(l), nil
}

// languageText describes p's language setting in loc's language; auto names the
// language of p's client, the one of req (locale) when none is remembered.
func languageText(loc *i18n.Localizer, p *storage.Player, locale string) string {
	if l, ok := i18n.Parse(p.Lang); ok {
		return l.Name()
	}
	lang := bot.PlayerLang(p)
	if p.Locale == "" {
		lang = i18n.Of(locale)
	}
	return loc.T("settings.language.auto", i18n.Data{"Language": lang.Name()})
}
