package ratings_test

import (
	"testing"

	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/ratings"
)

// The ratings' catalogue has every message in every language, with the English
// placeholders and the plural forms each language needs.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, ratings.Catalogue) }
