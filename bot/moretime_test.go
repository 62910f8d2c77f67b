package bot

import (
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
)

// A player gives the opponent one more day at a time, up to the limit; the opponent
// is told; the days survive a restart.
func TestMoreTime(t *testing.T) {
	h := newHarness(t)
	id := h.start("gothic", "days:2")
	deadline := h.game(id).Clock.Deadline
	r := h.ok("bob", "moretime game:"+id)
	if !strings.Contains(r.Text, "bob gave alice one more day in game "+id+": alice's deadline is now") ||
		!strings.Contains(r.Text, "(bob may give 4 days more in this game.)") || !slices.Contains(r.Mentions, "alice") {
		t.Errorf("reply: %s, mentions %v", r.Text, r.Mentions)
	}
	if g := h.game(id); !g.Clock.Deadline.Equal(deadline.Add(day)) || g.Clock.Given != [2]int{0, 1} {
		t.Fatalf("deadline %v, given %v", g.Clock.Deadline, g.Clock.Given)
	}
	// Given from elsewhere (a direct message to the bot), alice is told by a notice.
	h.notes.take()
	req := Request{ID: "dm-1", User: User{ID: "bob", Name: "bob"}, Command: CmdMoreTime, Args: Args{"game": id}, Place: Place{Channel: "dm-bob"}}
	if r := h.svc.Handle(t.Context(), req); r.Refused {
		t.Fatal(r.Text)
	}
	h.svc.Idle()
	ns := noticesOf(h.notes.take(), "alice", NoticeInfo)
	if len(ns) != 1 || !strings.Contains(ns[0].Reply.Text, "bob gave you one more day in game "+id+": your deadline is now") {
		t.Errorf("alice was told %v", ns)
	}
	h.refused("alice", "moretime game:"+id, "bob's clock in game "+id+" is not running")
	h.restart()
	for range 3 {
		h.ok("bob", "moretime game:"+id)
	}
	h.refused("bob", "moretime game:"+id, "already given 5 days")
	if g := h.game(id); !g.Clock.Deadline.Equal(deadline.Add(5 * day)) {
		t.Errorf("deadline %v after five days given", g.Clock.Deadline)
	}
	h.clock.Advance(6 * day)
	h.tick()
	if !h.game(id).Active() {
		t.Error("alice lost on time within the days given")
	}
}

// With a time bank, the day goes into the opponent's bank, whether or not their
// clock is running.
func TestMoreTimeBank(t *testing.T) {
	h := newHarness(t)
	id := h.start("gothic", "bank:5+1/10")
	deadline := h.game(id).Clock.Deadline
	h.ok("alice", "moretime game:"+id) // Black's bank, while White is to move
	g := h.game(id)
	if g.Clock.Left[rules.Black] != 6*day || !g.Clock.Deadline.Equal(deadline) {
		t.Errorf("black's bank %v, deadline %v", g.Clock.Left[rules.Black], g.Clock.Deadline)
	}
	if r := h.ok("bob", "board game:"+id); !strings.Contains(r.PlainText(), "black 6d 0h") {
		t.Errorf("board: %s", r.PlainText())
	}
	h.ok("bob", "moretime game:"+id) // White's bank, running
	if g := h.game(id); g.Clock.Left[rules.White] != 6*day || !g.Clock.Deadline.Equal(deadline.Add(day)) {
		t.Errorf("white's bank %v, deadline %v", g.Clock.Left[rules.White], g.Clock.Deadline)
	}
	id2 := h.start("gothic", "")
	h.ok("alice", "abort game:"+id2)
	h.refused("alice", "moretime game:"+id2, "is over")
}
