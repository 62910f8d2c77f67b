package review_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/review"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// reviewHarness is a harness with the built-in engine, the real renderer and quick
// reviews (a fixed depth per position).
func reviewHarness(t *testing.T) *bottest.Harness {
	h := bottest.New(t)
	h.Config = func(c *bot.Config) {
		c.Engine = bot.NewEngine(engine.New(engine.Options{Seed: 1, HashBits: 14}), nil, nil)
		c.Renderer = bot.NewRenderer()
	}
	h.Options.Review = review.Options{Limits: engine.Limits{Depth: 4}, Budget: time.Minute, Workers: 1}
	h.Restart()
	return h
}

// postedReview returns the review notification among ns.
func postedReview(t *testing.T, ns []bot.Notification) bot.Notification {
	t.Helper()
	for _, n := range ns {
		if strings.HasPrefix(n.Key, "review/") {
			return n
		}
	}
	t.Fatalf("no review was posted among %d notifications", len(ns))
	return bot.Notification{}
}

// file returns the file of r whose name ends with suffix.
func file(t *testing.T, r bot.Reply, suffix string) bot.File {
	t.Helper()
	for _, f := range r.Files {
		if strings.HasSuffix(f.Name, suffix) {
			return f
		}
	}
	t.Fatalf("no %s file among %d", suffix, len(r.Files))
	return bot.File{}
}

