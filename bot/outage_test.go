package bot_test

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/challenges"
	"github.com/missivechess/missive/storage"
)

// damageGame overwrites game id's record in the closed data file at path with
// bytes that do not decode, as a damaged page or a faulty disk leaves them.
func damageGame(t *testing.T, path, id string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("games")).Put([]byte(id), []byte(`{"v":1,"id":"`+id+`","variant":`))
	}); err != nil {
		t.Fatal(err)
	}
}

// logTo makes h's service log to a buffer, from its next open.
func logTo(h *bottest.Harness) *syncBuffer {
	var buf syncBuffer
	h.Config = func(c *bot.Config) { c.Logger = slog.New(slog.NewTextHandler(&buf, nil)) }
	return &buf
}

// One damaged game record does not cost the other games their time: after an
// outage longer than what their clocks had left, the intact games get the outage
// back and go on, and the damaged one is logged by id and skipped.
func TestOutageSkipsDamagedGame(t *testing.T) {
	h := bottest.New(t)
	first := h.Start("gothic", "days:1")
	bad := h.Start("gothic", "days:1")
	last := h.Start("gothic", "days:1")
	h.Resume()
	before := h.Game(first).Clock.Deadline
	logs := logTo(h)
	h.Close()
	damageGame(t, h.Path, bad)
	h.Open()
	h.Clock.Advance(2 * bottest.Day) // the games had one day left
	if err := h.Svc.Resume(t.Context(), h.Clock.Now()); err != nil {
		t.Errorf("Resume: %v", err)
	}
	h.Svc.Idle()
	// The scheduler cannot handle the damaged game (its error names it) but handles
	// the others.
	if _, err := h.Svc.Tick(t.Context()); err == nil || !strings.Contains(err.Error(), "game "+bad) {
		t.Errorf("Tick: %v, want the damaged game %s named", err, bad)
	}
	h.Svc.Idle()
	for _, id := range []string{first, last} {
		g := h.Game(id)
		if !g.Active() {
			t.Errorf("game %s lost its time to the outage: %v", id, g.Outcome)
			continue
		}
		if want := before.Add(2 * bottest.Day); !g.Clock.Deadline.Equal(want) {
			t.Errorf("game %s: deadline %v, want %v (moved by the outage)", id, g.Clock.Deadline, want)
		}
	}
	if !h.Svc.Connected() {
		t.Error("the service stays held after the outage")
	}
	if l := logs.String(); !strings.Contains(l, "game="+bad) || !strings.Contains(l, "damaged=1") {
		t.Errorf("the damaged game %s is not logged by id and counted:\n%s", bad, l)
	}
}

// outagePlayers are the players of the games made by outageGames.
var outagePlayers = []string{"p0", "p1", "p2", "p3"}

