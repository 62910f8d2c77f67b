package review_test

import (
	"testing"

	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/review"
)

// The review's catalogue has every sentence in every language, with the English
// placeholders.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, review.Catalogue) }
