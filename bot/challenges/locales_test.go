package challenges_test

import (
	"testing"

	"github.com/missivechess/missive/bot/challenges"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
)

// The challenges' catalogue has every message in every language, with the English
// placeholders.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, challenges.Catalogue) }
