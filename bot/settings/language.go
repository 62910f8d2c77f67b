package settings

import (
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// langAuto is the language choice that follows the player's Discord client.
const langAuto = "auto"

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
