package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/i18n"
)

// A Discord player who never used /settings is remembered in the language of the
// client they play with: bob accepts alice's challenge in his direct messages from
// a German client, and his reminder and his loss on time, which no request of his
// carries, come in German; his record holds only that locale, /privacy show lists
// it and /privacy delete deletes it. A request that changes nothing of a player's
// (a look at /settings, a refusal) makes no record.
func TestDiscordPlayerWithoutSettingsRemembered(t *testing.T) {
	h := bottest.New(t)
	dm := func(user, locale, line string) bot.Reply {
		t.Helper()
		h.Seq++
		return h.Run(bot.Request{ID: "dm-" + strings.Repeat("x", h.Seq), User: bot.User{ID: user, Name: user}, Locale: locale,
			Place: bot.Place{Channel: "dm-" + user}, Context: bot.ContextBotDM}, line)
	}
	dm("bob", "de", "settings")
	dm("bob", "de", "move move:e4") // refused: bob plays no game
	if p := h.Player("bob"); p.Version != 0 {
		t.Fatalf("a look and a refusal made a record: %+v", p)
	}
	if r := dm("alice", "en-US", "challenge variant:gothic opponent:bob days:2"); r.Refused {
		t.Fatalf("alice's challenge: %s", r.PlainText())
	}
	if p := h.Player("alice"); p.Version != 0 {
		t.Errorf("an English client made a record: %+v", p)
	}
	r := dm("bob", "de", "accept")
	if r.Started == nil {
		t.Fatalf("no game: %s", r.PlainText())
	}
	id := r.Started.ID
	if r.Lang != i18n.German {
		t.Errorf("bob's German reply says it is written in %q", r.Lang)
	}
	if p := h.Player("bob"); p.Locale != "de" || p.Lang != "" || p.Notify != "" || p.ReminderHours != nil || p.Name != "" {
		t.Fatalf("bob's record after his German accept: %+v", p)
	}
	h.Notes.Take()
	if r := dm("alice", "en-US", "move move:Cf3"); r.Refused {
		t.Fatalf("alice's move: %s", r.PlainText())
	}
	turn := notices(t, h, "bob", bot.NoticeTurn)[0]
	has(t, "bob's German turn notice", turn.Reply.Text, "Du bist am Zug in Partie "+id)
	if !turn.Direct {
		t.Errorf("bob's turn notice is not a direct message: %+v", turn)
	}
	if turn.Reply.Lang != i18n.German { // kept through the outbox, for the adapter's own words
		t.Errorf("bob's turn notice says it is written in %q", turn.Reply.Lang)
	}

	h.Clock.Advance(24*time.Hour + time.Minute)
	h.Tick()
	rem := notices(t, h, "bob", bot.NoticeReminder)[0]
	has(t, "bob's German reminder", rem.Reply.Text, "Erinnerung: Noch ", " für deinen Zug in Partie "+id)
	if !rem.Direct {
		t.Errorf("bob's reminder is not a direct message: %+v", rem)
	}
	h.Clock.Advance(24 * time.Hour)
	h.Tick()
	ns := h.Notes.Take()
	over := bottest.NoticesOf(ns, "bob", bot.NoticeGameOver)
	if len(over) == 0 || !over[0].Direct {
		t.Fatalf("no game-over direct message for bob: %+v", over)
	}
	has(t, "bob's German loss on time", over[0].Reply.Text, "bob (Schwarz): Die Zeit ist abgelaufen.")
	if alice := bottest.NoticesOf(ns, "alice", bot.NoticeGameOver); len(alice) == 0 || !strings.Contains(alice[0].Reply.Text, "bob (black) ran out of time.") {
		t.Errorf("alice's English game over: %+v", alice)
	}

	show := dm("bob", "de", "privacy action:show")
	if len(show.Files) != 1 || !strings.Contains(string(show.Files[0].Data), `"locale": "de"`) {
		t.Errorf("/privacy show does not list bob's locale: %+v", show.Files)
	}
	if r := dm("bob", "de", "privacy action:delete confirm:yes"); r.Refused {
		t.Fatalf("bob's /privacy delete: %s", r.PlainText())
	}
	if p := h.Player("bob"); p.Version != 0 || p.Locale != "" {
		t.Errorf("/privacy delete left bob's record: %+v", p)
	}
}

// A board a feature draws with Tx.Board, for no reader in particular, is
// described in the language of the one who reads it: the reply's asker (here
// /board), as a notice's reader (the Discord adapter's TestBoardDescriptions).
func TestBoardDescribedForItsReader(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "")
	alt := func(locale string) string {
		t.Helper()
		h.Seq++
		r := h.Run(bot.Request{ID: "board-" + strings.Repeat("x", h.Seq), User: bot.User{ID: "carol", Name: "carol"}, Locale: locale}, "board game:"+id)
		if len(r.Files) == 0 {
			t.Fatalf("no picture: %s", r.PlainText())
		}
		return r.Files[0].Alt
	}
	if a := alt("ru"); !strings.Contains(a, "Позиция: ") || strings.Contains(a, "Position") {
		t.Errorf("the Russian description: %q", a)
	}
	if a := alt("en-US"); !strings.HasPrefix(a, "Gothic Chess board of game "+id) || !strings.Contains(a, "Position: ") {
		t.Errorf("the English description: %q", a)
	}
}
