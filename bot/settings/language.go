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
func setServerLanguage(tx *bot.Tx, req bot.Request) (bool, error) {
	t := req.Args.Get("server_language")
	if t == "" {
		return false, nil
	}
	if req.Place.Guild == "" {
		return false, bot.Refuse(bot.ErrRefused, "A server's language is chosen in that server; use /settings server_language there.")
	}
	if !req.Admin {
		return false, bot.Refuse(bot.ErrRefused, "Only a member who may manage the server can choose its language.")
	}
	lang, err := parseLanguage(t)
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

// serverLanguageField describes the language of req's server.
func serverLanguageField(tx *bot.Tx, req bot.Request) (bot.Field, error) {
	lang, err := bot.ServerLang(tx.Tx, req.Place.Guild, req.GuildLocale)
	if err != nil {
		return bot.Field{}, err
	}
	value := "auto: " + lang.Name()
	if sv, err := tx.Server(req.Place.Guild); err == nil && sv.Lang != "" {
		value = lang.Name()
	}
	return bot.Field{Name: "Server language", Value: value, Inline: true}, nil
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

// parseLanguage reads a language choice: the code to store, "" for auto.
func parseLanguage(s string) (string, error) {
	if strings.EqualFold(s, langAuto) {
		return "", nil
	}
	l, ok := i18n.Parse(s)
	if !ok {
		codes := make([]string, len(i18n.Langs))
		for i, l := range i18n.Langs {
			codes[i] = string(l)
		}
		return "", bot.Refuse(bot.ErrRefused, "I do not speak %s yet; choose auto or one of %s.", rules.Echo(s), strings.Join(codes, ", "))
	}
	return string(l), nil
}

// languageText describes p's language setting.
func languageText(p *storage.Player) string {
	if l, ok := i18n.Parse(p.Lang); ok {
		return l.Name()
	}
	return "auto: " + bot.PlayerLang(p).Name()
}
