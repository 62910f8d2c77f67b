package console

import (
	"testing"

	"github.com/missivechess/missive/bot/i18n/i18ntest"
)

// The console's catalogue has every line in every language, with the English
// placeholders.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, catalogue) }
