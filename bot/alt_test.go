package bot_test

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/bot/bottest"
)

// A board picture's description says whose move it is, the last move, check, and the
// position's text; /board text:true gives the text board with that description.
func TestBoardDescription(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "challenge variant:gothic opponent:bob color:white fen:4k5/10/10/10/10/10/10/4K4R_w_-_-_0_1")
	id := h.Ok("bob", "accept").Started.ID
	r := h.Ok("alice", "move game:"+id+" move:j1j8")
	if len(r.Files) != 1 {
		t.Fatalf("%d files, want the board", len(r.Files))
	}
	alt := r.Files[0].Alt
	for _, want := range []string{"Gothic Chess board of game " + id + " after 1 move by white and 0 by black.", "Last move j1 to j8.",
		"bob (black) to move, in check.", "Position: 4k4R/10/10/10/10/10/10/4K5 b"} {
		if !strings.Contains(alt, want) {
			t.Errorf("description %q lacks %q", alt, want)
		}
	}
	b := h.Ok("bob", "board game:"+id+" text:true")
	if len(b.Files) != 0 || !strings.HasPrefix(b.Board, "TEXT 4k4R/") || !strings.Contains(b.Text, "in check") {
		t.Errorf("text board: %d files, board %q, text %q", len(b.Files), b.Board, b.Text)
	}
	if p := h.Ok("bob", "board game:"+id); len(p.Files) != 1 {
		t.Errorf("/board without text: %d files, want the picture", len(p.Files))
	}
	h.Refused("bob", "board game:"+id+" text:maybe", "Text must be true or false")
	// Moves are counted as players count them, not as plies.
	r = h.Play(id, "bob", "e8e7", "j8j7", "e7e8")
	if alt := r.Files[0].Alt; !strings.Contains(alt, " after 2 moves each.") {
		t.Errorf("after four plies: %q", alt)
	}
	r = h.Ok("alice", "move game:"+id+" move:j7j8")
	if alt := r.Files[0].Alt; !strings.Contains(alt, " after 3 moves by white and 2 by black.") {
		t.Errorf("after five plies: %q", alt)
	}
	g := h.Start("toyplace", "")
	h.Ok("alice", "place game:"+g+" cell:a1")
	if alt := h.Ok("bob", "place game:"+g+" cell:b2").Files[0].Alt; !strings.Contains(alt, " after 1 placement round.") {
		t.Errorf("after a placement round: %q", alt)
	}
}
