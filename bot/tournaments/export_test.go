package tournaments

import (
	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
)

// What the external tests (package tournaments_test) reach of the feature's insides.

// TextRows is the most standings rows shown as text.
const TextRows = textRows

// StandingsText draws a standings table as text (standingsText), in English.
func StandingsText(tbl bot.Table, fence bool) string { return standingsText(english, tbl, fence) }

// StandingsTextIn draws a standings table as text in language l.
func StandingsTextIn(l i18n.Lang, tbl bot.Table, fence bool) string {
	return standingsText(speak(l), tbl, fence)
}
