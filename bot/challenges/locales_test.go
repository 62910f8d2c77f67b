package challenges_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/challenges"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
)

// The challenges' catalogue has every message in every language, with the English
// placeholders.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, challenges.Catalogue) }

// The English catalogue's names, descriptions and choices of the challenges'
// commands are the specs' own, so that the translations translate what Discord
// shows in English; and every command is localised in every language.
func TestCatalogueMatchesSpecs(t *testing.T) {
	h := bottest.New(t)
	en := challenges.Catalogue.For(i18n.English)
	for _, name := range []string{challenges.CmdChallenge, challenges.CmdAccept, challenges.CmdDecline, challenges.CmdCancel,
		challenges.CmdChallenges, challenges.CmdRematch} {
		spec, ok := h.Svc.Spec(name)
		if !ok {
			t.Fatalf("no /%s", name)
		}
		matchSpec(t, en, "command."+name, spec)
	}
}

// matchSpec compares spec (keys from key on) with the English catalogue.
func matchSpec(t *testing.T, en *i18n.Localizer, key string, spec bot.CommandSpec) {
	t.Helper()
	if got := en.T(key+".name", nil); got != spec.Name {
		t.Errorf("%s: the catalogue names it %q, the spec %q", key, got, spec.Name)
	}
	if got := en.T(key+".desc", nil); got != spec.Description {
		t.Errorf("%s: the catalogue says %q, the spec %q", key, got, spec.Description)
	}
	if len(spec.NameIn) != len(i18n.Langs)-1 || len(spec.DescriptionIn) != len(i18n.Langs)-1 {
		t.Errorf("%s is not localised in every language: %v %v", key, spec.NameIn, spec.DescriptionIn)
	}
	for _, o := range spec.Options {
		ok := key + ".option." + o.Name
		if en.T(ok+".name", nil) != o.Name || en.T(ok+".desc", nil) != o.Description {
			t.Errorf("%s: the catalogue says %q, %q; the spec %q, %q", ok, en.T(ok+".name", nil), en.T(ok+".desc", nil), o.Name, o.Description)
		}
		if len(o.NameIn) != len(i18n.Langs)-1 || len(o.DescriptionIn) != len(i18n.Langs)-1 {
			t.Errorf("%s is not localised in every language: %v %v", ok, o.NameIn, o.DescriptionIn)
		}
		for _, c := range o.Choices {
			if o.Name == "variant" && !challenges.Catalogue.Has(ok+".choice."+c.Value) {
				continue // a test's own game
			}
			if got := en.T(ok+".choice."+c.Value, nil); got != c.Name || len(c.NameIn) != len(i18n.Langs)-1 {
				t.Errorf("%s choice %s: the catalogue says %q, the spec %q (localised %v)", ok, c.Value, got, c.Name, c.NameIn)
			}
		}
	}
	for _, sc := range spec.Subcommands {
		matchSpec(t, en, key+"."+sc.Name, sc)
	}
}

// ask runs line for user with their client in locale, and where (zero: local play).
func ask(h *bottest.Harness, user, locale string, place bot.Place, line string) bot.Reply {
	h.Seq++
	where := bot.Context("")
	if place.Guild != "" {
		where = bot.ContextGuild
	}
	return h.Run(bot.Request{ID: fmt.Sprintf("req-%d", h.Seq), User: bot.User{ID: user, Name: user}, Locale: locale, Place: place, Context: where}, line)
}

