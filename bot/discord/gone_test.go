package discord_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
	"github.com/missivechess/missive/storage"
)

// dms returns the texts of the bot's direct messages to user.
func dms(e *env, user string) []string {
	var out []string
	for _, m := range e.srv.Messages(e.srv.DMChannel(user)) {
		out = append(out, text(m))
	}
	return out
}

// has reports whether one of texts contains s.
func has(texts []string, s string) bool {
	for _, t := range texts {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

// A bot removed from a server makes no more requests there: the players of its games
// there are told by direct message, their notices come by direct message, no game
// starts there (a tournament stops pairing), until the bot is back.
func TestRemovedFromServer(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	id, thread := serviceGame(e, "general")
	guild, general := e.srv.Guild().ID, e.srv.Channel("general").ID
	e.srv.RemoveBot(guild)
	if !waitFor(20*time.Second, func() bool { return !e.svc.InGuild(guild) }) {
		t.Fatal("the service was not told that the bot left the server")
	}
	for _, who := range []string{"alice", "bob"} {
		if !waitFor(20*time.Second, func() bool { return has(dms(e, who), "Missive was removed from the server where game "+id) }) {
			t.Errorf("%s was not told by direct message: %q", who, dms(e, who))
		}
	}
	notice(e, "n1", id, bot.Place{Guild: guild, Channel: general, Thread: thread}, "Your move after e4.")
	if !has(dms(e, "bob"), "Your move after e4.") {
		t.Errorf("bob's notice did not come by direct message: %q", dms(e, "bob"))
	}
	newGame := func() error {
		_, err := e.svc.CreateGame(e.ctx, bot.NewGame{Variant: "gothic",
			White: storage.Seat{ID: e.srv.User("carol").ID, Name: "Carol"}, Black: storage.Seat{ID: e.srv.User("bob").ID, Name: "Bob"},
			Place: bot.Place{Guild: guild, Channel: general}})
		return err
	}
	if err := newGame(); !errors.Is(err, bot.ErrServerLeft) {
		t.Errorf("a game was started in the server the bot left: %v", err)
	}
	e.srv.AddBot(guild)
	if !waitFor(20*time.Second, func() bool { return e.svc.InGuild(guild) }) {
		t.Fatal("the service was not told that the bot is back")
	}
	if err := newGame(); err != nil {
		t.Errorf("no game starts in the server the bot is back in: %v", err)
	}
}

// A deleted channel's games go on by direct message, their players told why.
func TestChannelDeleted(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	id, thread := serviceGame(e, "general")
	guild, general := e.srv.Guild().ID, e.srv.Channel("general").ID
	e.srv.DeleteChannel("general")
	if !waitFor(20*time.Second, func() bool { return has(dms(e, "alice"), "was deleted") }) {
		t.Fatalf("alice was not told by direct message: %q", dms(e, "alice"))
	}
	notice(e, "n1", id, bot.Place{Guild: guild, Channel: general, Thread: thread}, "Your move after e4.")
	if !has(dms(e, "bob"), "Your move after e4.") {
		t.Errorf("bob's notice did not come by direct message: %q", dms(e, "bob"))
	}
}

// A game in a server the bot is not in when it starts (removed while it was down:
// READY does not list the server) gets its notices by direct message, with no
// request to the server that Discord would refuse.
func TestServerMissingFromReady(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	guild, lounge := e.srv.ForeignGuild("Elsewhere", "alice", "bob")
	g, err := e.svc.CreateGame(e.ctx, bot.NewGame{Variant: "gothic",
		White: storage.Seat{ID: e.srv.User("alice").ID, Name: "Alice"}, Black: storage.Seat{ID: e.srv.User("bob").ID, Name: "Bob"},
		Place: bot.Place{Guild: guild, Channel: lounge}})
	if err != nil {
		t.Fatal(err)
	}
	e.svc.Idle()
	notice(e, "n1", g.ID, bot.Place{Guild: guild, Channel: lounge}, "Your move after e4.")
	if !has(dms(e, "bob"), "Your move after e4.") {
		t.Errorf("bob's notice did not come by direct message: %q", dms(e, "bob"))
	}
	if th := e.srv.Threads(lounge); len(th) != 0 {
		t.Errorf("%d threads opened in a server without the bot", len(th))
	}
}
