package bot

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
)

// tick runs one scheduler pass at the harness's time and waits for its notifications.
func (h *harness) tick() {
	h.t.Helper()
	if _, err := h.svc.Tick(h.t.Context()); err != nil {
		h.t.Fatal(err)
	}
	h.svc.Idle()
}

// The deadline moves with each move; a player out of time loses, and both hear it.
func TestTimeout(t *testing.T) {
	for _, variant := range []string{"gothic", "keltic", "gess"} {
		t.Run(variant, func(t *testing.T) {
			h := newHarness(t)
			id := h.start(variant, "days:2")
			first, second := "alice", "bob"
			if variant == "gess" {
				first, second = "bob", "alice"
			}
			start := h.clock.Now()
			if d := h.game(id).Clock.Deadline; !d.Equal(start.Add(2 * day)) {
				t.Fatalf("first deadline %v", d)
			}
			h.clock.Advance(36 * time.Hour)
			g := h.game(id)
			move := g.Position.UCI(g.Position.LegalMoves()[0])
			h.ok(first, "move move:"+move)
			if d := h.game(id).Clock.Deadline; !d.Equal(h.clock.Now().Add(2 * day)) {
				t.Fatalf("deadline after the move %v, want two days from %v", d, h.clock.Now())
			}
			h.clock.Advance(2*day - time.Minute)
			h.tick()
			if !h.game(id).Active() {
				t.Fatal("lost on time a minute early")
			}
			h.notes.take()
			h.clock.Advance(time.Minute)
			h.tick()
			g = h.game(id)
			winner := rules.White
			if variant == "gess" {
				winner = rules.Black // Black moved first, so White ran out of time
			}
			if g.Outcome != rules.Win(winner, rules.Timeout) {
				t.Fatalf("outcome %v", g.Outcome)
			}
			ns := h.notes.take()
			for _, u := range []string{first, second} {
				if got := notesFor(ns, u); !slices.Equal(got, []NoticeKind{NoticeGameOver}) {
					t.Errorf("%s was told %v", u, got)
				}
			}
			if !strings.Contains(ns[0].Reply.Text, second+" ("+winner.Other().String()+") ran out of time") {
				t.Errorf("timeout text: %s", ns[0].Reply.Text)
			}
			h.tick()
			if len(h.notes.take()) != 0 {
				t.Error("the timeout was announced twice")
			}
		})
	}
}

// Out of time against a side that could not possibly mate is a draw; against one
// that could, a loss.
func TestTimeoutInsufficientMaterial(t *testing.T) {
	for _, tc := range []struct {
		variant, fen string
		want         rules.Outcome
	}{
		// Black (K+R) to move runs out; White has only K+N: draw.
		{"gothic", "k9/1r8/10/10/10/10/10/KN8 b - - 0 1", rules.Draw(rules.TimeoutDraw)},
		// White (K+N) to move runs out; Black has a rook: Black wins.
		{"gothic", "k9/1r8/10/10/10/10/10/KN8 w - - 0 1", rules.Win(rules.Black, rules.Timeout)},
		{"gothic", "k9/1r8/10/10/10/10/10/KNN7 b - - 0 1", rules.Draw(rules.TimeoutDraw)},
		{"gothic", "k9/1r8/10/10/10/10/10/KBN7 b - - 0 1", rules.Win(rules.White, rules.Timeout)},
		{"gothic", "k9/1r8/10/10/10/10/P9/K9 b - - 0 1", rules.Win(rules.White, rules.Timeout)},
		// Keltic: a lone bishop mates.
		{"keltic", "***k2***/**r4**/9/9/9/**5**/***BK1*** b - - 0 1", rules.Win(rules.White, rules.Timeout)},
		{"keltic", "***k2***/**r4**/9/9/9/**5**/***NK1*** b - - 0 1", rules.Draw(rules.TimeoutDraw)},
		{"gochess", "k9/r9/10/10/10/**********/10/10/10/KB8 b - - 0 1", rules.Draw(rules.TimeoutDraw)},
	} {
		t.Run(tc.variant+"/"+tc.fen, func(t *testing.T) {
			h := newHarness(t)
			id := h.start(tc.variant, "days:1 fen:"+strings.ReplaceAll(tc.fen, " ", "_"))
			h.clock.Advance(day)
			h.tick()
			if got := h.game(id).Outcome; got != tc.want {
				t.Fatalf("outcome %v, want %v", got, tc.want)
			}
		})
	}
}

