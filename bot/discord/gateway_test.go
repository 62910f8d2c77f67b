package discord_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
)

// waitFor polls cond every millisecond for up to d.
func waitFor(d time.Duration, cond func() bool) bool {
	end := time.Now().Add(d)
	for !cond() {
		if time.Now().After(end) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

// The service hears of a dropped gateway connection (its clocks are held) and of
// the connection coming back.
func TestGatewayStateReported(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	if !waitFor(5*time.Second, e.svc.Connected) {
		t.Fatal("the service never heard that the gateway is connected")
	}
	// An outage, not a blip: discordgo reconnects at once, and a drop healed
	// within a millisecond may rightly go unreported.
	if e.srv.Outage(true) != 1 {
		t.Fatal("no gateway connection to drop")
	}
	if !waitFor(5*time.Second, func() bool { return !e.svc.Connected() }) {
		t.Fatal("the service never heard that the gateway was lost")
	}
	e.srv.Outage(false)
	if !waitFor(10*time.Second, e.svc.Connected) {
		t.Fatal("the service never heard that the gateway is back")
	}
}

// Shutdown waits for an interaction in flight to be answered, asks one arriving
// meanwhile to try again, and then disconnects.
func TestShutdownFinishesInteractionsInFlight(t *testing.T) {
	e := start(t, discord.Options{DeferAfter: time.Minute}, discordtest.Config{})
	thread := gothicGame(e)
	route := "POST /interactions/{interaction_id}/{interaction_token}/callback"
	e.srv.SetLatency(route, 1500*time.Millisecond) // longer than discordgo's one-second Close, well inside Discord's 3 s
	in := e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e4"})
	if !waitFor(5*time.Second, func() bool { return e.svc.Connected() }) {
		t.Fatal("not connected")
	}
	time.Sleep(100 * time.Millisecond) // the move is being answered
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		done <- e.b.Shutdown(ctx)
	}()
	time.Sleep(50 * time.Millisecond)
	late := e.srv.Command("bob", thread, "move", discordtest.Opt{Name: "move", Value: "e5"})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	m, ok := e.srv.Original(in)
	if !ok || m.Deferred || !strings.Contains(text(m), "e4") {
		t.Fatalf("Shutdown returned before the move in flight was answered: %v %+v", ok, m)
	}
	e.srv.SetLatency(route, 0)
	lm := e.answer(late)
	if !lm.Ephemeral || !strings.Contains(text(lm), "Missive startet gerade neu") { // bob's client is German
		t.Fatalf("an interaction during shutdown got %q", text(lm))
	}
	if cbs := e.srv.Callbacks(late); len(cbs) != 1 || cbs[0].Type != discordgo.InteractionResponseChannelMessageWithSource {
		t.Fatalf("callbacks to the late interaction: %+v", cbs)
	}
}

// When the server has Discord's maximum of active threads (160006) a new game is
// played in the channel, which is told why once; its next post opens its thread.
func TestThreadCapFallsBackToChannel(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	e.srv.FailNext("POST /channels/{channel_id}/threads", discordtest.Failure{Status: 400, Code: 160006, Message: "Maximum number of active threads reached"})
	ch := e.answer(e.srv.Command("alice", "general", "challenge", discordtest.Opt{Name: "variant", Value: "gothic"},
		discordtest.Opt{Name: "opponent", Value: "bob"}, discordtest.Opt{Name: "color", Value: "white"}))
	if acc := e.answer(e.srv.Click("bob", ch.ID, buttonID(t, ch, "Accept"))); acc.Ephemeral {
		t.Fatalf("accept refused: %q", text(acc))
	}
	ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
	defer cancel()
	said := 0
	if err := e.srv.Wait(ctx, func() bool {
		said = 0
		for _, m := range e.srv.Messages("general") {
			if strings.Contains(m.Content, "limit of active threads") {
				said++
			}
		}
		return said > 0
	}); err != nil || said != 1 {
		t.Fatalf("the channel was told %d times that threads are full (%v)", said, err)
	}
	if n := len(e.srv.Threads(e.srv.Channel("general").ID)); n != 0 {
		t.Fatalf("%d threads despite the cap", n)
	}
	// A move made elsewhere notifies bob in the game's place, which opens its thread.
	if m := e.answer(e.srv.Command("alice", "games", "move", discordtest.Opt{Name: "move", Value: "e4"}, discordtest.Opt{Name: "game", Value: "1"})); m.Ephemeral {
		t.Fatalf("move refused: %q", text(m))
	}
	e.svc.Idle()
	if err := e.srv.Wait(ctx, func() bool {
		for _, th := range e.srv.Threads(e.srv.Channel("general").ID) {
			if strings.HasPrefix(th.Name, "Game 1") && len(e.srv.Messages(th.ID)) > 0 {
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatalf("the game got no thread with its next post: %v", err)
	}
}
