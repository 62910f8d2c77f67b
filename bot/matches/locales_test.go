package matches_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/matches"
	"github.com/missivechess/missive/engine/match"
)

// The matches' catalogue has every message in every language, with the English
// placeholders.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, matches.Catalogue) }

// The English catalogue's names, descriptions and choices of /match are the
// spec's own, and every language localises them.
func TestCatalogueMatchesSpecs(t *testing.T) {
	h := bottest.New(t)
	spec, ok := h.Svc.Spec(matches.CmdMatch)
	if !ok {
		t.Fatal("no /match")
	}
	bottest.CheckSpec(t, matches.Catalogue, spec)
}

// The catalogue words the Elo difference exactly as match.Record.EloText does in
// English, for every kind of record.
func TestEloTextInEnglish(t *testing.T) {
	for _, r := range []match.Record{{}, {Wins: 1}, {Wins: 8}, {Losses: 1}, {Losses: 8}, {Draws: 3}, {Wins: 1, Draws: 1},
		{Wins: 5, Draws: 3, Losses: 2}, {Wins: 2, Losses: 1}} {
		if got, want := matches.EloText(i18n.English, r, "A"), r.EloText("A"); got != want {
			t.Errorf("%+v: %q, want %q", r, got, want)
		}
		if got := matches.EloText(i18n.German, r, "A"); strings.Contains(got, "game") || got == "" {
			t.Errorf("%+v in German: %q", r, got)
		}
	}
}

// A German admin gets /match's replies in German and a Russian one in Russian;
// the match's posts are in the server's language.
func TestMatchInEachLanguage(t *testing.T) {
	h := bottest.New(t)
	h.Engine.Offers = true
	h.Engine.OnMove = func(bot.EngineTurn) { h.Clock.Advance(1500 * time.Millisecond) }
	place := bot.Place{Guild: "g1", Channel: "c1"}
	as := func(locale, line string) bot.Reply {
		h.Seq++
		return h.Run(bot.Request{ID: "req-" + line + locale, User: bot.User{ID: "admin", Name: "admin"}, Place: place, Context: bot.ContextGuild,
			Admin: true, Locale: locale, GuildLocale: "ru"}, line)
	}
	if r := as("de", "match action:score"); !r.Refused || !strings.Contains(r.Text, "Hier wurde noch kein Engine-Wettkampf gespielt") || !strings.Contains(r.Text, "/wettkampf") {
		t.Errorf("German refusal: %s", r.Text)
	}
	r := as("de", "match variant:keltic first_level:2 second_level:5 games:2 opening:2 max_plies:30")
	if r.Refused || r.Title != "Wettkampf 1 · Missive engine (level 2) vs Missive engine (level 5)" ||
		!strings.Contains(r.Text, "2 Partien Keltisches Schach") || !strings.Contains(r.Text, "denselben 2 zufälligen Halbzügen") ||
		!strings.Contains(r.Text, "/wettkampf stand") {
		t.Fatalf("German start: %s\n%s", r.Title, r.Text)
	}
	texts, _ := bottest.NoticeTexts(h.Notes.Take(), matches.NoticeMatch)
	if len(texts) != 4 {
		t.Fatalf("%d posts:\n%s", len(texts), strings.Join(texts, "\n---\n"))
	}
	if !strings.HasPrefix(texts[0], "Матч 1 начинается: Матч 1 · ") || !strings.Contains(texts[0], "2 партии, игра: Кельтские шахматы") ||
		!strings.Contains(texts[0], "Партия 1: Missive engine (level 2) (белые) – Missive engine (level 5) (чёрные).") {
		t.Errorf("the Russian server's first post: %s", texts[0])
	}
	if !strings.HasPrefix(texts[1], "Партия 1 из 2: ") || !strings.Contains(texts[1], " полуход") || !strings.Contains(texts[1], "Счёт: ") {
		t.Errorf("the Russian server's result: %s", texts[1])
	}
	if final := texts[3]; !strings.HasPrefix(final, "Матч окончен.\nСыграны все 2 партии.") || !strings.Contains(final, "в среднем 1,50 с") ||
		!strings.Contains(final, "Разница Эло для ") {
		t.Errorf("the Russian server's final post: %s", final)
	}
	r = as("ru", "match action:score")
	if r.Refused || !strings.HasPrefix(r.Text, "Сыграны все 2 партии.") || !strings.Contains(r.Text, "Время на ход: ") {
		t.Errorf("Russian score: %s", r.Text)
	}
	if r := as("ru", "match action:stop"); !r.Refused || r.Text != "Матч 1 уже окончен." {
		t.Errorf("Russian refusal: %s", r.Text)
	}
	if r := as("de", "match variant:gess first:nosuch"); !r.Refused || !strings.HasPrefix(r.Text, "Erste Engine: ") {
		t.Errorf("German engine refusal: %s", r.Text)
	}
	if r := as("", "match variant:gess"); !r.Refused || !strings.HasPrefix(r.Text, "Both sides would be") {
		t.Errorf("English refusal: %s", r.Text)
	}
	member := bot.Request{ID: "member", User: bot.User{ID: "u1", Name: "u1"}, Place: place, Context: bot.ContextGuild, Locale: "ru"}
	if r := h.Run(member, "match variant:gess first_level:1"); !r.Refused || r.Text != "Только участники, которым можно управлять этим сервером, могут начинать матчи движков." {
		t.Errorf("Russian member: %s", r.Text)
	}
}

