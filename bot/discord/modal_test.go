package discord_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
)

// The Move button opens its modal only for a player of the game: anyone else is
// refused at once, privately, before typing a move.
func TestMoveModalRefusesNonPlayer(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	thread := gothicGame(e)
	mv := e.answer(e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e4"}))
	open := e.srv.Click("carol", mv.ID, buttonID(t, mv, "Move"))
	cb, err := e.srv.WaitCallback(e.ctx, open)
	if err != nil {
		t.Fatal(err)
	}
	if cb.Type == discordgo.InteractionResponseModal {
		t.Fatalf("the Move modal opened for carol, who is not playing")
	}
	no := e.answer(open)
	if !no.Ephemeral || !strings.Contains(text(no), "Vous ne jouez pas dans la partie") { // carol's client is French
		t.Errorf("carol was answered (ephemeral %v): %q", no.Ephemeral, text(no))
	}
	// bob, who plays, gets the modal.
	if cb, err := e.srv.WaitCallback(e.ctx, e.srv.Click("bob", mv.ID, buttonID(t, mv, "Move"))); err != nil || cb.Type != discordgo.InteractionResponseModal {
		t.Errorf("bob's Move button answered %+v, %v; want the modal", cb, err)
	}
}
