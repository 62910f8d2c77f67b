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

// The kernel's parts of the views' replies come in the asker's language too: the
// game's title, status line, fields and picture description of /board, the titles
// of /history, /pgn, /gif and /hint, the open challenges of /games, and the PGN
// button under a finished game's board; English is unchanged.
func TestGameRepliesInTheAskersLanguage(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "settings language:de")
	h.Ok("bob", "settings language:ru")
	id := h.Start("gothic", "days:2")
	type want struct {
		title, text, alt string
		fields           []string
	}
	for user, w := range map[string]want{
		"alice": {"Partie " + id + " · Gothic Chess · alice gegen bob", "alice (Weiß) am Zug · Frist ", "Brett von Gothic Chess, Partie " + id + ", in der Ausgangsstellung.",
			[]string{"Weiß: alice", "Schwarz: bob", "Partie: Gothic Chess, ungewertet, 2 Tage pro Zug"}},
		"bob": {"Партия " + id + " · Готические шахматы · alice — bob", "Ход: alice (белые) · срок ", "Доска: Готические шахматы, партия " + id + ", начальная позиция.",
			[]string{"Белые: alice", "Чёрные: bob", "Партия: Готические шахматы, товарищеская, 2 дня на ход"}},
		"carol": {"Game " + id + " · Gothic Chess · alice vs bob", "alice (white) to move · deadline ", "Gothic Chess board of game " + id + " at the start.",
			[]string{"White: alice", "Black: bob", "Game: Gothic Chess, casual, 2 days per move"}},
	} {
		r := h.Ok(user, "board game:"+id)
		var fields []string
		for _, f := range r.Fields {
			fields = append(fields, f.Name+": "+f.Value)
		}
		if r.Title != w.title || !strings.HasPrefix(r.Text, w.text) || len(r.Files) != 1 || !strings.HasPrefix(r.Files[0].Alt, w.alt) || strings.Join(fields, "\n") != strings.Join(w.fields, "\n") {
			t.Errorf("%s: /board is %q, %q, %q, %q", user, r.Title, r.Text, fields, r.Files)
		}
		if r := h.Ok(user, "board game:"+id+" text:true"); !strings.Contains(r.Text, "\n"+w.alt) || r.Board == "" {
			t.Errorf("%s: /board as text is %q", user, r.Text)
		}
		for _, cmd := range []string{"history", "pgn", "gif"} {
			if r := h.Ok(user, cmd+" game:"+id); r.Title != w.title {
				t.Errorf("%s: /%s is titled %q", user, cmd, r.Title)
			}
		}
	}
	if r := h.Ok("alice", "hint game:"+id); r.Title != "Partie "+id+" · Gothic Chess · alice gegen bob" {
		t.Errorf("German hint titled %q", r.Title)
	}
	h.Ok("bob", "challenge opponent:alice variant:keltic")
	for user, line := range map[string]string{
		"alice": "Offene Herausforderungen: #2 Keltisches Schach: bob → alice, 3 Tage pro Zug, ungewertet, Farben werden ausgelost (bis ",
		"bob":   "Открытые вызовы: #2 Кельтские шахматы: bob → alice, 3 дня на ход, товарищеская, цвет по жребию (до ",
	} {
		r := h.Ok(user, "games")
		if len(r.Fields) == 0 || !strings.HasPrefix(r.Fields[0].Name+": "+r.Fields[0].Value, line) {
			t.Errorf("%s: /games' challenges %+v", user, r.Fields)
		}
	}
	// The PGN button, through Feature.ButtonsIn, is the catalogue's in each
	// language ("PGN" is notation, the same everywhere).
	if f := views.New(h.Svc); f.ButtonsIn == nil || f.Buttons != nil {
		t.Error("the PGN button does not come through Feature.ButtonsIn")
	}
	h.Ok("alice", "resign game:"+id)
	for _, user := range []string{"alice", "bob"} {
		r := h.Ok(user, "board game:"+id)
		if len(r.Actions) == 0 || r.Actions[0].Label != "PGN" || r.Actions[0].Command != views.CmdPGN || r.Actions[0].Args["game"] != id {
			t.Errorf("%s: buttons under the finished game %+v", user, r.Actions)
		}
	}
	for _, l := range i18n.Langs {
		if got := views.Catalogue.For(l).T("views.button.pgn", nil); got != "PGN" {
			t.Errorf("%s: the PGN button says %q", l, got)
		}
	}
}
