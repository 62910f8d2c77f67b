package tournaments_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// in runs line as user in server g1, whose own language is guildLocale, from a
// client in locale, as an admin when admin is set.
func in(h *bottest.Harness, user, locale, guildLocale string, admin bool, line string) bot.Reply {
	h.T.Helper()
	h.Seq++
	return h.Run(bot.Request{ID: fmt.Sprintf("req-%d", h.Seq), User: bot.User{ID: user, Name: user}, Locale: locale, GuildLocale: guildLocale,
		Place: bot.Place{Guild: "g1", Channel: "c1"}, Context: bot.ContextGuild, Admin: admin}, line)
}

// gameOf returns the game of tournament games between players a and b.
func gameOf(t *testing.T, games []*storage.Game, a, b string) *storage.Game {
	t.Helper()
	for _, g := range games {
		if _, ok := g.SideOf(a); ok {
			if _, ok := g.SideOf(b); ok {
				return g
			}
		}
	}
	t.Fatalf("no game of %s and %s", a, b)
	return nil
}

// gameOver returns the game-over notices of g for user: the post in the game's
// place and the direct message.
func gameOver(ns []bot.Notification, user string, g *storage.Game) (channel, direct []string) {
	for _, n := range bottest.NoticesOf(ns, user, bot.NoticeGameOver) {
		if n.Game == nil || n.Game.ID != g.ID {
			continue
		}
		if n.Channel {
			channel = append(channel, n.Reply.Title+"\n"+n.Reply.Text)
		}
		if n.Direct {
			direct = append(direct, n.Reply.Title+"\n"+n.Reply.Text)
		}
	}
	return channel, direct
}

// When a player withdraws, the opponents of the games it ends read it in their
// own language in a direct message, and the game's place in the server's: bob
// (Russian) learns of his forfeited game in Russian by DM while the thread says
// it in German; alice (German) of her resigned one in German. The withdrawer's
// reply is in the withdrawer's language (French), the tournament's news in the
// server's.
func TestWithdrawalInEachReadersLanguage(t *testing.T) {
	h := bottest.New(t)
	in(h, "bob", "ru", "de", false, "settings language:ru notify:both")
	in(h, "alice", "de", "de", false, "settings language:de notify:both")
	in(h, "alice", "de", "de", true, "tournament action:create name:Pokal variant:gothic days:1")
	for _, who := range []string{"alice", "bob", "carol"} {
		in(h, who, map[string]string{"alice": "de", "bob": "ru", "carol": "fr"}[who], "de", false, "tournament action:join")
	}
	in(h, "alice", "de", "de", true, "tournament action:start")
	_, games := h.Tournament("1")
	resigned, forfeited := gameOf(t, games, "alice", "carol"), gameOf(t, games, "bob", "carol")
	first := resigned.Player(resigned.ToMove[0]).ID
	g := h.Game(resigned.ID)
	in(h, first, "de", "de", false, "move game:"+g.ID+" move:"+g.Position.UCI(g.Position.LegalMoves()[0]))
	h.Notes.Take()

	r := in(h, "carol", "fr", "de", false, "tournament action:leave")
	if r.Refused || !strings.Contains(r.Text, "carol") || !strings.Contains(r.Text, "tournoi 1") {
		t.Fatalf("carol's reply is not French: %+v", r)
	}
	ns := h.Notes.Take()

	channel, direct := gameOver(ns, "bob", forfeited)
	if len(channel) != 1 || len(direct) != 1 {
		t.Fatalf("bob's notices of game %s: channel %q, direct %q", forfeited.ID, channel, direct)
	}
	wants(t, "bob's direct message", direct[0], "Партия "+forfeited.ID, "carol: выход из турнира до начала этой партии; bob побеждает ввиду неявки соперника.")
	wants(t, "the thread's post to bob", channel[0], "Partie "+forfeited.ID, "carol hat sich vor Beginn dieser Partie aus dem Turnier zurückgezogen; bob gewinnt sie kampflos.")
	for _, text := range append(channel, direct...) {
		if strings.Contains(text, "withdrew") || strings.Contains(text, "forfeit") {
			t.Errorf("English in bob's notice:\n%s", text)
		}
	}

	channel, direct = gameOver(ns, "alice", resigned)
	if len(channel) == 0 || len(direct) == 0 {
		t.Fatalf("alice's notices of game %s: channel %q, direct %q", resigned.ID, channel, direct)
	}
	for _, text := range append(channel, direct...) { // German, as the server
		wants(t, "alice's notice", text, "carol hat sich aus dem Turnier zurückgezogen und aufgegeben.")
	}
	wants(t, "the withdrawal's news", news(ns), ">> Turnier 1", "carol hat sich zurückgezogen; die nicht gespielten Partien sind kampflos verloren.")
}

