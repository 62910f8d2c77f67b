// Package i18ntest checks a message catalogue in a package's tests.
package i18ntest

import (
	"testing"

	"github.com/missivechess/missive/bot/i18n"
)

// Check fails t once for each problem of c (i18n.Catalogue.Problems): a language
// without its file, a missing or extra key, placeholders that differ from the
// English, a plural form a language needs and lacks.
func Check(t testing.TB, c *i18n.Catalogue) {
	t.Helper()
	for _, p := range c.Problems() {
		t.Error(p)
	}
}
