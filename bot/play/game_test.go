package play_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/play"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
)

// Each variant played to its decisive end through the service: alice (White)
// challenges bob, bob accepts, they play.
func TestFullGames(t *testing.T) {
	for _, tc := range []struct {
		variant string
		first   string // who moves first: Gess starts with Black
		moves   []string
		want    rules.Outcome
	}{
		{"gothic", "alice", []string{"Cf3", "d5", "Ah3", "Nd7", "Ae6#"}, rules.Win(rules.White, rules.Checkmate)},
		{"keltic", "alice", []string{"Nc4", "dxc4", "Kd2", "cxd3", "Kxd3", "Qd5#"}, rules.Win(rules.Black, rules.Checkmate)},
		{"gess", "bob", []string{"e3-e5", "l18xl15", "e6xl13"}, rules.Win(rules.Black, rules.RingLoss)},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			h := bottest.New(t)
			id := h.Start(tc.variant, "")
			g := h.Game(id)
			if g.Players[rules.White].ID != "alice" || g.Clock.DaysPerMove != clock.DefaultDays || g.Clock.Deadline.IsZero() {
				t.Fatalf("game %+v", g)
			}
			r := h.Play(id, tc.first, tc.moves...)
			g = h.Game(id)
			if g.Outcome != tc.want {
				t.Fatalf("outcome %v, want %v", g.Outcome, tc.want)
			}
			if !strings.Contains(r.Text, "Game over") || !strings.Contains(r.Text, words.Reason(tc.want.Reason)) {
				t.Errorf("final reply does not announce the end: %s", r.Text)
			}
			if !g.Clock.Deadline.IsZero() || len(g.ToMove) != 0 {
				t.Errorf("clock still runs after the end: %+v to move %v", g.Clock, g.ToMove)
			}
			if next, err := h.Svc.Tick(t.Context()); err != nil || !next.IsZero() {
				t.Errorf("scheduler still has work: %v %v", next, err)
			}
			last := tc.moves[len(tc.moves)-1]
			h.Refused(tc.first, "move game:"+id+" move:"+last, "is over")
		})
	}
}

// Stalemate, threefold repetition, draw by agreement, resignation and abort, in each
// variant where the rule exists.
func TestDraws(t *testing.T) {
	stalemates := []struct{ variant, fen, move string }{
		{"gothic", "k9/10/3Q6/10/10/10/10/K9 w - - 0 1", "Qb6"},
		{"keltic", "***k2***/**5**/5P3/2Q6/9/**5**/***1K1*** w - - 0 1", "Qc5"},
		{"gochess", "k9/10/3Q6/10/10/**********/10/10/10/K9 w - - 0 1", "Qb8"},
	}
	for _, tc := range stalemates {
		t.Run("stalemate/"+tc.variant, func(t *testing.T) {
			h := bottest.New(t)
			id := h.Start(tc.variant, "fen:"+strings.ReplaceAll(tc.fen, " ", "_"))
			r := h.Ok("alice", "move move:"+tc.move)
			if got := h.Game(id).Outcome; got != rules.Draw(rules.Stalemate) {
				t.Fatalf("outcome %v after %s", got, tc.move)
			}
			if !strings.Contains(r.Text, "drawn by stalemate") {
				t.Errorf("reply: %s", r.Text)
			}
		})
	}
	repetitions := []struct {
		variant, fen, first string
		cycle               []string
	}{
		{"gothic", "", "alice", []string{"Nc3", "Nc6", "Nb1", "Nb8"}},
		{"keltic", "", "alice", []string{"d2c4", "f6g4", "c4d2", "g4f6"}},
		{"gess", "", "bob", []string{"c3c4", "c18c16", "c4c3", "c16c18"}},
		{"gochess", "k9/10/10/10/10/**********/10/10/10/KQ8 w - - 0 1", "alice", []string{"Ka2", "Kb10", "Ka1", "Ka10"}},
	}
	for _, tc := range repetitions {
		t.Run("threefold/"+tc.variant, func(t *testing.T) {
			h := bottest.New(t)
			extra := ""
			if tc.fen != "" {
				extra = "fen:" + strings.ReplaceAll(tc.fen, " ", "_")
			}
			id := h.Start(tc.variant, extra)
			h.Play(id, tc.first, tc.cycle...)
			if !h.Game(id).Active() {
				t.Fatal("over after one cycle")
			}
			r := h.Play(id, tc.first, tc.cycle...)
			if got := h.Game(id).Outcome; got != rules.Draw(rules.Threefold) {
				t.Fatalf("outcome %v after two cycles", got)
			}
			if !strings.Contains(r.Text, "threefold") {
				t.Errorf("reply: %s", r.Text)
			}
		})
	}
	for _, variant := range []string{"gothic", "keltic", "gess"} {
		t.Run("agreement/"+variant, func(t *testing.T) {
			h := bottest.New(t)
			id := h.Start(variant, "")
			h.Ok("bob", "settings notify:dm")
			r := h.Ok("alice", "draw")
			if !strings.Contains(r.Text, "offers a draw") || len(r.Actions) != 2 {
				t.Fatalf("offer reply: %+v", r)
			}
			if got := bottest.NotesFor(h.Notes.Take(), "bob"); !slices.Equal(got, []bot.NoticeKind{play.NoticeDrawOffer}) {
				t.Fatalf("bob was told %v", got)
			}
			h.Refused("alice", "draw", "already made a draw offer")
			h.Refused("alice", "draw action:accept", "The draw offer in game "+id+" is yours; bob has not answered it yet.")
			h.Refused("alice", "draw action:decline", "The draw offer in game "+id+" is yours; bob has not answered it yet.")
			r = h.Ok("bob", "draw")
			if got := h.Game(id).Outcome; got != rules.Draw(rules.Agreement) {
				t.Fatalf("outcome %v", got)
			}
			if !strings.Contains(r.Text, "accepted") {
				t.Errorf("reply: %s", r.Text)
			}
		})
		t.Run("resign/"+variant, func(t *testing.T) {
			h := bottest.New(t)
			id := h.Start(variant, "")
			h.Ok("alice", "settings notify:both")
			h.Ok("bob", "resign")
			if got := h.Game(id).Outcome; got != rules.Win(rules.White, rules.Resignation) {
				t.Fatalf("outcome %v", got)
			}
			ns := h.Notes.Take()
			if got := bottest.NotesFor(ns, "alice"); !slices.Equal(got, []bot.NoticeKind{bot.NoticeGameOver}) {
				t.Fatalf("alice was told %v", got)
			}
			if n := ns[0]; !n.Direct || n.Channel {
				t.Errorf("notify:both in the game's own place: want only a DM besides the reply's mention, got %+v", n)
			}
		})
	}
}

