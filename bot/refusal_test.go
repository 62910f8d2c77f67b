package bot_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/play"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// Every refusal says what was wrong, and changes nothing.
func TestRefusals(t *testing.T) {
	h := bottest.New(t)
	h.Refused("alice", "challenge variant:chess960 opponent:bob", "Which game?")
	h.Refused("alice", "challenge variant:gothic opponent:bob days:4", "Days per move must be one of 1, 2, 3, 5, 7, 10 or 14")
	h.Refused("alice", "challenge variant:gothic opponent:bob color:red", "Colour must be white, black or random")
	h.Refused("alice", "challenge variant:gothic opponent:alice", "cannot challenge yourself")
	for _, v := range variants.Registry().Variants() { // the example given is a position the option takes
		// In a code span, so that Discord shows a FEN's *** as they are.
		example := "fen:\"" + v.Start(0).String() + "\""
		r := h.Refused("alice", "challenge variant:"+v.Key()+" fen:not_a_position", " position written as /pgn writes it in its FEN tag, like the starting position: `"+example+"`.")
		if strings.Contains(r.Text, "/board") {
			t.Errorf("the refusal points to /board, which shows no position text: %s", r.Text)
		}
		// Copied as it is shown, quotes and all, the example is taken.
		bottest.New(t).Ok("alice", "challenge variant:"+v.Key()+" opponent:bob "+strings.ReplaceAll(example, " ", "_"))
	}
	h.Refused("alice", "frobnicate", "There is no command")
	// An id echoed back is quoted with its control characters escaped, and shortened.
	h.Refused("alice", "board game:\x1b[2J\x1b]0;pwned\a", `There is no game "\x1b[2J\x1b]0;pwned\a" here.`)
	h.Refused("alice", "accept challenge:"+strings.Repeat("9", 40), `There is no challenge #"`+strings.Repeat("9", 32)+`…" here`)
	h.Refused("alice", "challenge variant:gothic opponent:bob\x1b[2J", `A player's name holds no control characters; "bob\x1b[2J" does.`)
	h.Refused("bob", "accept", "no open challenge")

	h.Ok("alice", "challenge variant:gothic opponent:bob")
	h.Refused("alice", "accept challenge:1", "cannot accept your own challenge")
	h.Refused("carol", "accept challenge:1", "was made to bob, not to you")
	h.Refused("carol", "decline challenge:1", "was made to bob, not to you")
	h.Refused("bob", "cancel challenge:1", "Only alice")
	h.Refused("bob", "accept challenge:9", "There is no challenge #9")
	id := h.Ok("bob", "accept").Started.ID
	h.Refused("bob", "accept challenge:1", "already accepted")

	h.Refused("carol", "move game:"+id+" move:e2e4", "You are not playing in game "+id)
	h.Refused("carol", "resign game:"+id, "You are not playing in game "+id)
	h.Refused("carol", "move move:e2e4", "no game in progress")
	h.Refused("bob", "move move:e7e5", "It is alice's turn in game "+id+", not yours")
	r := h.Refused("alice", "move move:e2e5", "e2e5")
	if !strings.Contains(r.Text, "e2e3") || strings.Contains(r.Text, "chess:") {
		t.Errorf("illegal-move message should list the candidates without package prefixes: %s", r.Text)
	}
	h.Refused("alice", "move move:zz9", "")
	h.Refused("alice", "move game:77 move:e2e4", "There is no game 77")
	h.Refused("alice", "place cell:d4", "no placement")
	h.Refused("alice", "settings notify:pigeon", "Notify must be mention, dm or both")
	h.Refused("alice", "settings theme:neon", "There is no theme")
	h.Refused("alice", "settings reminders:soon", "Reminders are hours")
	h.Refused("alice", "draw action:dance", "offer, accept or decline")
	if g := h.Game(id); len(g.Moves) != 0 || !g.Active() {
		t.Fatalf("a refusal changed the game: %+v", g)
	}

	// A second game makes the game option necessary for anything but the only game
	// waiting for the player's move.
	h.Ok("bob", "challenge variant:keltic opponent:alice color:white")
	id2 := h.Ok("alice", "accept").Started.ID
	r = h.Refused("alice", "resign", "You play 2 games (#1, #2): say which with game:<number>.") // no threads without a server
	if on := h.Svc.Handle(context.Background(), bot.Request{ID: "on-server", User: bot.User{ID: "alice", Name: "alice"}, Place: bot.Place{Guild: "g1", Channel: "c1"},
		Command: "resign", Args: bot.Args{}}); !strings.Contains(on.Text, "say which with game:<number>, or use the command in the game's thread.") {
		t.Fatalf("on a server: %s", on.Text)
	}
	if r.Choice == nil || len(r.Choice.Options) != 2 || r.Choice.Command != play.CmdResign {
		t.Fatalf("choice %+v", r.Choice)
	}
	h.Ok("alice", "move move:e2e4") // game 1 is the only one waiting for alice
	h.Refused("bob", "resign", "You play 2 games")
	h.Ok("bob", "move move:e3e4") // both wait for bob now, but e3e4 is legal in game 2 only
	if len(h.Game(id).Moves) != 1 || len(h.Game(id2).Moves) != 1 {
		t.Fatal("moves went to the wrong games")
	}
}

// An expired challenge cannot be accepted; the scheduler closes it and tells the
// challenger.
func TestChallengeExpiry(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "challenge variant:gess opponent:bob")
	h.Ok("alice", "settings notify:dm")
	h.Clock.Advance(7*bottest.Day + time.Second)
	h.Refused("bob", "accept challenge:1", "expired")
	h.Tick()
	if got := bottest.NotesFor(h.Notes.Take(), "alice"); len(got) != 1 || got[0] != bot.NoticeChallenge {
		t.Fatalf("alice was told %v", got)
	}
	h.Refused("bob", "accept challenge:1", "expired")
	h.Tick()
	if len(h.Notes.Take()) != 0 {
		t.Fatal("the expiry was announced twice")
	}
}

