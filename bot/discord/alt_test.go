package discord_test

import (
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
)

// described fails unless every attachment of m has a description saying whose move
// it is and the position.
func described(t *testing.T, where string, m *discordtest.Message) {
	t.Helper()
	describedAs(t, where, m, "to move", "Position: ")
}

// describedAs is described for a reader of another language: the description
// says toMove and position, in its words.
func describedAs(t *testing.T, where string, m *discordtest.Message, toMove, position string) {
	t.Helper()
	if len(m.Attachments) == 0 {
		t.Errorf("%s: no attachment", where)
	}
	for _, a := range m.Attachments {
		if !strings.Contains(a.Description, toMove) || !strings.Contains(a.Description, position) {
			t.Errorf("%s: attachment %s has description %q", where, a.Filename, a.Description)
		}
	}
}

// Every board picture carries its description, whichever way it is sent: posted in
// the game's thread, in answer to a move, by direct message, and completing a deferred
// answer; /board text:true answers with the text board instead.
func TestBoardDescriptions(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	e.answer(e.srv.Command("bob", "general", "settings", discordtest.Opt{Name: "notify", Value: "dm"}))
	thread := gothicGame(e)
	described(t, "board in the thread", e.srv.Messages(thread)[0])
	mv := e.answer(e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e4"}))
	described(t, "answer to a move", mv)
	if d := mv.Attachments[0].Description; !strings.Contains(d, "Last move e2 to e4") || !strings.Contains(d, "Bob (black) to move") {
		t.Errorf("description after e4: %q", d)
	}
	e.svc.Idle()
	dm, err := e.srv.WaitMessage(e.ctx, e.srv.DMChannel("bob"), func(m *discordtest.Message) bool { return len(m.Attachments) > 0 })
	if err != nil {
		t.Fatalf("no board by direct message: %v", err)
	}
	// bob's client is German: his direct message is described in German.
	describedAs(t, "direct message", dm, "Bob (Schwarz) am Zug", "Stellung: ")

	txt := e.answer(e.srv.Command("carol", thread, "board", discordtest.Opt{Name: "text", Value: true}))
	// carol's client is French: her text board is described in French.
	if len(txt.Attachments) != 0 || !strings.Contains(text(txt), "```") || !strings.Contains(text(txt), "Dernier coup de e2 à e4") {
		t.Errorf("/board text:true: %d attachments, %q", len(txt.Attachments), text(txt))
	}
}

func TestDeferredBoardDescribed(t *testing.T) {
	e := start(t, discord.Options{DeferAfter: time.Nanosecond}, discordtest.Config{})
	thread := gothicGame(e)
	described(t, "deferred answer", e.answer(e.srv.Command("alice", thread, "board")))
}
