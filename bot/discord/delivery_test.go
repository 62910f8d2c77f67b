package discord_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
	"github.com/missivechess/missive/storage"
)

// strictGuild is the default world with a forum channel and a bot role without Manage
// Threads, as most bots have (so a locked thread refuses it).
func strictGuild() discordtest.Guild {
	g := discordtest.DefaultGuild()
	for i := range g.Roles {
		if g.Roles[i].Managed {
			g.Roles[i].Permissions &^= discordgo.PermissionManageThreads
		}
	}
	g.Channels = append(g.Channels, discordtest.Channel{Name: "forum", Type: discordgo.ChannelTypeGuildForum, ParentID: "Text Channels"})
	return g
}

// serviceGame starts a game between alice (white) and bob in channel through the service,
// as a tournament does, and returns its id and the thread its first notice opened.
func serviceGame(e *env, channel string) (id, thread string) {
	e.t.Helper()
	ch := e.srv.Channel(channel).ID
	before := len(e.srv.Threads(ch))
	id = openGame(e, ch)
	threads := e.srv.Threads(ch)
	if len(threads) != before+1 {
		e.t.Fatalf("%d threads after the game's first notice, want %d", len(threads), before+1)
	}
	return id, threads[len(threads)-1].ID
}

// openGame starts a Gothic game between alice (white) and bob in channel ch through the
// service and delivers its first notice, "The game begins."; it returns the game's id.
func openGame(e *env, ch string) string {
	e.t.Helper()
	g, err := e.svc.CreateGame(e.ctx, bot.NewGame{Variant: "gothic",
		White: storage.Seat{ID: e.srv.User("alice").ID, Name: "Alice"}, Black: storage.Seat{ID: e.srv.User("bob").ID, Name: "Bob"},
		Place: bot.Place{Guild: e.srv.Guild().ID, Channel: ch}})
	if err != nil {
		e.t.Fatal(err)
	}
	notice(e, "open/"+g.ID, g.ID, bot.Place{Guild: e.srv.Guild().ID, Channel: ch}, "The game begins.")
	e.svc.Idle()
	return g.ID
}

// notice delivers a "your move" notice for bob about game id at place.
func notice(e *env, key, id string, place bot.Place, text string) {
	e.t.Helper()
	n := bot.Notification{Key: key, Kind: bot.NoticeTurn, Channel: true,
		To: bot.User{ID: e.srv.User("bob").ID, Name: "Bob"}, Game: &bot.GameRef{ID: id, Place: place},
		Reply: bot.Reply{Title: "Gothic: Alice vs Bob", Text: text}}
	if err := e.b.Notify(e.ctx, n); err != nil {
		e.t.Errorf("Notify %s: %v", key, err)
	}
}

// places returns every channel and thread of the server, once each.
func places(e *env) []string {
	var out []string
	for _, ch := range e.srv.Guild().Channels {
		for _, c := range append([]discordtest.Channel{ch}, e.srv.Threads(ch.ID)...) {
			if !slices.Contains(out, c.ID) {
				out = append(out, c.ID)
			}
		}
	}
	return out
}

// posted returns where the bot posted (not interaction answers) a message whose text
// has s, once per message.
func posted(e *env, s string) (where []string) {
	for _, c := range places(e) {
		for _, m := range e.srv.Messages(c) {
			if m.InteractionID == "" && !m.Deleted && strings.Contains(text(m), s) {
				where = append(where, c)
			}
		}
	}
	return where
}

// answersTo counts the bot's posts (not interaction answers) mentioning user whose
// text has s.
func answersTo(e *env, user, s string) int {
	id, n := e.srv.User(user).ID, 0
	for _, c := range places(e) {
		for _, m := range e.srv.Messages(c) {
			if m.InteractionID == "" && !m.Deleted && slices.Contains(m.Mentions, id) && strings.Contains(text(m), s) {
				n++
			}
		}
	}
	return n
}

func TestNoticeInArchivedThreadUnarchivesIt(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{Guilds: []discordtest.Guild{strictGuild()}})
	id, thread := serviceGame(e, "general")
	e.srv.ArchiveThread(thread, false)
	notice(e, "n1", id, bot.Place{Guild: e.srv.Guild().ID, Channel: e.srv.Channel("general").ID, Thread: thread}, "Your move after e4.")
	if where := posted(e, "Your move after e4."); len(where) != 1 || where[0] != thread {
		t.Errorf("notice posted in %v, want once in the archived thread %s", where, thread)
	}
	if len(e.srv.Threads("general")) != 1 {
		t.Errorf("a new thread was opened for an archived one: %+v", e.srv.Threads("general"))
	}
}

