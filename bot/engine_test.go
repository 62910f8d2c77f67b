package bot_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
)

// An engine opponent answers each move; its moves reach the human in the game's
// place even with direct messages chosen.
func TestEngineOpponent(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "settings notify:dm")
	r := h.Ok("alice", "challenge variant:gothic engine:builtin level:5 color:white rated:true")
	if r.Started == nil || !strings.Contains(r.Text, "always casual") {
		t.Fatalf("reply %+v", r)
	}
	id := r.Started.ID
	g := h.Game(id)
	if g.Players[rules.Black].ID != "engine:builtin:5" || g.Rated {
		t.Fatalf("game %+v", g)
	}
	h.Notes.Take()
	h.Ok("alice", "move move:e2e4")
	g = h.Game(id)
	if len(g.Moves) != 2 || g.ToMove[0] != rules.White {
		t.Fatalf("the engine did not answer: %d moves", len(g.Moves))
	}
	ns := h.Notes.Take()
	if len(ns) != 1 || ns[0].To.ID != "alice" || ns[0].Kind != bot.NoticeTurn || !ns[0].Channel || !ns[0].Direct {
		t.Fatalf("notifications %+v", ns)
	}
	// Takebacks are granted at once; a draw offer is judged (this fake declines).
	h.Ok("alice", "takeback")
	if g := h.Game(id); len(g.Moves) != 0 {
		t.Fatalf("%d moves after the takeback", len(g.Moves))
	}
	if r := h.Ok("alice", "draw"); !strings.Contains(r.Text, "declines the draw and plays on") {
		t.Errorf("the engine's answer: %s", r.Text)
	}
	h.Ok("alice", "hint")
	h.Refused("alice", "challenge variant:gothic engine:stockfish9000", "no engine")
	h.Refused("alice", "challenge variant:gothic engine:builtin level:12", "level must be")
	h.Refused("alice", "challenge variant:gothic engine:builtin opponent:bob", "not both")
	h.Refused("alice", "challenge variant:gothic opponent:bob level:3", "A level is the engine's strength; a player is challenged without one. To play the engine, name it: engine:builtin level:N.")
	h.Refused("alice", "challenge variant:gothic level:3", "engine:builtin level:N")

	// Engine as White moves at once; opponent:engine:2 is a shortcut.
	r = h.Ok("bob", "challenge variant:keltic opponent:engine:2 color:black")
	g = h.Game(r.Started.ID)
	if g.Players[rules.White].ID != "engine:builtin:2" || len(g.Moves) != 1 {
		t.Fatalf("engine as white: %+v, %d moves", g.Players, len(g.Moves))
	}
}

// A failed engine move is retried by the scheduler, also after a restart.
func TestEngineRetry(t *testing.T) {
	h := bottest.New(t)
	id := h.Ok("alice", "challenge variant:gess engine:builtin color:white").Started.ID // Black (the engine) starts
	if n := len(h.Game(id).Moves); n != 1 {
		t.Fatalf("%d moves", n)
	}
	h.Engine.Mu.Lock()
	h.Engine.Fail = 1
	h.Engine.Mu.Unlock()
	g := h.Game(id)
	h.Ok("alice", "move move:"+g.Position.UCI(g.Position.LegalMoves()[0]))
	if n := len(h.Game(id).Moves); n != 2 {
		t.Fatalf("%d moves after a failed engine move", n)
	}
	h.Restart()
	h.Clock.Advance(bot.EngineRetry)
	h.Tick()
	if n := len(h.Game(id).Moves); n != 3 {
		t.Fatalf("%d moves after the retry", n)
	}
}

// The engine makes its placement choices in secret, like a person.
func TestEnginePlacement(t *testing.T) {
	h := bottest.New(t)
	id := h.Ok("alice", "challenge variant:toyplace engine:builtin color:white").Started.ID
	if g := h.Game(id); len(g.ToMove) != 1 || g.ToMove[0] != rules.White {
		t.Fatalf("the engine did not choose at once: to move %v", g.ToMove)
	}
	for _, cell := range []string{"d4", "c4", "b4", "a4"} {
		if _, ok := record.Round(h.Game(id).Position); !ok {
			break
		}
		h.Ok("alice", "place cell:"+cell)
	}
	g := h.Game(id)
	if _, ok := record.Round(g.Position); ok {
		t.Fatalf("placement not over: %s", g.Position)
	}
	if !g.Active() {
		t.Fatalf("game over: %v", g.Outcome)
	}
}

