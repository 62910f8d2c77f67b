package review_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/review"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules/record"
)

// gatedReviewer is an engine whose reviews start, report the game's entries on
// started, and wait for a token on release (or the service's stop); it counts
// the reviews under way and the most at once.
type gatedReviewer struct {
	bot.Engine
	started chan int
	release chan struct{}
	mu      *sync.Mutex
	active  *int
	most    *int
}

func newGated(e bot.Engine) gatedReviewer {
	return gatedReviewer{Engine: e, started: make(chan int, 64), release: make(chan struct{}, 64),
		mu: &sync.Mutex{}, active: new(int), most: new(int)}
}

func (e gatedReviewer) Review(ctx context.Context, h *record.History, opts engine.ReviewOptions) (*engine.Review, error) {
	e.mu.Lock()
	*e.active++
	*e.most = max(*e.most, *e.active)
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		*e.active--
		e.mu.Unlock()
	}()
	e.started <- len(h.Steps)
	select {
	case <-e.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return engine.New(engine.Options{HashBits: 12}).ReviewWith(ctx, h, engine.ReviewOptions{Limits: engine.Limits{Depth: 1}})
}

// gatedHarness is reviewHarness with a gated engine and opts.
func gatedHarness(t *testing.T, opts review.Options) (*bottest.Harness, gatedReviewer) {
	h := reviewHarness(t)
	quick := h.Config
	var g gatedReviewer
	h.Config = func(c *bot.Config) {
		quick(c)
		g = newGated(c.Engine)
		c.Engine = g
	}
	h.Options.Review = opts
	h.Restart()
	return h, g
}

// waitStarted returns the entries of the next review to start; a review that
// never starts fails the test (before go test's own time-out would).
func waitStarted(t *testing.T, g gatedReviewer) int {
	t.Helper()
	var timeout <-chan time.Time
	if d, ok := t.Deadline(); ok {
		timeout = time.After(time.Until(d) - 5*time.Second)
	}
	select {
	case n := <-g.started:
		return n
	case <-timeout:
		t.Fatal("a review that should run never started")
	}
	return 0
}

// handle runs a command without waiting for the background work (the gated
// reviews wait for the test).
func handle(t *testing.T, h *bottest.Harness, user, command string, args bot.Args) bot.Reply {
	t.Helper()
	h.Seq++
	r := h.Svc.Handle(context.Background(), bot.Request{ID: fmt.Sprint("w", h.Seq), User: bot.User{ID: user, Name: user}, Command: command, Args: args})
	if r.Refused {
		t.Fatalf("%s: %s", command, r.Text)
	}
	return r
}

// games starts n casual games with plies[i] moves each, ready to end.
func games(h *bottest.Harness, plies ...int) []string {
	var ids []string
	for _, n := range plies {
		id := h.Start("gothic", "")
		moves := []string{"e4", "e5", "d4", "d5", "Nc3", "Nc6", "f4", "f5"}
		h.Play(id, "alice", moves[:n]...)
		ids = append(ids, id)
	}
	h.Notes.Take()
	return ids
}

// postedReviews returns the games whose review was posted among ns, in order.
func postedReviews(ns []bot.Notification) []string {
	var out []string
	for _, n := range ns {
		if strings.HasPrefix(n.Key, "review/") {
			out = append(out, n.Game.ID)
		}
	}
	return out
}

