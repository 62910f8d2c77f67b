package bot_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
)

// A time bank runs down by the time a side takes, gains the increment after each
// move up to its cap, survives a restart, and runs out.
func TestTimeBank(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "bank:5+0.5/6")
	start := h.Clock.Now()
	g := h.Game(id)
	if g.Clock.Left != [2]time.Duration{5 * bottest.Day, 5 * bottest.Day} || !g.Clock.Deadline.Equal(start.Add(5*bottest.Day)) {
		t.Fatalf("start: banks %v, deadline %v", g.Clock.Left, g.Clock.Deadline)
	}
	// Alice (White) takes two days: 5 - 2 + 0.5 = 3.5 days.
	h.Clock.Advance(2 * bottest.Day)
	h.MoveAny(id, "alice")
	g = h.Game(id)
	if g.Clock.Left[rules.White] != 3*bottest.Day+12*time.Hour {
		t.Fatalf("white's bank after two days: %v", g.Clock.Left[rules.White])
	}
	if !g.Clock.Deadline.Equal(h.Clock.Now().Add(5 * bottest.Day)) {
		t.Fatalf("black's deadline %v, want her whole bank from now", g.Clock.Deadline)
	}
	// Bob answers at once, three times: his bank fills to the cap and stays there.
	for range 3 {
		h.MoveAny(id, "bob")
		h.MoveAny(id, "alice")
	}
	g = h.Game(id)
	if g.Clock.Left[rules.Black] != 6*bottest.Day {
		t.Fatalf("black's bank %v, want capped at 6 days", g.Clock.Left[rules.Black])
	}
	if g.Clock.Left[rules.White] != 5*bottest.Day {
		t.Fatalf("white's bank %v, want 3.5 days + 3 increments", g.Clock.Left[rules.White])
	}
	h.MoveAny(id, "bob")
	if b := h.Ok("alice", "board game:"+id).PlainText(); !strings.Contains(b, "time bank of 5 days + 12 hours a move, up to 6 days") ||
		!strings.Contains(b, "banks: white 5d 0h, black 6d 0h") {
		t.Errorf("the board does not show the bank:\n%s", b)
	}
	h.Restart()
	// Alice's bank is now 5 days; reminders come relative to it, then she runs out.
	h.Notes.Take()
	h.Clock.Advance(4*bottest.Day + time.Hour)
	h.Tick()
	if ns := h.Notes.Take(); !slices.Equal(bottest.NotesFor(ns, "alice"), []bot.NoticeKind{bot.NoticeReminder}) || !strings.Contains(ns[0].Reply.Text, "23h 0m left") {
		t.Fatalf("reminder: %v", ns)
	}
	h.Clock.Advance(bottest.Day - time.Hour - time.Minute)
	h.Tick()
	if !h.Game(id).Active() {
		t.Fatal("lost on time a minute early")
	}
	h.Clock.Advance(time.Minute)
	h.Tick()
	if g := h.Game(id); g.Outcome != rules.Win(rules.Black, rules.Timeout) {
		t.Fatalf("outcome %v", g.Outcome)
	}
}

// The PGN of a time-bank game gives the base and increment in TimeControl and the
// cap in TimeBankCap, in seconds.
func TestTimeBankPGN(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("keltic", "bank:30+1/45")
	for range 3 {
		h.MoveAny(id, "alice")
		h.MoveAny(id, "bob")
	}
	pgn := string(h.Ok("alice", "pgn game:"+id).Files[0].Data)
	if !strings.Contains(pgn, `[TimeControl "2592000+86400"]`) || !strings.Contains(pgn, `[TimeBankCap "3888000"]`) {
		t.Errorf("PGN:\n%s", pgn)
	}
	// Our own reader reads it back: the clock's tags, and every move to the same position.
	g, err := record.ReadPGN(strings.NewReader(pgn), h.Reg)
	if err != nil {
		t.Fatal(err)
	}
	tc, _ := g.Tag("TimeControl")
	bankCap, _ := g.Tag("TimeBankCap")
	if tc != "2592000+86400" || bankCap != "3888000" || len(g.Moves) != 6 || g.Position.String() != h.Game(id).Position.String() {
		t.Errorf("read back: TimeControl %q, TimeBankCap %q, %d moves to %q", tc, bankCap, len(g.Moves), g.Position.String())
	}
	id = h.Start("keltic", "days:3")
	if pgn := string(h.Ok("alice", "pgn game:"+id).Files[0].Data); !strings.Contains(pgn, `[TimeControl "1/259200"]`) || strings.Contains(pgn, "TimeBankCap") {
		t.Errorf("PGN of a days-per-move game:\n%s", pgn)
	}
}

// A time bank is offered in the challenge, within bounds, and not beside days.
func TestTimeBankChallenge(t *testing.T) {
	h := bottest.New(t)
	r := h.Ok("alice", "challenge variant:gothic opponent:bob bank:10+1/30")
	if !strings.Contains(r.Text, "time bank of 10 days + 1 day a move, up to 30 days") {
		t.Errorf("challenge: %s", r.Text)
	}
	h.Refused("alice", "challenge variant:gothic opponent:bob bank:10+1/30 days:3", "not both")
	h.Refused("alice", "challenge variant:gothic opponent:bob bank:10+1/5", "capped at 5 days")
	h.Refused("alice", "challenge variant:gothic opponent:bob bank:0.5+1/5", "starts with 12 hours")
	h.Refused("alice", "challenge variant:gothic opponent:bob bank:30", "base+increment/cap")
	h.Refused("alice", "challenge variant:gothic opponent:bob bank:5+0.01/6", "whole number of hours")
	h.Ok("alice", "challenge variant:gothic opponent:bob bank:5+12h/15")
}

// Downtime does not count against a time bank: the outage moves the period's start
// with its deadline, so the move after it pays only for the time the bot was up.
func TestTimeBankOutage(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "bank:5+1/10")
	h.Resume()
	h.Restart()
	h.Clock.Advance(2 * bottest.Day)
	h.Resume()
	h.Tick()
	h.Clock.Advance(bottest.Day + time.Hour)
	h.MoveAny(id, "alice")
	if g := h.Game(id); g.Clock.Left[rules.White] != 5*bottest.Day-time.Hour {
		t.Errorf("white's bank %v, want 5 days less the day and hour used, plus 1", g.Clock.Left[rules.White])
	}
}

// Every rules card explains time banks, leave and extra time, naming the allowance.
func TestRulesCardBankLeave(t *testing.T) {
	h := bottest.New(t)
	for _, v := range []string{"gothic", "keltic", "gochess", "gess"} {
		r := h.Ok("alice", "rules variant:"+v)
		var f string
		for _, x := range r.Fields {
			if x.Name == "Time banks, leave and more time" {
				f = x.Value
			}
		}
		if !strings.Contains(f, "bank:30+1/45") || !strings.Contains(f, "30 days a calendar year") || !strings.Contains(f, "/moretime") || len(f) > 1024 {
			t.Errorf("%s: %q", v, f)
		}
	}
}

// /games names a game's time bank.
func TestTimeBankGames(t *testing.T) {
	h := bottest.New(t)
	h.Start("gothic", "bank:10+1/30")
	if r := h.Ok("alice", "games"); !strings.Contains(r.Text, "left (time bank of 10 days + 1 day a move, up to 30 days)") {
		t.Errorf("/games: %s", r.Text)
	}
}
