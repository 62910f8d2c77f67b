package tournaments

import (
	"embed"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/storage"
)

//go:embed locales/*.yaml
var localeFiles embed.FS

// Catalogue holds the tournaments' messages in every language Missive speaks:
// /tournament's names and descriptions, its replies and refusals, the news posted
// in a tournament's place and the standings table's title, headers and notes.
var Catalogue = i18n.MustLoad("tournaments", localeFiles)

// speech is what one reader reads: this package's messages and the shared words,
// in the reader's language.
type speech struct {
	*i18n.Localizer
	w words.W
}

// speak returns the speech of language l.
func speak(l i18n.Lang) speech { return speech{Localizer: Catalogue.For(l), w: words.In(l)} }

// english is the speech of the source language.
var english = speak(i18n.English)

// askerSpeech is the speech of the one who sent req (bot.AskerLang).
func askerSpeech(tx *storage.Tx, req bot.Request) (speech, error) {
	l, err := bot.AskerLang(tx, req)
	return speak(l), err
}

// newsSpeech is the speech of the news of a tournament in server guild (its
// server's language, bot.ServerLang); guildLocale is the request's when a request
// made the news, "" when a game's end or the scheduler did. Local play (the
// console) has no server: its news are in the organizer's language when it is
// known, else in that of the change's reader (tx.Lang: the asker's), who reads
// them where the reply shows.
func newsSpeech(tx *bot.Tx, guild, guildLocale, organizer string) (speech, error) {
	if guild == "" && guildLocale == "" {
		p, err := tx.Player(organizer)
		switch {
		case errors.Is(err, storage.ErrNotFound) || organizer == "":
			return speak(tx.Lang()), nil
		case err != nil:
			return english, err
		}
		if _, ok := i18n.Parse(p.Lang); !ok && p.Locale == "" {
			return speak(tx.Lang()), nil
		}
		return speak(bot.PlayerLang(p)), nil
	}
	l, err := bot.ServerLang(tx.Tx, guild, guildLocale)
	return speak(l), err
}

// refuse returns the refusal of message id.
func (s speech) refuse(id string, data i18n.Data) error {
	return bot.Refuse(bot.ErrRefused, "%s", s.T(id, data))
}

// quote quotes what a player typed as the language quotes: "x" (Go's %q, as the
// English always did), „x“, « x », «x», “x”; escaped as %q escapes it.
func (s speech) quote(text string) string {
	q := fmt.Sprintf("%q", text)
	if s.Lang() == i18n.English {
		return q
	}
	return s.T("quote", i18n.Data{"Text": q[1 : len(q)-1]})
}

// decimal writes v in prose: "1.5" in English, "1,5" in the other languages.
func (s speech) decimal(v float64) string {
	text := strconv.FormatFloat(v, 'f', -1, 64)
	if s.Lang() == i18n.English {
		return text
	}
	return strings.Replace(text, ".", ",", 1)
}

// cell writes points in a table: as English writes them in English, elsewhere
// with ½ for a half point ("2½", "½") as the languages' tables do (and a decimal
// comma for any other fraction).
func (s speech) cell(v float64) string {
	if s.Lang() != i18n.English {
		if whole, frac := math.Modf(v); frac == 0.5 && whole >= 0 {
			if whole == 0 {
				return "½"
			}
			return strconv.FormatFloat(whole, 'f', 0, 64) + "½"
		}
	}
	return s.decimal(v)
}

// count is v as a plural count: an integer, or a decimal as text ("1.5").
func count(v float64) any {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return int64(v)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// refusal is a refusal worded by message id in the language of whoever reads it
// (Service.Fail: the asker's), its placeholders data in that language's speech
// (nil for none): for a refusal raised where the asker's language is not known,
// such as a game's end hook.
func refusal(id string, data func(s speech) i18n.Data) error {
	return bot.RefuseIn(bot.ErrRefused, func(l i18n.Lang) string {
		s := speak(l)
		var d i18n.Data
		if data != nil {
			d = data(s)
		}
		return s.T(id, d)
	})
}

// mustAdmin refuses what (create, start, engine: the admin.what.* phrases, such
// as "create a tournament") to members without the server-management permission
// and to everyone outside a server, with bot.MustAdminIn's sentence in the
// reader's language.
func mustAdmin(req bot.Request, what string) error {
	return bot.MustAdminIn(req, func(l i18n.Lang) string { return Catalogue.For(l).T("admin.what."+what, nil) })
}
