package settings_test

import (
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/settings"
	"github.com/missivechess/missive/rules"
)

// Leave freezes the clock of a game its player must move in: it does not time out
// during the leave, the opponent is told when leave starts and ends, and the
// deadline moves by the leave taken. The leave survives a restart.
func TestLeaveFreezesClocks(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "days:2")
	deadline := h.Game(id).Clock.Deadline
	h.Clock.Advance(bottest.Day)
	r := h.Ok("alice", "leave action:start days:5")
	if !strings.Contains(r.Text, "until Sun 9 Mar 12:00 UTC (5 days)") || !strings.Contains(r.Text, "frozen in every game meanwhile (game "+id+")") {
		t.Errorf("start: %s", r.Text)
	}
	ns := h.Notes.Take()
	if got := bottest.NoticesOf(ns, "bob", settings.NoticeLeave); len(got) != 1 || !strings.Contains(got[0].Reply.Text, "alice is on leave until") {
		t.Errorf("bob was told %v", ns)
	}
	h.Refused("alice", "leave action:start days:2", "already on leave")
	// Two days later, past the old deadline: no timeout, and the board says so.
	h.Clock.Advance(2 * bottest.Day)
	h.Tick()
	h.Restart()
	h.Tick()
	if g := h.Game(id); !g.Active() || g.Clock.Paused.IsZero() {
		t.Fatalf("the game timed out during leave: %v, paused %v", g.Outcome, g.Clock.Paused)
	}
	if st := h.Ok("alice", "leave").Text; !strings.Contains(st, "You are on leave until") || !strings.Contains(st, "2 days taken") {
		t.Errorf("status: %s", st)
	}
	if b := h.Ok("bob", "board game:"+id).PlainText(); !strings.Contains(b, "clock frozen by leave (1d 0h left when it runs again)") {
		t.Errorf("board during leave: %s", b)
	}
	h.Notes.Take()
	r = h.Ok("alice", "leave action:end")
	if !strings.Contains(r.Text, "your clock runs again in game "+id) {
		t.Errorf("end: %s", r.Text)
	}
	g := h.Game(id)
	if want := deadline.Add(2 * bottest.Day); !g.Clock.Deadline.Equal(want) || !g.Clock.Paused.IsZero() {
		t.Fatalf("deadline after leave %v, want %v (moved by the two days taken)", g.Clock.Deadline, want)
	}
	if got := bottest.NoticesOf(h.Notes.Take(), "bob", settings.NoticeLeave); len(got) != 1 || !strings.Contains(got[0].Reply.Text, "alice is back from leave") {
		t.Errorf("bob was told %v", got)
	}
	h.Refused("alice", "leave action:end", "not on leave")
	if st := h.Ok("alice", "leave").Text; !strings.Contains(st, "2 days taken of 30 days, 28 days left") {
		t.Errorf("status after: %s", st)
	}
	h.Clock.Advance(bottest.Day - time.Minute)
	h.Tick()
	if !h.Game(id).Active() {
		t.Fatal("timed out before the moved deadline")
	}
	h.Clock.Advance(time.Minute)
	h.Tick()
	if g := h.Game(id); g.Outcome != rules.Win(rules.Black, rules.Timeout) {
		t.Fatalf("outcome at the moved deadline %v", g.Outcome)
	}
}

