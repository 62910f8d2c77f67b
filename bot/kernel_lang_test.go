package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/i18n"
)

// has fails the test unless text says each of want.
func has(t *testing.T, what, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s does not say %q:\n%s", what, w, text)
		}
	}
}

// notice returns the one notification of kind queued for user since the last
// Take (failing when there is none), and those of its reader's other ways.
func notices(t *testing.T, h *bottest.Harness, user string, kind bot.NoticeKind) []bot.Notification {
	t.Helper()
	ns := bottest.NoticesOf(h.Notes.Take(), user, kind)
	if len(ns) == 0 {
		t.Fatalf("no %s notice for %s", kind, user)
	}
	return ns
}

// A German and a Russian player read the kernel's replies, refusals and notices
// in their own language: the game's heading and its start, the moves and whose
// turn it is, the refusals of a move out of turn and of a game one does not play,
// reminders and the loss on time.
func TestKernelSpeaksThePlayersLanguage(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "settings language:de notify:dm")
	h.Ok("bob", "settings language:ru notify:dm")
	h.Ok("alice", "challenge variant:gothic opponent:bob days:2")
	r := h.Ok("bob", "accept")
	if r.Started == nil {
		t.Fatalf("no game: %s", r.PlainText())
	}
	id := r.Started.ID
	has(t, "the Russian accept's reply", r.Title+"\n"+r.PlainText(), "Партия "+id+" · Готические шахматы · alice — bob",
		"Партия "+id+" начинается: alice (белые) против bob (чёрные).", "Ход: alice (белые) · срок ", "осталось 2 д 0 ч",
		"Белые: alice", "Партия: Готические шахматы, товарищеская, 2 дня на ход")
	start := notices(t, h, "alice", bot.NoticeChallenge)[0]
	has(t, "alice's German notice of the start", start.Reply.Title+"\n"+start.Reply.Text, "Partie "+id+" · Gothic Chess · alice gegen bob",
		"Partie "+id+" beginnt: alice (Weiß) gegen bob (Schwarz).", "Du bist am Zug in Partie "+id+", bis ", "(noch 2 T. 0 Std.).")
	if !start.Direct || start.Channel {
		t.Errorf("alice's notice is not a direct message: %+v", start)
	}

	r = h.Ok("alice", "move move:Cf3")
	has(t, "alice's German reply to her move", r.Title+"\n"+r.Text, "Partie "+id+" · Gothic Chess",
		"alice (Weiß) spielte **Cf3**.", "bob (Schwarz) am Zug · Frist ")
	turn := notices(t, h, "bob", bot.NoticeTurn)[0]
	has(t, "bob's Russian turn notice", turn.Reply.Title+"\n"+turn.Reply.Text, "Партия "+id+" · Готические шахматы",
		"alice (белые) делает ход **Cf3**.", "Ваш ход в партии "+id+", до ")

	h.Refused("alice", "move move:e2e4", "In Partie "+id+" ist bob am Zug, nicht du")
	h.Refused("bob", "move game:9 move:d5", "Здесь нет партии 9.")
	h.Run(bot.Request{ID: "carol-de", User: bot.User{ID: "carol", Name: "carol"}, Locale: "de"}, "settings theme:night")
	r = h.Run(bot.Request{ID: "carol-de-2", User: bot.User{ID: "carol", Name: "carol"}, Locale: "de"}, "move game:"+id+" move:d5")
	has(t, "carol's German refusal", r.Text, "Du spielst nicht in Partie "+id+" (alice gegen bob); das können nur ihre Spieler.")

	// The reminders before the deadline, and the loss on time, each in its reader's language.
	h.Clock.Advance(24*time.Hour + time.Minute)
	h.Tick()
	rem := notices(t, h, "bob", bot.NoticeReminder)[0]
	has(t, "bob's Russian reminder", rem.Reply.Text, "Напоминание: на ваш ход в партии "+id+" осталось ")
	h.Clock.Advance(24 * time.Hour)
	h.Tick()
	ns := h.Notes.Take()
	for user, want := range map[string][]string{
		"alice": {"bob (Schwarz): Die Zeit ist abgelaufen.", "Partie beendet: alice (Weiß) gewinnt durch Zeitüberschreitung."},
		"bob":   {"bob (чёрные): время истекло.", "Партия окончена: "},
	} {
		over := bottest.NoticesOf(ns, user, bot.NoticeGameOver)
		if len(over) == 0 {
			t.Fatalf("no game-over notice for %s", user)
		}
		has(t, user+"'s game over", over[0].Reply.Text, want...)
	}
	h.Refused("alice", "resign game:"+id, "Partie "+id+" ist beendet: alice (Weiß) gewinnt durch Zeitüberschreitung.")
}