// A German player's challenge is posted in German and its Russian opponent is told
// in Russian; a refusal, the list of challenges, the notice of a withdrawal and an
// answer that updates a post (outside a server: in its challenger's language) are
// each in their reader's language; a post in a server in the server's; the English
// is the English.
func TestChallengesInEachLanguage(t *testing.T) {
	h := bottest.New(t)
	h.Ok("bob", "settings language:ru notify:dm") // told by direct message
	h.Ok("alice", "settings notify:dm")
	h.Notes.Take()
	r := ask(h, "alice", "de", bot.Place{}, "challenge variant:keltic opponent:bob color:white days:2")
	if r.Title != "Herausforderung #1 · Keltisches Schach" ||
		!strings.HasPrefix(r.Text, "alice fordert bob zu einer Partie Keltisches Schach heraus: 2 Tage pro Zug, ungewertet, alice spielt Weiß. Die Herausforderung gilt bis ") ||
		len(r.Actions) != 3 || r.Actions[0].Label != "Annehmen" {
		t.Errorf("German challenge: %s\n%s\n%+v", r.Title, r.Text, r.Actions)
	}
	ns := bottest.NoticesOf(h.Notes.Take(), "bob", bot.NoticeChallenge)
	if len(ns) != 1 || ns[0].Reply.Title != "Вызов № 1 · Кельтские шахматы" ||
		!strings.Contains(ns[0].Reply.Text, "alice вызывает bob на партию: Кельтские шахматы, 2 дня на ход, товарищеская, alice играет белыми.") ||
		!strings.Contains(ns[0].Reply.Text, "Принять: /принять вызов:1.") {
		t.Fatalf("bob's notice: %+v", ns)
	}
	if r := ask(h, "bob", "", bot.Place{}, "challenges"); r.Title != "Открытые вызовы" || !strings.HasPrefix(r.Text, "#1 Кельтские шахматы: alice → bob, 2 дня на ход, товарищеская, alice играет белыми (до ") ||
		r.Actions[0].Label != "Принять № 1" {
		t.Errorf("bob's list: %s\n%s\n%+v", r.Title, r.Text, r.Actions)
	}
	if r := ask(h, "alice", "de", bot.Place{}, "accept challenge:1"); !r.Refused || r.Text != "Du kannst deine eigene Herausforderung nicht annehmen; um sie zurückzuziehen, nutze /zurückziehen herausforderung:1." {
		t.Errorf("German refusal: %+v", r)
	}
	r = ask(h, "alice", "de", bot.Place{}, "cancel")
	if r.Text != "alice hat die Herausforderung #1 zurückgezogen." {
		t.Errorf("German withdrawal: %s", r.Text)
	}
	if ns := bottest.NoticesOf(h.Notes.Take(), "bob", bot.NoticeChallenge); len(ns) != 1 || ns[0].Reply.Text != "alice отзывает вызов № 1." {
		t.Errorf("bob told of the withdrawal: %+v", ns)
	}

	// bob challenges alice, who answers from a German client: the game starts.
	r = ask(h, "bob", "", bot.Place{}, "challenge variant:gothic opponent:alice")
	if !strings.HasPrefix(r.Text, "bob вызывает alice на партию: Готические шахматы, 3 дня на ход, товарищеская, цвет по жребию.") {
		t.Errorf("Russian challenge: %s", r.Text)
	}
	if ns := bottest.NoticesOf(h.Notes.Take(), "alice", bot.NoticeChallenge); len(ns) != 1 || ns[0].Reply.Title != "Herausforderung #2 · Gothic Chess" ||
		!strings.HasSuffix(ns[0].Reply.Text, " Nimm sie mit /annehmen herausforderung:2 an.") || ns[0].Reply.Actions[1].Label != "Ablehnen" {
		t.Errorf("alice's notice: %+v", ns)
	}
	// alice declines: the answer updates bob's post outside a server, in his language.
	r = ask(h, "alice", "de", bot.Place{}, "decline")
	if r.Text != "alice отклоняет вызов № 2 от bob." || !r.Update {
		t.Errorf("decline of a Russian's challenge: %s", r.Text)
	}
	if ns := bottest.NoticesOf(h.Notes.Take(), "bob", bot.NoticeChallenge); len(ns) != 1 || ns[0].Reply.Text != "alice отклоняет вызов № 2 от bob." {
		t.Errorf("bob told of the decline: %+v", ns)
	}
	if r := ask(h, "bob", "", bot.Place{}, "rematch"); !r.Refused || !strings.HasPrefix(r.Text, "У вас нет законченной партии") {
		t.Errorf("Russian rematch refusal: %+v", r)
	}

	// In a French server, a challenge to anyone is posted in French, whoever makes it.
	g := bot.Place{Guild: "g1", Channel: "c1"}
	h.Seq++
	r = h.Run(bot.Request{ID: "fr-1", User: bot.User{ID: "carol", Name: "carol"}, Locale: "de", GuildLocale: "fr", Place: g, Context: bot.ContextGuild},
		"challenge variant:gess bank:1.5+0.5/3")
	if !strings.HasPrefix(r.Text, "carol lance un défi ouvert à tout le monde ici (Gess)\u202f: réserve de temps de 1,5 jour + 12 heures par coup, jusqu'à 3 jours, amicale, couleurs tirées au sort.") {
		t.Errorf("French post: %q", r.Text)
	}
	if r := ask(h, "carol", "de", g, "challenge variant:chess"); !r.Refused || !strings.HasPrefix(r.Text, "Welches Spiel?") {
		t.Errorf("German refusal in a French server: %+v", r)
	}

	// A German player's challenge expires: she is told in German.
	ask(h, "alice", "de", bot.Place{}, "challenge variant:gess")
	h.Notes.Take()
	h.Clock.Advance(8 * bottest.Day)
	h.Tick()
	if ns := bottest.NoticesOf(h.Notes.Take(), "alice", bot.NoticeChallenge); len(ns) != 1 || ns[0].Reply.Text != "Deine Herausforderung #4 ist ohne Antwort abgelaufen." {
		t.Errorf("alice told of the expiry: %+v", ns)
	}

	// A decided position is refused in the asker's words.
	mate, stalemate := "k9/1Q8/2K7/10/10/10/10/10_b_-_-_0_1", "k9/10/1Q8/10/10/10/10/K9_b_-_-_0_1"
	for _, c := range []struct{ locale, fen, want string }{
		{"", mate, "That position is already decided (white wins by checkmate); choose one where the game goes on."},
		{"de", mate, "Diese Stellung ist schon entschieden (Weiß gewinnt durch Matt); wähle eine, in der die Partie weitergeht."},
		{"ru", stalemate, "Эта позиция уже решена (ничья: пат); выберите такую, в которой партия продолжается."},
	} {
		if r := ask(h, "zoe", c.locale, bot.Place{}, "challenge variant:gothic opponent:bob fen:"+c.fen); !r.Refused || r.Text != c.want {
			t.Errorf("decided position in %q: %+v", c.locale, r)
		}
	}

	// English reads as before.
	h.Ok("erin", "settings notify:dm")
	h.Notes.Take()
	r = h.Ok("dave", "challenge variant:keltic opponent:erin color:black rated:true")
	if !strings.HasPrefix(r.Text, "dave challenges erin to Keltic Chess: 3 days per move, rated, dave plays black. It stays open until ") ||
		r.Title != "Challenge #5 · Keltic Chess" || r.Actions[0].Label != "Accept" {
		t.Errorf("English challenge: %s\n%s", r.Title, r.Text)
	}
	if ns := bottest.NoticesOf(h.Notes.Take(), "erin", bot.NoticeChallenge); len(ns) != 1 || !strings.HasSuffix(ns[0].Reply.Text, " Accept with /accept challenge:5.") {
		t.Errorf("erin's notice: %+v", ns)
	}
}