// A draw offer lapses when the offerer's opponent moves, not when the offerer does;
// declining clears it.
func TestDrawOfferLapses(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "")
	h.Ok("alice", "draw")
	h.Play(id, "alice", "e2e4")
	if h.Game(id).DrawOffer == nil {
		t.Fatal("the offerer's own move withdrew the offer")
	}
	r := h.Play(id, "bob", "e7e5")
	if h.Game(id).DrawOffer != nil || !strings.Contains(r.Text, "lapsed") {
		t.Fatalf("offer did not lapse: %s", r.Text)
	}
	h.Refused("bob", "draw action:accept", "has made no draw offer")
	h.Ok("alice", "draw")
	h.Ok("bob", "draw action:decline")
	if g := h.Game(id); g.DrawOffer != nil || !g.Active() {
		t.Fatal("decline did not clear the offer")
	}
	h.Refused("bob", "draw action:decline", "no draw offer from")
}

// Takebacks: casual only; the requester's last move (and the reply since) go back.
func TestTakeback(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "")
	h.Refused("alice", "takeback", "no move to take back")
	h.Play(id, "alice", "e2e4", "e7e5")
	h.Ok("alice", "takeback")
	h.Refused("alice", "takeback action:accept", "The takeback request in game "+id+" is yours; bob has not answered it yet.")
	r := h.Ok("bob", "takeback")
	g := h.Game(id)
	if len(g.Moves) != 0 || g.ToMove[0] != rules.White || g.Takeback != nil {
		t.Fatalf("after takeback: %d moves, %v to move", len(g.Moves), g.ToMove)
	}
	if !strings.Contains(r.Text, "2 moves taken back") {
		t.Errorf("reply: %s", r.Text)
	}
	// Right after one's own move only that move goes back.
	h.Play(id, "alice", "d2d4")
	h.Ok("alice", "takeback")
	h.Ok("bob", "takeback action:accept")
	if g := h.Game(id); len(g.Moves) != 0 {
		t.Fatalf("%d moves left", len(g.Moves))
	}
	// A request lapses with the next move; declining clears it.
	h.Play(id, "alice", "d2d4")
	h.Ok("alice", "takeback")
	h.Ok("bob", "takeback action:decline")
	if g := h.Game(id); g.Takeback != nil || len(g.Moves) != 1 {
		t.Fatal("decline changed the game")
	}
	h.Ok("alice", "takeback")
	h.Play(id, "bob", "d7d5")
	if h.Game(id).Takeback != nil {
		t.Fatal("the request did not lapse with the opponent's move")
	}

	rated := bottest.New(t)
	rid := rated.Start("gothic", "rated:true")
	rated.Play(rid, "alice", "e2e4")
	rated.Refused("alice", "takeback", "rated")
}

// Abort is possible until both sides have moved, then refused.
func TestAbort(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("keltic", "")
	h.Play(id, "alice", "e3e4")
	r := h.Ok("bob", "abort")
	g := h.Game(id)
	if g.Outcome.Reason != rules.Aborted || g.Outcome.Status != rules.Drawn {
		t.Fatalf("outcome %v", g.Outcome)
	}
	if !strings.Contains(r.Text, "aborted") || !strings.Contains(r.Text, "Game over: aborted, no result.") {
		t.Errorf("reply %s", r.Text)
	}
	if pgn := string(h.Ok("alice", "pgn game:"+id).Files[0].Data); !strings.Contains(pgn, `[Result "*"]`) || !strings.Contains(pgn, `[Termination "abandoned"]`) {
		t.Errorf("PGN of an aborted game:\n%s", pgn)
	}
	id = h.Start("keltic", "")
	h.Play(id, "alice", "e3e4", "d5d4")
	h.Refused("alice", "abort game:"+id, "can no longer be aborted")
}

// A promotion without its piece offers the choices; with the piece it plays.
func TestPromotionChoice(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "fen:k9/5P4/10/10/10/10/10/K9_w_-_-_0_1")
	r := h.Refused("alice", "move move:f8", "Which piece")
	if r.Choice == nil || len(r.Choice.Options) != 6 || r.Choice.Command != play.CmdMove || r.Choice.Args["game"] != id {
		t.Fatalf("choice %+v", r.Choice)
	}
	var labels []string
	for _, o := range r.Choice.Options {
		labels = append(labels, o.Label)
	}
	if !slices.Contains(labels, "f8=A") || !slices.Contains(labels, "f8=C+") {
		t.Errorf("promotion choices %v", labels)
	}
	pick := r.Choice.Options[0].Value
	h.Ok("alice", "move move:"+pick+" game:"+id)
	if len(h.Game(id).Moves) != 1 {
		t.Fatal("the chosen promotion was not played")
	}
}