// The English of a withdrawal's game ends reads as before.
func TestEnglishWithdrawalAsBefore(t *testing.T) {
	h := bottest.New(t)
	h.Ok("bob", "settings notify:both")
	h.Ok("alice", "tournament action:create name:Cup variant:gothic days:1")
	h.Ok("bob", "tournament action:join")
	h.Ok("carol", "tournament action:join")
	h.Ok("alice", "tournament action:start")
	_, games := h.Tournament("1")
	h.Notes.Take()
	if r := h.Ok("carol", "tournament action:leave"); r.Text != "carol withdrew from tournament 1; the games not played are forfeited." {
		t.Errorf("reply: %q", r.Text)
	}
	ns := h.Notes.Take()
	var texts []string
	for _, n := range bottest.NoticesOf(ns, "bob", bot.NoticeGameOver) {
		texts = append(texts, n.Reply.Text)
	}
	if len(texts) != 1 || !strings.HasPrefix(texts[0], "carol withdrew from the tournament before this game began; bob wins it by forfeit.\n") {
		t.Errorf("bob's notice of game %s: %q", games[0].ID, texts)
	}
}

// The refusals the kernel words for /tournament's options and for an engine's
// level, the tournament's own, and the refusal of a game's end hook (a
// tournament game cannot be aborted) are in the asker's language, whatever the
// server's (Russian here).
func TestRefusalsInTheAskersLanguage(t *testing.T) {
	h := bottest.New(t)
	for _, c := range []struct{ locale, line, want string }{
		{"de", "tournament action:create variant:gothic days:2 bank:30+1/45", "Wähle Tage pro Zug (tage) oder ein Zeitkonto (zeitkonto), nicht beides."},
		{"ru", "tournament action:create variant:gothic days:2 bank:30+1/45", "Выберите дни на ход (дни) или запас времени (запас), но не то и другое."},
		{"de", "tournament action:create variant:gothic rounds:x", "muss eine ganze Zahl sein"},
		{"ru", "tournament action:create variant:gothic max:x", "должна быть целым числом"},
		{"de", "tournament action:join", "Hier ist kein Turnier offen oder im Gange"},
		{"ru", "tournament action:standings tournament:7", "На этом сервере нет турнира 7"},
	} {
		if r := in(h, "alice", c.locale, "ru", true, c.line); !r.Refused || !strings.Contains(r.Text, c.want) {
			t.Errorf("%s %s: %+v, want %q", c.locale, c.line, r, c.want)
		}
	}
	in(h, "alice", "en-US", "ru", true, "tournament action:create variant:gothic days:1 engines:builtin")
	for _, c := range []struct{ locale, line, want string }{
		{"de", "tournament action:join engine:builtin level:x", "Die Stufe der Engine muss eine Zahl von 1 bis"},
		{"ru", "tournament action:join engine:builtin level:99", "Уровень движка должен быть числом от 1 до 8, а не"},
	} {
		if r := in(h, "alice", c.locale, "ru", true, c.line); !r.Refused || !strings.Contains(r.Text, c.want) {
			t.Errorf("%s %s: %+v, want %q", c.locale, c.line, r, c.want)
		}
	}
	// The admins' refusals are the kernel's sentence with the tournament's phrase.
	for _, c := range []struct {
		locale, line string
		admin        bool
		want         string
	}{
		{"de", "tournament action:start", false, "Nur Mitglieder, die diesen Server verwalten dürfen, können ein Turnier starten."},
		{"ru", "tournament action:create variant:gothic", false, "Только участники, которым можно управлять этим сервером, могут создать турнир."},
		{"ru", "tournament action:join engine:builtin", false, "Только участники, которым можно управлять этим сервером, могут записать движок в турнир."},
		{"en-US", "tournament action:start", false, "Only members who may manage this server can start a tournament."},
	} {
		if r := in(h, "bob", c.locale, "ru", c.admin, c.line); !r.Refused || r.Text != c.want {
			t.Errorf("%s %s: %q, want %q", c.locale, c.line, r.Text, c.want)
		}
	}

	// Two tournaments are open: which one is meant, in the asker's language.
	in(h, "alice", "en-US", "ru", true, "tournament action:create variant:gothic days:1")
	in(h, "alice", "ru", "ru", false, "tournament action:join tournament:1")
	in(h, "bob", "ru", "ru", false, "tournament action:join tournament:1")
	if r := in(h, "bob", "de", "ru", false, "tournament action:info"); !r.Refused || !strings.HasPrefix(r.Text, "Hier laufen mehrere Turniere: 1 (") || !strings.Contains(r.Text, "turnier:NUMMER") {
		t.Errorf("German several: %+v", r)
	}
	if r := in(h, "bob", "en-US", "ru", false, "tournament action:info"); !r.Refused || !strings.HasPrefix(r.Text, "Several tournaments run here: 1 (") {
		t.Errorf("English several: %+v", r)
	}

	// A tournament game cannot be aborted: the hook's refusal reaches the German
	// asker in German, though the server is Russian.
	in(h, "alice", "en-US", "ru", true, "tournament action:start tournament:1")
	_, games := h.Tournament("1")
	g := games[0]
	who := g.Players[rules.White].ID
	if r := in(h, who, "de", "ru", false, "abort game:"+g.ID); !r.Refused || r.Text != "Partie "+g.ID+" ist eine Turnierpartie und kann nicht abgebrochen werden; spiele sie, biete Remis an oder gib auf." {
		t.Errorf("German asker's abort: %q", r.Text)
	}
	if r := in(h, who, "en-US", "ru", false, "abort game:"+g.ID); !r.Refused || r.Text != "Game "+g.ID+" is a tournament game and cannot be aborted; play it, offer a draw, or resign." {
		t.Errorf("English asker's abort: %q", r.Text)
	}
}

