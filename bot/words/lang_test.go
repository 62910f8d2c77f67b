package words

import (
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

func TestCatalogue(t *testing.T) { i18ntest.Check(t, Catalogue) }

// Every way a game ends is worded in every language, as a phrase of its own: no
// language falls back to the English for one of them, and the English is the
// English of before.
func TestOutcomeInEachLanguage(t *testing.T) {
	players := [2]storage.Seat{{ID: "1", Name: "alice"}, {ID: "2", Name: "bob"}}
	var outcomes []rules.Outcome
	for _, r := range []rules.Reason{rules.Checkmate, rules.Stalemate, rules.RingLoss, rules.Resignation, rules.Timeout, rules.Adjudication} {
		outcomes = append(outcomes, rules.Outcome{Status: rules.Won, Winner: rules.Black, Reason: r})
	}
	for _, r := range []rules.Reason{rules.Stalemate, rules.Threefold, rules.FiftyMove, rules.InsufficientMaterial, rules.Agreement, rules.TimeoutDraw, rules.Adjudication} {
		outcomes = append(outcomes, rules.Outcome{Status: rules.Drawn, Reason: r})
	}
	outcomes = append(outcomes, rules.Outcome{Status: rules.Drawn, Reason: rules.Aborted})
	for _, o := range outcomes {
		en := In(i18n.English).Outcome(players, o)
		if old := Outcome(players, o); en != old {
			t.Errorf("%v in English: %q, before %q", o, en, old)
		}
		for _, l := range i18n.Langs[1:] {
			got := In(l).Outcome(players, o)
			if got == en || strings.Contains(got, "{{") {
				t.Errorf("%v in %s: %q (the English is %q)", o, l, got, en)
			}
			if o.Status == rules.Won && !strings.Contains(got, "bob") {
				t.Errorf("%v in %s does not name the winner: %q", o, l, got)
			}
		}
	}
}

// Times, durations and lists are written in the language; the English as before.
func TestWordsInEachLanguage(t *testing.T) {
	at := time.Date(2025, 3, 5, 12, 0, 0, 0, time.UTC)
	if got := In(i18n.English).Time(at); got != "Wed 5 Mar 12:00 UTC" {
		t.Errorf("English time %q", got)
	}
	if got := (W{}).Left(2*24*time.Hour + 4*time.Hour); got != "2d 4h" {
		t.Errorf("the zero W is not English: %q", got)
	}
	for _, l := range i18n.Langs[1:] {
		w := In(l)
		for _, s := range []string{w.Time(at), w.Left(5*time.Hour + 10*time.Minute), w.And([]string{"a", "b", "c"}), w.OrInts([]int{1, 2}),
			w.Side(rules.White), w.Piece(rules.Knight), w.Variant("keltic", "Keltic Chess")} {
			if strings.Contains(s, "{{") || s == "" {
				t.Errorf("%s: %q", l, s)
			}
		}
		if got := w.And([]string{"a", "b", "c"}); !strings.HasPrefix(got, "a, b ") || strings.Contains(got, " and ") {
			t.Errorf("%s lists with %q", l, got)
		}
		if w.Side(rules.White) == "white" || w.Piece(rules.Knight) == "knight" || w.Time(at) == "Wed 5 Mar 12:00 UTC" {
			t.Errorf("%s: %q %q %q", l, w.Side(rules.White), w.Piece(rules.Knight), w.Time(at))
		}
	}
}
