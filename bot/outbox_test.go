package bot_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/challenges"
	"github.com/missivechess/missive/bot/play"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// flaky is a Notifier whose answers tests script: fail(n) returns the error for a
// notification's attempt number (0 first), or nil to accept it.
type flaky struct {
	mu       sync.Mutex
	fail     func(n bot.Notification, attempt int) error
	attempts map[string]int     // by notification id
	got      []bot.Notification // accepted, in order
	// block, when set, holds the notifications it accepts until it is closed.
	block func(n bot.Notification) <-chan struct{}
	// accepted is signalled after each accepted notification (never blocks).
	accepted chan bot.Notification
}

func newFlaky(fail func(n bot.Notification, attempt int) error) *flaky {
	return &flaky{fail: fail, attempts: map[string]int{}, accepted: make(chan bot.Notification, 1000)}
}

func (f *flaky) Notify(ctx context.Context, n bot.Notification) error {
	if f.block != nil {
		if gate := f.block(n); gate != nil {
			select {
			case <-gate:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	a := f.attempts[n.ID]
	f.attempts[n.ID] = a + 1
	if f.fail != nil {
		if err := f.fail(n, a); err != nil {
			return err
		}
	}
	f.got = append(f.got, n)
	f.accepted <- n
	return nil
}

func (f *flaky) delivered() []bot.Notification {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]bot.Notification(nil), f.got...)
}

// fastRetries makes the outbox retry at once (the waits are not what is tested).
var fastRetries = bot.OutboxOptions{MinBackoff: time.Microsecond, MaxBackoff: 10 * time.Microsecond}

// checkOnceInOrder fails unless every notification in got has a distinct id and the
// ids of each destination come in increasing order.
func checkOnceInOrder(t *testing.T, got []bot.Notification) {
	t.Helper()
	seen := map[string]bool{}
	last := map[string]uint64{}
	for _, n := range got {
		if seen[n.ID] {
			t.Errorf("notification %s (%s) delivered twice", n.ID, n.Key)
		}
		seen[n.ID] = true
		d := bot.Destination(n)
		if id := bot.SeqOf(n.ID); id <= last[d] {
			t.Errorf("destination %s: notification %s after %d", d, n.ID, last[d])
		} else {
			last[d] = id
		}
	}
}

// A notifier that fails three times before accepting each notification gets every
// notification once, in order per destination, and the entries leave the outbox.
func TestOutboxRetriesTransientFailures(t *testing.T) {
	const failures = 3
	f := newFlaky(func(n bot.Notification, attempt int) error {
		if attempt < failures {
			return fmt.Errorf("discord: 503 Service Unavailable (attempt %d)", attempt)
		}
		return nil
	})
	h := bottest.New(t)
	h.Notifier, h.Outbox = f, fastRetries
	h.Restart()
	h.Ok("bob", "settings notify:dm")
	h.Ok("alice", "settings notify:dm")
	id := h.Start("gothic", "")
	h.Play(id, "alice", "e2e4", "e7e5", "b1c3", "b8c6")
	got := f.delivered()
	// The challenge, the start, and a "your move" for each of the four moves.
	if len(got) != 6 {
		t.Fatalf("%d notifications delivered, want 6: %v", len(got), keys(got))
	}
	checkOnceInOrder(t, got)
	for _, n := range got {
		if a := f.attempts[n.ID]; a != failures+1 {
			t.Errorf("%s: %d attempts, want %d", n.Key, a, failures+1)
		}
	}
	if got[len(got)-1].To.ID != "alice" || !strings.Contains(got[len(got)-1].Reply.Text, "Your move") {
		t.Errorf("last notification: %+v", got[len(got)-1])
	}
	m := h.Svc.Metrics()
	if m.Queued != 6 || m.Delivered != 6 || m.Retried != 6*failures || m.Errors["error"] != 6*failures || m.Pending != 0 {
		t.Errorf("metrics %+v", m)
	}
	if n := h.OutboxLen(); n != 0 {
		t.Errorf("%d entries left in the outbox", n)
	}
}

// A 429 answer's retry_after is waited (not the backoff) and counted.
func TestOutboxRetryAfter(t *testing.T) {
	f := newFlaky(func(n bot.Notification, attempt int) error {
		if attempt == 0 {
			return &bot.RetryAfter{Wait: time.Millisecond}
		}
		return nil
	})
	h := bottest.New(t)
	h.Notifier = f
	h.Outbox = bot.OutboxOptions{MinBackoff: time.Hour} // a backoff wait would hang the test
	h.Restart()
	h.Ok("bob", "settings notify:dm")
	h.Ok("alice", "challenge variant:gothic opponent:bob")
	if got := f.delivered(); len(got) != 1 || got[0].To.ID != "bob" {
		t.Fatalf("delivered %v", keys(got))
	}
	if m := h.Svc.Metrics(); m.RateLimited != 1 || m.Retried != 1 || m.Errors["rate-limited"] != 1 {
		t.Errorf("metrics %+v", m)
	}
}

// One destination that hangs does not hold up another's notifications.
func TestOutboxSlowDestinationDoesNotBlockOthers(t *testing.T) {
	gate := make(chan struct{})
	f := newFlaky(nil)
	f.block = func(n bot.Notification) <-chan struct{} {
		if n.To.ID == "bob" {
			return gate
		}
		return nil
	}
	h := bottest.New(t)
	h.Notifier = f
	h.Restart()
	for _, u := range []string{"bob", "dave"} {
		h.Ok(u, "settings notify:dm")
	}
	ctx := context.Background()
	send := func(user, line string) {
		t.Helper()
		h.Seq++
		fs := strings.Fields(line)
		req := bot.Request{ID: fmt.Sprintf("req-%d", h.Seq), User: bot.User{ID: user, Name: user}, Command: fs[0], Args: bot.Args{}}
		for _, kv := range fs[1:] {
			k, v, _ := strings.Cut(kv, ":")
			req.Args[k] = v
		}
		if r := h.Svc.Handle(ctx, req); r.Refused {
			t.Fatalf("%s: %s", line, r.Text)
		}
	}
	send("alice", "challenge variant:gothic opponent:bob") // bob's notice hangs
	send("carol", "challenge variant:gothic opponent:dave")
	select {
	case n := <-f.accepted:
		if n.To.ID != "dave" {
			t.Fatalf("first delivery to %s", n.To.ID)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("dave's notification waited for bob's")
	}
	// dave's entry leaves the queue just after its delivery.
	for start := time.Now(); ; time.Sleep(time.Millisecond) {
		m := h.Svc.Metrics()
		if m.Pending == 1 && !m.Oldest.IsZero() {
			break
		}
		if time.Since(start) > 20*time.Second {
			t.Fatalf("while bob's notice hangs: metrics %+v", m)
		}
	}
	close(gate)
	h.Svc.Idle()
	if got := f.delivered(); len(got) != 2 || got[1].To.ID != "bob" {
		t.Errorf("delivered %v", keys(got))
	}
}

// A permanent refusal stops the retries and runs the fallback once: a player whose
// game's channel refuses the post gets a direct message instead.
func TestOutboxPermanentFailureFallsBackOnce(t *testing.T) {
	f := newFlaky(func(n bot.Notification, attempt int) error {
		if n.Channel {
			return fmt.Errorf("discord: unknown channel (10003): %w", bot.ErrPermanent)
		}
		return nil
	})
	h := bottest.New(t)
	h.Notifier, h.Outbox = f, fastRetries
	h.Restart()
	// A game in channel c1, where the replies mention the players; then alice moves
	// from elsewhere, so bob is told by a post in c1, which is refused.
	place := bot.Place{Guild: "g", Channel: "c1"}
	for _, req := range []bot.Request{
		{ID: "c", User: bot.User{ID: "alice", Name: "alice"}, Place: place, Command: challenges.CmdChallenge, Args: bot.Args{"variant": "gothic", "opponent": "bob"}},
		{ID: "a", User: bot.User{ID: "bob", Name: "bob"}, Place: place, Command: challenges.CmdAccept, Args: bot.Args{}},
		{ID: "m", User: bot.User{ID: "alice", Name: "alice"}, Command: play.CmdMove, Args: bot.Args{"game": "1", "move": "e2e4"}},
	} {
		if r := h.Svc.Handle(context.Background(), req); r.Refused {
			t.Fatal(r.Text)
		}
		h.Svc.Idle()
	}
	got := f.delivered()
	if len(got) != 1 || !got[0].Direct || got[0].Channel || got[0].To.ID != "bob" || !strings.HasSuffix(got[0].ID, "f") {
		t.Fatalf("delivered %+v", got)
	}
	if a := f.attempts[strings.TrimSuffix(got[0].ID, "f")]; a != 1 {
		t.Errorf("the refused post was tried %d times, want 1", a)
	}
	if m := h.Svc.Metrics(); m.Failed["permanent"] != 1 || m.Fallbacks != 1 || m.Delivered != 0 || m.Retried != 0 {
		t.Errorf("metrics %+v", m)
	}
	if n := h.OutboxLen(); n != 0 {
		t.Errorf("%d entries left in the outbox", n)
	}
}

// Notifications committed while the notifier is down survive a restart: they are
// delivered once by the next process, with the board as it was when they were queued.
func TestOutboxSurvivesRestart(t *testing.T) {
	down := newFlaky(func(bot.Notification, int) error { return errors.New("discord: connection reset") })
	h := bottest.New(t)
	h.Notifier, h.Outbox = down, fastRetries
	h.Restart()
	h.Ok("bob", "settings notify:dm")
	h.Ok("alice", "settings notify:dm")
	// Idle would wait for ever: the commands are sent without waiting.
	h.Svc.Handle(context.Background(), bot.Request{ID: "ch", User: bot.User{ID: "alice", Name: "alice"}, Command: challenges.CmdChallenge,
		Args: bot.Args{"variant": "gothic", "opponent": "bob"}})
	h.Svc.Handle(context.Background(), bot.Request{ID: "acc", User: bot.User{ID: "bob", Name: "bob"}, Command: challenges.CmdAccept, Args: bot.Args{}})
	id := "1"
	h.Svc.Handle(context.Background(), bot.Request{ID: "m1", User: bot.User{ID: "alice", Name: "alice"}, Command: play.CmdMove,
		Args: bot.Args{"game": id, "move": "e2e4"}})
	after := h.Game(id).Position.String()
	h.Svc.Handle(context.Background(), bot.Request{ID: "m2", User: bot.User{ID: "bob", Name: "bob"}, Command: play.CmdMove,
		Args: bot.Args{"game": id, "move": "e7e5"}})
	h.Svc.Close() // stops the retries; nothing was delivered
	if len(down.delivered()) != 0 {
		t.Fatal("a notification got through a notifier that is down")
	}
	queued := h.OutboxLen()
	if queued != 4 {
		t.Fatalf("%d entries in the outbox, want 4 (challenge, start, two moves)", queued)
	}
	up := newFlaky(nil)
	h.Notifier = up
	h.Restart()
	h.Svc.Idle()
	got := up.delivered()
	if len(got) != queued {
		t.Fatalf("after the restart %d of %d notifications delivered: %v", len(got), queued, keys(got))
	}
	checkOnceInOrder(t, got)
	var board bool
	for _, n := range got {
		if n.Kind == bot.NoticeTurn && n.To.ID == "bob" {
			board = true
			if len(n.Reply.Files) != 1 || !bytes.Contains(n.Reply.Files[0].Data, []byte("PNG "+after+" viewer=black")) ||
				n.Reply.Board != "TEXT "+after {
				t.Errorf("bob's notice shows %q / %q, not the board after e2e4 (%s)", n.Reply.Files, n.Reply.Board, after)
			}
		}
	}
	if !board {
		t.Errorf("no turn notice for bob: %v", keys(got))
	}
	if n := h.OutboxLen(); n != 0 {
		t.Errorf("%d entries left in the outbox", n)
	}
	h.Restart() // nothing is delivered twice
	h.Svc.Idle()
	if again := up.delivered(); len(again) != queued {
		t.Errorf("a second restart delivered %d more", len(again)-queued)
	}
}

// The metrics read as Prometheus's text format.
func TestWriteMetrics(t *testing.T) {
	f := newFlaky(func(n bot.Notification, attempt int) error {
		if attempt == 0 {
			return fmt.Errorf("no: %w", bot.ErrPermanent)
		}
		return nil
	})
	h := bottest.New(t)
	h.Notifier = f
	h.Restart()
	h.Ok("bob", "settings notify:dm")
	h.Ok("alice", "challenge variant:gothic opponent:bob")
	h.Svc.CountRateLimit()
	var b bytes.Buffer
	h.Svc.WriteMetrics(&b)
	for _, want := range []string{
		"# TYPE missive_notices_queued_total counter\nmissive_notices_queued_total 1\n",
		"missive_notices_delivered_total 0\n",
		`missive_notices_failed_total{reason="permanent"} 1` + "\n",
		"missive_discord_rate_limited_total 1\n",
		"missive_outbox_pending 0\n",
		"missive_outbox_oldest_age_seconds 0\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("metrics lack %q:\n%s", want, b.String())
		}
	}
}

func keys(ns []bot.Notification) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.ID+":"+n.Key)
	}
	return out
}

