package bot_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

func TestCatalogue(t *testing.T)      { i18ntest.Check(t, bot.Catalogue()) }
func TestRulesCatalogue(t *testing.T) { i18ntest.Check(t, bot.RulesCatalogue) }

// rulesRefusals are refusals of the rules for input a player could type: bad
// notation, illegal and ambiguous moves, unknown games, in each variant.
func rulesRefusals(t *testing.T) []*rules.Error {
	t.Helper()
	reg := variants.Registry()
	var out []*rules.Error
	add := func(err error) {
		var re *rules.Error
		if errors.As(err, &re) {
			out = append(out, re)
		}
	}
	_, err := reg.Lookup("chess960")
	add(err)
	for _, key := range reg.Keys() {
		v, _ := reg.Lookup(key)
		pos := v.Start(1)
		for _, text := range []string{"", "zz", "e2e9", "Qh5", "N", "a1a1", "O-O", "e4e5", "m3-m6", "Kxe8", "P@z9", "e7e5", "xx-yy", "a9", "Nf3"} {
			m, err := pos.ParseMove(text)
			if err != nil {
				add(err)
				continue
			}
			_, err = pos.Play(m)
			add(err)
		}
	}
	return out
}

// Every rules refusal with a Key says in English exactly what its Text says, so
// that the catalogue's English is the sentence the rules wrote; in every other
// language it is another sentence, with no placeholder left.
func TestRulesSentences(t *testing.T) {
	refusals := rulesRefusals(t)
	keyed := 0
	for _, e := range refusals {
		if e.Key == "" {
			continue
		}
		keyed++
		if got := bot.RulesSentence(i18n.English, e); got != e.Text {
			t.Errorf("%s in English: %q, the rules' Text %q", e.Key, got, e.Text)
		}
		for _, l := range i18n.Langs[1:] {
			if got := bot.RulesSentence(l, e); got == e.Text || strings.Contains(got, "{{") || strings.Contains(got, "<no value>") {
				t.Errorf("%s in %s: %q", e.Key, l, got)
			}
		}
	}
	if keyed == 0 {
		t.Fatalf("no rules refusal has a key (of %d)", len(refusals))
	}
}