// outageGames stores n running Gothic games with a day per move among
// outagePlayers (each plays n/2 of them), as a busy server holds them.
func outageGames(t *testing.T, h *bottest.Harness, n int) {
	t.Helper()
	now := h.Clock.Now()
	if err := h.Store.Update(t.Context(), func(tx *storage.Tx) error {
		for i := range n {
			w, b := outagePlayers[i%4], outagePlayers[(i+1)%4]
			g := &storage.Game{Variant: "gothic", Players: [2]storage.Seat{{ID: w, Name: w}, {ID: b, Name: b}},
				Clock: storage.Clock{DaysPerMove: 1, Since: now, Deadline: now.Add(bottest.Day)}}
			if err := tx.PutGame(g); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// storedDeadlines returns the deadline each running game has in the data file (its
// summary), as the batches left it, without the outage that reading a game owed it
// gives back in memory.
func storedDeadlines(t *testing.T, h *bottest.Harness) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	if err := h.Store.View(t.Context(), func(tx *storage.Tx) error {
		return tx.ActiveGames(func(g *storage.GameSummary) error {
			out[g.ID] = g.Deadline
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// An outage is given back in batches that survive a stop half-way: a process
// stopped after some batches has shifted those games only and told no one; the
// next one goes on from there, so every game is shifted exactly once, also a game
// a player changed in between; and each player is told once, for all their games.
func TestOutageResumesHalfWay(t *testing.T) {
	h := bottest.New(t)
	outageGames(t, h, 12)             // games 1 to 12
	id := h.Start("gothic", "days:1") // 13: alice and bob's
	h.Resume()
	before := storedDeadlines(t, h)
	h.Restart()
	h.Clock.Advance(2 * bottest.Day)
	bot.OutageSteps(h.Svc, 3, 1) // stopped after one batch of three games
	if err := h.Svc.Resume(t.Context(), h.Clock.Now()); err == nil {
		t.Fatal("Resume did not stop half-way")
	}
	h.Svc.Idle()
	half := storedDeadlines(t, h)
	var shifted []string
	for g, d := range half {
		if !d.Equal(before[g]) {
			shifted = append(shifted, g)
		}
	}
	slices.Sort(shifted)
	if !slices.Equal(shifted, []string{"1", "10", "11"}) { // the first batch, in id byte order
		t.Fatalf("after one batch the stored games shifted are %v, want 1, 10 and 11", shifted)
	}
	if ns := outageNotes(h.Notes.Take()); len(ns) != 0 {
		t.Fatalf("players were told before every game had its time back: %v", ns)
	}
	// Meanwhile bob gives alice a day in game 13, which no batch has reached: the
	// game comes with the outage given back, and keeps it once.
	h.Ok("bob", "moretime game:"+id)
	h.Notes.Take()
	h.Restart()
	bot.OutageSteps(h.Svc, 3, 0)
	h.Resume()
	after := storedDeadlines(t, h)
	for g, d := range before {
		want := d.Add(2 * bottest.Day)
		if g == id {
			want = want.Add(bottest.Day)
		}
		if !after[g].Equal(want) {
			t.Errorf("game %s: deadline %v, want %v (moved by the outage exactly once)", g, after[g], want)
		}
	}
	ns := h.Notes.Take()
	told := outageNotes(ns)
	if want := []string{"alice", "bob", "p0", "p1", "p2", "p3"}; !slices.Equal(told, want) {
		t.Fatalf("told about the outage: %v, want each player once: %v", told, want)
	}
	for _, n := range ns {
		switch {
		case n.To.ID == "p0" && !strings.Contains(n.Reply.Text, "your 6 games have 2d 0h more"):
			t.Errorf("p0's notice %q does not give the games and the time", n.Reply.Text)
		case n.To.ID == "alice" && !strings.Contains(n.Reply.Text, "the deadline in game "+id+" moved to"):
			t.Errorf("alice's notice %q does not name her one game", n.Reply.Text)
		}
	}
	// Starting again changes nothing more.
	h.Restart()
	h.Resume()
	if again := storedDeadlines(t, h); !maps.Equal(again, after) {
		t.Errorf("a second start moved deadlines again: %v, was %v", again, after)
	}
	if ns := outageNotes(h.Notes.Take()); len(ns) != 0 {
		t.Errorf("a second start told %v again", ns)
	}
}

// blockingNotifier holds every delivery until release is closed, and ignores its
// context: a Discord that stopped answering.
type blockingNotifier struct {
	entered chan string
	release chan struct{}
	mu      sync.Mutex
	got     []string
}

func (b *blockingNotifier) Notify(_ context.Context, n bot.Notification) error {
	b.entered <- n.Key
	<-b.release
	b.mu.Lock()
	defer b.mu.Unlock()
	b.got = append(b.got, n.Key)
	return nil
}

// waitEntered waits until a delivery has begun (a minute at most: it should at once).
func (b *blockingNotifier) waitEntered(t *testing.T) {
	t.Helper()
	select {
	case <-b.entered:
	case <-time.After(time.Minute):
		t.Fatal("no notice was delivered")
	}
}

// Shutdown returns when its context ends even though a delivery hangs, starts no
// other delivery, and leaves what is not delivered in the outbox for the next start.
func TestShutdownBoundedByBlockedNotifier(t *testing.T) {
	h := bottest.New(t)
	h.Ok("bob", "settings notify:dm")
	block := &blockingNotifier{entered: make(chan string, 16), release: make(chan struct{})}
	h.Notifier = block
	h.Restart()
	for i, who := range []string{"alice", "carol", "dave"} { // three challenges to bob: one queue
		r := h.Svc.Handle(t.Context(), bot.Request{ID: fmt.Sprintf("c%d", i), User: bot.User{ID: who, Name: who},
			Command: challenges.CmdChallenge, Args: bot.Args{"variant": "gothic", "opponent": "bob"}})
		if r.Refused {
			t.Fatal(r.Text)
		}
	}
	block.waitEntered(t) // the first notice is being delivered, and hangs
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- h.Svc.Shutdown(ctx) }()
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Error("Shutdown says all work ended while a delivery hangs")
		}
	case <-time.After(time.Minute): // generous: Shutdown should return at once
		t.Fatal("Shutdown did not return when its context ended")
	}
	if n := h.OutboxLen(); n != 3 {
		t.Fatalf("%d notices in the outbox after the shutdown, want all 3", n)
	}
	deliveredAfterRestart(t, h, block)
}

// deliveredAfterRestart ends the delivery block holds and starts h again with a
// notifier that answers: the stopped service must have delivered only the notice
// under way, and the next start the other two.
func deliveredAfterRestart(t *testing.T, h *bottest.Harness, block *blockingNotifier) {
	t.Helper()
	close(block.release) // the hung delivery ends; no other starts
	h.Notifier, h.Outbox = nil, bot.OutboxOptions{}
	h.Restart()
	h.Svc.Idle()
	if len(block.got) != 1 {
		t.Errorf("the stopped service delivered %v, want only the one under way", block.got)
	}
	if got := h.Notes.Take(); len(got) != 2 {
		t.Errorf("after the restart %d notices were delivered, want the 2 left", len(got))
	}
}

// Deliveries waiting for a send slot when the service stops give up: with one slot
// held by a delivery that hangs, the notices of other places are not sent after
// Shutdown, and wait in the outbox for the next start.
func TestShutdownStopsWaitingDeliveries(t *testing.T) {
	h := bottest.New(t)
	for _, who := range []string{"bob", "carol", "dave"} {
		h.Ok(who, "settings notify:dm")
	}
	block := &blockingNotifier{entered: make(chan string, 16), release: make(chan struct{})}
	h.Notifier, h.Outbox = block, bot.OutboxOptions{Workers: 1}
	h.Restart()
	for i, who := range []string{"bob", "carol", "dave"} { // three places: three queues, one send slot
		r := h.Svc.Handle(t.Context(), bot.Request{ID: fmt.Sprintf("c%d", i), User: bot.User{ID: "alice", Name: "alice"},
			Command: challenges.CmdChallenge, Args: bot.Args{"variant": "gothic", "opponent": who}})
		if r.Refused {
			t.Fatal(r.Text)
		}
	}
	block.waitEntered(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := h.Svc.Shutdown(ctx); err == nil {
		t.Error("Shutdown says all work ended while a delivery hangs")
	}
	deliveredAfterRestart(t, h, block)
}

// The outbox delivers many places' notices with a bounded number of workers: a
// notice to each of many players is a queue entry each, not a goroutine each, and
// every one is still delivered.
func TestOutboxWorkersBounded(t *testing.T) {
	h := bottest.New(t)
	const places = 12
	for i := range places {
		h.Ok(fmt.Sprint("o", i), "settings notify:dm")
	}
	block := &blockingNotifier{entered: make(chan string, 2*places), release: make(chan struct{})}
	h.Notifier, h.Outbox = block, bot.OutboxOptions{Workers: 1}
	h.Restart()
	before := runtime.NumGoroutine()
	for i := range places { // each challenge tells its opponent in their own messages
		r := h.Svc.Handle(t.Context(), bot.Request{ID: fmt.Sprint("c", i), User: bot.User{ID: fmt.Sprint("c", i), Name: "c"},
			Command: challenges.CmdChallenge, Args: bot.Args{"variant": "gothic", "opponent": fmt.Sprint("o", i)}})
		if r.Refused {
			t.Fatal(r.Text)
		}
	}
	block.waitEntered(t)
	if n := runtime.NumGoroutine() - before; n > 4 { // two workers with one send slot, and slack
		t.Errorf("%d goroutines more for %d places' notices", n, places)
	}
	close(block.release)
	h.Svc.Idle()
	if len(block.got) != places {
		t.Errorf("%d of %d notices delivered: %v", len(block.got), places, block.got)
	}
}
