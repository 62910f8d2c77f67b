package discord_test

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
)

// In a group DM, where only the user-installed app can be used and the bot may post
// nothing itself, a challenge is answered through the interaction and the game is
// played in the bot's DMs with each player; the adapter tells the service the
// context from the interaction, asking Discord nothing about the channel.
func TestUserInstalledInGroupDM(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	privateGame(e, e.srv.GroupDM("friends", "alice", "bob"), "the group DM")
	mv := e.answer(e.srv.Command("alice", e.srv.DMChannel("alice"), "move", discordtest.Opt{Name: "move", Value: "e4"}))
	if mv.Ephemeral {
		t.Fatalf("move in alice's DM refused: %q", text(mv))
	}
	e.svc.Idle()
	if _, err := e.srv.WaitMessage(e.ctx, e.srv.DMChannel("bob"), func(m *discordtest.Message) bool {
		return strings.Contains(text(m), "e4") && len(m.Attachments) > 0
	}); err != nil {
		t.Errorf("bob got no board with alice's move by direct message: %v", err)
	}
	if n := len(e.srv.RequestsTo("GET /channels/{channel_id}")); n != 0 {
		t.Errorf("the adapter looked up %d channels", n)
	}
}

// In a server the bot is not in, where alice and bob use the user-installed app, a
// challenge is played as in a group DM: answered through the interaction, the game in
// the players' DMs, and nothing asked of the server's channels (each such request
// would get 50001 and fail the test).
func TestUserInstalledInServerWithoutBot(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	_, lounge := e.srv.ForeignGuild("Elsewhere", "alice", "bob")
	privateGame(e, lounge, "a server without the bot")
	if th := e.srv.Threads(lounge); len(th) != 0 {
		t.Errorf("%d threads opened in a server without the bot", len(th))
	}
}

// privateGame has alice challenge bob (alice white) in channel, where, described as
// where, the bot answers only through interactions, bob accept, and checks that
// alice, to move, gets the board by direct message.
func privateGame(e *env, channel, where string) {
	t := e.t
	t.Helper()
	ch := e.answer(e.srv.Command("alice", channel, "challenge",
		discordtest.Opt{Name: "variant", Value: "gothic"}, discordtest.Opt{Name: "opponent", Value: "bob"},
		discordtest.Opt{Name: "color", Value: "white"}))
	if ch.Ephemeral || !strings.Contains(text(ch), "challenge") {
		t.Fatalf("challenge in %s answered %q", where, text(ch))
	}
	e.svc.Idle()
	if acc := e.accept("bob", ch); strings.Contains(text(acc), "cannot") {
		t.Fatalf("accept: %q", text(acc))
	}
	e.svc.Idle()
	if _, err := e.srv.WaitMessage(e.ctx, e.srv.DMChannel("alice"), func(m *discordtest.Message) bool { return len(m.Attachments) > 0 }); err != nil {
		t.Fatalf("alice, to move, got no board by direct message: %v", err)
	}
}
