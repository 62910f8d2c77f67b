package challenges_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/challenges"
)

// rematchLabel is the label of the Rematch button among actions, "" when there is
// none.
func rematchLabel(actions []bot.Action) string {
	i := slices.IndexFunc(actions, func(a bot.Action) bool { return a.Command == challenges.CmdRematch })
	if i < 0 {
		return ""
	}
	return actions[i].Label
}

// The kernel's refusals of a challenge's options (days, bank, the engine's level)
// and of a rematch of someone else's game reach a German and a Russian player in
// their language, options named as their clients show them; English reads as before.
func TestKernelRefusalsInEachLanguage(t *testing.T) {
	h := bottest.New(t)
	for _, c := range []struct{ locale, line, want string }{
		{"", "challenge variant:gothic opponent:bob days:4", "Days per move must be one of "},
		{"de", "challenge variant:gothic opponent:bob days:4", "Tage pro Zug müssen "},
		{"ru", "challenge variant:gothic opponent:bob days:4", "Дней на ход может быть "},
		{"", "challenge variant:gothic opponent:bob days:2 bank:30+1/45", "Choose days per move (days) or a time bank (bank), not both."},
		{"de", "challenge variant:gothic opponent:bob days:2 bank:30+1/45", "Wähle Tage pro Zug (tage) oder ein Zeitkonto (zeitkonto), nicht beides."},
		{"ru", "challenge variant:gothic opponent:bob days:2 bank:30+1/45", "Выберите дни на ход (дни) или запас времени (запас), но не то и другое."},
		{"", "challenge variant:gothic opponent:bob bank:abc", "A time bank is written base+increment/cap in days"},
		{"de", "challenge variant:gothic opponent:bob bank:abc", "Ein Zeitkonto schreibst du als Start+Gutschrift/Obergrenze in Tagen"},
		{"ru", "challenge variant:gothic opponent:bob bank:abc", "Запас времени записывается как начало+добавление/предел в днях"},
		{"", "challenge variant:gothic engine:builtin level:99", "The engine's level must be a number from 1 to "},
		{"de", "challenge variant:gothic engine:builtin level:99", "Die Stufe der Engine muss eine Zahl von 1 bis "},
		{"ru", "challenge variant:gothic engine:builtin level:99", "Уровень движка должен быть числом от 1 до "},
	} {
		if r := ask(h, "zoe", c.locale, bot.Place{}, c.line); !r.Refused || !strings.HasPrefix(r.Text, c.want) {
			t.Errorf("%s in %q: %+v, want %q…", c.line, c.locale, r, c.want)
		}
	}

	id := h.Start("gothic", "")
	h.Ok("bob", "resign")
	for _, c := range []struct{ locale, want string }{
		{"", "You are not playing in game " + id + " (alice vs bob); only its players can do that."},
		{"de", "Du spielst nicht in Partie " + id + " (alice gegen bob); das können nur ihre Spieler."},
		{"ru", "Вы не играете в партии " + id + " (alice — bob); это могут делать только её участники."},
	} {
		if r := ask(h, "zoe", c.locale, bot.Place{}, "rematch game:"+id); !r.Refused || r.Text != c.want {
			t.Errorf("someone else's rematch in %q: %+v", c.locale, r)
		}
	}
}

// The Rematch button under a finished game's board is labelled in its reader's
// language: the resigning player's answer in German or Russian, the opponent's
// notice in theirs; English reads as before.
func TestRematchButtonInEachLanguage(t *testing.T) {
	h := bottest.New(t)
	h.Ok("dave", "settings language:ru notify:dm")
	h.Ok("frank", "settings notify:dm")
	for _, c := range []struct{ challenger, opponent, locale, oppLocale, want, told string }{
		{"carol", "dave", "de", "", "Revanche", "Реванш"},
		{"erin", "frank", "ru", "en-US", "Реванш", "Rematch"},
		{"gina", "hugo", "", "", "Rematch", ""},
	} {
		ask(h, c.challenger, c.locale, bot.Place{}, "challenge variant:gothic opponent:"+c.opponent)
		ask(h, c.opponent, c.oppLocale, bot.Place{}, "accept")
		h.Notes.Take()
		r := ask(h, c.challenger, c.locale, bot.Place{}, "resign")
		if got := rematchLabel(r.Actions); got != c.want {
			t.Errorf("%s's final board in %q: rematch button %q, want %q (%+v)", c.challenger, c.locale, got, c.want, r.Actions)
		}
		if c.told == "" {
			continue
		}
		found := false
		for _, n := range h.Notes.Take() {
			if n.To.ID == c.opponent && n.Reply.Final {
				found = true
				if got := rematchLabel(n.Reply.Actions); got != c.told {
					t.Errorf("%s told of the end: rematch button %q, want %q (%+v)", c.opponent, got, c.told, n.Reply.Actions)
				}
			}
		}
		if !found {
			t.Errorf("%s was not told of the end with the final board", c.opponent)
		}
	}
}

