package play_test

import (
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
)

// leaks reports whether any text or picture shown to others contains secret.
func leaks(r bot.Reply, secret string) bool {
	if strings.Contains(r.PlainText(), secret) {
		return true
	}
	for _, f := range r.Files {
		if strings.Contains(string(f.Data), secret) {
			return true
		}
	}
	return false
}

// The secret, simultaneous placement round: choices stay private until both have
// chosen, a collision makes both choose again, a restart in the middle of a round
// loses nothing, and the play phase follows.
func TestPlacementRound(t *testing.T) {
	h := bottest.New(t)
	h.Ok("bob", "settings notify:dm")
	id := h.Start("toyplace", "")
	if g := h.Game(id); len(g.ToMove) != 2 {
		t.Fatalf("to move %v", g.ToMove)
	}
	r := h.Ok("alice", "place cell:a1")
	if !r.Private || !strings.Contains(r.Text, "You chose **a1**") {
		t.Fatalf("choice reply %+v", r)
	}
	if !strings.Contains(string(r.Files[0].Data), "/a1/") {
		t.Errorf("the chooser's own board should show her choice: %s", r.Files[0].Data)
	}
	ns := h.Notes.Take()
	if len(ns) != 1 || ns[0].To.ID != "bob" || ns[0].Kind != bot.NoticeTurn {
		t.Fatalf("notifications %+v", ns)
	}
	if leaks(ns[0].Reply, "a1") || strings.Contains(string(mustPNG(t, h, ns[0])), "a1") {
		t.Fatalf("bob's notification leaks alice's choice: %s", ns[0].Reply.PlainText())
	}
	for _, who := range []string{"bob", "carol"} {
		b := h.Ok(who, "board game:"+id)
		if leaks(b, "a1") {
			t.Fatalf("%s's board leaks alice's choice: %s / %s", who, b.PlainText(), b.Files[0].Data)
		}
	}
	if b := h.Ok("alice", "board"); !b.Private || !leaks(b, "a1") {
		t.Errorf("alice's own board: %+v", b)
	}
	for _, cmd := range []string{"pgn", "history", "gif"} {
		if b := h.Ok("carol", cmd+" game:"+id); leaks(b, "a1") {
			t.Fatalf("%s leaks the pending choice: %s", cmd, b.PlainText())
		}
	}
	h.Refused("alice", "place cell:b2", "already chosen")
	h.Refused("alice", "move move:b2", "already chosen")

	h.Restart()
	r = h.Ok("bob", "place cell:a1")
	if r.Private || !strings.Contains(r.Text, "Both chose a1") {
		t.Fatalf("collision reply %+v", r)
	}
	h.Refused("alice", "place cell:a1", "already tried")
	h.Ok("alice", "place cell:a2")
	r = h.Ok("bob", "place cell:d4")
	if !strings.Contains(r.Text, "Round revealed") || !strings.Contains(r.Text, "white a2, black d4") {
		t.Fatalf("reveal reply %s", r.Text)
	}
	h.Ok("bob", "move move:c4") // /move works for a placement choice too
	h.Restart()
	r = h.Ok("alice", "place cell:b1")
	if !strings.Contains(r.Text, "Placement is complete: alice moves first") {
		t.Fatalf("end of placement: %s", r.Text)
	}
	g := h.Game(id)
	if len(g.ToMove) != 1 || g.ToMove[0] != rules.White {
		t.Fatalf("to move %v", g.ToMove)
	}
	h.Refused("alice", "place cell:c1", "no placement")
	h.Play(id, "alice", "a2a3", "d4d3")
	pgn := string(h.Ok("carol", "pgn game:"+id).Files[0].Data)
	for _, want := range []string{"{Placement: 1. P@a1 P@a1 (again) 1. P@a2 P@d4 2. P@b1 P@c4}", "1. a2-a3 d4-d3",
		`[FEN ".W..W.........BB/2/-/-//w/0"]`, `[PlacementFEN "................`, `[Seed "`} {
		if !strings.Contains(pgn, want) {
			t.Errorf("PGN lacks %q:\n%s", want, pgn)
		}
	}
	hist := h.Ok("carol", "history game:"+id).Text
	if !strings.Contains(hist, "Placement: 1. P@a1 P@a1 (again)") || !strings.Contains(hist, "1. a2-a3 d4-d3") {
		t.Errorf("history: %s", hist)
	}
}