// A leave that runs out ends by itself, even when the scheduler comes late: the
// deadline moves by the leave's length, not by the time until the scheduler ran.
// The opponent's move during leave starts a period that stays frozen.
func TestLeaveRunsOut(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("keltic", "days:3")
	h.Ok("bob", "leave action:start until:2025-03-05") // now is 3 March 12:00: 36 hours
	h.Clock.Advance(time.Hour)
	h.MoveAny(id, "alice")
	moved := h.Clock.Now()
	if g := h.Game(id); !g.Clock.Paused.Equal(moved) {
		t.Fatalf("bob's new period is not frozen: %+v", g.Clock)
	}
	h.Notes.Take()
	h.Clock.Advance(40 * time.Hour) // the leave ended 5 hours ago
	h.Tick()
	ns := h.Notes.Take()
	if got := bottest.NoticesOf(ns, "bob", settings.NoticeLeave); len(got) != 1 || !got[0].Direct || !strings.Contains(got[0].Reply.Text, "Your leave has ended") {
		t.Errorf("bob was told %v", ns)
	}
	if got := bottest.NoticesOf(ns, "alice", settings.NoticeLeave); len(got) != 1 {
		t.Errorf("alice was told %v", ns)
	}
	g := h.Game(id)
	end := time.Date(2025, 3, 5, 0, 0, 0, 0, time.UTC)
	if want := end.Add(3 * bottest.Day); !g.Clock.Deadline.Equal(want) || !g.Clock.Paused.IsZero() {
		t.Errorf("deadline %v, want three days from the leave's end %v", g.Clock.Deadline, want)
	}
	if st := h.Ok("bob", "leave").Text; !strings.Contains(st, "You are not on leave") || !strings.Contains(st, "1 day 12 hours taken") {
		t.Errorf("status: %s", st)
	}
	h.Tick()
	if len(bottest.NoticesOf(h.Notes.Take(), "bob", settings.NoticeLeave)) != 0 {
		t.Error("the leave's end was announced twice")
	}
}

// A move made during leave ends it; the other games' clocks run again, moved on.
func TestMoveEndsLeave(t *testing.T) {
	h := bottest.New(t)
	a := h.Start("gothic", "days:2")
	b := h.Start("gothic", "days:2")
	before := h.Game(b).Clock.Deadline
	h.Ok("alice", "leave action:start days:10")
	h.Clock.Advance(3 * bottest.Day)
	h.MoveAny(a, "alice")
	if st := h.Ok("alice", "leave").Text; !strings.Contains(st, "You are not on leave") {
		t.Errorf("status after a move: %s", st)
	}
	if g := h.Game(b); !g.Clock.Deadline.Equal(before.Add(3*bottest.Day)) || !g.Clock.Paused.IsZero() {
		t.Errorf("the other game's deadline %v, want %v", g.Clock.Deadline, before.Add(3*bottest.Day))
	}
}

// The allowance is per calendar year; a leave longer than what is left is refused,
// as are bad lengths and dates.
func TestLeaveAllowance(t *testing.T) {
	h := bottest.New(t)
	h.Refused("alice", "leave action:start days:31", "at most 30 days")
	h.Refused("alice", "leave action:start", "Say how long")
	h.Refused("alice", "leave action:start until:tomorrow", "YYYY-MM-DD")
	h.Refused("alice", "leave action:start until:2025-03-01", "after today")
	h.Refused("alice", "leave action:start days:3 until:2025-04-01", "not both")
	h.Ok("alice", "leave action:start days:20")
	h.Clock.Advance(20 * bottest.Day)
	h.Tick()
	h.Refused("alice", "leave action:start days:11", "only 10 days of your 30 days for 2025 remain")
	h.Ok("alice", "leave action:start days:10")
	// A new year brings a new allowance.
	h.Clock.Advance(300 * bottest.Day)
	if st := h.Ok("alice", "leave").Text; !strings.Contains(st, "Leave in 2026: 0 days taken of 30 days, 30 days left") {
		t.Errorf("new year: %s", st)
	}
}