// Reminders come at the player's hours before the deadline, once each, across
// restarts; a reminder whose time fell before the period began is skipped.
func TestReminders(t *testing.T) {
	h := newHarness(t)
	id := h.start("gothic", "days:3")
	deadline := h.game(id).Clock.Deadline
	expect := func(want ...NoticeKind) {
		t.Helper()
		h.tick()
		got := notesFor(h.notes.take(), "alice")
		if !slices.Equal(got, want) {
			t.Fatalf("at %v alice was told %v, want %v", h.clock.Now(), got, want)
		}
	}
	expect()
	if w := h.game(id).Clock.Wake; !w.Equal(deadline.Add(-24 * time.Hour)) {
		t.Fatalf("wake %v, want 24 h before %v", w, deadline)
	}
	h.clock.Advance(2*day + time.Minute) // 23h59m before the deadline
	expect(NoticeReminder)
	expect()
	h.restart()
	expect()
	h.clock.Advance(22 * time.Hour) // 1h59m left
	h.restart()
	expect(NoticeReminder)
	expect()
	h.restart()
	expect()
	g := h.game(id)
	if len(g.Clock.Sent) != 2 || !g.Clock.Wake.IsZero() {
		t.Fatalf("clock %+v", g.Clock)
	}
	// Each move starts a new period with fresh reminders.
	h.ok("alice", "move move:e2e4")
	if g := h.game(id); len(g.Clock.Sent) != 0 || g.Clock.Wake.IsZero() {
		t.Fatalf("clock after the move %+v", g.Clock)
	}
}

// After a long outage only the most urgent reminder goes out; own reminder hours
// (and none) are honoured; a one-day clock skips the 24-hour reminder.
func TestReminderSettings(t *testing.T) {
	h := newHarness(t)
	id := h.start("gothic", "days:3")
	h.clock.Advance(3*day - time.Hour)
	h.restart()
	h.tick()
	ns := h.notes.take()
	if got := notesFor(ns, "alice"); !slices.Equal(got, []NoticeKind{NoticeReminder}) {
		t.Fatalf("alice was told %v", got)
	}
	if !strings.Contains(ns[0].Reply.Text, "1h 0m left") {
		t.Errorf("reminder text %q", ns[0].Reply.Text)
	}

	h2 := newHarness(t)
	h2.ok("alice", "settings reminders:none")
	h2.ok("bob", "settings reminders:30,6")
	id = h2.start("gothic", "days:2")
	h2.play(id, "alice", "e2e4")
	h2.clock.Advance(2*day - 30*time.Hour)
	h2.tick()
	if got := notesFor(h2.notes.take(), "bob"); !slices.Equal(got, []NoticeKind{NoticeReminder}) {
		t.Fatalf("bob was told %v at 30 h", got)
	}
	h2.clock.Advance(24 * time.Hour)
	h2.tick()
	if got := notesFor(h2.notes.take(), "bob"); !slices.Equal(got, []NoticeKind{NoticeReminder}) {
		t.Fatalf("bob was told %v at 6 h", got)
	}
	h2.play(id, "bob", "e7e5")
	h2.clock.Advance(2*day - time.Minute)
	h2.tick()
	if got := notesFor(h2.notes.take(), "alice"); len(got) != 0 {
		t.Fatalf("alice chose no reminders but was told %v", got)
	}

	h3 := newHarness(t)
	id = h3.start("gothic", "days:1")
	if w := h3.game(id).Clock.Wake; !w.Equal(h3.clock.Now().Add(22 * time.Hour)) {
		t.Fatalf("one-day clock wakes at %v, want the 2 h reminder", w)
	}
}

// A restart in the middle of a game loses nothing: the game goes on to its end.
func TestRestartMidGame(t *testing.T) {
	h := newHarness(t)
	id := h.start("gothic", "")
	h.play(id, "alice", "Cf3", "d5")
	h.ok("alice", "draw")
	h.restart()
	g := h.game(id)
	if len(g.Moves) != 2 || g.DrawOffer == nil || g.Clock.Deadline.IsZero() {
		t.Fatalf("after restart: %+v", g)
	}
	h.play(id, "alice", "Ah3", "Nd7")
	h.restart()
	h.play(id, "alice", "Ae6#")
	if got := h.game(id).Outcome; got != rules.Win(rules.White, rules.Checkmate) {
		t.Fatalf("outcome %v", got)
	}
}