// mustPNG returns the picture of a notification.
func mustPNG(t *testing.T, h *bottest.Harness, n bot.Notification) []byte {
	t.Helper()
	for _, f := range n.Reply.Files {
		if f.ContentType == "image/png" {
			return f.Data
		}
	}
	t.Fatalf("notification without a picture: %+v", n)
	return nil
}

// The clock runs during placement: who has not chosen loses, and if neither has, the
// game is drawn.
func TestPlacementTimeout(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("toyplace", "days:1")
	h.Ok("alice", "place cell:a1")
	if d := h.Game(id).Clock.Deadline; !d.Equal(h.Clock.Now().Add(bottest.Day)) {
		t.Fatalf("a single choice moved the deadline to %v", d)
	}
	h.Clock.Advance(bottest.Day)
	h.Tick()
	if got := h.Game(id).Outcome; got != rules.Win(rules.White, rules.Timeout) {
		t.Fatalf("outcome %v", got)
	}
	id = h.Start("toyplace", "days:1")
	h.Clock.Advance(bottest.Day + time.Hour)
	h.Tick()
	if got := h.Game(id).Outcome; got != rules.Draw(rules.Timeout) {
		t.Fatalf("outcome %v", got)
	}
}

// Go-Chess through the service: sixteen secret rounds (collisions and king clashes
// as they come), a restart in the middle of a round, the reveal, then play.
func TestGoChessPlacement(t *testing.T) {
	h := bottest.New(t)
	h.Ok("bob", "settings notify:dm")
	id := h.Start("gochess", "")
	restarted := false
	for round := 0; ; round++ {
		g := h.Game(id)
		sim, ok := record.Round(g.Position)
		if !ok {
			break
		}
		if round > 60 {
			t.Fatal("placement does not end")
		}
		// alice takes her first eligible cell, bob his last.
		aCells := sim.LegalMovesFor(rules.White)
		a := g.Position.Variant().Dims().Name(aCells[0].To)
		r := h.Ok("alice", "place cell:"+a)
		if !r.Private {
			t.Fatalf("round %d: alice's choice was public: %s", round, r.Text)
		}
		for _, n := range h.Notes.Take() {
			if n.To.ID == "bob" && (leaks(n.Reply, a+"/-") || strings.Contains(string(mustPNG(t, h, n)), " "+a+"/-")) {
				t.Fatalf("round %d: bob's notification shows alice's pending %s: %s", round, a, n.Reply.PlainText())
			}
		}
		if b := h.Ok("bob", "board"); leaks(b, " "+a+"/-") {
			t.Fatalf("round %d: bob's board shows alice's pending %s", round, a)
		}
		if round == 9 && !restarted {
			h.Restart()
			restarted = true
		}
		g = h.Game(id)
		sim, _ = record.Round(g.Position)
		bCells := sim.LegalMovesFor(rules.Black)
		b := g.Position.Variant().Dims().Name(bCells[len(bCells)-1].To)
		r = h.Ok("bob", "place cell:"+b)
		if r.Private {
			t.Fatalf("round %d: the reveal was private", round)
		}
	}
	g := h.Game(id)
	if n := g.Position.Board().Pieces(); n != 32 || !g.Active() || len(g.ToMove) != 1 {
		t.Fatalf("after placement: %d pieces, to move %v, %v", n, g.ToMove, g.Outcome)
	}
	first := map[rules.Side]string{rules.White: "alice", rules.Black: "bob"}[g.ToMove[0]]
	h.Ok(first, "move move:"+g.Position.UCI(g.Position.LegalMoves()[0]))
	pgn := string(h.Ok("carol", "pgn game:"+id).Files[0].Data)
	for _, want := range []string{"{Placement: 1. P@", "16. K@", `[PlacementFEN "`, " placement 1 - -/- -/-", `[Seed "`} {
		if !strings.Contains(pgn, want) {
			t.Errorf("PGN lacks %q:\n%s", want, pgn)
		}
	}
	second := map[string]string{"alice": "bob", "bob": "alice"}[first]
	h.Refused(second, "takeback", "Placement choices cannot be taken back")
	h.Ok(first, "takeback")
}

// A cell off the board is refused as such, with the board's extent.
func TestPlacementOffTheBoard(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("toyplace", "")
	h.Refused("alice", "place cell:k3", `"k3" is not on the board (a1-d4).`)
	h.Refused("alice", "move move:a11", `"a11" is not on the board (a1-d4).`)
	if len(h.Game(id).Moves) != 0 {
		t.Fatal("a refused cell was played")
	}
}