// The match's posts are addressed to the match in the server's language (a
// notice's header: ">> для матча 1"), in English as before ("match 1"); the refusals
// the kernel words (an engine's, an option's) and the admin check reach the
// asker in the asker's language, inside the match's own words.
func TestMatchAddressAndRefusalsInTheReadersLanguage(t *testing.T) {
	for _, c := range []struct{ guildLocale, to string }{{"ru", "матча 1"}, {"de", "Wettkampf 1"}, {"", "match 1"}} {
		h := bottest.New(t)
		place := bot.Place{Guild: "g1", Channel: "c1"}
		h.Run(bot.Request{ID: "start", User: bot.User{ID: "admin", Name: "admin"}, Place: place, Context: bot.ContextGuild,
			Admin: true, GuildLocale: c.guildLocale}, "match variant:keltic first_level:2 second_level:5 games:1 max_plies:20")
		var posts int
		for _, n := range h.Notes.Take() {
			if n.Kind != matches.NoticeMatch {
				continue
			}
			posts++
			if n.To.Name != c.to {
				t.Errorf("server %q: a post to %q, want %q", c.guildLocale, n.To.Name, c.to)
			}
		}
		if posts == 0 {
			t.Errorf("server %q: no post", c.guildLocale)
		}
	}

	h := bottest.New(t)
	place := bot.Place{Guild: "g1", Channel: "c1"}
	as := func(locale string, admin bool, line string) bot.Reply {
		h.Seq++
		return h.Run(bot.Request{ID: fmt.Sprint("req-", h.Seq), User: bot.User{ID: "u1", Name: "u1"}, Place: place, Context: bot.ContextGuild,
			Admin: admin, Locale: locale, GuildLocale: "ru"}, line)
	}
	for _, c := range []struct {
		locale string
		admin  bool
		line   string
		want   string
	}{
		{"ru", true, "match variant:gess first_level:x", "Первый движок: Уровень движка должен быть числом от 1 до 8, а не"},
		{"de", true, "match variant:gess second_level:9", "Zweite Engine: Die Stufe der Engine muss"},
		{"en-US", true, "match variant:gess first:nosuch", `First engine: There is no engine "nosuch"`},
		{"de", true, "match variant:gess first_level:1 games:0", "games muss"},
		{"ru", true, "match action:stop match:9", "Здесь нет матча 9."},
		{"de", false, "match variant:gess first_level:1", "Nur Mitglieder, die diesen Server verwalten dürfen, können Engine-Wettkämpfe starten."},
		{"ru", false, "match action:stop", "Только участники, которым можно управлять этим сервером, могут останавливать матчи движков."},
		{"en-US", false, "match action:stop", "Only members who may manage this server can stop engine matches."},
	} {
		if r := as(c.locale, c.admin, c.line); !r.Refused || !strings.Contains(r.Text, c.want) {
			t.Errorf("%s %s: %q, want %q", c.locale, c.line, r.Text, c.want)
		}
	}
}

// The board under a game's result in a match's thread is described in the
// post's language (the server's), in English as before.
func TestMatchBoardDescribedInTheServersLanguage(t *testing.T) {
	for _, c := range []struct{ guildLocale, want, not string }{{"ru", "Доска", "board of game"}, {"", "board of game", "Доска"}} {
		h := bottest.New(t)
		h.Run(bot.Request{ID: "start", User: bot.User{ID: "admin", Name: "admin"}, Place: bot.Place{Guild: "g1", Channel: "c1"}, Context: bot.ContextGuild,
			Admin: true, GuildLocale: c.guildLocale}, "match variant:keltic first_level:2 second_level:5 games:1 max_plies:20")
		var alts []string
		for _, n := range h.Notes.Take() {
			if n.Kind != matches.NoticeMatch || !strings.Contains(n.Key, "/game/") {
				continue
			}
			for _, f := range n.Reply.Files {
				alts = append(alts, f.Alt)
			}
		}
		if len(alts) != 1 || !strings.Contains(alts[0], c.want) || strings.Contains(alts[0], c.not) {
			t.Errorf("server %q: the result's board is described %q, want %q", c.guildLocale, alts, c.want)
		}
	}
}