// lostThread checks that a notice for a game whose thread was lost (by lose) arrives
// exactly once in a new thread, which the service then knows as the game's.
func lostThread(t *testing.T, lose func(e *env, thread string), kind discord.FailureKind) {
	e := start(t, discord.Options{}, discordtest.Config{Guilds: []discordtest.Guild{strictGuild()}})
	id, thread := serviceGame(e, "general")
	lose(e, thread)
	general := e.srv.Channel("general").ID
	notice(e, "n1", id, bot.Place{Guild: e.srv.Guild().ID, Channel: general, Thread: thread}, "Your move after e4.")
	where := posted(e, "Your move after e4.")
	if len(where) != 1 || where[0] == thread || where[0] == general {
		t.Fatalf("notice posted in %v, want once in a new thread (old %s)", where, thread)
	}
	// A deleted thread costs no request once THREAD_DELETE has come (gone.go), one
	// refused post before.
	if n := e.b.Failures()[kind]; n != 1 && (kind != discord.FailUnknownChannel || n != 0) {
		t.Errorf("failures %v, want one %s", e.b.Failures(), kind)
	}
	// The service knows the new thread as the game's: a move there is the game's.
	mv := e.answer(e.srv.Command("alice", where[0], "move", discordtest.Opt{Name: "move", Value: "e4"}))
	if mv.Ephemeral {
		t.Errorf("move in the new thread refused: %q", text(mv))
	}
}

func TestNoticeInDeletedThreadOpensNewOne(t *testing.T) {
	lostThread(t, func(e *env, th string) { e.srv.DeleteChannel(th) }, discord.FailUnknownChannel)
}

// Where no new thread can be opened, the notice goes to the parent channel, once.
func TestNoticeFallsBackToChannel(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{Guilds: []discordtest.Guild{strictGuild()}})
	id, thread := serviceGame(e, "general")
	e.srv.DeleteChannel(thread)
	e.srv.SetMaxActiveThreads(1)
	serviceGame(e, "games") // the server's one active thread
	general := e.srv.Channel("general").ID
	notice(e, "n1", id, bot.Place{Guild: e.srv.Guild().ID, Channel: general, Thread: thread}, "Your move after e4.")
	if where := posted(e, "Your move after e4."); len(where) != 1 || where[0] != general {
		t.Errorf("notice posted in %v, want once in #general", where)
	}
	if f := e.b.Failures(); f[discord.FailThreadCap] != 1 || f[discord.FailUnknownChannel] > 1 {
		t.Errorf("failures %v, want one thread-cap and at most one unknown-channel (none after THREAD_DELETE)", f)
	}
}

func TestForumChannelGetsPosts(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{Guilds: []discordtest.Guild{strictGuild()}})
	forum := e.srv.Channel("forum").ID
	id, err := e.svc.CreateGame(e.ctx, bot.NewGame{Variant: "gothic",
		White: storage.Seat{ID: e.srv.User("alice").ID, Name: "Alice"}, Black: storage.Seat{ID: e.srv.User("bob").ID, Name: "Bob"},
		Place: bot.Place{Guild: e.srv.Guild().ID, Channel: forum}})
	if err != nil {
		t.Fatal(err)
	}
	notice(e, "n1", id.ID, bot.Place{Guild: e.srv.Guild().ID, Channel: forum}, "Your move after e4.")
	e.svc.Idle()
	posts := e.srv.Threads(forum)
	if len(posts) != 1 {
		t.Fatalf("%d posts in the forum, want 1", len(posts))
	}
	if where := posted(e, "Your move after e4."); len(where) != 1 || where[0] != posts[0].ID {
		t.Errorf("notice posted in %v, want once in the post %s", where, posts[0].ID)
	}
	mv := e.answer(e.srv.Command("alice", posts[0].ID, "move", discordtest.Opt{Name: "move", Value: "e4"}))
	if mv.Ephemeral {
		t.Errorf("move in the forum post refused: %q", text(mv))
	}
}

func TestChallengeRefusedWithoutPermissions(t *testing.T) {
	g := discordtest.DefaultGuild()
	for i := range g.Roles {
		g.Roles[i].Permissions &^= discordgo.PermissionAttachFiles | discordgo.PermissionEmbedLinks
	}
	e := start(t, discord.Options{}, discordtest.Config{Guilds: []discordtest.Guild{g}})
	m := e.answer(e.srv.Command("alice", "general", "challenge",
		discordtest.Opt{Name: "variant", Value: "gothic"}, discordtest.Opt{Name: "opponent", Value: "bob"}))
	if !m.Ephemeral || !strings.Contains(text(m), "Attach Files and Embed Links permissions") || len(m.Components) != 0 {
		t.Errorf("challenge without Attach Files and Embed Links: %q (ephemeral %v, %d rows)", text(m), m.Ephemeral, len(m.Components))
	}
	e.svc.Idle()
	if msgs := e.srv.Messages(e.srv.DMChannel("bob")); len(msgs) != 0 {
		t.Errorf("bob was told of a refused challenge: %q", text(msgs[0]))
	}
}

