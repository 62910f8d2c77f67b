package discord_test

import (
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
	"github.com/missivechess/missive/storage"
)

// notifyWithin delivers n and fails the test when Notify takes longer than limit, as
// it would if it waited out Discord's thread-creation limit. limit is a tenth of the
// limit's window or more, so that only waiting out the window reaches it, never a
// busy machine.
func notifyWithin(e *env, n bot.Notification, limit time.Duration) error {
	e.t.Helper()
	done := make(chan error, 1)
	go func() { done <- e.b.Notify(e.ctx, n) }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		e.t.Fatalf("notice %s still being sent after %v: it waits out a rate limit", n.Key, limit)
		return nil
	}
}

// A notice whose game needs a thread while Discord's thread-creation limit is spent is
// answered at once with a *bot.RetryAfter carrying the wait, whether discordgo would have
// waited before the request (its bucket is empty: the same channel) or after it (a 429:
// another channel of the server); nothing is posted for it meanwhile, and other notices
// go out.
func TestThreadCreationLimitIsRetryAfter(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	const window = 10 * time.Minute
	e.srv.SetThreadCreateLimit(discordtest.RateLimit{Limit: 1, Window: window})
	guild := e.srv.Guild().ID
	general, games := e.srv.Channel("general").ID, e.srv.Channel("games").ID
	bob := bot.User{ID: e.srv.User("bob").ID, Name: "Bob"}
	n := func(key, game, channel, words string) bot.Notification {
		return bot.Notification{ID: key, Key: key, Kind: bot.NoticeTurn, Channel: true, To: bob,
			Game:  &bot.GameRef{ID: game, Place: bot.Place{Guild: guild, Channel: channel}},
			Reply: bot.Reply{Title: "Gothic: Alice vs Bob", Text: words}}
	}
	if err := notifyWithin(e, n("a", "ga", general, "Game A begins."), window/10); err != nil {
		t.Fatalf("first game's notice: %v", err)
	}
	for _, c := range []struct{ key, game, channel, words string }{
		{"b", "gb", general, "Game B begins."}, // discordgo's bucket for general's threads is empty
		{"c", "gc", games, "Game C begins."},   // a 429 from Discord
	} {
		err := notifyWithin(e, n(c.key, c.game, c.channel, c.words), window/10) // not the window's wait
		var ra *bot.RetryAfter
		var fr bot.FailureReason
		if !errors.As(err, &ra) || ra.Wait < window-time.Minute || ra.Wait > window || errors.Is(err, bot.ErrPermanent) ||
			!errors.As(err, &fr) || fr.FailureReason() != string(discord.FailRateLimited) {
			t.Errorf("notice %s: %v, want a *bot.RetryAfter of about %v", c.key, err, window)
		}
		if where := posted(e, c.words); len(where) != 0 {
			t.Errorf("notice %s posted in %v while its thread waits", c.key, where)
		}
	}
	// An unrelated notice (a direct message) goes out meanwhile.
	dm := bot.Notification{ID: "d", Key: "d", Kind: bot.NoticeInfo, Direct: true, To: bob, Reply: bot.Reply{Text: "Unrelated news."}}
	if err := notifyWithin(e, dm, window/10); err != nil {
		t.Errorf("unrelated notice: %v", err)
	}
	if ms := e.srv.Messages(e.srv.DMChannel(bob.ID)); len(ms) != 1 || text(ms[0]) == "" {
		t.Errorf("bob's direct messages: %d", len(ms))
	}
	if where := posted(e, "Game A begins."); len(where) != 1 || len(e.srv.Threads(general)) != 1 || where[0] != e.srv.Threads(general)[0].ID {
		t.Errorf("game A's notice in %v, threads %+v", where, e.srv.Threads(general))
	}
}

// heldTimers is an outbox timer (bot.OutboxOptions.After) that holds every wait
// until the test lifts it; from then on the waits are the clock's.
type heldTimers struct {
	mu     sync.Mutex
	lifted bool
	held   []chan time.Time
}

func (h *heldTimers) After(d time.Duration) <-chan time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lifted {
		return time.After(d)
	}
	c := make(chan time.Time, 1)
	h.held = append(h.held, c)
	return c
}

// waiting reports how many waits are held.
func (h *heldTimers) waiting() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.held)
}

// lift ends the held waits and hands later ones to the clock.
func (h *heldTimers) lift() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lifted = true
	for _, c := range h.held {
		c <- time.Now()
	}
	h.held = nil
}

