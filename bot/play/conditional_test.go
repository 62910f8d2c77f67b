package play_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// noLeak fails when anything the opponent (or anyone but the line's owner) can
// read in a game shows one of secrets: the board, history, PGN, game list, the
// owner's /conditional show answered to someone else, and the given notices.
func noLeak(t *testing.T, h *bottest.Harness, id string, viewers []string, ns []bot.Notification, owner string, secrets ...string) {
	t.Helper()
	for _, who := range viewers {
		var rs []bot.Reply
		for _, cmd := range []string{"board", "history", "pgn", "games"} {
			rs = append(rs, h.Do(who, cmd+" game:"+id))
		}
		rs = append(rs, h.Do(who, "conditional action:show game:"+id))
		for _, r := range rs {
			for _, sec := range secrets {
				if leaks(r, sec) {
					t.Fatalf("%s sees %q: %s", who, sec, r.PlainText())
				}
			}
		}
	}
	for _, n := range ns {
		if n.To.ID == owner {
			continue
		}
		for _, sec := range secrets {
			if leaks(n.Reply, sec) || strings.Contains(string(mustPNG(t, h, n)), sec) {
				t.Fatalf("a notice to %s shows %q: %s", n.To.ID, sec, n.Reply.PlainText())
			}
		}
	}
}

// Conditional moves in Gothic Chess: lines are checked when entered, kept private,
// survive a restart, answer a matching move at once (the opponent is told, the
// line moves on), and are cleared by a move outside them, by a draw offer pending
// with the move, and by a takeback.
func TestConditionalChess(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "settings notify:dm")
	h.Ok("bob", "settings notify:dm")
	id := h.Start("gothic", "")
	h.Ok("alice", "move move:e4")
	h.Refused("bob", "conditional action:add line:Nc3_Nc6", "It is your move")
	h.Ok("bob", "move move:e5")
	h.Notes.Take()

	// Checked when entered.
	h.Refused("bob", "conditional action:add line:Nc3", "and your reply")
	h.Refused("bob", "conditional action:add line:Nc3_Nc6_Nh3", "add your reply")
	// Two sentences, the rules' own after the line's: no capital in mid-sentence.
	h.Refused("bob", "conditional action:add line:Nc3_Qxh7", `Move 2 of your line (your reply) cannot be played there. You cannot play "Qxh7"`)
	h.Refused("bob", "conditional action:add line:Nc9_Nc6", "Move 1 of your line (your opponent's move) cannot be played there")
	h.Refused("alice", "conditional action:add line:Nc6_Nc3", "It is your move")
	r := h.Ok("bob", "conditional action:add line:12._Nc3_12..._Nc6,_Nh3_Nh6")
	if !r.Private || !strings.Contains(r.Text, "if 2. Nc3 then 2... Nc6; if 3. Nh3 then 3... Nh6") {
		t.Fatalf("add: %+v", r)
	}
	h.Ok("bob", "conditional action:add line:d4_exd4")
	h.Refused("bob", "conditional action:add line:Nc3_Nh6", "already answers it with 2... Nc6")
	h.Refused("bob", "conditional action:add line:Nc3_Nc6", "already have this line")
	if g := h.Game(id); len(g.Conditional) != 2 || g.Conditional[0].Moves[1] != "b8c6" {
		t.Fatalf("stored lines %+v", g.Conditional)
	}
	// Never shown to the opponent, nor to anyone else; not even an error of
	// alice's names them.
	noLeak(t, h, id, []string{"alice", "carol"}, h.Notes.Take(), "bob", "Nc6", "Nh6", "exd4", "b8c6")
	if r := h.Refused("alice", "move move:Nc9", ""); strings.Contains(r.Text, "Nc6") || strings.Contains(r.Text, "onditional") {
		t.Fatalf("alice's refusal mentions bob's lines: %s", r.Text)
	}

	h.Restart()
	if r := h.Ok("bob", "conditional action:show"); !strings.Contains(r.Text, "1. if 2. Nc3 then 2... Nc6; if 3. Nh3 then 3... Nh6") ||
		!strings.Contains(r.Text, "\n2. if 2. d4 then 2... exd4") {
		t.Fatalf("after a restart: %s", r.Text)
	}

	// A matching move: the reply follows at once, the line moves on, the other goes.
	r = h.Ok("alice", "move move:Nc3")
	if !strings.Contains(r.Text, "alice (white) played **Nc3**") || !strings.Contains(r.Text, "bob (black) played **Nc6**") ||
		!strings.Contains(r.Text, "bob had this conditional reply ready") {
		t.Fatalf("reply to the matched move: %s", r.Text)
	}
	g := h.Game(id)
	if len(g.Moves) != 4 || !g.Awaits(rules.White) {
		t.Fatalf("after the reply: %d moves, %v to move", len(g.Moves), g.ToMove)
	}
	ns := h.Notes.Take()
	if got := bottest.NotesFor(ns, "bob"); !slices.Equal(got, []bot.NoticeKind{bot.NoticeInfo}) {
		t.Fatalf("bob's notices %v", got)
	}
	if got := bottest.NotesFor(ns, "alice"); len(got) != 0 || slices.Contains(r.Mentions, "alice") {
		t.Fatalf("alice, who sees the reply to her move, was also told: %v %v", got, r.Mentions)
	}
	if !strings.Contains(ns[0].Reply.Text, "Your conditional reply **Nc6** was played") {
		t.Errorf("bob's notice: %s", ns[0].Reply.Text)
	}
	noLeak(t, h, id, []string{"alice", "carol"}, ns, "bob", "Nh6", "exd4")
	if r := h.Ok("bob", "conditional action:show"); !strings.Contains(r.Text, "1. if 3. Nh3 then 3... Nh6") || strings.Contains(r.Text, "\n2. ") {
		t.Fatalf("the line did not move on: %s", r.Text)
	}

	// A move outside every line clears them.
	h.Ok("alice", "move move:a3")
	if g := h.Game(id); len(g.Conditional) != 0 || !g.Awaits(rules.Black) {
		t.Fatalf("after a move outside the lines: %+v, %v to move", g.Conditional, g.ToMove)
	}
	if r := h.Ok("bob", "conditional action:show"); !strings.Contains(r.Text, "no conditional lines") {
		t.Fatalf("show: %s", r.Text)
	}

	// A draw offer made with the matching move waits for bob's own answer.
	h.Ok("bob", "move move:a6")
	h.Ok("bob", "conditional action:add line:b3_b6")
	h.Ok("alice", "draw action:offer")
	h.Ok("alice", "move move:b3")
	if g := h.Game(id); len(g.Conditional) != 0 || !g.Awaits(rules.Black) || g.DrawOffer == nil {
		t.Fatalf("with a draw offer pending: %+v, %v to move", g.Conditional, g.ToMove)
	}
	h.Ok("bob", "draw action:decline")

	// A takeback clears them.
	h.Ok("bob", "move move:b6")
	h.Ok("bob", "conditional action:add line:d3_d6")
	h.Ok("alice", "takeback")
	h.Ok("bob", "takeback action:accept")
	if g := h.Game(id); len(g.Conditional) != 0 {
		t.Fatalf("after a takeback: %+v", g.Conditional)
	}
	h.Ok("alice", "move move:b4")
	h.Ok("alice", "conditional action:add line:d6_d3")
	h.Ok("bob", "resign")
	if g := h.Game(id); len(g.Conditional) != 0 {
		t.Fatalf("after the end: %+v", g.Conditional)
	}
	h.Refused("alice", "conditional action:show game:"+id, "is over")
}

