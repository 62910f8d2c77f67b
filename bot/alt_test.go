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
	for _, want := range []string{"Gothic Chess board of game " + id + " after 1 move.", "Last move j1 to j8.",
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
}