// Hints are private, for the player to move, and not in rated games.
func TestHints(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "")
	r := h.Ok("alice", "hint")
	if !r.Private || !strings.Contains(r.Text, "The engine suggests **") || len(r.Files) != 1 {
		t.Fatalf("hint %+v", r)
	}
	h.Refused("bob", "hint game:"+id, "It is alice's turn")
	rated := bottest.New(t)
	rated.Start("gothic", "rated:true")
	rated.Refused("alice", "hint", "not allowed in rated")
	rated.Config = func(c *bot.Config) { c.HintsInRated = true }
	rated.Restart()
	rated.Ok("alice", "hint")
}

// A draw offered to the engine is judged at once: declined, nothing changes and no
// offer stays pending; agreed, the game ends drawn by agreement. Answers to an offer
// the engine never made are refused without asking it, and an offer the game has
// moved on from while the engine thought is refused.
func TestEngineJudgesDraw(t *testing.T) {
	h := bottest.New(t)
	id := h.Ok("alice", "challenge variant:gothic engine:builtin color:white").Started.ID
	h.Ok("alice", "move move:e2e4")
	before := h.Game(id)

	r := h.Ok("alice", "draw") // an answer, not a refusal: the offer was made, and declined
	for _, want := range []string{"Missive engine (level 3) declines the draw and plays on", "a pawn or more behind", "from move 30 on"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("answer %q does not say %q", r.Text, want)
		}
	}
	if g := h.Game(id); !g.Active() || g.DrawOffer != nil || len(g.Moves) != len(before.Moves) {
		t.Fatalf("after a declined offer: active %v, offer %+v, %d moves", g.Active(), g.DrawOffer, len(g.Moves))
	}
	h.Refused("alice", "draw action:accept", "no draw offer")
	h.Refused("alice", "draw action:decline", "no draw offer")
	if h.Engine.Judged != 1 {
		t.Fatalf("the engine judged %d offers, want 1 (answers to no offer are not judged)", h.Engine.Judged)
	}
	if j := h.Engine.JudgedTurn; j.Side != rules.Black || j.Player != "engine:builtin:3" || len(j.Moves) != len(before.Moves) {
		t.Fatalf("the engine judged for %s as %s after %d moves; want engine:builtin:3 as black after %d", j.Player, j.Side, len(j.Moves), len(before.Moves))
	}

	// The game moves on while the engine thinks: the offer is refused, the takeback stands.
	h.Engine.Draws = true
	h.Engine.OnJudge = func() { h.Ok("alice", "takeback") }
	h.Refused("alice", "draw action:offer", "moved on while Missive engine (level 3) considered")
	if g := h.Game(id); !g.Active() || len(g.Moves) != 0 {
		t.Fatalf("after the takeback during the judgement: active %v, %d moves", g.Active(), len(g.Moves))
	}
	h.Engine.OnJudge = nil

	h.Ok("alice", "move move:e2e4")
	h.Notes.Take()
	r = h.Ok("alice", "draw")
	g := h.Game(id)
	if g.Outcome != rules.Draw(rules.Agreement) {
		t.Fatalf("outcome %+v, want a draw by agreement", g.Outcome)
	}
	if !strings.Contains(r.Text, "Missive engine (level 3) accepted alice's draw offer") {
		t.Errorf("reply %q", r.Text)
	}
}