// A challenge's terms and the list of challenges are the kernel's words in the
// reader's language (bot.ChallengeTermsIn, Service.ChallengeLineIn): the German
// list, the Russian menu that asks which challenge to accept; English as before.
func TestChallengeTermsAreTheKernels(t *testing.T) {
	h := bottest.New(t)
	ask(h, "alice", "de", bot.Place{}, "challenge variant:keltic opponent:bob color:black days:5")
	ask(h, "carol", "", bot.Place{}, "challenge variant:gothic opponent:bob rated:true")
	r := ask(h, "alice", "de", bot.Place{}, "challenges")
	if !strings.HasPrefix(r.Text, "#1 Keltisches Schach: alice → bob, 5 Tage pro Zug, ungewertet, alice spielt Schwarz (bis ") {
		t.Errorf("German list: %s", r.Text)
	}
	r = ask(h, "bob", "ru", bot.Place{}, "accept")
	if !r.Refused || r.Choice == nil || len(r.Choice.Options) != 2 {
		t.Fatalf("Russian choice of challenges: %+v", r)
	}
	if d := r.Choice.Options[1].Description; d != "carol, 3 дня на ход, рейтинговая, цвет по жребию" {
		t.Errorf("Russian menu's description: %q", d)
	}
	r = ask(h, "carol", "", bot.Place{}, "challenges")
	if !strings.HasPrefix(r.Text, "#2 Gothic Chess: carol → bob, 3 days per move, rated, colours drawn at random (until ") {
		t.Errorf("English list: %s", r.Text)
	}
}

// A notice of a challenge is in one language, its reader's: a withdrawal posted
// in a French server's channel in French, sent to a Russian by direct message in
// Russian, and in local play a notice to someone whose language Missive does not
// know yet in the asker's, as the kernel writes its own.
func TestNoticesInTheirReadersLanguage(t *testing.T) {
	h := bottest.New(t)
	// carol, whose language is unknown (no locale remembered), is told in German.
	h.Ok("carol", "settings notify:dm")
	h.Notes.Take()
	ask(h, "alice", "de", bot.Place{}, "challenge variant:gothic opponent:carol")
	ns := bottest.NoticesOf(h.Notes.Take(), "carol", bot.NoticeChallenge)
	if len(ns) != 1 || ns[0].Reply.Title != "Herausforderung #1 · Gothic Chess" || !strings.HasPrefix(ns[0].Reply.Text, "alice fordert carol ") ||
		len(ns[0].Reply.Actions) != 2 || ns[0].Reply.Actions[0].Label != "Annehmen" {
		t.Errorf("carol's notice: %+v", ns)
	}

	// In a French server: dave (Russian, told by mention) reads the withdrawal posted
	// in the channel in French; erin (Russian, told by direct message) in Russian.
	h.Ok("dave", "settings language:ru")
	h.Ok("erin", "settings language:ru notify:dm")
	c1, c2 := bot.Place{Guild: "g1", Channel: "c1"}, bot.Place{Guild: "g1", Channel: "c2"}
	for i, c := range []struct{ opponent, title, text string }{
		{"dave", "Défi n° 2 · Échecs gothiques", "alice retire le défi n° 2."},
		{"erin", "Вызов № 3 · Готические шахматы", "alice отзывает вызов № 3."},
	} {
		h.Seq++
		h.Run(bot.Request{ID: fmt.Sprintf("fr-%d", i), User: bot.User{ID: "alice", Name: "alice"}, Locale: "de", GuildLocale: "fr", Place: c1, Context: bot.ContextGuild},
			"challenge variant:gothic opponent:"+c.opponent)
		h.Notes.Take()
		h.Seq++
		h.Run(bot.Request{ID: fmt.Sprintf("fr-cancel-%d", i), User: bot.User{ID: "alice", Name: "alice"}, Locale: "de", GuildLocale: "fr", Place: c2, Context: bot.ContextGuild},
			fmt.Sprintf("cancel challenge:%d", i+2))
		ns := bottest.NoticesOf(h.Notes.Take(), c.opponent, bot.NoticeChallenge)
		if len(ns) != 1 || ns[0].Reply.Title != c.title || ns[0].Reply.Text != c.text {
			t.Errorf("%s told of the withdrawal: %+v", c.opponent, ns)
		}
	}
}
