package discord_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
)

// closedThread checks a game whose thread stops taking the bot's messages (by close)
// while the thread stays: six notices reach the parent channel once each, no thread
// is opened for them, the server's owner is told once that the bot needs the
// permission want, and the bot asks the closed thread only once (the fake fails the
// test for every refusal repeated with nothing changed); invalid is how many of its
// requests Discord refuses with 403, each counted toward its ban on invalid requests.
func closedThread(t *testing.T, close func(e *env, thread string), kind discord.FailureKind, want string, invalid int) {
	e := start(t, discord.Options{}, discordtest.Config{Guilds: []discordtest.Guild{strictGuild()}})
	id, thread := serviceGame(e, "general")
	close(e, thread)
	general := e.srv.Channel("general").ID
	place := bot.Place{Guild: e.srv.Guild().ID, Channel: general, Thread: thread}
	for i := range 6 {
		s := fmt.Sprintf("Your move after move %d.", i+1)
		notice(e, fmt.Sprintf("n%d", i), id, place, s)
		if where := posted(e, s); len(where) != 1 || where[0] != general {
			t.Errorf("%q posted in %v, want once in #general", s, where)
		}
	}
	if th := e.srv.Threads("general"); len(th) != 1 {
		t.Errorf("%d threads in #general, want the game's one", len(th))
	}
	if f := e.b.Failures(); f[kind] != 1 {
		t.Errorf("failures %v, want one %s", f, kind)
	}
	refused := 0
	for _, r := range e.srv.Requests() {
		if r.Status == 403 {
			refused++
		}
	}
	if refused != invalid {
		t.Errorf("%d requests refused with 403, want %d", refused, invalid)
	}
	told := 0
	for _, m := range e.srv.Messages(e.srv.DMChannel("carol")) {
		if strings.Contains(m.Content, want) {
			told++
		}
	}
	if told != 1 {
		t.Errorf("the owner was told %d times of the missing %s, want once", told, want)
	}
}

// Losing Send Messages in Threads mid-game sends the game's notices to its channel,
// with no new thread per notice.
func TestThreadPermissionLostPostsInChannel(t *testing.T) {
	closedThread(t, func(e *env, _ string) {
		e.srv.SetBotPermissions("general", 0, discordgo.PermissionSendMessagesInThreads)
	}, discord.FailMissingPermissions, "Send Messages in Threads", 1)
}

// A thread a moderator locks takes no more notices from a bot without Manage Threads:
// they go to the channel, and the game keeps its thread.
func TestLockedThreadPostsInChannel(t *testing.T) {
	closedThread(t, func(e *env, th string) { e.srv.ArchiveThread(th, true) }, discord.FailThreadLocked, "Manage Threads", 0) // 160005 is a 400
}