// Interactions from direct messages cost no request before the answer: the channel's
// kind comes with the interaction.
func TestNoChannelLookupBeforeAnswering(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	thread := gothicGame(e)
	e.answer(e.srv.Command("alice", e.srv.DMChannel("alice"), "rules", discordtest.Opt{Name: "variant", Value: "gothic"}))
	if _, err := e.srv.WaitCallback(e.ctx, e.srv.Autocomplete("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e"})); err != nil {
		t.Fatal(err)
	}
	if n := len(e.srv.RequestsTo("GET /channels/{channel_id}")); n != 0 {
		t.Errorf("%d channel lookups", n)
	}
}

const callbackRoute = "POST /interactions/{interaction_id}/{interaction_token}/callback"

// A lost answer is posted in the channel, once, mentioning the player.
func TestFailedAnswerPostedInChannel(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	thread := gothicGame(e)
	e.srv.FailNext(callbackRoute, discordtest.Failure{Status: 500, Message: "500: Internal Server Error"})
	e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e4"})
	m, err := e.srv.WaitMessage(e.ctx, thread, func(m *discordtest.Message) bool {
		return m.InteractionID == "" && strings.Contains(text(m), "e4")
	})
	if err != nil {
		t.Fatal(err)
	}
	if alice := e.srv.User("alice").ID; !strings.Contains(m.Content, alice) {
		t.Errorf("fallback answer does not mention alice: %q", m.Content)
	}
	e.svc.Idle()
	if n := answersTo(e, "alice", "e4"); n != 1 {
		t.Errorf("answer posted %d times", n)
	}
	if e.b.Failures()[discord.FailServer] != 1 {
		t.Errorf("failures %v", e.b.Failures())
	}
}

// A deferred answer whose edit fails is completed by a followup, once.
func TestFailedEditFollowsUp(t *testing.T) {
	e := start(t, discord.Options{DeferAfter: time.Nanosecond}, discordtest.Config{})
	thread := gothicGame(e)
	e.srv.FailNext("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original", discordtest.Failure{Status: 503, Message: "503: Service Unavailable"})
	in := e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e4"})
	m := e.answer(in)
	if !strings.Contains(text(m), "e4") || len(e.srv.Followups(in)) != 0 {
		t.Errorf("answer %q, %d followups", text(m), len(e.srv.Followups(in)))
	}
}

// When the interaction's token has expired, the answer is posted in the channel.
func TestExpiredTokenAnswerPostedInChannel(t *testing.T) {
	e := start(t, discord.Options{DeferAfter: time.Nanosecond}, discordtest.Config{InteractionTokenLifetime: time.Nanosecond})
	_, thread := serviceGame(e, "general")
	in := e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e4"})
	if _, err := e.srv.WaitMessage(e.ctx, thread, func(m *discordtest.Message) bool {
		return m.InteractionID == "" && strings.Contains(text(m), "e4")
	}); err != nil {
		t.Fatal(err)
	}
	e.svc.Idle()
	if m, ok := e.srv.Original(in); !ok || !m.Deferred {
		t.Errorf("original %+v", m)
	}
	if n := answersTo(e, "alice", "e4"); n != 1 {
		t.Errorf("answer posted %d times", n)
	}
	if e.b.Failures()[discord.FailInteractionExpired] != 2 {
		t.Errorf("failures %v, want the edit and the followup expired", e.b.Failures())
	}
}

// A notice that failed transiently (a 5xx, a dropped connection) is sent again when
// delivered again, and arrives once; one that arrived is not sent twice.
func TestNoticeRetriedAfterTransientFailure(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	id, thread := serviceGame(e, "general")
	place := bot.Place{Guild: e.srv.Guild().ID, Channel: e.srv.Channel("general").ID, Thread: thread}
	const route = "POST /channels/{channel_id}/messages"
	for i, f := range []discordtest.Failure{{Status: 500, Message: "500: Internal Server Error"}, {Drop: true}} {
		key, words := fmt.Sprint("n", i), fmt.Sprintf("Your move, try %d.", i)
		e.srv.FailNext(route, f)
		n := bot.Notification{Key: key, Kind: bot.NoticeTurn, Channel: true,
			To: bot.User{ID: e.srv.User("bob").ID, Name: "Bob"}, Game: &bot.GameRef{ID: id, Place: place},
			Reply: bot.Reply{Title: "Gothic: Alice vs Bob", Text: words}}
		err := e.b.Notify(e.ctx, n)
		if err == nil || !discord.Transient(err) {
			t.Fatalf("notice %d with %+v: error %v, want a transient one", i, f, err)
		}
		for range 2 {
			if err := e.b.Notify(e.ctx, n); err != nil {
				t.Errorf("notice %d again: %v", i, err)
			}
		}
		if where := posted(e, words); len(where) != 1 || where[0] != thread {
			t.Errorf("notice %d posted in %v, want once in the thread", i, where)
		}
	}
	if f := e.b.Failures(); f[discord.FailServer] != 1 || f[discord.FailNetwork] != 1 {
		t.Errorf("failures %v", f)
	}
}

