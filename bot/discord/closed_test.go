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
	before := len(e.srv.Requests())
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
	t.Logf("after the thread closed: %d requests for six notices, %d refused with 403, %d Discord counts as invalid",
		len(e.srv.Requests())-before, refused, e.srv.InvalidRequests())
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

// A thread the bot made for a game just before it was killed, unrecorded, is found
// among the server's active threads and used, rather than a second one opened.
func TestOrphanThreadAdopted(t *testing.T) {
	srv := discordtest.New(t, discordtest.Config{})
	orphan := srv.BotThread("general", "Gothic: Alice vs Bob")
	e := startWith(t, srv, discord.Options{}, nil)
	general := e.srv.Channel("general").ID
	openGame(e, general)
	if th := e.srv.Threads("general"); len(th) != 1 {
		t.Errorf("%d threads in #general, want the orphan alone", len(th))
	}
	if where := posted(e, "The game begins."); len(where) != 1 || where[0] != orphan.ID {
		t.Errorf("the first notice was posted in %v, want the orphan thread %s", where, orphan.ID)
	}
	mv := e.answer(e.srv.Command("alice", orphan.ID, "move", discordtest.Opt{Name: "move", Value: "e4"}))
	if mv.Ephemeral {
		t.Errorf("a move in the adopted thread was refused: %q", text(mv))
	}
}

// A game's first board that meets Discord's 5xx in its new thread is not lost: the
// outbox posts it.
func TestFirstBoardRetriedThroughOutbox(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	ch := e.answer(e.srv.Command("alice", "general", "challenge",
		discordtest.Opt{Name: "variant", Value: "gothic"}, discordtest.Opt{Name: "opponent", Value: "bob"}))
	e.srv.FailNext("POST /channels/{channel_id}/messages", discordtest.Failure{Status: 500, Message: "500: Internal Server Error"})
	e.accept("bob", ch)
	var thread string
	if err := e.srv.Wait(e.ctx, func() bool {
		th := e.srv.Threads("general")
		if len(th) == 1 {
			thread = th[0].ID
		}
		return thread != "" && len(e.srv.RequestsTo("POST /channels/{channel_id}/messages")) > 0
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.WaitMessage(e.ctx, thread, func(m *discordtest.Message) bool { return len(m.Attachments) > 0 }); err != nil {
		t.Fatalf("no board in the new thread after a 5xx: %v", err)
	}
	e.svc.Idle()
	boards := 0
	for _, m := range e.srv.Messages(thread) {
		if len(m.Attachments) > 0 {
			boards++
		}
	}
	if boards != 1 {
		t.Errorf("%d boards in the new thread after a 5xx, want 1", boards)
	}
}