// A notice posted in a game's thread is in the server's language; one sent to a
// player's direct messages is in the player's, and a notice that goes both ways
// is written once for each.
func TestKernelThreadPostInServersLanguage(t *testing.T) {
	h := bottest.New(t)
	place := bot.Place{Guild: "g", Channel: "c"}
	in := func(id, user, locale, line string) bot.Reply {
		t.Helper()
		return h.Run(bot.Request{ID: id, User: bot.User{ID: user, Name: user}, Place: place, Context: bot.ContextGuild,
			Locale: locale, GuildLocale: "fr"}, line)
	}
	in("b1", "bob", "ru", "settings notify:both")
	in("a1", "alice", "de", "challenge variant:gothic opponent:bob")
	r := in("b2", "bob", "ru", "accept")
	if r.Started == nil {
		t.Fatalf("no game: %s", r.PlainText())
	}
	id := r.Started.ID
	if err := h.Svc.SetThread(context.Background(), id, "t"); err != nil {
		t.Fatal(err)
	}
	h.Notes.Take()
	r = in("a2", "alice", "de", "move move:Cf3")
	has(t, "alice's German reply", r.Text, "alice (Weiß) spielte **Cf3**.")
	ns := notices(t, h, "bob", bot.NoticeTurn)
	if len(ns) != 2 {
		t.Fatalf("bob has %d turn notices, want one in the thread and one direct", len(ns))
	}
	for _, n := range ns {
		switch {
		case n.Channel && !n.Direct:
			has(t, "the French post in the thread", n.Reply.Title+"\n"+n.Reply.Text, "Partie "+id+" · Échecs gothiques · alice contre bob",
				"alice (Blancs) a joué **Cf3**.", "À vous de jouer dans la partie "+id)
		case n.Direct && !n.Channel:
			has(t, "the Russian direct message", n.Reply.Text, "alice (белые) делает ход **Cf3**.", "Ваш ход в партии "+id)
		default:
			t.Errorf("a notice both in the thread and direct: %+v", n)
		}
	}
}

// A player without a language reads the kernel's sentences as they always were.
func TestKernelEnglishUnchanged(t *testing.T) {
	h := bottest.New(t)
	h.Ok("bob", "settings notify:dm")
	h.Ok("alice", "challenge variant:gothic opponent:bob days:2")
	r := h.Ok("bob", "accept")
	id := r.Started.ID
	has(t, "the accept's reply", r.Title+"\n"+r.PlainText(), "Game "+id+" · Gothic Chess · alice vs bob",
		"Game "+id+" begins: alice (white) vs bob (black).", "alice (white) to move · deadline Wed 5 Mar 12:00 UTC (2d 0h left).",
		"White: alice", "Game: Gothic Chess, casual, 2 days per move")
	h.Notes.Take()
	r = h.Ok("alice", "move move:Cf3")
	has(t, "the move's reply", r.Text, "alice (white) played **Cf3**.\nbob (black) to move · deadline ")
	turn := notices(t, h, "bob", bot.NoticeTurn)[0]
	has(t, "bob's turn notice", turn.Reply.Text, "Your move in game "+id+", by Wed 5 Mar 12:00 UTC (2d 0h left).")
	h.Refused("alice", "move move:e2e4", "It is bob's turn in game "+id+", not yours; you will be told when bob has moved.")
	h.Refused("carol", "move game:"+id+" move:d5", "You are not playing in game "+id+" (alice vs bob); only its players can do that.")
	if got := h.Svc.GameTitleIn(i18n.English, h.Game(id)); got != h.Svc.GameTitle(h.Game(id)) {
		t.Errorf("GameTitleIn(English) = %q, GameTitle %q", got, h.Svc.GameTitle(h.Game(id)))
	}
}

// In local play (the console) a notice shows where the reply does: a player
// without a language reads it in the language of the one at the keyboard.
func TestKernelLocalPlayNoticesInTheConsolesLanguage(t *testing.T) {
	h := bottest.New(t)
	as := func(user, line string) bot.Reply {
		t.Helper()
		h.Seq++
		return h.Run(bot.Request{ID: "local-" + strings.Repeat("x", h.Seq), User: bot.User{ID: user, Name: user}, Locale: "ru"}, line)
	}
	as("alice", "challenge variant:gothic opponent:bob")
	r := as("bob", "accept")
	if r.Started == nil {
		t.Fatalf("no game: %s", r.PlainText())
	}
	h.Ok("bob", "settings notify:dm") // a record without a language
	h.Notes.Take()
	r = as("alice", "move move:Cf3")
	has(t, "alice's Russian reply", r.Text, "alice (белые) делает ход **Cf3**.")
	turn := notices(t, h, "bob", bot.NoticeTurn)[0]
	has(t, "bob's notice in the console's language", turn.Reply.Title+"\n"+turn.Reply.Text, "Партия "+r.Game.ID+" · ", "Ваш ход в партии "+r.Game.ID)
}

// The refusal that asks which game is meant, and its menu, are in the asker's language.
func TestKernelWhichGameInTheAskersLanguage(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "settings language:de")
	for range 2 {
		h.Ok("alice", "challenge variant:gothic opponent:bob")
		h.Ok("bob", "accept")
	}
	r := h.Do("alice", "resign")
	has(t, "the German refusal", r.Text, "Du spielst 2 Partien (#1, #2): Sag mit partie:<Nummer>, welche du meinst.")
	if r.Choice == nil || r.Choice.Placeholder != "Partie wählen" || r.Choice.Options[0].Label != "#1 alice gegen bob" {
		t.Errorf("the menu is not German: %+v", r.Choice)
	}
	r = h.Do("bob", "resign")
	has(t, "the English refusal", r.Text, "You play 2 games (#1, #2): say which with game:<number>.")
}
