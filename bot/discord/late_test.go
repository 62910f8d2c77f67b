package discord_test

import (
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
)

// A notice resent long after it was queued, when Discord no longer checks its nonce,
// is shown once: the bot finds its earlier delivery among the channel's messages. A
// late notice never delivered before is still posted.
func TestLateResendShownOnce(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	id, thread := serviceGame(e, "general")
	place := bot.Place{Guild: e.srv.Guild().ID, Channel: e.srv.Channel("general").ID, Thread: thread}
	late := func(nid, s string) {
		t.Helper()
		n := bot.Notification{ID: nid, Queued: time.Now().Add(-time.Hour), Kind: bot.NoticeTurn, Channel: true,
			To: bot.User{ID: e.srv.User("bob").ID, Name: "Bob"}, Game: &bot.GameRef{ID: id, Place: place},
			Reply: bot.Reply{Title: "Gothic: Alice vs Bob", Text: s}}
		if err := e.b.Notify(e.ctx, n); err != nil {
			t.Errorf("Notify %s: %v", nid, err)
		}
	}
	late("q1", "Your move after e4.")     // delivered, its answer (say) lost
	e.srv.SetNonceWindow(time.Nanosecond) // an hour on, Discord has forgotten the nonce
	late("q1", "Your move after e4.")     // the outbox's late retry
	if where := posted(e, "Your move after e4."); len(where) != 1 {
		t.Errorf("the late resend was shown %d times, want once", len(where))
	}
	late("q2", "Your move after e5.")
	if where := posted(e, "Your move after e5."); len(where) != 1 {
		t.Errorf("a late notice never delivered was shown %d times, want once", len(where))
	}
}
