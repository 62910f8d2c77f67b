package matches

import (
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/engine/match"
)

// EloText is eloText in language l, for the tests.
func EloText(l i18n.Lang, r match.Record, first string) string {
	return eloText(Catalogue.For(l), r, first)
}
