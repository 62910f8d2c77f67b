package play_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/play"
	"github.com/missivechess/missive/rules"
)

// A player gives the opponent one more day at a time, up to the limit; the opponent
// is told; the days survive a restart.
func TestMoreTime(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "days:2")
	deadline := h.Game(id).Clock.Deadline
	r := h.Ok("bob", "moretime game:"+id)
	if !strings.Contains(r.Text, "bob gave alice one more day in game "+id+": alice's deadline is now") ||
		!strings.Contains(r.Text, "(bob may give 4 days more in this game.)") || !slices.Contains(r.Mentions, "alice") {
		t.Errorf("reply: %s, mentions %v", r.Text, r.Mentions)
	}
	if g := h.Game(id); !g.Clock.Deadline.Equal(deadline.Add(bottest.Day)) || g.Clock.Given != [2]int{0, 1} {
		t.Fatalf("deadline %v, given %v", g.Clock.Deadline, g.Clock.Given)
	}
	// Given from elsewhere (a direct message to the bot), alice is told by a notice.
	h.Notes.Take()
	req := bot.Request{ID: "dm-1", User: bot.User{ID: "bob", Name: "bob"}, Command: play.CmdMoreTime, Args: bot.Args{"game": id}, Place: bot.Place{Channel: "dm-bob"}}
	if r := h.Svc.Handle(t.Context(), req); r.Refused {
		t.Fatal(r.Text)
	}
	h.Svc.Idle()
	ns := bottest.NoticesOf(h.Notes.Take(), "alice", bot.NoticeInfo)
	if len(ns) != 1 || !strings.Contains(ns[0].Reply.Text, "bob gave you one more day in game "+id+": your deadline is now") {
		t.Errorf("alice was told %v", ns)
	}
	h.Refused("alice", "moretime game:"+id, "bob's clock in game "+id+" is not running")
	h.Restart()
	for range 3 {
		h.Ok("bob", "moretime game:"+id)
	}
	h.Refused("bob", "moretime game:"+id, "already given 5 days")
	if g := h.Game(id); !g.Clock.Deadline.Equal(deadline.Add(5 * bottest.Day)) {
		t.Errorf("deadline %v after five days given", g.Clock.Deadline)
	}
	h.Clock.Advance(6 * bottest.Day)
	h.Tick()
	if !h.Game(id).Active() {
		t.Error("alice lost on time within the days given")
	}
}

// With a time bank, the day goes into the opponent's bank, whether or not their
// clock is running.
func TestMoreTimeBank(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "bank:5+1/10")
	deadline := h.Game(id).Clock.Deadline
	h.Ok("alice", "moretime game:"+id) // Black's bank, while White is to move
	g := h.Game(id)
	if g.Clock.Left[rules.Black] != 6*bottest.Day || !g.Clock.Deadline.Equal(deadline) {
		t.Errorf("black's bank %v, deadline %v", g.Clock.Left[rules.Black], g.Clock.Deadline)
	}
	if r := h.Ok("bob", "board game:"+id); !strings.Contains(r.PlainText(), "black 6d 0h") {
		t.Errorf("board: %s", r.PlainText())
	}
	h.Ok("bob", "moretime game:"+id) // White's bank, running
	if g := h.Game(id); g.Clock.Left[rules.White] != 6*bottest.Day || !g.Clock.Deadline.Equal(deadline.Add(bottest.Day)) {
		t.Errorf("white's bank %v, deadline %v", g.Clock.Left[rules.White], g.Clock.Deadline)
	}
	id2 := h.Start("gothic", "")
	h.Ok("alice", "abort game:"+id2)
	h.Refused("alice", "moretime game:"+id2, "is over")
}