// TestEngineOffersDraw: the engine asked after each of its moves offers a draw with
// the move when it says so. The offer is stored as the engine's, announced with the
// move, answered by the person's buttons, and lapses with their next move; a
// conditional reply waits for their own answer; an engine that cannot judge makes
// no offer.
func TestEngineOffersDraw(t *testing.T) {
	h := bottest.New(t)
	id := h.Ok("alice", "challenge variant:gothic engine:builtin color:white").Started.ID
	h.Ok("alice", "move move:e2e4")
	if g := h.Game(id); g.DrawOffer != nil || h.Engine.Asked != 1 {
		t.Fatalf("after the engine's first move: offer %+v, asked %d times", g.DrawOffer, h.Engine.Asked)
	}
	if o := h.Engine.OfferTurn; o.Side != rules.Black || o.Player != "engine:builtin:3" || len(o.Moves) != 2 {
		t.Fatalf("asked %s as %s after %d moves; want engine:builtin:3 as black after its move, the second", o.Player, o.Side, len(o.Moves))
	}

	h.Engine.Offers = true
	h.Notes.Take()
	r := h.Ok("alice", "move move:d2d4")
	g := h.Game(id)
	if o := g.DrawOffer; o == nil || o.By != rules.Black || o.Ply != len(g.Moves) || len(g.Moves) != 4 {
		t.Fatalf("the engine's offer %+v after %d moves", o, len(g.Moves))
	}
	const offered = "It offers a draw: alice may accept or decline it (/draw); the offer lapses if they move instead."
	said := r.Text
	for _, n := range h.Notes.Take() {
		said += "\n" + n.Reply.Text
	}
	if !strings.Contains(said, "Missive engine (level 3) (black) played") || !strings.Contains(said, offered) {
		t.Fatalf("what alice was told: %s", said)
	}
	b := h.Ok("alice", "board")
	var labels []string
	for _, a := range b.Actions {
		labels = append(labels, a.Label)
	}
	if !slices.Equal(labels, []string{"Move", "Accept draw", "Decline draw", "Resign"}) || !strings.Contains(b.Text, "offers a draw") {
		t.Fatalf("alice's board with the offer pending: %v\n%s", labels, b.Text)
	}
	r = h.Ok("alice", "draw action:decline")
	if g := h.Game(id); g.DrawOffer != nil || !g.Active() || !strings.Contains(r.Text, "alice declined Missive engine (level 3)'s draw offer") {
		t.Fatalf("declined: offer %+v, active %v: %s", g.DrawOffer, g.Active(), r.Text)
	}

	// A move lets the next offer lapse; the engine may offer again with its reply.
	h.Ok("alice", "move move:a2a3")
	if g := h.Game(id); g.DrawOffer == nil {
		t.Fatal("no second offer")
	}
	r = h.Ok("alice", "move move:b2b3")
	if !strings.Contains(r.Text, "Missive engine (level 3)'s draw offer lapsed with this move") {
		t.Fatalf("no lapse: %s", r.Text)
	}
	if g := h.Game(id); g.DrawOffer == nil || g.DrawOffer.Ply != len(g.Moves) || !g.Awaits(rules.White) {
		t.Fatalf("after the engine's reply: offer %+v, %d moves, %v to move", g.DrawOffer, len(g.Moves), g.ToMove)
	}
	h.Ok("alice", "move move:c2c3")
	r = h.Ok("alice", "draw")
	if g := h.Game(id); g.Outcome != rules.Draw(rules.Agreement) || !strings.Contains(r.Text, "alice accepted Missive engine (level 3)'s draw offer") {
		t.Fatalf("accepted: outcome %+v: %s", g.Outcome, r.Text)
	}

	// An engine that cannot judge makes no offer, and the game goes on.
	h2 := bottest.New(t)
	h2.Engine.Offers, h2.Engine.OfferErr = true, errors.New("engine crashed")
	id = h2.Ok("alice", "challenge variant:gothic engine:builtin color:white").Started.ID
	h2.Ok("alice", "move move:e2e4")
	if g := h2.Game(id); g.DrawOffer != nil || len(g.Moves) != 2 {
		t.Fatalf("with a failing judgement: offer %+v, %d moves", g.DrawOffer, len(g.Moves))
	}
}

// TestEngineResigns: an engine that resigns instead of moving loses the game by
// resignation, announced as a player's resignation is, in a game against a person
// (which would otherwise wait for its move for ever) and in a match.
func TestEngineResigns(t *testing.T) {
	h := bottest.New(t)
	id := h.Ok("alice", "challenge variant:gothic engine:builtin color:white").Started.ID
	h.Engine.Resigns = true
	h.Notes.Take()
	r := h.Ok("alice", "move move:e2e4")
	h.Svc.Idle()
	g := h.Game(id)
	if g.Active() || g.Outcome != rules.Win(rules.White, rules.Resignation) || len(g.Moves) != 1 {
		t.Fatalf("after the engine resigned: %s after %d plies", g.Outcome, len(g.Moves))
	}
	said := withNotices(h, r.Text)
	if !strings.Contains(said, "Missive engine (level 3) (black) resigned.") || strings.Contains(said, "failed") {
		t.Fatalf("what alice was told: %s", said)
	}
	posts := firstMatchGame(t, h, "match variant:keltic first_level:1 second_level:2 games:2 max_plies:20", 2, rules.Win(rules.Black, rules.Resignation))
	if !strings.Contains(posts, "Game 1: Missive engine (level 1) (white) resigned.") || strings.Contains(posts, "failed") {
		t.Errorf("the match's posts:\n%s", posts)
	}
}