// When a game ends the engine reviews it in the background and posts, in the
// game's place, the picture, the final board and an annotated PGN that marks the
// hung queen; asking again with /review is answered at once from the stored review.
func TestReviewWhenGameEnds(t *testing.T) {
	h := reviewHarness(t)
	id := h.Start("gothic", "")
	h.Play(id, "alice", "d4", "e5", "dxe5", "Qg5", "Bxg5")
	h.Ok("bob", "resign game:"+id)
	n := postedReview(t, h.Notes.Take())
	if !n.Channel || n.Direct || n.Game == nil || n.Game.ID != id || n.To.ID != "" {
		t.Fatalf("the review is not posted in the game's place: %+v", n)
	}
	pic := file(t, n.Reply, "-review.png")
	img, err := png.Decode(bytes.NewReader(pic.Data))
	if err != nil || img.Bounds().Dx() > 550 {
		t.Fatalf("review picture: %v %v", img.Bounds(), err)
	}
	file(t, n.Reply, "game-"+id+".png") // the final board
	pgn := string(file(t, n.Reply, "-review.pgn").Data)
	if flat := strings.Join(strings.Fields(pgn), " "); !strings.Contains(flat, "2... Qg5 $4 {[%eval") || !strings.Contains(flat, "[Annotator ") || !strings.Contains(flat, "3. Bxg5 {[%eval") {
		t.Fatalf("the PGN does not mark the blunder:\n%s", pgn)
	}
	// The PGN reader reads the annotated PGN back: the blunder's NAG, its evaluation
	// and the better line.
	read, err := record.ReadPGN(strings.NewReader(pgn), h.Reg)
	if err != nil || len(read.Moves) != 5 || read.Notes[3].NAG != record.NAGBlunder || read.Notes[3].Eval == "" || len(read.Notes[3].Line) == 0 {
		t.Fatalf("the review's PGN reads back as %+v, %v:\n%s", read, err, pgn)
	}
	if !strings.Contains(n.Reply.Text, "2... Qg5??") {
		t.Fatalf("the decisive moment is not named: %s", n.Reply.Text)
	}
	var stored *storage.Review
	if err := h.Store.View(context.Background(), func(tx *storage.Tx) (err error) {
		stored, err = tx.Review(id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if stored.Moves[3].Class != "blunder" || stored.Decisive != 3 || stored.Plies != 5 {
		t.Fatalf("stored review %+v", stored)
	}
	// Asked again: the same review, at once, and nothing queued.
	start := time.Now()
	r := h.Ok("alice", "review game:"+id)
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the stored review took %v", d)
	}
	if got := string(file(t, r, "-review.pgn").Data); got != pgn {
		t.Fatalf("the stored review's PGN differs:\n%s\nwant\n%s", got, pgn)
	}
	if ns := h.Notes.Take(); len(ns) != 0 {
		t.Fatalf("asking again posted %d notifications", len(ns))
	}
}

// With OnRequest (the console) a game that ends is not reviewed until /review asks.
func TestReviewOnRequest(t *testing.T) {
	h := reviewHarness(t)
	h.Config = func(c *bot.Config) {
		c.Engine = bot.NewEngine(engine.New(engine.Options{Seed: 1, HashBits: 14}), nil, nil)
		c.Renderer = bot.NewRenderer()
	}
	h.Options.Review = review.Options{Limits: engine.Limits{Depth: 4}, Budget: time.Minute, OnRequest: true}
	h.Restart()
	id := h.Start("gothic", "")
	h.Play(id, "alice", "d4", "e5", "dxe5", "Qg5", "Bxg5")
	h.Ok("bob", "resign game:"+id)
	for _, n := range h.Notes.Take() {
		if strings.HasPrefix(n.Key, "review/") {
			t.Fatalf("a review was posted unasked: %+v", n)
		}
	}
	h.Ok("alice", "review game:"+id)
	postedReview(t, h.Notes.Take())
}

// A game in progress is reviewed only where hints are allowed: never a rated game.
func TestReviewDuringPlay(t *testing.T) {
	h := reviewHarness(t)
	rated := h.Start("gothic", "rated:true")
	h.Play(rated, "alice", "e4")
	h.Refused("alice", "review game:"+rated, "still being played")
	if ns := h.Notes.Take(); len(ns) != 0 {
		t.Fatalf("a refused review posted %d notifications", len(ns))
	}
	h.Ok("alice", "resign game:"+rated)
	h.Notes.Take()
	casual := h.Start("gothic", "")
	h.Play(casual, "alice", "e4", "e5")
	r := h.Ok("bob", "review game:"+casual)
	if !strings.Contains(r.Text, "reviewing game") {
		t.Fatalf("reply %q", r.Text)
	}
	n := postedReview(t, h.Notes.Take())
	if !strings.Contains(string(file(t, n.Reply, "-review.pgn").Data), "[%eval") {
		t.Fatal("no evaluations in the casual game's review")
	}
	// A move later the stored review is out of date: it is made again.
	h.Play(casual, "alice", "f4")
	h.Ok("bob", "review game:"+casual)
	if n := postedReview(t, h.Notes.Take()); !strings.Contains(n.Key, "/3") {
		t.Fatalf("the review after a move is keyed %s", n.Key)
	}
}

// stalledReviewer is an engine whose reviews wait until the service stops, as a
// long review does when the bot is stopped for a deploy.
type stalledReviewer struct {
	bot.Engine
	started chan string
}

func (e stalledReviewer) Review(ctx context.Context, h *record.History, _ engine.ReviewOptions) (*engine.Review, error) {
	e.started <- "review"
	<-ctx.Done()
	return nil, ctx.Err()
}

// queuedReviews returns the review requests the store holds, as game@entries.
func queuedReviews(t *testing.T, st *storage.Store) (out []string) {
	t.Helper()
	if err := st.View(context.Background(), func(tx *storage.Tx) error {
		rs, err := tx.ReviewRequests()
		for _, r := range rs {
			out = append(out, fmt.Sprintf("%s@%d", r.Game, r.Plies))
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// A review under way when the bot stops, of a game that ended or of one a player
// asked for with /review, is made and posted after the bot starts again, the
// players' requests first: the queue is in the data file, written with the
// game's end or the request.
func TestReviewSurvivesRestart(t *testing.T) {
	h := reviewHarness(t)
	started := make(chan string, 4)
	quick := h.Config
	h.Config = func(c *bot.Config) {
		quick(c)
		c.Engine = stalledReviewer{Engine: c.Engine, started: started}
	}
	h.Restart()
	ended := h.Start("gothic", "")
	h.Play(ended, "alice", "d4", "e5", "dxe5", "Qg5", "Bxg5")
	var asked []string
	for range 4 {
		id := h.Start("gothic", "")
		h.Play(id, "alice", "e4", "e5")
		asked = append(asked, id)
	}
	// Handled without waiting for the background work, which stalls.
	reqs := []bot.Request{{ID: "end", User: bot.User{ID: "bob", Name: "bob"}, Command: "resign", Args: bot.Args{"game": ended}}}
	for _, id := range asked {
		reqs = append(reqs, bot.Request{ID: "ask" + id, User: bot.User{ID: "bob", Name: "bob"}, Command: "review", Args: bot.Args{"game": id}})
	}
	for _, req := range reqs {
		h.Clock.Advance(time.Minute)
		if r := h.Svc.Handle(context.Background(), req); r.Refused {
			t.Fatalf("%s: %s", req.Command, r.Text)
		}
	}
	<-started // one review is under way, the others wait their turn
	want := []string{ended + "@5"}
	for _, id := range asked {
		want = append(want, id+"@2")
	}
	if got := queuedReviews(t, h.Store); !slices.Equal(got, want) {
		t.Fatalf("queued before the stop: %v, want %v", got, want)
	}
	h.Notes.Take()
	h.Config = quick
	h.Restart()
	h.Svc.Idle()
	// Made again, the players' requests first, each queue first asked first.
	var posted []string
	for _, n := range h.Notes.Take() {
		if strings.HasPrefix(n.Key, "review/") {
			posted = append(posted, n.Game.ID)
		}
	}
	if want := append(slices.Clone(asked), ended); !slices.Equal(posted, want) {
		t.Fatalf("reviews posted after the restart: games %v, want %v", posted, want)
	}
	if got := queuedReviews(t, h.Store); len(got) != 0 {
		t.Fatalf("still queued after the reviews were made: %v", got)
	}
	// Started again, nothing is reviewed twice.
	h.Restart()
	h.Svc.Idle()
	for _, n := range h.Notes.Take() {
		if strings.HasPrefix(n.Key, "review/") {
			t.Fatalf("a review was posted again: %s", n.Key)
		}
	}
}

// failingReviewer is an engine whose reviews fail.
type failingReviewer struct{ bot.Engine }

func (failingReviewer) Review(context.Context, *record.History, engine.ReviewOptions) (*engine.Review, error) {
	return nil, errors.New("engine: out of memory")
}

// A review that fails leaves the queue, so it is not tried again at every start.
func TestFailedReviewLeavesQueue(t *testing.T) {
	h := reviewHarness(t)
	quick := h.Config
	h.Config = func(c *bot.Config) {
		quick(c)
		c.Engine = failingReviewer{Engine: c.Engine}
	}
	h.Restart()
	id := h.Start("gothic", "")
	h.Play(id, "alice", "e4", "e5")
	h.Ok("bob", "review game:"+id)
	if got := queuedReviews(t, h.Store); len(got) != 0 {
		t.Fatalf("a failed review stays queued: %v", got)
	}
}

// unitsSentence words every game's evaluations in its own units (bot/words tests that a
// game that words a forced win words the loss too).
func TestEvaluationWordsPerGame(t *testing.T) {
	for _, c := range []struct{ variant, want string }{
		{"gothic", "Evaluations are from White's side, in pawns."},
		{"gess", "Evaluations are from White's side, in the engine's own Gess units: a stone is worth 0.2, a spare ring 2.5."},
	} {
		if got := review.UnitsSentence(c.variant); got != c.want {
			t.Errorf("review.UnitsSentence(%s) = %q, want %q", c.variant, got, c.want)
		}
	}
}

// A player who made no move has no accuracy ("—", not 0%), and a drawn game has no
// decisive moment, though its blunder is still marked.
func TestReviewNoMovesAndDraws(t *testing.T) {
	h := reviewHarness(t)
	id := h.Start("gothic", "")
	h.Play(id, "alice", "e4")
	h.Ok("bob", "resign game:"+id)
	h.Notes.Take()
	h.Ok("alice", "review game:"+id)
	n := postedReview(t, h.Notes.Take())
	if !strings.Contains(n.Reply.Text, "bob — (no moves)") || strings.Contains(n.Reply.Text, "bob 0%") {
		t.Errorf("the review of a player without moves: %s", n.Reply.Text)
	}

	drawn := h.Start("gothic", "")
	h.Play(drawn, "alice", "d4", "e5", "dxe5", "Qg5", "Bxg5")
	h.Ok("bob", "draw game:"+drawn)
	h.Ok("alice", "draw game:"+drawn)
	n = postedReview(t, h.Notes.Take())
	if !strings.Contains(n.Reply.Text, "No mistake decided this game") || strings.Contains(n.Reply.Text, "decisive moment") {
		t.Errorf("the review of a drawn game: %s", n.Reply.Text)
	}
	if pgn := string(file(t, n.Reply, "-review.pgn").Data); !strings.Contains(pgn, "Qg5 $4") {
		t.Errorf("the drawn game's blunder is not marked:\n%s", pgn)
	}
}
