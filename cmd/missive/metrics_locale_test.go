package main

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/storage"
)

// Interactions are counted by locale under a bounded set of labels: Discord's
// locales, "other" for anything else a client sends, "none" for none.
func TestMetricsByLocale(t *testing.T) {
	m := newMetrics(nil)
	for _, l := range []string{"de", "de", "pt-BR", "ja", "x\"evil", "tlh", ""} {
		m.observeLocale(l)
	}
	var b strings.Builder
	m.write(&b, storage.Counts{}, false, false)
	for _, want := range []string{`missive_interactions_by_locale_total{locale="de"} 2`, `missive_interactions_by_locale_total{locale="pt-BR"} 1`,
		`missive_interactions_by_locale_total{locale="ja"} 1`, `missive_interactions_by_locale_total{locale="other"} 2`,
		`missive_interactions_by_locale_total{locale="none"} 1`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("metrics lack %s:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "evil") || strings.Contains(b.String(), "tlh") {
		t.Errorf("an unknown locale became a label:\n%s", b.String())
	}
}