// TestEngineGivesUp: an engine that keeps failing in a game against a person is
// tried again every minute; once its turn is an hour old and its last tries have
// all failed, it loses the game and the person is told, instead of waiting for
// ever. A failure that passes lets the game go on.
func TestEngineGivesUp(t *testing.T) {
	h := bottest.New(t)
	id := h.Ok("alice", "challenge variant:gothic engine:builtin color:white").Started.ID
	h.Engine.Fail = 1 << 30
	h.Ok("alice", "move move:e2e4")
	h.Svc.Idle()
	retry := func(d time.Duration) {
		t.Helper()
		h.Clock.Advance(d)
		if _, err := h.Svc.Tick(h.T.Context()); err != nil {
			t.Fatal(err)
		}
		h.Svc.Idle()
	}
	for range 50 { // 50 minutes of failures
		retry(time.Minute)
	}
	if g := h.Game(id); !g.Active() || len(g.Moves) != 1 {
		t.Fatalf("after 50 minutes: %s after %d plies, want the game waiting", g.Outcome, len(g.Moves))
	}
	h.Engine.Mu.Lock()
	h.Engine.Fail = 0 // the engine recovers
	h.Engine.Mu.Unlock()
	retry(time.Minute)
	if g := h.Game(id); !g.Active() || len(g.Moves) != 2 {
		t.Fatalf("after the engine recovered: %s after %d plies, want its move", g.Outcome, len(g.Moves))
	}

	h.Engine.Mu.Lock()
	h.Engine.Fail = 1 << 30
	h.Engine.Mu.Unlock()
	h.Notes.Take()
	h.Ok("alice", "move move:d2d4")
	h.Svc.Idle()
	retry(2 * time.Hour) // a long outage: one failed try is not enough
	if g := h.Game(id); !g.Active() {
		t.Fatalf("after one failed try two hours into the turn: %s", g.Outcome)
	}
	retry(time.Minute)
	retry(time.Minute)
	g := h.Game(id)
	if g.Active() || g.Outcome != rules.Win(rules.White, rules.Resignation) || len(g.Moves) != 3 {
		t.Fatalf("after three failed tries two hours into the turn: %s after %d plies", g.Outcome, len(g.Moves))
	}
	said := ""
	for _, n := range h.Notes.Take() {
		said += "\n" + n.Reply.Text
	}
	if !strings.Contains(said, "Missive engine (level 3) (black) could not move for an hour and loses the game") || strings.Contains(said, "crashed") {
		t.Fatalf("what alice was told: %s", said)
	}
}

// A player named like an engine is still challenged as a player (the console takes
// any name), and the challenger is told how the engine is played instead.
func TestChallengePlayerNamedLikeEngine(t *testing.T) {
	h := bottest.New(t)
	h.Notes.Take()
	r := h.Ok("alice", "challenge variant:gothic opponent:builtin")
	if r.Started != nil {
		t.Fatalf("a game started against a player named builtin: %+v", r.Started)
	}
	want := "To play the engine instead, withdraw it with /cancel challenge:1 and say /challenge variant:gothic engine:builtin."
	if !strings.Contains(r.Text, want) {
		t.Fatalf("reply %q lacks %q", r.Text, want)
	}
	if !slices.Contains(r.Mentions, "builtin") {
		t.Fatalf("the challenge mentions %v, not the player builtin", r.Mentions)
	}
	h.Ok("alice", "cancel challenge:1")
	r = h.Ok("alice", "challenge variant:gothic opponent:bob")
	if strings.Contains(r.Text, "engine") {
		t.Fatalf("the tip reached a challenge to bob: %q", r.Text)
	}
	r = h.Ok("alice", "challenge variant:gothic engine:builtin")
	if r.Started == nil {
		t.Fatalf("engine:builtin started no game: %+v", r)
	}
}