// A tournament may refuse leave: its games' clocks run during leave, and the player
// hears so.
func TestLeaveRefusedByTournament(t *testing.T) {
	h := bottest.New(t)
	r := h.Ok("alice", "tournament action:create variant:gothic format:round-robin days:1 allow_leave:no")
	if !strings.Contains(r.PlainText(), "not allowed: clocks run during leave") {
		t.Errorf("tournament card: %s", r.PlainText())
	}
	for _, p := range []string{"alice", "bob"} {
		h.Ok(p, "tournament action:join")
	}
	h.Ok("alice", "tournament action:start")
	_, games := h.Tournament("1")
	g := games[0]
	late := g.ToMove[0]
	r = h.Ok(g.Player(late).ID, "leave action:start days:5")
	if !strings.Contains(r.Text, "In game "+g.ID+" your clock runs as usual: the tournament does not allow leave") {
		t.Errorf("start: %s", r.Text)
	}
	h.Clock.Advance(bottest.Day)
	h.Tick()
	if g := h.Game(g.ID); g.Outcome != rules.Win(late.Other(), rules.Timeout) {
		t.Errorf("the tournament game did not time out during leave: %v", g.Outcome)
	}
	// A tournament with a time bank gives its games that bank, and allows leave.
	r = h.Ok("alice", "tournament action:create variant:keltic format:round-robin bank:10+1/30")
	if !strings.Contains(r.PlainText(), "time bank of 10 days + 1 day a move, up to 30 days") || !strings.Contains(r.PlainText(), "allowed (/leave)") {
		t.Errorf("tournament card: %s", r.PlainText())
	}
	for _, p := range []string{"carol", "dave"} {
		h.Ok(p, "tournament action:join tournament:2")
	}
	h.Ok("alice", "tournament action:start tournament:2")
	if _, games := h.Tournament("2"); len(games) != 1 || games[0].Clock.Bank == nil || games[0].Clock.Bank.CapHours != 720 || games[0].Clock.NoLeave {
		t.Errorf("the bank tournament's game: %+v", games[0].Clock)
	}
}

// A time bank stands still during leave.
func TestLeaveFreezesBank(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "bank:5+1/10")
	h.Clock.Advance(bottest.Day)
	h.Ok("alice", "leave action:start days:3")
	h.Clock.Advance(3 * bottest.Day)
	h.Tick()
	if b := h.Ok("bob", "board game:"+id).PlainText(); !strings.Contains(b, "banks: white 4d 0h, black 5d 0h") {
		t.Errorf("during leave: %s", b)
	}
	h.Clock.Advance(bottest.Day)
	h.MoveAny(id, "alice")
	if g := h.Game(id); g.Clock.Left[rules.White] != 4*bottest.Day {
		t.Errorf("white's bank %v, want 5 - 2 + 1 days", g.Clock.Left[rules.White])
	}
}

// /leave status on the day a leave starts says that it has started, not that
// no leave was taken.
func TestLeaveStatusOnItsFirstDay(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "leave action:start days:5")
	st := h.Ok("alice", "leave").Text
	if strings.Contains(st, "0 days taken") || !strings.Contains(st, "this leave started today") {
		t.Errorf("status on the first day: %s", st)
	}
	h.Clock.Advance(2*bottest.Day + 3*time.Hour)
	if st := h.Ok("alice", "leave").Text; !strings.Contains(st, "2 days 3 hours taken") || !strings.Contains(st, "this leave started Mon 3 Mar 12:00 UTC") {
		t.Errorf("status two days on: %s", st)
	}
}

// /leave start tells each opponent once, in one notice without a board, what
// the leave changes in each of their games with the player: a clock frozen
// now, a clock frozen once it is the player's move.
func TestLeaveStartTellsOnce(t *testing.T) {
	h := bottest.New(t)
	mine := h.Start("gothic", "days:2")
	theirs := h.Start("gothic", "days:2")
	h.MoveAny(theirs, "alice")
	h.Notes.Take()
	h.Ok("alice", "leave action:start days:5")
	got := bottest.NoticesOf(h.Notes.Take(), "bob", settings.NoticeLeave)
	if len(got) != 1 {
		t.Fatalf("bob got %d leave notices, want one: %v", len(got), got)
	}
	n := got[0]
	if n.Reply.Game != nil || n.Reply.Board != "" {
		t.Errorf("the leave notice carries a board: %+v", n.Reply)
	}
	text := n.Reply.Text
	if !strings.Contains(text, "alice is on leave until") || !strings.Contains(text, "their clock in game "+mine+" is frozen meanwhile") ||
		!strings.Contains(text, "game "+theirs+" once it is their move") {
		t.Errorf("the leave notice: %s", text)
	}
}
