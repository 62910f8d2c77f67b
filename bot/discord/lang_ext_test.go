package discord_test

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
)

// The adapter's own sentences come in the language of the one who reads them: the
// confirmation's button in the presser's (bob's client is German, carol's French),
// the refusal to set up games without permissions in the asker's, the players' notice
// that their game's server is gone in each player's; in English as before.
func TestAdapterSentencesInTheReadersLanguage(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	thread := gothicGame(e)
	mv := e.answer(e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e4"}))
	for user, yes := range map[string]string{"bob": "Ja", "carol": "Oui", "alice": "Yes"} {
		ask := e.answer(e.srv.Click(user, mv.ID, buttonID(t, mv, "Resign")))
		buttonID(t, ask, yes)
	}

	e.srv.SetBotPermissions("games", 0, discordgo.PermissionAttachFiles)
	for user, want := range map[string]string{
		"bob":   "Hier kann ich keine Partien leiten: Mir fehlt in diesem Kanal die Berechtigung „Dateien anhängen“",
		"alice": "I can't run games here: I lack the Attach Files permission in this channel",
	} {
		r := e.answer(e.srv.Command(user, "games", "challenge", discordtest.Opt{Name: "variant", Value: "gothic"}))
		if !r.Ephemeral || !strings.Contains(text(r), want) {
			t.Errorf("%s's refusal (ephemeral %v): %q, want %q", user, r.Ephemeral, text(r), want)
		}
	}

	e.answer(e.srv.Command("bob", "general", "settings", discordtest.Opt{Name: "notify", Value: "dm"}))
	e.answer(e.srv.Command("bob", "general", "settings", discordtest.Opt{Name: "notify", Value: "dm"})) // his settings now keep his client's language
	id, _ := serviceGame(e, "general")
	e.srv.RemoveBot(e.srv.Guild().ID)
	for user, want := range map[string]string{
		"bob":   "Missive wurde von dem Server entfernt, auf dem Partie " + id + " gespielt wird",
		"alice": "Missive was removed from the server where game " + id + " is played",
	} {
		if !waitFor(20*time.Second, func() bool { return has(dms(e, user), want) }) {
			t.Errorf("%s was not told in their language: %q", user, dms(e, user))
		}
	}
}

// A post in a channel for all to read is in the server's language: a German server
// is told in German that games are played in the channel when threads are refused.
func TestThreadsRefusedInTheServersLanguage(t *testing.T) {
	g := discordtest.DefaultGuild()
	g.Locale = "de"
	e := start(t, discord.Options{}, discordtest.Config{Guilds: []discordtest.Guild{g}})
	ch := e.answer(e.srv.Command("alice", "no-threads", "challenge",
		discordtest.Opt{Name: "variant", Value: "gothic"}, discordtest.Opt{Name: "opponent", Value: "bob"}))
	e.answer(e.srv.Click("bob", ch.ID, buttonFor(t, ch, "accept"))) // bob reads German
	e.svc.Idle()
	if waitFor(20*time.Second, func() bool {
		for _, m := range e.srv.Messages("no-threads") {
			if strings.Contains(m.Content, "Ich darf in diesem Kanal keine Threads erstellen") {
				return true
			}
		}
		return false
	}) {
		return
	}
	var texts []string
	for _, m := range e.srv.Messages("no-threads") {
		texts = append(texts, m.Content)
	}
	t.Errorf("no German notice that threads are refused: %q", texts)
}
