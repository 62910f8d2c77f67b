package i18n

import "strings"

// Lang is a language Missive speaks, by its stable code (as stored with a
// player's settings and as its catalogue files are named).
type Lang string

// The languages Missive speaks. English is the source and the fallback.
const (
	English    Lang = "en"
	German     Lang = "de"
	French     Lang = "fr"
	Spanish    Lang = "es"
	Portuguese Lang = "pt-BR" // Brazilian Portuguese, which Discord offers alone
	Russian    Lang = "ru"
)

// Langs are the languages Missive speaks, English first.
var Langs = []Lang{English, German, French, Spanish, Portuguese, Russian}

// names are the languages' names in their own language, for /settings.
var names = map[Lang]string{
	English: "English", German: "Deutsch", French: "Français", Spanish: "Español",
	Portuguese: "Português do Brasil", Russian: "Русский",
}

// Name returns l's name in its own language ("Deutsch").
func (l Lang) Name() string { return names[l] }

// discordLocales are the Discord locales each language serves; the first is the one
// a command's localisations are keyed by. Discord's list:
// https://discord.com/developers/docs/reference#locales (no "es", "pt" or "en" alone).
var discordLocales = map[Lang][]string{
	English:    {"en-US", "en-GB"},
	German:     {"de"},
	French:     {"fr"},
	Spanish:    {"es-ES", "es-419"},
	Portuguese: {"pt-BR"},
	Russian:    {"ru"},
}

// DiscordLocales returns the Discord locale codes l serves ("es-ES", "es-419").
func (l Lang) DiscordLocales() []string { return discordLocales[l] }

// Parse returns the language of a locale code, Discord's ("es-419", "pt-BR",
// "en-GB") or Missive's own ("es"), in any case; false when Missive does not speak
// it.
func Parse(code string) (Lang, bool) {
	c := strings.ToLower(strings.TrimSpace(code))
	for _, l := range Langs {
		if c == strings.ToLower(string(l)) {
			return l, true
		}
		for _, d := range discordLocales[l] {
			if c == strings.ToLower(d) {
				return l, true
			}
		}
	}
	switch base, _, _ := strings.Cut(c, "-"); base {
	case "en", "de", "fr", "es", "ru":
		return Lang(base), true
	case "pt":
		return Portuguese, true // Discord has only pt-BR; players in Portugal use it
	}
	return "", false
}

// Of returns the language of a locale code, English when Missive does not speak it
// or the code is empty.
func Of(code string) Lang {
	if l, ok := Parse(code); ok {
		return l
	}
	return English
}

// DiscordAll are every locale Discord lists
// (https://discord.com/developers/docs/reference#locales), whether Missive speaks
// it or not: the metrics count interactions by them so that the next languages
// follow what players use.
var DiscordAll = []string{"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
	"nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th",
	"zh-CN", "ja", "zh-TW", "ko"}

// MetricLabel returns the label the metrics count an interaction of a locale
// under: the locale as Discord spells it when Discord lists it, "other" for any
// other code, "none" when there is none (the console). The set of labels is
// bounded, whatever a client sends.
func MetricLabel(locale string) string {
	if locale == "" {
		return "none"
	}
	for _, d := range DiscordAll {
		if strings.EqualFold(locale, d) {
			return d
		}
	}
	return "other"
}
