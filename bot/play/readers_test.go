package play_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/play"
)

// boardNotice returns the one notice to user among ns that carries a game's
// board (the kernel's turn notice, with the board's buttons).
func boardNotice(t *testing.T, ns []bot.Notification, user string) bot.Notification {
	t.Helper()
	var found []bot.Notification
	for _, n := range ns {
		if n.To.ID == user && n.Reply.Game != nil && len(n.Reply.Actions) > 0 {
			found = append(found, n)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d notices with a board to %s among %+v", len(found), user, ns)
	}
	return found[0]
}

// wantButtons fails t unless r's buttons are labelled labels, and its move (or
// place) button asks for input with inputLabel.
func wantButtons(t *testing.T, what string, r bot.Reply, labelled, inputLabel string) {
	t.Helper()
	if got := labels(r); got != labelled {
		t.Errorf("%s: buttons %q, want %q", what, got, labelled)
	}
	if len(r.Actions) > 0 && r.Actions[0].InputLabel != inputLabel {
		t.Errorf("%s: the first button asks for %q, want %q", what, r.Actions[0].InputLabel, inputLabel)
	}
}

// The buttons under a board the kernel builds, not play's commands, are in
// each reader's language: the board of a game started by /accept, in the reply
// to the Russian who accepts and in the notice to the German who challenged
// (Move or Place, as the game needs), and the board under an engine's move.
func TestButtonsInEachReadersLanguage(t *testing.T) {
	const (
		de   = "Ziehen | Remis anbieten | Aufgeben"
		deIn = "Dein Zug (etwa Nf3 oder g1f3)"
		ru   = "Сделать ход | Предложить ничью | Сдаться"
		ruIn = "Ваш ход (например, Nf3 или g1f3)"
	)
	t.Run("accept", func(t *testing.T) {
		h := bottest.New(t)
		h.Ok("alice", "settings language:de notify:dm")
		h.Ok("bob", "settings language:ru notify:dm")
		h.Ok("alice", "challenge variant:gothic opponent:bob color:white")
		h.Notes.Take()
		r := h.Ok("bob", "accept")
		if r.Started == nil {
			t.Fatalf("accept did not start a game: %s", r.PlainText())
		}
		wantButtons(t, "bob's reply", r, ru, ruIn)
		wantButtons(t, "alice's notice", boardNotice(t, h.Notes.Take(), "alice").Reply, de, deIn)
	})
	t.Run("accept Go-Chess", func(t *testing.T) {
		h := bottest.New(t)
		h.Ok("alice", "settings language:de notify:dm")
		h.Ok("bob", "settings language:ru notify:dm")
		h.Ok("alice", "challenge variant:gochess opponent:bob color:white")
		h.Notes.Take()
		r := h.Ok("bob", "accept")
		wantButtons(t, "bob's reply", r, "Поставить | Сдаться", "Поле (например, d4)")
		wantButtons(t, "alice's notice", boardNotice(t, h.Notes.Take(), "alice").Reply, "Setzen | Aufgeben", "Feld (etwa d4)")
	})
	t.Run("engine", func(t *testing.T) {
		for _, tc := range []struct {
			lang, labels, input string
		}{{"de", de, deIn}, {"ru", ru, ruIn}} {
			h := bottest.New(t)
			h.Ok("alice", "settings notify:dm language:"+tc.lang)
			// The engine plays White and moves first, once the game has begun.
			h.Ok("alice", "challenge variant:gothic engine:builtin color:black")
			n := boardNotice(t, h.Notes.Take(), "alice")
			if n.Kind != bot.NoticeTurn {
				t.Errorf("%s: alice's notice of the engine's first move is a %s notice", tc.lang, n.Kind)
			}
			wantButtons(t, tc.lang+": the engine's first move", n.Reply, tc.labels, tc.input)
			r := h.Ok("alice", "move move:e7e5")
			wantButtons(t, tc.lang+": alice's move", r, tc.labels, tc.input)
			wantButtons(t, tc.lang+": the engine's answer", boardNotice(t, h.Notes.Take(), "alice").Reply, tc.labels, tc.input)
		}
	})
}

// A resignation is announced to each reader in their language, in the order of
// the change: the English player who resigns reads English, the Russian opponent
// Russian; a draw agreed and an abort alike.
func TestEndsInEachReadersLanguage(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "settings language:en notify:dm")
	h.Ok("bob", "settings language:ru notify:dm")
	id := h.Start("gothic", "")

	r := h.Ok("alice", "resign")
	wants(t, "alice's resignation", r.Text, "alice (white) resigned.")
	ns := h.Notes.Take()
	n := noticeTo(t, ns, "bob", bot.NoticeGameOver)
	wants(t, "bob's notice of the resignation", n.Reply.Text, "alice (белые) сдаёт партию.")
	if len(bottest.NotesFor(ns, "alice")) != 0 {
		t.Errorf("alice, who reads the reply, was also told: %+v", ns)
	}
	if g := h.Game(id); g.Active() {
		t.Fatal("the game goes on")
	}

	id = h.Start("gothic", "")
	h.Ok("bob", "draw")
	n = noticeTo(t, h.Notes.Take(), "alice", play.NoticeDrawOffer)
	wants(t, "alice's notice of the offer", n.Reply.Text, "bob offers a draw in game "+id+".")
	wants(t, "alice's buttons", labels(n.Reply), "Accept draw | Decline draw | Resign")
	r = h.Ok("alice", "draw")
	wants(t, "alice's acceptance", r.Text, "alice accepted bob's draw offer.")
	n = noticeTo(t, h.Notes.Take(), "bob", bot.NoticeGameOver)
	wants(t, "bob's notice of the acceptance", n.Reply.Text, "alice принимает предложение ничьей от bob.")

	h.Start("gothic", "")
	r = h.Ok("bob", "abort")
	wants(t, "bob's abort", r.Text, "bob: партия отменена до того, как обе стороны сделали ход; результата нет.")
	n = noticeTo(t, h.Notes.Take(), "alice", bot.NoticeGameOver)
	wants(t, "alice's notice of the abort", n.Reply.Text, "bob aborted the game before both sides had moved; it has no result.")
}