// Open challenges: anyone but the challenger accepts; declining is for the addressee.
func TestOpenChallenge(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "challenge variant:gothic")
	h.Refused("carol", "decline challenge:1", "open to anyone")
	h.Ok("alice", "challenge variant:keltic opponent:bob")
	r := h.Ok("carol", "challenges")
	if !strings.Contains(r.Text, "#1") || strings.Contains(r.Text, "#2") {
		t.Errorf("carol sees %s", r.Text)
	}
	r = h.Ok("carol", "accept")
	g := h.Game(r.Started.ID)
	if g.Players[0].ID != "alice" || g.Players[1].ID != "carol" {
		t.Fatalf("players %+v", g.Players)
	}
	h.Ok("bob", "decline")
	h.Refused("bob", "accept challenge:2", "was declined")
	h.Ok("alice", "challenge variant:gess opponent:bob")
	h.Ok("alice", "cancel")
	h.Refused("bob", "accept challenge:3", "was cancelled")
}

// Limits on open challenges and games in progress.
func TestLimits(t *testing.T) {
	h := bottest.New(t)
	h.Config = func(c *bot.Config) { c.Limits.OpenChallenges, c.Limits.ActiveGames = 2, 1 }
	h.Restart()
	h.Ok("alice", "challenge variant:gothic opponent:bob")
	h.Ok("alice", "challenge variant:gothic opponent:carol")
	h.Refused("alice", "challenge variant:gothic opponent:dave", "2 open challenges")
	h.Ok("bob", "accept challenge:1")
	h.Refused("carol", "accept challenge:2", "alice already plays 1 game,")
	h.Refused("alice", "challenge variant:gothic engine:builtin", "already plays")
}

// The same request delivered twice is applied once.
func TestIdempotency(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "")
	h.DoID("alice", "move move:e2e4", "interaction-1")
	r := h.DoID("alice", "move move:e2e4", "interaction-1")
	if r.Refused || !strings.Contains(r.Text, "already done") || !strings.Contains(r.Text, "e4") {
		t.Fatalf("second delivery: %+v", r)
	}
	if n := len(h.Game(id).Moves); n != 1 {
		t.Fatalf("%d moves stored", n)
	}
	// A refused request is not recorded: the same id can succeed later.
	h.DoID("bob", "move move:e7e9", "interaction-2")
	r = h.DoID("bob", "move move:e7e5", "interaction-3")
	if r.Refused {
		t.Fatal(r.Text)
	}
}

// A panic inside one command is answered politely and the service goes on.
func TestPanicRecovered(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "")
	h.Render.Mu.Lock()
	h.Render.Panic = true
	h.Render.Mu.Unlock()
	r := h.Do("alice", "board game:"+id)
	if !r.Refused || !strings.Contains(r.Text, "something went wrong") {
		t.Fatalf("reply %+v", r)
	}
	h.Ok("alice", "move move:e2e4")
	h.Ok("alice", "board")
}

// Typed operations report errors that callers can classify.
func TestErrorKinds(t *testing.T) {
	h := bottest.New(t)
	_, err := h.Svc.CreateGame(context.Background(), bot.NewGame{Variant: "gothic",
		White: storage.Seat{ID: "a"}, Black: storage.Seat{ID: "a"}})
	if !errors.Is(err, bot.ErrRefused) {
		t.Fatalf("same player twice: %v", err)
	}
	_, err = h.Svc.CreateGame(context.Background(), bot.NewGame{Variant: "gothic", DaysPerMove: 4,
		White: storage.Seat{ID: "a"}, Black: storage.Seat{ID: "b"}})
	if !errors.Is(err, bot.ErrRefused) {
		t.Fatalf("4 days: %v", err)
	}
	g, err := h.Svc.CreateGame(context.Background(), bot.NewGame{Variant: "keltic", DaysPerMove: 7, Tournament: "1", Round: 2,
		White: storage.Seat{ID: "a", Name: "Ann"}, Black: storage.Seat{ID: "b", Name: "Ben"}})
	if err != nil || g.Tournament != "1" || g.Clock.Deadline.IsZero() {
		t.Fatalf("tournament game: %+v %v", g, err)
	}
	h.Svc.Idle()
	if got := bottest.NotesFor(h.Notes.Take(), "a"); len(got) != 1 {
		t.Fatalf("a was told %v", got)
	}
}

// Two deliveries of different moves for the same turn at once: exactly one applies.
func TestConcurrentMoves(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "")
	moves := []string{"e2e4", "d2d4", "Nc3", "Nh3"}
	replies := make(chan bot.Reply, len(moves))
	for i, m := range moves {
		go func() {
			replies <- h.Svc.Handle(context.Background(), bot.Request{ID: fmt.Sprint("c", i), User: bot.User{ID: "alice", Name: "alice"},
				Command: play.CmdMove, Args: bot.Args{"game": id, "move": m}})
		}()
	}
	ok := 0
	for range moves {
		r := <-replies
		if !r.Refused {
			ok++
		} else if !strings.Contains(r.Text, "It is bob's turn") {
			t.Errorf("refusal %q", r.Text)
		}
	}
	h.Svc.Idle()
	if g := h.Game(id); ok != 1 || len(g.Moves) != 1 {
		t.Fatalf("%d moves applied, %d stored", ok, len(g.Moves))
	}
}
