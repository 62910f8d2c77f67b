package bot_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/rules"
)

// The deadline moves with each move; a player out of time loses, and both hear it.
func TestTimeout(t *testing.T) {
	for _, variant := range []string{"gothic", "keltic", "gess"} {
		t.Run(variant, func(t *testing.T) {
			h := bottest.New(t)
			id := h.Start(variant, "days:2")
			first, second := "alice", "bob"
			if variant == "gess" {
				first, second = "bob", "alice"
			}
			start := h.Clock.Now()
			if d := h.Game(id).Clock.Deadline; !d.Equal(start.Add(2 * bottest.Day)) {
				t.Fatalf("first deadline %v", d)
			}
			h.Clock.Advance(36 * time.Hour)
			g := h.Game(id)
			move := g.Position.UCI(g.Position.LegalMoves()[0])
			h.Ok(first, "move move:"+move)
			if d := h.Game(id).Clock.Deadline; !d.Equal(h.Clock.Now().Add(2 * bottest.Day)) {
				t.Fatalf("deadline after the move %v, want two days from %v", d, h.Clock.Now())
			}
			h.Clock.Advance(2*bottest.Day - time.Minute)
			h.Tick()
			if !h.Game(id).Active() {
				t.Fatal("lost on time a minute early")
			}
			h.Notes.Take()
			h.Clock.Advance(time.Minute)
			h.Tick()
			g = h.Game(id)
			winner := rules.White
			if variant == "gess" {
				winner = rules.Black // Black moved first, so White ran out of time
			}
			if g.Outcome != rules.Win(winner, rules.Timeout) {
				t.Fatalf("outcome %v", g.Outcome)
			}
			ns := h.Notes.Take()
			for _, u := range []string{first, second} {
				if got := bottest.NotesFor(ns, u); !slices.Equal(got, []bot.NoticeKind{bot.NoticeGameOver}) {
					t.Errorf("%s was told %v", u, got)
				}
			}
			if !strings.Contains(ns[0].Reply.Text, second+" ("+winner.Other().String()+") ran out of time") {
				t.Errorf("timeout text: %s", ns[0].Reply.Text)
			}
			h.Tick()
			if len(h.Notes.Take()) != 0 {
				t.Error("the timeout was announced twice")
			}
		})
	}
}

// Out of time against a side that could not possibly mate by any series of legal
// moves is a draw; against one that could, even only with the loser's help, a loss
// (docs/RULES.md, house rule: time-out draw).
func TestTimeoutInsufficientMaterial(t *testing.T) {
	for _, tc := range []struct {
		variant, fen string
		want         rules.Outcome
	}{
		// Black (K+R) to move runs out; White's lone knight mates if the rook walls
		// Black's king in: White wins.
		{"gothic", "k9/1r8/10/10/10/10/10/KN8 b - - 0 1", rules.Win(rules.White, rules.Timeout)},
		// Against a queen a lone knight can never mate: draw.
		{"gothic", "k9/1q8/10/10/10/10/10/KN8 b - - 0 1", rules.Draw(rules.TimeoutDraw)},
		// White (K+N) to move runs out; Black has a rook: Black wins.
		{"gothic", "k9/1r8/10/10/10/10/10/KN8 w - - 0 1", rules.Win(rules.Black, rules.Timeout)},
		{"gothic", "k9/1r8/10/10/10/10/10/KNN7 b - - 0 1", rules.Win(rules.White, rules.Timeout)},
		{"gothic", "k9/p9/10/10/10/10/10/KN8 b - - 0 1", rules.Win(rules.White, rules.Timeout)},
		{"gothic", "k9/1r8/10/10/10/10/10/KB8 b - - 0 1", rules.Draw(rules.TimeoutDraw)},
		{"gothic", "k9/1r8/10/10/10/10/10/KBN7 b - - 0 1", rules.Win(rules.White, rules.Timeout)},
		{"gothic", "k9/1r8/10/10/10/10/P9/K9 b - - 0 1", rules.Win(rules.White, rules.Timeout)},
		{"gothic", "k9/1r8/10/10/10/10/10/K9 b - - 0 1", rules.Draw(rules.TimeoutDraw)},
		// Keltic: a lone bishop mates; a lone knight with the loser's help.
		{"keltic", "***k2***/**r4**/9/9/9/**5**/***BK1*** b - - 0 1", rules.Win(rules.White, rules.Timeout)},
		{"keltic", "***k2***/**r4**/9/9/9/**5**/***NK1*** b - - 0 1", rules.Win(rules.White, rules.Timeout)},
		{"keltic", "***k2***/**r4**/9/9/9/**5**/***1K1*** b - - 0 1", rules.Draw(rules.TimeoutDraw)},
		{"keltic", "***k2***/**q4**/9/9/9/**5**/***NK1*** b - - 0 1", rules.Draw(rules.TimeoutDraw)}, // no mate there
		// Go-Chess: the blocked cells decide; on this board a lone knight can mate
		// against a rook, a lone bishop cannot.
		{"gochess", "k9/r9/10/10/10/**********/10/10/10/KN8 b - - 0 1", rules.Win(rules.White, rules.Timeout)},
		{"gochess", "k9/r9/10/10/10/**********/10/10/10/KB8 b - - 0 1", rules.Draw(rules.TimeoutDraw)},
		{"gochess", "k9/r9/10/10/10/**********/10/10/10/K9 b - - 0 1", rules.Draw(rules.TimeoutDraw)},
	} {
		t.Run(tc.variant+"/"+tc.fen, func(t *testing.T) {
			h := bottest.New(t)
			id := h.Start(tc.variant, "days:1 fen:"+strings.ReplaceAll(tc.fen, " ", "_"))
			h.Clock.Advance(bottest.Day)
			h.Tick()
			if got := h.Game(id).Outcome; got != tc.want {
				t.Fatalf("outcome %v, want %v", got, tc.want)
			}
		})
	}
}

