package tournaments

import (
	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/tournament"
	"github.com/missivechess/missive/storage"
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

// Standings lays out the standings of t after pt in language l, as the feature
// draws them (title, headers, rows and note).
func Standings(l i18n.Lang, t *storage.Tournament, pt tournament.Tournament) bot.Table {
	return (&feature{}).standings(speak(l), t, pt)
}
