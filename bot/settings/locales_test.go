package settings_test

import (
	"testing"

	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/settings"
)

// The settings' catalogue has every message in every language, with the English
// placeholders.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, settings.Catalogue) }