// A conditional reply played at once is told in each reader's language, the move
// that called it included: the Russian who moved reads his move and the reply in
// Russian, the German whose line it was reads both in German.
func TestConditionalReplyInEachReadersLanguage(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "settings language:de notify:dm")
	h.Ok("bob", "settings language:ru notify:dm")
	id := h.Start("gothic", "")
	h.Ok("alice", "move move:e2e4")
	h.Ok("alice", "conditional action:add line:e7e5_Nc3")
	h.Notes.Take()
	r := h.Ok("bob", "move move:e7e5")
	wants(t, "bob's reply", r.Text, "bob (чёрные) делает ход **e5**.\nalice (белые) делает ход **Nc3**. У alice был заранее подготовлен условный ответ.")
	wants(t, "bob's buttons", labels(r), "Сделать ход | Предложить ничью | Сдаться")
	n := noticeTo(t, h.Notes.Take(), "alice", bot.NoticeInfo)
	wants(t, "alice's notice", n.Reply.Text, "bob (Schwarz) spielte **e5**.\nDeine bedingte Antwort **Nc3** wurde sofort gespielt.")
	if g := h.Game(id); len(g.Moves) != 3 {
		t.Fatalf("moves %+v", g.Moves)
	}
}

// In a server, a notice of play posted in the game's thread is in the server's
// language and the same notice by direct message in the player's, each with the
// board's buttons in its language: a draw offer, then a resignation.
func TestNoticesInThreadAndDirectLanguages(t *testing.T) {
	h := bottest.New(t)
	place := bot.Place{Guild: "g", Channel: "c"}
	seq := 0
	in := func(user, locale, line string) bot.Reply {
		t.Helper()
		seq++
		r := h.Run(bot.Request{ID: fmt.Sprintf("t-%d", seq), User: bot.User{ID: user, Name: user}, Place: place,
			Context: bot.ContextGuild, Locale: locale, GuildLocale: "fr"}, line)
		if r.Refused {
			t.Fatalf("%s: %s: refused: %s", user, line, r.Text)
		}
		return r
	}
	in("bob", "ru", "settings notify:both")
	in("alice", "de", "challenge variant:gothic opponent:bob")
	id := in("bob", "ru", "accept").Started.ID
	if err := h.Svc.SetThread(context.Background(), id, "t"); err != nil {
		t.Fatal(err)
	}
	h.Notes.Take() // alice acts from the channel, not the game's thread, which bob reads

	// both returns bob's two notices of kind: the thread's and the direct one.
	both := func(kind bot.NoticeKind) (thread, direct bot.Notification) {
		t.Helper()
		ns := bottest.NoticesOf(h.Notes.Take(), "bob", kind)
		for _, n := range ns {
			switch {
			case n.Channel && !n.Direct:
				thread = n
			case n.Direct && !n.Channel:
				direct = n
			}
		}
		if len(ns) != 2 || thread.Reply.Text == "" || direct.Reply.Text == "" {
			t.Fatalf("bob's %s notices: %+v", kind, ns)
		}
		return thread, direct
	}
	r := in("alice", "de", "draw")
	wants(t, "alice's offer", r.Text, "alice bietet in Partie "+id+" Remis an.")
	thread, direct := both(play.NoticeDrawOffer)
	wants(t, "the offer in the thread", thread.Reply.Text, "alice propose la nulle dans la partie "+id+".")
	wants(t, "the thread's buttons", labels(thread.Reply), "Accepter la nulle | Refuser la nulle | Abandonner")
	wants(t, "the offer by direct message", direct.Reply.Text, "alice предлагает ничью в партии "+id+".")
	wants(t, "the direct message's buttons", labels(direct.Reply), "Принять ничью | Отклонить ничью | Сдаться")

	r = in("alice", "de", "resign")
	wants(t, "alice's resignation", r.Text, "alice (Weiß) hat aufgegeben.")
	thread, direct = both(bot.NoticeGameOver)
	wants(t, "the resignation in the thread", thread.Reply.Text, "alice (Blancs) abandonne.")
	wants(t, "the resignation by direct message", direct.Reply.Text, "alice (белые) сдаёт партию.")
}
