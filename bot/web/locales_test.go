package web_test

import (
	"testing"

	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/web"
)

// The web pages' catalogue has every message in every language, with the
// English placeholders.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, web.Catalogue) }
