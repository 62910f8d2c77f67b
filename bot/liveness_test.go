package bot

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
)

// resume runs the step Run takes before its first pass: give an outage back.
func (h *harness) resume() {
	h.t.Helper()
	if err := h.svc.Resume(h.t.Context(), h.clock.Now()); err != nil {
		h.t.Fatal(err)
	}
	h.svc.Idle()
}

// outageNotes returns the users told that an outage did not count, in order.
func outageNotes(ns []Notification) []string {
	var out []string
	for _, n := range ns {
		if n.Kind == NoticeInfo && strings.Contains(n.Reply.Text, "does not count") {
			out = append(out, n.To.ID)
		}
	}
	return out
}

// Two days of downtime cost no one the game: the deadline moves on by the outage,
// both players are told, and the clock then runs out as usual.
func TestOutageRestartExtendsClocks(t *testing.T) {
	h := newHarness(t)
	id := h.start("gothic", "days:1")
	h.resume()
	before := h.game(id).Clock
	h.restart()
	h.clock.Advance(2 * day)
	h.resume()
	h.tick()
	g := h.game(id)
	if !g.Active() {
		t.Fatalf("the game ended during the bot's outage: %v", g.Outcome)
	}
	if want := before.Deadline.Add(2 * day); !g.Clock.Deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v (moved by the outage)", g.Clock.Deadline, want)
	}
	if want := before.Wake.Add(2 * day); !g.Clock.Wake.Equal(want) {
		t.Fatalf("reminder wake-up %v, want %v", g.Clock.Wake, want)
	}
	ns := h.notes.take()
	if got := outageNotes(ns); !slices.Equal(got, []string{"alice", "bob"}) {
		t.Fatalf("told about the outage: %v (notes %+v)", got, ns)
	}
	if !strings.Contains(ns[0].Reply.Text, "2d 0h") || !strings.Contains(ns[0].Reply.Text, words.Time(g.Clock.Deadline)) {
		t.Errorf("outage notice %q does not give the outage and the new deadline", ns[0].Reply.Text)
	}
	// Restarting again at once changes nothing more.
	h.restart()
	h.resume()
	if d := h.game(id).Clock.Deadline; !d.Equal(g.Clock.Deadline) {
		t.Fatalf("a second start moved the deadline again to %v", d)
	}
	h.clock.Advance(day)
	h.tick()
	if got := h.game(id).Outcome; got != rules.Win(rules.Black, rules.Timeout) {
		t.Fatalf("after the extended deadline the outcome is %v", got)
	}
}

// A restart shorter than the grace changes no clock and tells no one.
func TestOutageShortRestartChangesNothing(t *testing.T) {
	h := newHarness(t)
	id := h.start("gothic", "days:1")
	h.resume()
	before := h.game(id).Clock
	h.restart()
	h.clock.Advance(OutageGrace - time.Minute)
	h.resume()
	h.tick()
	if got := h.game(id).Clock; !got.Deadline.Equal(before.Deadline) || !got.Wake.Equal(before.Wake) {
		t.Fatalf("clock %+v, want %+v unchanged", got, before)
	}
	if ns := h.notes.take(); len(ns) != 0 {
		t.Fatalf("a short restart told %+v", ns)
	}
}

// While the gateway is down no one times out; after it comes back the outage is
// given back; a game already out of time before the outage still ends on time.
func TestOutageGateway(t *testing.T) {
	h := newHarness(t)
	late := h.start("gothic", "days:1")
	h.clock.Advance(12 * time.Hour)
	id := h.start("gothic", "days:1")
	h.resume()
	h.clock.Advance(13 * time.Hour) // late's deadline passed an hour ago, unseen
	h.svc.GatewayDown(h.clock.Now())
	if h.svc.Connected() {
		t.Fatal("Connected after GatewayDown")
	}
	before := h.game(id).Clock.Deadline
	h.clock.Advance(2 * day)
	h.tick()
	if !h.game(id).Active() || !h.game(late).Active() {
		t.Fatal("a game timed out while the gateway was down")
	}
	if ns := h.notes.take(); len(ns) != 0 {
		t.Fatalf("notices while the gateway was down: %+v", ns)
	}
	h.svc.GatewayUp(h.clock.Now())
	h.svc.Idle()
	if !h.svc.Connected() {
		t.Fatal("not Connected after GatewayUp")
	}
	if want := before.Add(2 * day); !h.game(id).Clock.Deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v", h.game(id).Clock.Deadline, want)
	}
	if got := outageNotes(h.notes.take()); !slices.Equal(got, []string{"alice", "bob"}) {
		t.Fatalf("told about the outage: %v", got)
	}
	h.tick()
	if !h.game(id).Active() {
		t.Fatalf("the extended game ended: %v", h.game(id).Outcome)
	}
	if got := h.game(late).Outcome; got != rules.Win(rules.Black, rules.Timeout) {
		t.Fatalf("the game out of time before the outage: %v, want a loss on time", got)
	}
	// A disconnection shorter than the grace gives nothing back.
	d := h.game(id).Clock.Deadline
	h.svc.GatewayDown(h.clock.Now())
	h.clock.Advance(OutageGrace - time.Minute)
	h.svc.GatewayUp(h.clock.Now())
	h.svc.Idle()
	if got := h.game(id).Clock.Deadline; !got.Equal(d) {
		t.Fatalf("a short disconnection moved the deadline to %v", got)
	}
}

// Run gives the outage back before its first pass looks at deadlines, and records
// heartbeats while it runs.
func TestOutageRun(t *testing.T) {
	h := newHarness(t)
	id := h.start("gothic", "days:1")
	h.resume()
	h.restart()
	h.clock.Advance(3 * day)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.svc.Run(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for len(outageNotes(h.notes.take())) == 0 {
		if time.Now().After(deadline) {
			cancel()
			t.Fatal("Run did not give the outage back")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	h.svc.Idle()
	if g := h.game(id); !g.Active() {
		t.Fatalf("Run timed the game out after an outage: %v", g.Outcome)
	}
}

// Every game's /rules card states the fair-clock rule with the grace in force.
func TestOutageRuleOnCards(t *testing.T) {
	h := newHarness(t)
	if OutageGrace != 5*time.Minute || !strings.Contains(outageRule, "more than 5 minutes") {
		t.Fatalf("the card's rule %q does not match OutageGrace %v", outageRule, OutageGrace)
	}
	for _, v := range []string{"gothic", "keltic", "gochess", "gess"} {
		r := h.ok("alice", "rules variant:"+v)
		found := false
		for _, f := range r.Fields {
			found = found || strings.Contains(f.Value, outageRule)
		}
		if !found {
			t.Errorf("the %s card lacks the fair-clock rule: %+v", v, r.Fields)
		}
	}
}