// A Gess line: Gess's own notation, two replies played one after the other.
func TestConditionalGess(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gess", "")
	// Black (bob) moves first in Gess.
	h.Refused("alice", "conditional action:add line:c3c4_c18c17_c18c17_c3c4", "cannot be played there")
	h.Ok("alice", "conditional action:add line:c3c4_c18c16_c4c3_c16c18")
	h.Restart()
	r := h.Ok("bob", "move move:c3c4")
	if !strings.Contains(r.Text, "conditional reply ready") {
		t.Fatalf("reply: %s", r.Text)
	}
	h.Ok("bob", "move move:c4c3")
	g := h.Game(id)
	var got []string
	for _, e := range g.Moves {
		got = append(got, e.Move)
	}
	if want := []string{"c3c4", "c18c16", "c4c3", "c16c18"}; !slices.Equal(got, want) || len(g.Conditional) != 0 || !g.Awaits(rules.Black) {
		t.Fatalf("moves %v (want %v), lines %+v, to move %v", got, want, g.Conditional, g.ToMove)
	}
}

// A Go-Chess placement line: after alice has chosen this round, "if bob places his
// pawn on X, place mine on Y next round"; her next choice is made as soon as the
// round is revealed and stays secret until bob has chosen too.
func TestConditionalGoChess(t *testing.T) {
	h := bottest.New(t)
	h.Ok("bob", "settings notify:dm")
	h.Ok("alice", "settings notify:both") // her notice goes to the game's channel too
	id := h.Start("gochess", "")
	h.Refused("alice", "conditional action:add line:a1_a2", "Make this round's choice first")
	g := h.Game(id)
	sim, _ := record.Round(g.Position)
	d := g.Position.Variant().Dims()
	a1 := d.Name(sim.LegalMovesFor(rules.White)[0].To)
	h.Ok("alice", "place cell:"+a1)
	// Work out bob's choice and alice's next cell with the rules themselves.
	g = h.Game(id)
	sim, _ = record.Round(g.Position)
	bCells := sim.LegalMovesFor(rules.Black)
	b1 := d.Name(bCells[len(bCells)-1].To)
	trial := g.Record
	trial.Moves = slices.Clone(g.Moves)
	_, next, err := trial.Play(g.Position, rules.Black, "P@"+b1, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	nsim, _ := record.Round(next)
	aCells := nsim.LegalMovesFor(rules.White)
	a2 := d.Name(aCells[len(aCells)/2].To)
	if a2 == a1 || a2 == b1 {
		t.Fatalf("pick another cell: %s", a2)
	}
	h.Refused("alice", "conditional action:add line:P@"+b1+"_P@"+b1, "cannot be played there")
	r := h.Ok("alice", "conditional action:add line:P@"+b1+"_"+a2) // a bare cell means the round's piece
	if !strings.Contains(r.Text, "if P@"+b1+" then P@"+a2) {
		t.Fatalf("add: %s", r.Text)
	}
	h.Notes.Take()
	noLeak(t, h, id, []string{"bob", "carol"}, nil, "alice", "P@"+a2, " "+a2)

	h.Restart()
	r = h.Ok("bob", "place cell:"+b1)
	if r.Private || !strings.Contains(r.Text, "Round revealed") || !strings.Contains(r.Text, "conditional choice ready") {
		t.Fatalf("bob's reply: %+v", r)
	}
	if leaks(r, " "+a2) {
		t.Fatalf("bob's reply shows alice's secret choice %s: %s", a2, r.PlainText())
	}
	g = h.Game(id)
	if len(g.Moves) != 3 || !slices.Equal(g.ToMove, []rules.Side{rules.Black}) || g.Moves[2].Move != "P@"+a2 {
		t.Fatalf("after the reveal: %+v, to move %v", g.Moves, g.ToMove)
	}
	ns := h.Notes.Take()
	if got := bottest.NotesFor(ns, "bob"); len(got) != 0 {
		t.Fatalf("bob, who sees the reply to his choice, was also told: %v", got)
	}
	noLeak(t, h, id, []string{"bob", "carol"}, ns, "alice", "P@"+a2, " "+a2)
	if got := bottest.NotesFor(ns, "alice"); !slices.Equal(got, []bot.NoticeKind{bot.NoticeInfo}) {
		t.Fatalf("alice's notices %v", got)
	}
	for _, n := range ns {
		if n.To.ID == "alice" && (!strings.Contains(n.Reply.Text, "Your conditional choice for this round is made") ||
			strings.Contains(n.Reply.Text, a2)) {
			t.Fatalf("alice's notice, which may be read by all in the channel: %s", n.Reply.Text)
		}
	}
	if b := h.Ok("alice", "board"); !b.Private || !strings.Contains(string(b.Files[0].Data), a2) {
		t.Fatalf("alice's own board does not show her choice %s: %s", a2, b.Files[0].Data)
	}
	sim, _ = record.Round(g.Position)
	b2 := d.Name(sim.LegalMovesFor(rules.Black)[0].To)
	r = h.Ok("bob", "place cell:"+b2)
	if !strings.Contains(r.Text, "white "+a2) {
		t.Fatalf("second reveal: %s", r.Text)
	}
	if g := h.Game(id); len(g.Conditional) != 0 {
		t.Fatalf("lines left %+v", g.Conditional)
	}
	_ = storage.Conditional{}
}

// A conditional reply that ends the game ends it through the path of a move: the
// result is announced, both are told, and the lines are gone.
func TestConditionalReplyEndsTheGame(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "fen:k9/pp5p2/10/10/10/10/10/K3R5_b_-_-_0_1") // bob (Black) moves first
	g := h.Game(id)
	pos := g.Position
	var line []string
	for _, m := range pos.LegalMoves() {
		next, err := pos.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range next.LegalMoves() {
			if after, err := next.Play(r); err == nil && after.Outcome().Reason == rules.Checkmate {
				line = []string{pos.UCI(m), next.UCI(r)}
				break
			}
		}
		if line != nil {
			break
		}
	}
	if line == nil {
		t.Fatal("no mate in one after any of Black's moves")
	}
	h.Ok("alice", "conditional action:add line:"+strings.Join(line, "_"))
	h.Ok("bob", "settings notify:dm")
	r := h.Ok("bob", "move move:"+line[0])
	if !strings.Contains(r.Text, "alice (white) wins by checkmate") || !strings.Contains(r.Text, "conditional reply ready") {
		t.Fatalf("reply: %s", r.Text)
	}
	g = h.Game(id)
	if g.Outcome != rules.Win(rules.White, rules.Checkmate) || len(g.Conditional) != 0 {
		t.Fatalf("outcome %v, lines %+v", g.Outcome, g.Conditional)
	}
	if got := bottest.NotesFor(h.Notes.Take(), "bob"); len(got) != 0 {
		t.Fatalf("bob, who sees the result in the reply to his move, was also told: %v", got)
	}
}
