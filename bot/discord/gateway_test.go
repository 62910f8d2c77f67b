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
	if e.srv.Disconnect() != 1 {
		t.Fatal("no gateway connection to drop")
	}
	if !waitFor(5*time.Second, func() bool { return !e.svc.Connected() }) {
		t.Fatal("the service never heard that the gateway was lost")
	}
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
	e.srv.SetLatency(route, 2*time.Second) // longer than discordgo's one-second Close
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
	if !lm.Ephemeral || !strings.Contains(text(lm), "restarting") {
		t.Fatalf("an interaction during shutdown got %q", text(lm))
	}
	if cbs := e.srv.Callbacks(late); len(cbs) != 1 || cbs[0].Type != discordgo.InteractionResponseChannelMessageWithSource {
		t.Fatalf("callbacks to the late interaction: %+v", cbs)
	}
}
