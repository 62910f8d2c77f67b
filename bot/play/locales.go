package play

import (
	"embed"
	"strconv"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/engine"
)

//go:embed locales/*.yaml
var localeFiles embed.FS

// Catalogue holds the play feature's sentences in every language Missive speaks
// (locales/active.<lang>.yaml): what a player reads when moving, placing,
// resigning, offering a draw or a takeback, aborting, giving time and preparing
// conditional moves, the buttons under a game, and the commands' names.
var Catalogue = i18n.MustLoad("play", localeFiles)

// speaker says the feature's sentences in one language: its messages and the
// words (times, durations, sides) of that language.
type speaker struct {
	*i18n.Localizer
	w words.W
}

// in returns the speaker of language l.
func in(l i18n.Lang) speaker { return speaker{Localizer: Catalogue.For(l), w: words.In(l)} }

// asker returns the speaker of the one who sent req.
func asker(tx *bot.Tx, req bot.Request) (speaker, error) {
	l, err := bot.AskerLang(tx.Tx, req)
	return in(l), err
}

// phrase is say's sentence in each reader's language, as the kernel's
// announcements and notices take it (bot.Tx.EndIn, AnnounceIn, TellIn).
func phrase(say func(sp speaker) string) bot.Phrase {
	return func(l i18n.Lang) string { return say(in(l)) }
}

// refuse is a refusal of sentence key in sp's language.
func (sp speaker) refuse(key string, data i18n.Data) error {
	return bot.Refuse(bot.ErrRefused, "%s", sp.T(key, data))
}

// decimal writes x (a number of pawns) as the prose of sp's language writes it:
// with a decimal comma in every language Missive speaks but English.
func (sp speaker) decimal(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if sp.Lang() != i18n.English {
		s = strings.ReplaceAll(s, ".", ",")
	}
	return s
}

// pawns writes a score in centipawns as pawns for draw.engine.declines: "a pawn",
// "0.5 pawns".
func (sp speaker) pawns(sc engine.Score) string {
	count := strconv.FormatFloat(float64(sc)/100, 'f', -1, 64)
	return sp.N("draw.engine.pawns", count, i18n.Data{"Pawns": sp.decimal(float64(sc) / 100)})
}