// Through the outbox, with a single worker: a game whose thread waits for Discord's
// thread-creation limit holds no worker, so a notice for another place (here a game
// played by direct messages) goes out while it waits; the waiting game's first
// notice arrives in its thread once the limit allows, and every notice arrives
// exactly once, none of them in the channels. The outbox's wait is held (heldTimers)
// until the direct notice is delivered, however long a busy machine takes to get
// there: were the worker held while the thread waits, the direct notice would not go
// out before the test's generous deadline.
func TestThreadCreationLimitHoldsNoWorker(t *testing.T) {
	srv := discordtest.New(t, discordtest.Config{})
	timers := &heldTimers{}
	e := startTuned(t, srv, discord.Options{}, nil, filepath.Join(t.TempDir(), "bot.db"), nil, func(c *bot.Config) {
		c.Outbox = bot.OutboxOptions{Workers: 1, MinBackoff: 50 * time.Millisecond, After: timers.After}
	})
	t.Cleanup(timers.lift)    // lets a failed test's process stop with nothing held
	serviceGame(e, "general") // alice and bob's game, its thread open
	const window = 2 * time.Second
	e.srv.SetThreadCreateLimit(discordtest.RateLimit{Limit: 1, Window: window})
	guild := e.srv.Guild().ID
	general, games := e.srv.Channel("general").ID, e.srv.Channel("games").ID
	create := func(place bot.Place, white, black string) {
		t.Helper()
		if _, err := e.svc.CreateGame(e.ctx, bot.NewGame{Variant: "gothic",
			White: storage.Seat{ID: e.srv.User(white).ID, Name: white}, Black: storage.Seat{ID: e.srv.User(black).ID, Name: black},
			Place: place}); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Now()
	create(bot.Place{Guild: guild, Channel: games}, "carol", "dave") // takes the one thread of the window
	if err := e.srv.Wait(e.ctx, func() bool { return len(e.srv.Threads(games)) == 1 }); err != nil {
		t.Fatal(err) // (the outbox serves the two games' places in no set order)
	}
	create(bot.Place{Guild: guild, Channel: general}, "carol", "alice") // meets a 429 opening its thread
	if err := e.srv.Wait(e.ctx, func() bool { return e.srv.RateLimited() > 0 }); err != nil {
		t.Fatal(err)
	}
	for timers.waiting() == 0 { // the waiting game's notice told to retry after the limit
		if e.ctx.Err() != nil {
			t.Fatal("the rate-limited notice is not waiting to be retried")
		}
		time.Sleep(time.Millisecond)
	}
	// A game played by direct messages needs no thread: its notice does not wait.
	// e.ctx bounds the wait generously (a minute from the start): only a notice stuck
	// behind the waiting thread reaches it.
	dms := func() int { return len(e.srv.Messages(e.srv.DMChannel(e.srv.User("carol").ID))) }
	before := dms()
	t1 := time.Now()
	create(bot.Place{Channel: e.srv.DMChannel("carol")}, "carol", "bob") // a game begun in carol's direct messages
	if err := e.srv.Wait(e.ctx, func() bool { return dms() > before }); err != nil {
		t.Fatalf("a direct notice not delivered while another game's thread waits for the limit: %v", err)
	}
	t.Logf("the unrelated notice %v after its game was created", time.Since(t1))
	if ths := e.srv.Threads(general); len(ths) != 1 {
		t.Fatalf("the waiting game's thread opened before the unrelated notice went out: %+v", ths)
	}
	timers.lift()
	e.svc.Idle()
	late := time.Since(t0)
	if n := len(e.srv.Threads(games)); n != 1 {
		t.Errorf("%d threads in #games, want 1", n)
	}
	ths := e.srv.Threads(general)
	if len(ths) != 2 || len(e.srv.Messages(ths[1].ID)) == 0 { // alice and bob's, then the waiting game's
		t.Fatalf("the waiting game's thread: %+v", ths)
	}
	if late < window-500*time.Millisecond {
		t.Errorf("the waiting game's notice arrived after %v, before the limit's window of %v", late, window)
	}
	t.Logf("the waiting game's first notice %v after it was created", late)
	for _, ch := range []string{general, games} {
		for _, m := range e.srv.Messages(ch) {
			if m.Type == discordgo.MessageTypeDefault && m.InteractionID == "" {
				t.Errorf("posted in the channel while its thread waited: %q", text(m))
			}
		}
	}
	byNonce, _ := botPosts(e)
	for nonce, ms := range byNonce {
		if len(ms) != 1 {
			t.Errorf("notice %s posted %d times", nonce, len(ms))
		}
	}
}
