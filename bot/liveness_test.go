package bot_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
)

// outageNotes returns the users told that an outage did not count, sorted (each
// player's notice comes in their own direct messages, queues delivered in parallel).
func outageNotes(ns []bot.Notification) []string {
	var out []string
	for _, n := range ns {
		if n.Kind == bot.NoticeInfo && strings.Contains(n.Reply.Text, "does not count") {
			out = append(out, n.To.ID)
		}
	}
	slices.Sort(out)
	return out
}

// Two days of downtime cost no one the game: the deadline moves on by the outage,
// both players are told, and the clock then runs out as usual.
func TestOutageRestartExtendsClocks(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "days:1")
	h.Resume()
	before := h.Game(id).Clock
	h.Restart()
	h.Clock.Advance(2 * bottest.Day)
	h.Resume()
	h.Tick()
	g := h.Game(id)
	if !g.Active() {
		t.Fatalf("the game ended during the bot's outage: %v", g.Outcome)
	}
	if want := before.Deadline.Add(2 * bottest.Day); !g.Clock.Deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v (moved by the outage)", g.Clock.Deadline, want)
	}
	if want := before.Wake.Add(2 * bottest.Day); !g.Clock.Wake.Equal(want) {
		t.Fatalf("reminder wake-up %v, want %v", g.Clock.Wake, want)
	}
	ns := h.Notes.Take()
	if got := outageNotes(ns); !slices.Equal(got, []string{"alice", "bob"}) {
		t.Fatalf("told about the outage: %v (notes %+v)", got, ns)
	}
	if !strings.Contains(ns[0].Reply.Text, "2d 0h") || !strings.Contains(ns[0].Reply.Text, words.Time(g.Clock.Deadline)) {
		t.Errorf("outage notice %q does not give the outage and the new deadline", ns[0].Reply.Text)
	}
	// Restarting again at once changes nothing more.
	h.Restart()
	h.Resume()
	if d := h.Game(id).Clock.Deadline; !d.Equal(g.Clock.Deadline) {
		t.Fatalf("a second start moved the deadline again to %v", d)
	}
	h.Clock.Advance(bottest.Day)
	h.Tick()
	if got := h.Game(id).Outcome; got != rules.Win(rules.Black, rules.Timeout) {
		t.Fatalf("after the extended deadline the outcome is %v", got)
	}
}

// A restart shorter than the grace changes no clock and tells no one.
func TestOutageShortRestartChangesNothing(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "days:1")
	h.Resume()
	before := h.Game(id).Clock
	h.Restart()
	h.Clock.Advance(bot.OutageGrace - time.Minute)
	h.Resume()
	h.Tick()
	if got := h.Game(id).Clock; !got.Deadline.Equal(before.Deadline) || !got.Wake.Equal(before.Wake) {
		t.Fatalf("clock %+v, want %+v unchanged", got, before)
	}
	if ns := h.Notes.Take(); len(ns) != 0 {
		t.Fatalf("a short restart told %+v", ns)
	}
}

// While the gateway is down no one times out; after it comes back the outage is
// given back; a game already out of time before the outage still ends on time.
func TestOutageGateway(t *testing.T) {
	h := bottest.New(t)
	late := h.Start("gothic", "days:1")
	h.Clock.Advance(12 * time.Hour)
	id := h.Start("gothic", "days:1")
	h.Resume()
	h.Clock.Advance(13 * time.Hour) // late's deadline passed an hour ago, unseen
	h.Svc.GatewayDown(h.Clock.Now())
	if h.Svc.Connected() {
		t.Fatal("Connected after GatewayDown")
	}
	before := h.Game(id).Clock.Deadline
	h.Clock.Advance(2 * bottest.Day)
	h.Tick()
	if !h.Game(id).Active() || !h.Game(late).Active() {
		t.Fatal("a game timed out while the gateway was down")
	}
	if ns := h.Notes.Take(); len(ns) != 0 {
		t.Fatalf("notices while the gateway was down: %+v", ns)
	}
	h.Svc.GatewayUp(h.Clock.Now())
	h.Svc.Idle()
	if !h.Svc.Connected() {
		t.Fatal("not Connected after GatewayUp")
	}
	if want := before.Add(2 * bottest.Day); !h.Game(id).Clock.Deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v", h.Game(id).Clock.Deadline, want)
	}
	if got := outageNotes(h.Notes.Take()); !slices.Equal(got, []string{"alice", "bob"}) {
		t.Fatalf("told about the outage: %v", got)
	}
	h.Tick()
	if !h.Game(id).Active() {
		t.Fatalf("the extended game ended: %v", h.Game(id).Outcome)
	}
	if got := h.Game(late).Outcome; got != rules.Win(rules.Black, rules.Timeout) {
		t.Fatalf("the game out of time before the outage: %v, want a loss on time", got)
	}
	// A disconnection shorter than the grace gives nothing back.
	d := h.Game(id).Clock.Deadline
	h.Svc.GatewayDown(h.Clock.Now())
	h.Clock.Advance(bot.OutageGrace - time.Minute)
	h.Svc.GatewayUp(h.Clock.Now())
	h.Svc.Idle()
	if got := h.Game(id).Clock.Deadline; !got.Equal(d) {
		t.Fatalf("a short disconnection moved the deadline to %v", got)
	}
}

// Run gives the outage back before its first pass looks at deadlines, and records
// heartbeats while it runs.
func TestOutageRun(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "days:1")
	h.Resume()
	h.Restart()
	h.Clock.Advance(3 * bottest.Day)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Svc.Run(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for len(outageNotes(h.Notes.Take())) == 0 {
		if time.Now().After(deadline) {
			cancel()
			t.Fatal("Run did not give the outage back")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	h.Svc.Idle()
	if g := h.Game(id); !g.Active() {
		t.Fatalf("Run timed the game out after an outage: %v", g.Outcome)
	}
}
