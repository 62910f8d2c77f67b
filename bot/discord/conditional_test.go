package discord_test

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
)

// In Discord: bob's conditional line is entered and shown privately, alice's
// matching move in the thread is answered at once, the rest of the line shows in
// no public message, and after the game the Rematch button offers it again.
func TestConditionalAndRematch(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	thread := gothicGame(e)
	e.answer(e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e4"}))
	e.answer(e.srv.Command("bob", thread, "move", discordtest.Opt{Name: "move", Value: "e5"}))
	add := e.answer(e.srv.Command("bob", thread, "conditional add", discordtest.Opt{Name: "line", Value: "Nc3 Nc6 Nh3 Nh6"}))
	if !add.Ephemeral || !strings.Contains(text(add), "auf 3. Nh3 folgt 3... Nh6") { // bob's client is German
		t.Fatalf("adding a line: ephemeral %v, %q", add.Ephemeral, text(add))
	}
	mv := e.answer(e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "Nc3"}))
	if mv.Ephemeral || !strings.Contains(text(mv), "Bob had this conditional reply ready") {
		t.Fatalf("the matched move: ephemeral %v, %q", mv.Ephemeral, text(mv))
	}
	e.svc.Idle()
	for _, ch := range []string{thread, e.srv.Channel("general").ID} {
		for _, pm := range e.srv.Messages(ch) {
			if !pm.Ephemeral && strings.Contains(text(pm), "Nh6") {
				t.Errorf("bob's line shown publicly: %q", text(pm))
			}
		}
	}
	ask := e.answer(e.srv.Click("alice", mv.ID, buttonID(t, mv, "Resign")))
	done := e.answer(e.srv.Click("alice", ask.ID, buttonID(t, ask, "Yes")))
	offer := e.answer(e.srv.Click("bob", done.ID, buttonID(t, done, "Rematch")))
	if offer.Ephemeral || !strings.Contains(text(offer), "a rematch of game") || !strings.Contains(text(offer), "Bob plays white") {
		t.Fatalf("rematch offer: ephemeral %v, %q", offer.Ephemeral, text(offer))
	}
	acc := e.answer(e.srv.Click("alice", offer.ID, buttonID(t, offer, "Accept")))
	if acc.Ephemeral || !strings.Contains(text(acc), "Bob (white) vs Alice (black)") {
		t.Fatalf("rematch accepted: ephemeral %v, %q", acc.Ephemeral, text(acc))
	}
}
