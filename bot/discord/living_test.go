package discord_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
)

// controls counts the enabled buttons and menus of m.
func controls(m *discordtest.Message) int {
	n := 0
	var walk func([]discordtest.Component)
	walk = func(cs []discordtest.Component) {
		for _, c := range cs {
			if c.Type != discordgo.ActionsRowComponent && !c.Disabled {
				n++
			}
			walk(c.Components)
		}
	}
	walk(m.Components)
	return n
}

// A challenge answered with its own button is updated in place (UPDATE_MESSAGE) and
// keeps no live buttons; someone else's press is refused privately and changes nothing.
func TestChallengeAnsweredInPlace(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	ch := e.answer(e.srv.Command("alice", "general", "challenge",
		discordtest.Opt{Name: "variant", Value: "gothic"}, discordtest.Opt{Name: "opponent", Value: "bob"}))
	no := e.answer(e.srv.Click("carol", ch.ID, buttonID(t, ch, "Accept")))
	if !no.Ephemeral || no.ID == ch.ID {
		t.Errorf("carol's press on bob's challenge was not refused privately: %q", text(no))
	}
	if m, _ := e.srv.Message(ch.ID); controls(m) != 3 {
		t.Errorf("a refused press changed the challenge: %d live buttons", controls(m))
	}
	in := e.srv.Click("bob", ch.ID, buttonID(t, ch, "Decline"))
	m := e.answer(in)
	if cbs := e.srv.Callbacks(in); len(cbs) != 1 || cbs[0].Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("%d callbacks, the first of type %d, want one UPDATE_MESSAGE", len(cbs), cbs[0].Type)
	}
	if m.ID != ch.ID || !strings.Contains(text(m), "declined") || controls(m) != 0 {
		t.Errorf("challenge message after decline: id %s (want %s), %d live buttons, %q", m.ID, ch.ID, controls(m), text(m))
	}
	if err := e.b.Shutdown(e.ctx); err != nil { // waits until the bot is done with the press
		t.Fatal(err)
	}
	if m, _ := e.srv.Message(ch.ID); len(m.Components) != 0 {
		t.Errorf("the replaced challenge got components back: %+v", m.Components)
	}
	if n := len(e.srv.Messages("general")); n != 2 {
		t.Errorf("%d messages in #general, want the challenge and carol's private refusal", n)
	}
}

// A draw offer declined with its button is updated in place; one accepted by typing
// /draw gets its buttons disabled, and the finished game's thread stays open, its
// Rematch button working, set to archive itself a day later.
func TestOfferSettledAndThreadKeptOpen(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	thread := gothicGame(e)
	e.answer(e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e4"}))
	offer := e.answer(e.srv.Command("alice", thread, "draw", discordtest.Opt{Name: "action", Value: "offer"}))
	m := e.answer(e.srv.Click("bob", offer.ID, buttonID(t, offer, "Decline")))
	if m.ID != offer.ID || !strings.Contains(text(m), "abgelehnt") || controls(m) != 0 { // bob's client is German
		t.Errorf("offer after decline: id %s (want %s), %d live buttons, %q", m.ID, offer.ID, controls(m), text(m))
	}
	again := e.answer(e.srv.Command("alice", thread, "draw", discordtest.Opt{Name: "action", Value: "offer"}))
	if controls(again) != 2 {
		t.Fatalf("new offer has %d live buttons, want 2", controls(again))
	}
	if e.srv.Archived(thread) {
		t.Fatal("thread archived while the game goes on")
	}
	res := e.answer(e.srv.Command("bob", thread, "draw", discordtest.Opt{Name: "action", Value: "accept"}))
	if res.ID == again.ID || !strings.Contains(strings.ToLower(text(res)), "remis") { // bob's German
		t.Errorf("typed acceptance answered %q in message %s", text(res), res.ID)
	}
	if err := e.srv.Wait(e.ctx, func() bool {
		m, _ := e.srv.Message(again.ID)
		return controls(m) == 0
	}); err != nil {
		t.Errorf("the accepted offer's buttons stayed live: %v", err)
	}
	// The finished game's thread stays open, its Rematch button usable, and archives
	// itself a day later: the fake lists a request once it has answered it, so wait.
	if err := e.srv.Wait(e.ctx, func() bool { return len(e.srv.RequestsTo("PATCH /channels/{channel_id}")) > 0 }); err != nil {
		t.Fatalf("the finished game's thread was not set to archive itself: %v", err)
	}
	if e.srv.Archived(thread) {
		t.Error("the finished game's thread was archived at once, with its Rematch button on its last message")
	}
	if got := e.srv.RequestsTo("PATCH /channels/{channel_id}")[0]; !strings.Contains(string(got.Body), `"auto_archive_duration":1440`) {
		t.Errorf("finished thread edited with %s, want auto_archive_duration 1440", got.Body)
	}
	rematch := e.answer(e.srv.Click("alice", res.ID, buttonFor(t, res, "rematch"))) // labelled in its reader's language
	if !strings.Contains(text(rematch), "a rematch of game") {
		t.Errorf("the Rematch button in the finished game's thread answered %q", text(rematch))
	}
}

// A challenge answered from its notice in the opponent's direct messages updates that
// notice in place and disables the buttons of the challenge message in the channel.
func TestChallengeAnsweredElsewhere(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	e.answer(e.srv.Command("bob", "general", "settings", discordtest.Opt{Name: "notify", Value: "dm"}))
	ch := e.answer(e.srv.Command("alice", "general", "challenge",
		discordtest.Opt{Name: "variant", Value: "gothic"}, discordtest.Opt{Name: "opponent", Value: "bob"}))
	e.svc.Idle()
	notice, err := e.srv.WaitMessage(e.ctx, e.srv.DMChannel("bob"), func(m *discordtest.Message) bool { return controls(m) > 0 })
	if err != nil {
		t.Fatalf("bob got no challenge with buttons by direct message: %v", err)
	}
	m := e.answer(e.srv.Click("bob", notice.ID, buttonFor(t, notice, "decline"))) // bob reads German
	if m.ID != notice.ID || !strings.Contains(text(m), "declined") || controls(m) != 0 {
		t.Errorf("notice after decline: id %s (want %s), %d live buttons, %q", m.ID, notice.ID, controls(m), text(m))
	}
	if err := e.srv.Wait(e.ctx, func() bool {
		m, _ := e.srv.Message(ch.ID)
		return controls(m) == 0 && len(m.Components) > 0
	}); err != nil {
		m, _ := e.srv.Message(ch.ID)
		t.Errorf("the challenge in #general keeps %d live buttons: %v", controls(m), err)
	}

	// The other way round: accepted in the channel, the notice's buttons go dead.
	ch2 := e.answer(e.srv.Command("alice", "general", "challenge",
		discordtest.Opt{Name: "variant", Value: "keltic"}, discordtest.Opt{Name: "opponent", Value: "bob"}))
	e.svc.Idle()
	notice2, err := e.srv.WaitMessage(e.ctx, e.srv.DMChannel("bob"), func(m *discordtest.Message) bool {
		return controls(m) > 0 && strings.Contains(text(m), "Keltisches Schach") // bob reads German
	})
	if err != nil {
		t.Fatalf("bob got no second challenge by direct message: %v", err)
	}
	e.accept("bob", ch2)
	if err := e.srv.Wait(e.ctx, func() bool {
		m, _ := e.srv.Message(notice2.ID)
		return controls(m) == 0
	}); err != nil {
		t.Errorf("the notice of a challenge accepted in the channel keeps live buttons: %v", err)
	}
}
