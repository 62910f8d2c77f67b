package review_test

import (
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/review"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/render"
)

// recorder is the real renderer, keeping the last review picture it was asked to
// draw.
type recorder struct {
	bot.Renderer
	mu   sync.Mutex
	last render.Review
}

func (r *recorder) ReviewPNG(w io.Writer, rv render.Review, theme string) error {
	r.mu.Lock()
	r.last = rv
	r.mu.Unlock()
	return r.Renderer.(review.Renderer).ReviewPNG(w, rv, theme)
}

func (r *recorder) picture() render.Review {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// The English catalogue's name and descriptions of /review are the spec's own, and
// the spec is localised in every language.
func TestCatalogueMatchesSpec(t *testing.T) {
	h := reviewHarness(t)
	spec, ok := h.Svc.Spec(review.CmdReview)
	if !ok {
		t.Fatal("no /review")
	}
	en := review.Catalogue.For(i18n.English)
	if en.T("command.review.name", nil) != spec.Name || en.T("command.review.desc", nil) != spec.Description {
		t.Errorf("the catalogue says %q, %q; the spec %q, %q", en.T("command.review.name", nil), en.T("command.review.desc", nil), spec.Name, spec.Description)
	}
	for _, o := range spec.Options {
		if got := en.T("command.review.option."+o.Name+".desc", nil); got != o.Description {
			t.Errorf("option %s: the catalogue says %q, the spec %q", o.Name, got, o.Description)
		}
		if len(o.NameIn) != len(i18n.Langs)-1 {
			t.Errorf("option %s is not localised in every language: %v", o.Name, o.NameIn)
		}
	}
	if len(spec.NameIn) != len(i18n.Langs)-1 || len(spec.DescriptionIn) != len(i18n.Langs)-1 || spec.NameIn[i18n.German] != "analyse" {
		t.Errorf("/review is not localised in every language: %v %v", spec.NameIn, spec.DescriptionIn)
	}
}

// A review comes in the language of the player who asked for it: its text, the PGN's
// comments and the picture's labels; asked again by a player of another language,
// the stored review is shown in theirs. The English is unchanged.
func TestReviewInTheAskersLanguage(t *testing.T) {
	h := reviewHarness(t)
	rec := &recorder{}
	h.Config = func(c *bot.Config) {
		c.Engine = bot.NewEngine(engine.New(engine.Options{Seed: 1, HashBits: 14}), nil, nil)
		rec.Renderer = bot.NewRenderer()
		c.Renderer = rec
	}
	h.Options.Review = review.Options{Limits: engine.Limits{Depth: 4}, Budget: time.Minute, OnRequest: true}
	h.Restart()
	id := h.Start("gothic", "")
	h.Play(id, "alice", "d4", "e5", "dxe5", "Qg5", "Bxg5")
	h.Ok("bob", "resign game:"+id)
	h.Notes.Take()
	h.Ok("alice", "settings language:de")
	h.Ok("bob", "settings language:ru")

	// Asked in German: the reply says it is queued, the review comes in German.
	if r := h.Ok("alice", "review game:"+id); !strings.Contains(r.Text, "Die Engine analysiert Partie "+id) || !strings.HasPrefix(r.Title, "Partie "+id) {
		t.Errorf("German queued reply: %s / %s", r.Title, r.Text)
	}
	n := postedReview(t, h.Notes.Take())
	for _, want := range []string{"Genauigkeit: alice", "Der entscheidende Moment: **2... Qg5??** (grober Fehler; besser war", "aus Sicht von Weiß"} {
		if !strings.Contains(n.Reply.Text, want) {
			t.Errorf("German review lacks %q: %s", want, n.Reply.Text)
		}
	}
	if !strings.HasPrefix(n.Reply.Title, "Analyse · Partie "+id) || n.To.Name != "die Spieler der Partie "+id {
		t.Errorf("German review title %q, to %q", n.Reply.Title, n.To.Name)
	}
	// The game's title is the bot's own in the language (bot.Service.GameTitleIn).
	if want := "Analyse · " + h.Svc.GameTitleIn(i18n.German, h.Game(id)); n.Reply.Title != want || want != "Analyse · Partie "+id+" · Gothic Chess · alice gegen bob" {
		t.Errorf("German review title %q, want %q", n.Reply.Title, want)
	}
	if pgn := string(file(t, n.Reply, "-review.pgn").Data); !strings.Contains(pgn, "Grober Fehler.") || strings.Contains(pgn, "Blunder.") || !strings.Contains(pgn, `[Annotator "Missive engine review"]`) {
		t.Errorf("German PGN comments:\n%s", pgn)
	}
	pic := rec.picture()
	if pic.DecisiveLabel != "Entscheidend: 2... Qg5??" || pic.GraphTop != "Weiß" || pic.Rows[0].Label != "Genauigkeit" || !strings.HasPrefix(pic.Title, "Analyse") ||
		!strings.Contains(pic.Rows[0].White, "\u00a0%") || !strings.Contains(pic.Note, "Gewinnchance") {
		t.Errorf("German picture: %+v", pic)
	}

	// Asked again in Russian: the stored review, in Russian.
	r := h.Ok("bob", "review game:"+id)
	for _, want := range []string{"Точность: alice", "Решающий момент: **2... Qg5??** (грубая ошибка; лучше было", "с точки зрения белых"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("Russian review lacks %q: %s", want, r.Text)
		}
	}
	if want := "Анализ · Партия " + id + " · Готические шахматы · alice — bob"; r.Title != want {
		t.Errorf("Russian review title %q, want %q", r.Title, want)
	}
	if pgn := string(file(t, r, "-review.pgn").Data); !strings.Contains(pgn, "Грубая ошибка.") {
		t.Errorf("Russian PGN comments:\n%s", pgn)
	}
	if pic := rec.picture(); pic.DecisiveLabel != "Решающий: 2... Qg5??" || pic.GraphBot != "Чёрные" || pic.Rows[3].Label != "Грубые ошибки" {
		t.Errorf("Russian picture: %+v", pic)
	}
	if !strings.Contains(r.Files[0].Alt, "график оценки") {
		t.Errorf("Russian picture's text: %q", r.Files[0].Alt)
	}

	// In English, as before.
	h.Ok("alice", "settings language:en")
	r = h.Ok("alice", "review game:"+id)
	if !strings.HasPrefix(r.Text, "Accuracy: alice ") || !strings.Contains(r.Text, "The decisive moment: **2... Qg5??** (blunder; ") || !strings.HasPrefix(r.Title, "Review · Game "+id+" · Gothic Chess · alice vs bob") {
		t.Errorf("English review: %s / %s", r.Title, r.Text)
	}
	if pic := rec.picture(); pic.DecisiveLabel != "Decisive: 2... Qg5??" || pic.GraphTop != "White" || pic.Rows[4].Label != "Engine's move" {
		t.Errorf("English picture: %+v", pic)
	}
}

// A refusal of /review is in the asker's language.
func TestReviewRefusedInTheAskersLanguage(t *testing.T) {
	h := reviewHarness(t)
	rated := h.Start("gothic", "rated:true")
	h.Play(rated, "alice", "e4")
	h.Ok("alice", "settings language:de")
	h.Refused("alice", "review game:"+rated, "Partie "+rated+" läuft noch")
	h.Ok("bob", "settings language:ru")
	h.Refused("bob", "review game:"+rated, "ещё идёт")
}