// Under Discord's rate limits every notice arrives, once.
func TestNoticesUnderRateLimits(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	id, thread := serviceGame(e, "general")
	place := bot.Place{Guild: e.srv.Guild().ID, Channel: e.srv.Channel("general").ID, Thread: thread}
	e.srv.SetRateLimit("POST /channels/{channel_id}/messages", discordtest.RateLimit{Limit: 2, Window: 200 * time.Millisecond})
	for i := range 6 {
		notice(e, fmt.Sprint("n", i), id, place, fmt.Sprintf("Notice %d.", i))
	}
	for i := range 6 {
		if where := posted(e, fmt.Sprintf("Notice %d.", i)); len(where) != 1 {
			t.Errorf("notice %d posted in %v", i, where)
		}
	}
}

// A transient failure to open a game's thread is not remembered: a later notice opens
// it.
func TestThreadOpenedAfterTransientFailure(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	general := e.srv.Channel("general").ID
	// The game's first notice (the service's) meets a 503 opening the thread.
	e.srv.FailNextN("POST /channels/{channel_id}/threads", 1, discordtest.Failure{Status: 503, Message: "503: Service Unavailable"})
	g, err := e.svc.CreateGame(e.ctx, bot.NewGame{Variant: "gothic",
		White: storage.Seat{ID: e.srv.User("alice").ID, Name: "Alice"}, Black: storage.Seat{ID: e.srv.User("bob").ID, Name: "Bob"},
		Place: bot.Place{Guild: e.srv.Guild().ID, Channel: general}})
	if err != nil {
		t.Fatal(err)
	}
	e.svc.Idle()
	// Its next notice (or this one) opens it.
	notice(e, "n2", g.ID, bot.Place{Guild: e.srv.Guild().ID, Channel: general}, "Second notice.")
	threads := e.srv.Threads(general)
	if where := posted(e, "Second notice."); len(threads) != 1 || len(where) != 1 || where[0] != threads[0].ID {
		t.Errorf("second notice in %v, threads %+v", where, threads)
	}
}

// Notify's errors keep bot.Notifier's contract: a rate limit is a *bot.RetryAfter with
// Discord's wait, a failure no retry can fix is bot.ErrPermanent, and each names its
// kind.
func TestNotifyErrorContract(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{Guilds: []discordtest.Guild{strictGuild()}})
	general, forum := e.srv.Channel("general").ID, e.srv.Channel("forum").ID
	n := func(id, channel string) bot.Notification {
		return bot.Notification{ID: id, Key: "k" + id, Kind: bot.NoticeInfo, Channel: true, To: bot.User{ID: e.srv.User("bob").ID, Name: "Bob"},
			Game: &bot.GameRef{Place: bot.Place{Guild: e.srv.Guild().ID, Channel: channel}}, Reply: bot.Reply{Text: "News " + id}}
	}
	e.srv.FailNext("POST /channels/{channel_id}/messages", discordtest.Failure{RetryAfter: 1500 * time.Millisecond})
	err := e.b.Notify(e.ctx, n("1", general))
	var ra *bot.RetryAfter
	var fr bot.FailureReason
	if !errors.As(err, &ra) || ra.Wait != 1500*time.Millisecond || errors.Is(err, bot.ErrPermanent) || !errors.As(err, &fr) || fr.FailureReason() != string(discord.FailRateLimited) {
		t.Errorf("rate-limited notice: %v", err)
	}
	if err := e.b.Notify(e.ctx, n("1", general)); err != nil || len(posted(e, "News 1")) != 1 {
		t.Errorf("retry: %v, posted in %v", err, posted(e, "News 1"))
	}
	err = e.b.Notify(e.ctx, n("2", forum))
	if !errors.Is(err, bot.ErrPermanent) || !errors.As(err, &fr) || fr.FailureReason() != string(discord.FailForumChannel) {
		t.Errorf("notice for a forum channel itself: %v", err)
	}
	e.srv.FailNext("POST /channels/{channel_id}/messages", discordtest.Failure{Status: 503, Message: "503: Service Unavailable"})
	err = e.b.Notify(e.ctx, n("3", general))
	if err == nil || errors.Is(err, bot.ErrPermanent) || !errors.As(err, &fr) || fr.FailureReason() != string(discord.FailServer) {
		t.Errorf("notice meeting a 503: %v", err)
	}
}