// Reminders come at the player's hours before the deadline, once each, across
// restarts; a reminder whose time fell before the period began is skipped.
func TestReminders(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "days:3")
	deadline := h.Game(id).Clock.Deadline
	expect := func(want ...bot.NoticeKind) {
		t.Helper()
		h.Tick()
		got := bottest.NotesFor(h.Notes.Take(), "alice")
		if !slices.Equal(got, want) {
			t.Fatalf("at %v alice was told %v, want %v", h.Clock.Now(), got, want)
		}
	}
	expect()
	if w := h.Game(id).Clock.Wake; !w.Equal(deadline.Add(-24 * time.Hour)) {
		t.Fatalf("wake %v, want 24 h before %v", w, deadline)
	}
	h.Clock.Advance(2*bottest.Day + time.Minute) // 23h59m before the deadline
	expect(bot.NoticeReminder)
	expect()
	h.Restart()
	expect()
	h.Clock.Advance(22 * time.Hour) // 1h59m left
	h.Restart()
	expect(bot.NoticeReminder)
	expect()
	h.Restart()
	expect()
	g := h.Game(id)
	if len(g.Clock.Sent) != 2 || !g.Clock.Wake.IsZero() {
		t.Fatalf("clock %+v", g.Clock)
	}
	// Each move starts a new period with fresh reminders.
	h.Ok("alice", "move move:e2e4")
	if g := h.Game(id); len(g.Clock.Sent) != 0 || g.Clock.Wake.IsZero() {
		t.Fatalf("clock after the move %+v", g.Clock)
	}
}

// After a long outage only the most urgent reminder goes out; own reminder hours
// (and none) are honoured; a one-day clock skips the 24-hour reminder.
func TestReminderSettings(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "days:3")
	h.Clock.Advance(3*bottest.Day - time.Hour)
	h.Restart()
	h.Tick()
	ns := h.Notes.Take()
	if got := bottest.NotesFor(ns, "alice"); !slices.Equal(got, []bot.NoticeKind{bot.NoticeReminder}) {
		t.Fatalf("alice was told %v", got)
	}
	if !strings.Contains(ns[0].Reply.Text, "1h 0m left") {
		t.Errorf("reminder text %q", ns[0].Reply.Text)
	}

	h2 := bottest.New(t)
	h2.Ok("alice", "settings reminders:none")
	h2.Ok("bob", "settings reminders:30,6")
	id = h2.Start("gothic", "days:2")
	h2.Play(id, "alice", "e2e4")
	h2.Clock.Advance(2*bottest.Day - 30*time.Hour)
	h2.Tick()
	if got := bottest.NotesFor(h2.Notes.Take(), "bob"); !slices.Equal(got, []bot.NoticeKind{bot.NoticeReminder}) {
		t.Fatalf("bob was told %v at 30 h", got)
	}
	h2.Clock.Advance(24 * time.Hour)
	h2.Tick()
	if got := bottest.NotesFor(h2.Notes.Take(), "bob"); !slices.Equal(got, []bot.NoticeKind{bot.NoticeReminder}) {
		t.Fatalf("bob was told %v at 6 h", got)
	}
	h2.Play(id, "bob", "e7e5")
	h2.Clock.Advance(2*bottest.Day - time.Minute)
	h2.Tick()
	if got := bottest.NotesFor(h2.Notes.Take(), "alice"); len(got) != 0 {
		t.Fatalf("alice chose no reminders but was told %v", got)
	}

	h3 := bottest.New(t)
	id = h3.Start("gothic", "days:1")
	if w := h3.Game(id).Clock.Wake; !w.Equal(h3.Clock.Now().Add(22 * time.Hour)) {
		t.Fatalf("one-day clock wakes at %v, want the 2 h reminder", w)
	}
}

// A restart in the middle of a game loses nothing: the game goes on to its end.
func TestRestartMidGame(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "")
	h.Play(id, "alice", "Cf3", "d5")
	h.Ok("alice", "draw")
	h.Restart()
	g := h.Game(id)
	if len(g.Moves) != 2 || g.DrawOffer == nil || g.Clock.Deadline.IsZero() {
		t.Fatalf("after restart: %+v", g)
	}
	h.Play(id, "alice", "Ah3", "Nd7")
	h.Restart()
	h.Play(id, "alice", "Ae6#")
	if got := h.Game(id).Outcome; got != rules.Win(rules.White, rules.Checkmate) {
		t.Fatalf("outcome %v", got)
	}
}