// A notice queued before its game got a thread is posted in the thread.
func TestOutboxNoticeFollowsTheGameToItsThread(t *testing.T) {
	down := newFlaky(func(bot.Notification, int) error { return errors.New("discord: connection reset") })
	h := bottest.New(t)
	h.Notifier, h.Outbox = down, fastRetries
	h.Restart()
	place := bot.Place{Guild: "g", Channel: "c1"}
	for _, req := range []bot.Request{
		{ID: "c", User: bot.User{ID: "alice", Name: "alice"}, Place: place, Command: challenges.CmdChallenge, Args: bot.Args{"variant": "gothic", "opponent": "bob"}},
		{ID: "a", User: bot.User{ID: "bob", Name: "bob"}, Place: place, Command: challenges.CmdAccept, Args: bot.Args{}},
		{ID: "m", User: bot.User{ID: "alice", Name: "alice"}, Command: play.CmdMove, Args: bot.Args{"game": "1", "move": "e2e4"}},
	} {
		if r := h.Svc.Handle(context.Background(), req); r.Refused {
			t.Fatal(r.Text)
		}
	}
	h.Svc.Close()
	if err := h.Svc.SetThread(context.Background(), "1", "t9"); err != nil {
		t.Fatal(err)
	}
	up := newFlaky(nil)
	h.Notifier = up
	h.Restart()
	h.Svc.Idle()
	got := up.delivered()
	if len(got) != 1 || got[0].Game == nil || got[0].Game.Place.Thread != "t9" || got[0].To.ID != "bob" {
		t.Fatalf("delivered %+v", got)
	}
}