// With N workers, N games that end are reviewed at once: every review starts
// before any is let finish. Each game is reviewed once, and asking for a review
// that is under way does not start another.
func TestReviewWorkersRunAtOnce(t *testing.T) {
	const workers = 3
	h, g := gatedHarness(t, review.Options{Workers: workers, Budget: time.Minute})
	ids := games(h, 2, 2, 2, 2, 2)
	for _, id := range ids {
		handle(t, h, "bob", "resign", bot.Args{"game": id})
	}
	for range workers {
		waitStarted(t, g)
	}
	handle(t, h, "alice", "review", bot.Args{"game": ids[0]}) // under way, or waiting: queued once
	for range len(ids) {
		g.release <- struct{}{}
	}
	for range len(ids) - workers {
		waitStarted(t, g)
	}
	h.Svc.Idle()
	posted := postedReviews(h.Notes.Take())
	slices.Sort(posted)
	want := slices.Clone(ids)
	slices.Sort(want)
	if !slices.Equal(posted, want) {
		t.Fatalf("reviews posted for games %v, want each of %v once", posted, want)
	}
	if *g.most != workers {
		t.Errorf("at most %d reviews ran at once, want %d", *g.most, workers)
	}
	if got := queuedReviews(t, h.Store); len(got) != 0 {
		t.Errorf("still queued: %v", got)
	}
	select {
	case n := <-g.started:
		t.Errorf("a review of %d entries was made again", n)
	default:
	}
}

// A review a player asks for with /review goes ahead of the automatic reviews
// of games that ended before it was asked.
func TestReviewPlayerRequestsFirst(t *testing.T) {
	h, g := gatedHarness(t, review.Options{Workers: 1, Budget: time.Minute})
	ids := games(h, 2, 3, 4, 5) // told apart by their entries
	for _, id := range ids[:3] {
		handle(t, h, "bob", "resign", bot.Args{"game": id})
	}
	if n := waitStarted(t, g); n != 2 {
		t.Fatalf("the first review has %d entries, want 2", n)
	}
	r := handle(t, h, "alice", "review", bot.Args{"game": ids[3]}) // a casual game in progress
	if !strings.Contains(r.Text, "it is next") {
		t.Errorf("/review answered %q", r.Text)
	}
	var order []int
	for range 3 {
		g.release <- struct{}{}
		order = append(order, waitStarted(t, g))
	}
	g.release <- struct{}{}
	h.Svc.Idle()
	if want := []int{5, 3, 4}; !slices.Equal(order, want) {
		t.Errorf("reviews made in the order of %v entries, want %v: the player's request first", order, want)
	}
}

// When Backlog automatic reviews wait, a game that ends is not reviewed by
// itself: its players are told, and /review still asks for its review.
func TestReviewBacklogSkips(t *testing.T) {
	h, g := gatedHarness(t, review.Options{Workers: 1, Backlog: 1, Budget: time.Minute})
	ids := games(h, 2, 3, 4)
	handle(t, h, "bob", "resign", bot.Args{"game": ids[0]})
	waitStarted(t, g) // under way: nothing waits
	handle(t, h, "bob", "resign", bot.Args{"game": ids[1]})
	handle(t, h, "bob", "resign", bot.Args{"game": ids[2]}) // one waits: the backlog is full
	if got := queuedReviews(t, h.Store); !slices.Equal(got, []string{ids[0] + "@2", ids[1] + "@3"}) {
		t.Errorf("queued: %v", got)
	}
	handle(t, h, "alice", "review", bot.Args{"game": ids[2]})
	for range 3 {
		g.release <- struct{}{}
	}
	h.Svc.Idle()
	ns := h.Notes.Take()
	for _, user := range []string{"alice", "bob"} {
		var told []string
		for _, n := range bottest.NoticesOf(ns, user, bot.NoticeInfo) {
			if strings.Contains(n.Reply.Text, "not reviewed by itself") {
				told = append(told, n.Reply.Text)
			}
		}
		if len(told) != 1 || !strings.Contains(told[0], "Game "+ids[2]+" is not reviewed by itself") || !strings.Contains(told[0], "/review game:"+ids[2]) {
			t.Errorf("%s was told %q", user, told)
		}
	}
	if posted := postedReviews(ns); !slices.Equal(posted, []string{ids[0], ids[2], ids[1]}) {
		t.Errorf("reviews posted for %v, want %v", posted, []string{ids[0], ids[2], ids[1]})
	}
}
