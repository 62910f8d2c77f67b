package views_test

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/views"
)

// The views' catalogue has every message in every language, with the English
// placeholders and every plural form.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, views.Catalogue) }

// The English catalogue's names and descriptions of the views' commands and their
// options are the specs' own, and every command is localised in every language.
func TestCatalogueMatchesSpecs(t *testing.T) {
	h := bottest.New(t)
	en := views.Catalogue.For(i18n.English)
	for _, name := range []string{views.CmdBoard, views.CmdGames, views.CmdNext, views.CmdHistory, views.CmdPGN, views.CmdGIF, views.CmdHint} {
		spec, ok := h.Svc.Spec(name)
		if !ok {
			t.Fatalf("no /%s", name)
		}
		key := "command." + name
		if en.T(key+".name", nil) != spec.Name || en.T(key+".desc", nil) != spec.Description {
			t.Errorf("/%s: the catalogue says %q, %q; the spec %q, %q", name, en.T(key+".name", nil), en.T(key+".desc", nil), spec.Name, spec.Description)
		}
		for _, o := range spec.Options {
			ok := key + ".option." + o.Name
			if en.T(ok+".name", nil) != o.Name || en.T(ok+".desc", nil) != o.Description {
				t.Errorf("/%s %s: the catalogue says %q, %q; the spec %q", name, o.Name, en.T(ok+".name", nil), en.T(ok+".desc", nil), o.Description)
			}
			if len(o.NameIn) != len(i18n.Langs)-1 || len(o.DescriptionIn) != len(i18n.Langs)-1 {
				t.Errorf("/%s %s is not localised in every language", name, o.Name)
			}
		}
		if len(spec.NameIn) != len(i18n.Langs)-1 || len(spec.DescriptionIn) != len(i18n.Langs)-1 {
			t.Errorf("/%s is not localised in every language: %v %v", name, spec.NameIn, spec.DescriptionIn)
		}
	}
}

// The views answer in the asker's language: the list of games, a history, the PGN
// and the animation's sentences, /next and a refused hint, in German and Russian.
func TestViewsInTheAskersLanguage(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "settings language:de")
	h.Ok("bob", "settings language:ru")
	id := h.Start("gothic", "days:2")
	for _, c := range []struct {
		user, line string
		want       []string
	}{
		{"alice", "history", []string{"Noch keine Züge."}},
		{"alice", "games", []string{"#" + id + " Gothic Chess gegen bob (du: Weiß) · **du bist am Zug** · noch "}},
		{"bob", "games", []string{"#" + id + " Готические шахматы против alice (вы: чёрные) · ход: alice · осталось "}},
		{"alice", "pgn", []string{"PGN der Partie " + id + "."}},
		{"bob", "pgn", []string{"PGN партии " + id + "."}},
		{"alice", "gif", []string{"Partie " + id + " in 1 Bild."}},
		{"bob", "gif", []string{"Партия " + id + ": 1 кадр."}},
		{"bob", "next", []string{"Ваша следующая партия", "Ни одна партия не ждёт вашего хода."}},
	} {
		r := h.Ok(c.user, c.line)
		text := r.Title + "\n" + r.PlainText()
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: /%s lacks %q:\n%s", c.user, c.line, w, text)
			}
		}
	}
	h.Play(id, "alice", "e2e4", "e7e5", "Nh3")
	if r := h.Ok("bob", "history"); !strings.HasPrefix(r.Text, "1. e4 e5 2. Nh3\n") {
		t.Errorf("Russian history %q", r.Text)
	}
	if r := h.Ok("bob", "gif"); !strings.Contains(r.Text, ": 4 кадра.") || !strings.Contains(r.Files[0].Alt, "анимация партии") {
		t.Errorf("Russian gif %q %q", r.Text, r.Files[0].Alt)
	}
	if r := h.Do("alice", "board text:vielleicht"); !r.Refused || !strings.Contains(r.Text, `nicht "vielleicht"`) {
		t.Errorf("German refusal: %+v", r)
	}
	if r := h.Ok("bob", "hint"); !strings.HasPrefix(r.Text, "Движок предлагает **") || len(r.Files) != 1 || r.Files[0].Alt != "доска с предложенным ходом" {
		t.Errorf("Russian hint: %q %+v", r.Text, r.Files)
	}
	g := h.Start("gochess", "color:white")
	if r := h.Ok("alice", "hint game:"+g); !strings.HasPrefix(r.Text, "Die Engine schlägt **") || !strings.Contains(r.Text, "** für deinen Bauern vor (/") {
		t.Errorf("German placement hint: %q", r.Text)
	}
	// English is as it was.
	h.Ok("carol", "gif game:"+id)
	if r := h.Ok("carol", "pgn game:"+id); r.Text != "PGN of game "+id+"." {
		t.Errorf("English PGN text %q", r.Text)
	}
}

// A hint's evaluation in German and Russian: the decimal comma, the plural of the
// moves to mate, Gess's own units and kind of win.
func TestHintEvaluationInEachLanguage(t *testing.T) {
	de, ru := views.Catalogue.For(i18n.German), views.Catalogue.For(i18n.Russian)
	for _, c := range []struct {
		got, want string
	}{
		{views.HintEvaluationIn(de, bot.Hint{Scored: true, Pawns: 0.44}, "gothic"), " (Bewertung +0,44 für dich)"},
		{views.HintEvaluationIn(de, bot.Hint{Scored: true, MateIn: 1}, "gothic"), " (du setzt in 1 Zug matt)"},
		{views.HintEvaluationIn(de, bot.Hint{Scored: true, MateIn: -3}, "keltic"), " (trotzdem wirst du in 3 Zügen mattgesetzt)"},
		{views.HintEvaluationIn(de, bot.Hint{Scored: true, Pawns: -2.2}, "gess"), " (Bewertung -2,20 für dich; in den eigenen Gess-Einheiten der Engine: ein Stein zählt 0,2, ein Ersatzring 2,5)"},
		{views.HintEvaluationIn(ru, bot.Hint{Scored: true, MateIn: 2}, "gothic"), " (вы ставите мат за 2 хода)"},
		{views.HintEvaluationIn(ru, bot.Hint{Scored: true, MateIn: 5}, "gothic"), " (вы ставите мат за 5 ходов)"},
		{views.HintEvaluationIn(ru, bot.Hint{Scored: true, MateIn: 21}, "gess"), " (вы выигрываете за 21 ход)"},
		{views.HintEvaluationIn(ru, bot.Hint{}, "gochess"), ""},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