// In local play a tournament's news are addressed and written in the
// organizer's language (remembered from their requests; when it is not known, the
// asker's, who reads them where the reply shows): ">> Turnier 1", never
// ">> tournament 1" to a German reader.
func TestLocalNewsAddressedInTheReadersLanguage(t *testing.T) {
	h := bottest.New(t)
	local := func(user, locale, line string) bot.Reply {
		h.T.Helper()
		h.Seq++
		r := h.Run(bot.Request{ID: fmt.Sprintf("req-%d", h.Seq), User: bot.User{ID: user, Name: user}, Locale: locale}, line)
		if r.Refused {
			t.Fatalf("%s: %s", line, r.Text)
		}
		return r
	}
	local("alice", "de", "tournament action:create variant:gothic days:1")
	local("alice", "de", "tournament action:join")
	local("bob", "de", "tournament action:join")
	h.Notes.Take()
	local("alice", "de", "tournament action:start")
	wants(t, "the start's news", news(h.Notes.Take()), ">> Turnier 1\n", "Alle Partien haben begonnen.")

	// In English, as before.
	h = bottest.New(t)
	h.Ok("alice", "tournament action:create variant:gothic days:1")
	h.Ok("alice", "tournament action:join")
	h.Ok("bob", "tournament action:join")
	h.Notes.Take()
	local("alice", "", "tournament action:start")
	wants(t, "the English start's news", news(h.Notes.Take()), ">> tournament 1\n", "All games have started.")
}
