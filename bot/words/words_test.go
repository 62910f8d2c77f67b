package words

import (
	"github.com/missivechess/missive/bot/i18n"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

func TestLeft(t *testing.T) {
	const day = 24 * time.Hour
	for d, want := range map[time.Duration]string{
		-time.Minute:                         "none",
		30 * time.Second:                     "1m",
		12 * time.Minute:                     "12m",
		5*time.Hour + 10*time.Minute:         "5h 10m",
		2*day + 4*time.Hour + 59*time.Second: "2d 4h",
	} {
		if got := English.Left(d); got != want {
			t.Errorf("Left(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestLists(t *testing.T) {
	for in, want := range map[string]string{"": "", "a": "a", "a,b": "a and b", "a,b,c": "a, b and c"} {
		var names []string
		if in != "" {
			names = strings.Split(in, ",")
		}
		if got := English.And(names); got != want {
			t.Errorf("And(%q) = %q, want %q", names, got, want)
		}
	}
	if got := English.OrInts([]int{1, 2, 3}); got != "1, 2 or 3" {
		t.Errorf("OrInts = %q", got)
	}
	if got := Plural(1, "day") + ", " + Plural(0, "day") + ", " + Plural(3, "game"); got != "1 day, 0 days, 3 games" {
		t.Errorf("Plural: %q", got)
	}
}

func TestShortening(t *testing.T) {
	if got := Clip("abcdef", 4); got != "abc…" || Clip("abc", 3) != "abc" {
		t.Errorf("Clip = %q", got)
	}
	if got := Capitalize("élan") + Period("done.") + "|" + Period("done"); got != "Élan|." {
		t.Errorf("Capitalize and Period: %q", got)
	}
	if got := English.NameTooLong("A name", strings.Repeat("x", 40), 32); !strings.Contains(got, "at most 32 characters") || strings.Contains(got, strings.Repeat("x", 40)) {
		t.Errorf("NameTooLong: %q", got)
	}
	if English.NameTooLong("A name", "short", 32) != "" {
		t.Error("a short name is refused")
	}
	if got := ShownID(strings.Repeat("9", 200)); len(got) > 80 {
		t.Errorf("ShownID keeps %d characters", len(got))
	}
}

func TestOutcome(t *testing.T) {
	players := [2]storage.Seat{{ID: "1", Name: "alice"}, {ID: "2"}}
	for o, want := range map[rules.Outcome]string{
		rules.Win(rules.White, rules.Checkmate): "alice (white) wins by checkmate",
		rules.Win(rules.Black, rules.Timeout):   "2 (black) wins on time",
		rules.Draw(rules.Agreement):             "drawn by agreement",
	} {
		if got := Outcome(players, o); got != want {
			t.Errorf("Outcome(%v) = %q, want %q", o, got, want)
		}
	}
}

// A game that words a forced win words the loss too, each with one %s for the moves.
func TestEvaluationWords(t *testing.T) {
	for _, v := range []string{"gothic", "keltic", "gochess", "gess"} {
		win, lose := English.ForcedWin(v)
		if strings.Count(win, "%s") != 1 || strings.Count(lose, "%s") != 1 {
			t.Errorf("%s: %q and %q each need one %%s for the moves", v, win, lose)
		}
		for _, l := range i18n.Langs {
			win, lose := In(l).ForcedWin(v)
			if strings.Count(win, "%s") != 1 || strings.Count(lose, "%s") != 1 {
				t.Errorf("%s in %s: %q and %q each need one %%s for the moves", v, l, win, lose)
			}
		}
	}
	if English.EvaluationUnits("gothic") != "pawns" || English.Units("gothic") != "" || !strings.Contains(English.EvaluationUnits("gess"), "stone is worth 0.2") {
		t.Error("units")
	}
}