// slowRenderer is a bottest.Renderer whose boards take a while, counting how many it
// draws at once.
type slowRenderer struct {
	bottest.Renderer
	mu             sync.Mutex
	inFlight, most int
}

func (r *slowRenderer) PNG(w io.Writer, pos rules.Position, o bot.BoardOptions) error {
	r.mu.Lock()
	r.inFlight++
	r.most = max(r.most, r.inFlight)
	r.mu.Unlock()
	time.Sleep(3 * time.Millisecond)
	r.mu.Lock()
	r.inFlight--
	r.mu.Unlock()
	return r.Renderer.PNG(w, pos, o)
}

// Games started together (a tournament round) notify in many channels at once; their
// boards are drawn at most OutboxOptions.Draws at a time, leaving the other CPUs to
// the commands players wait for.
func TestOutboxBoundsBoardDrawing(t *testing.T) {
	r := &slowRenderer{}
	f := newFlaky(nil)
	h := bottest.New(t)
	h.Notifier, h.Outbox = f, bot.OutboxOptions{Workers: 8, Draws: 1}
	h.Config = func(c *bot.Config) { c.Renderer = r }
	h.Restart()
	const games = 8
	if err := h.Svc.StartGames(context.Background(), func(tx *storage.Tx, create func(bot.NewGame) (*storage.Game, error)) error {
		for i := range games {
			if _, err := create(bot.NewGame{Variant: "gothic", White: storage.Seat{ID: fmt.Sprint("w", i), Name: "White"},
				Black: storage.Seat{ID: fmt.Sprint("b", i), Name: "Black"}, Place: bot.Place{Guild: "g", Channel: fmt.Sprint("c", i)}}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h.Svc.Idle()
	if n := len(f.delivered()); n < games {
		t.Fatalf("%d notices delivered for %d games", n, games)
	}
	if r.most != 1 {
		t.Errorf("%d boards drawn at once, want at most 1", r.most)
	}
}
