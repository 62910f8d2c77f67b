package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// day is the unit of the correspondence clock, for the tests' arithmetic.
const day = clock.Day

// fakeRenderer draws nothing: a "picture" is a short text naming the position and
// the options, so tests can check what would be drawn (and that no secret leaks).
type fakeRenderer struct {
	mu    sync.Mutex
	panic bool // the next PNG call panics
}

func (f *fakeRenderer) PNG(w io.Writer, pos rules.Position, o BoardOptions) error {
	f.mu.Lock()
	p := f.panic
	f.panic = false
	f.mu.Unlock()
	if p {
		panic("fake renderer exploded")
	}
	_, err := fmt.Fprintf(w, "PNG %s viewer=%s theme=%s", pos.String(), o.Viewer, o.Theme)
	return err
}

func (f *fakeRenderer) GIF(w io.Writer, frames []Frame, o BoardOptions) error {
	for _, fr := range frames {
		if _, err := fmt.Fprintln(w, fr.Position.String()); err != nil {
			return err
		}
	}
	return nil
}

func (f *fakeRenderer) Text(pos rules.Position, o BoardOptions) string { return "TEXT " + pos.String() }

func (f *fakeRenderer) Themes() []string { return []string{"classic", "night"} }

func (f *fakeRenderer) TablePNG(w io.Writer, t Table) error {
	_, err := fmt.Fprintf(w, "TABLE %s\n%s", t.Title, t.Text(0))
	return err
}

// fakeEngine plays the first legal move (or eligible cell) and hints the same.
type fakeEngine struct {
	mu    sync.Mutex
	fail  int // the next fail calls of Move fail
	moves int
	// resigns makes Move resign the game instead of moving.
	resigns bool
	// gate, when set, holds every move until it is closed or the move's context ends.
	gate chan struct{}
	// onMove, when set, runs at the start of each move (as the engine's thinking).
	onMove func(turn EngineTurn)
	// draws makes AcceptsDraw agree; judged counts its calls and judgedTurn keeps
	// the last turn; onJudge, when set, runs during each (as a request that arrives
	// while the engine thinks).
	draws      bool
	judged     int
	judgedTurn EngineTurn
	onJudge    func()
	// offers makes OffersDraw offer, offerErr makes it fail; asked counts its calls
	// and offerTurn keeps the last turn.
	offers    bool
	offerErr  error
	asked     int
	offerTurn EngineTurn
}

func (f *fakeEngine) Opponent(name string, level int, variant string) (storage.Seat, error) {
	if name != "builtin" {
		return storage.Seat{}, refuse(ErrRefused, "There is no engine %q; the engines here are: builtin.", name)
	}
	if level == 0 {
		level = 3
	}
	if level < 1 || level > 8 { // as the real adapter (engines.Opponent) refuses
		return storage.Seat{}, refuse(ErrRefused, "The engine's level must be from 1 to 8.")
	}
	return storage.Seat{ID: fmt.Sprintf("engine:builtin:%d", level), Name: fmt.Sprintf("Missive engine (level %d)", level)}, nil
}

func (f *fakeEngine) Move(ctx context.Context, turn EngineTurn) (rules.Move, error) {
	pos, side := turn.Position, turn.Side
	if turn.Start != nil {
		if err := replays(turn); err != nil {
			return rules.NullMove, err
		}
	}
	f.mu.Lock()
	gate, hook := f.gate, f.onMove
	f.mu.Unlock()
	if hook != nil {
		hook(turn)
	}
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return rules.NullMove, ctx.Err()
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail > 0 {
		f.fail--
		return rules.NullMove, errors.New("engine crashed")
	}
	if f.resigns {
		return rules.NullMove, fmt.Errorf("%w: the fake engine gives up", ErrEngineResigned)
	}
	f.moves++
	var ms []rules.Move
	if sim, ok := inRound(pos); ok {
		ms = sim.LegalMovesFor(side)
	} else {
		ms = pos.LegalMoves()
	}
	if len(ms) == 0 {
		return rules.NullMove, errors.New("no move")
	}
	if _, ok := inRound(pos); ok && strings.HasSuffix(turn.Player, "2") {
		return ms[len(ms)-1], nil // level 2 places from the other end: two engines' choices do not collide for ever
	}
	return ms[0], nil
}

func (f *fakeEngine) Hint(ctx context.Context, pos rules.Position, side rules.Side) (Hint, error) {
	m, err := f.Move(ctx, EngineTurn{Position: pos, Side: side})
	return Hint{Move: m, Scored: true, Pawns: 0.1}, err
}

func (f *fakeEngine) AcceptsDraw(ctx context.Context, turn EngineTurn) (bool, error) {
	f.mu.Lock()
	f.judged++
	f.judgedTurn = turn
	draws, hook := f.draws, f.onJudge
	f.mu.Unlock()
	if turn.Start == nil || !strings.HasPrefix(turn.Player, "engine:builtin:") {
		return false, fmt.Errorf("judging a draw for %s without the game's moves", turn.Player)
	}
	if err := replays(turn); err != nil {
		return false, err
	}
	if hook != nil {
		hook()
	}
	return draws, nil
}

func (f *fakeEngine) OffersDraw(ctx context.Context, turn EngineTurn) (bool, error) {
	f.mu.Lock()
	f.asked++
	f.offerTurn = turn
	offers, err := f.offers, f.offerErr
	f.mu.Unlock()
	if turn.Start == nil || len(turn.Moves) == 0 || !strings.HasPrefix(turn.Player, "engine:builtin:") {
		return false, fmt.Errorf("asked whether %s offers a draw without the game's moves", turn.Player)
	}
	if err := replays(turn); err != nil {
		return false, err
	}
	if turn.Position.Turn() == turn.Side {
		return false, fmt.Errorf("asked whether %s offers a draw before its move", turn.Side)
	}
	return offers, err
}

// recorder is a Notifier that keeps what it is given.
type recorder struct {
	mu    sync.Mutex
	notes []Notification
}

func (r *recorder) Notify(_ context.Context, n Notification) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notes = append(r.notes, n)
	return nil
}

// take returns and forgets the notifications so far.
func (r *recorder) take() []Notification {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.notes
	r.notes = nil
	return out
}

// fakeClock is a clock that tests move.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// harness is a service over a real data file in a temporary folder.
type harness struct {
	t      *testing.T
	path   string
	reg    *rules.Registry
	clock  *fakeClock
	render *fakeRenderer
	engine *fakeEngine
	notes  *recorder
	store  *storage.Store
	svc    *Service
	// features are plugged into the service after its own.
	features []func(*Service) Feature
	// notifier replaces notes as the service's Notifier when set; outbox tunes it.
	notifier Notifier
	outbox   OutboxOptions
	// config, when set, changes the service's configuration before each open.
	config func(*Config)
	seq    int
	rand   uint64
}

// testRegistry holds the real variants and the toy.
func testRegistry() *rules.Registry {
	return rules.NewRegistry(append(variants.Registry().Variants(), toyVariant{})...)
}

func newHarness(t *testing.T, features ...func(*Service) Feature) *harness {
	t.Helper()
	h := &harness{features: features,
		t: t, path: filepath.Join(t.TempDir(), "missive.db"), reg: testRegistry(),
		clock:  &fakeClock{now: time.Date(2025, 3, 3, 12, 0, 0, 0, time.UTC)},
		render: &fakeRenderer{}, engine: &fakeEngine{}, notes: &recorder{},
	}
	h.open()
	t.Cleanup(h.close)
	return h
}

func (h *harness) open() {
	h.t.Helper()
	st, err := storage.Open(h.path, h.reg, &storage.Options{Now: h.clock.Now, NoSync: true, NoBackupSocket: true})
	if err != nil {
		h.t.Fatal(err)
	}
	h.store = st
	var notifier Notifier = h.notes
	if h.notifier != nil {
		notifier = h.notifier
	}
	cfg := Config{Store: st, Registry: h.reg, Renderer: h.render, Engine: h.engine, Notifier: notifier, Outbox: h.outbox,
		Now: h.clock.Now, Rand: func() uint64 { h.rand++; return h.rand * 2 }, // even: the challenger gets White
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Features: h.features}
	if h.config != nil {
		h.config(&cfg)
	}
	svc, err := New(cfg)
	if err != nil {
		h.t.Fatal(err)
	}
	h.svc = svc
}

func (h *harness) close() {
	if h.svc != nil {
		h.svc.Close()
		h.svc = nil
	}
	if h.store != nil {
		if err := h.store.Close(); err != nil && !errors.Is(err, fs.ErrClosed) {
			h.t.Error(err)
		}
		h.store = nil
	}
}

// restart closes the service and the data file and opens them again, as after a
// crash or a deploy.
func (h *harness) restart() {
	h.close()
	h.open()
}

// do runs a command line such as "move move:e2e4 game:1" as user and waits for its
// background work.
func (h *harness) do(user, line string) Reply {
	h.t.Helper()
	h.seq++
	return h.doID(user, line, fmt.Sprintf("req-%d", h.seq))
}

func (h *harness) doID(user, line, id string) Reply {
	h.t.Helper()
	return h.run(Request{ID: id, User: User{ID: user, Name: user}}, line)
}

// run completes req with the command and name:value options of line (underscores
// for spaces), handles it and waits for the background work it starts.
func (h *harness) run(req Request, line string) Reply {
	h.t.Helper()
	f := strings.Fields(line)
	req.Command, req.Args = f[0], Args{}
	for _, kv := range f[1:] {
		k, v, ok := strings.Cut(kv, ":")
		if !ok {
			h.t.Fatalf("bad test command %q", line)
		}
		req.Args[k] = strings.ReplaceAll(v, "_", " ")
	}
	r := h.svc.Handle(context.Background(), req)
	h.svc.Idle()
	return r
}

// ok runs a command that must succeed.
func (h *harness) ok(user, line string) Reply {
	h.t.Helper()
	r := h.do(user, line)
	if r.Refused {
		h.t.Fatalf("%s: %s: refused: %s", user, line, r.Text)
	}
	return r
}

// refused runs a command that must be refused with a message containing want.
func (h *harness) refused(user, line, want string) Reply {
	h.t.Helper()
	r := h.do(user, line)
	if !r.Refused {
		h.t.Fatalf("%s: %s: not refused: %s", user, line, r.PlainText())
	}
	if !strings.Contains(r.Text, want) {
		h.t.Fatalf("%s: %s: refusal %q does not say %q", user, line, r.Text, want)
	}
	return r
}

// game loads game id.
func (h *harness) game(id string) *storage.Game {
	h.t.Helper()
	var g *storage.Game
	if err := h.store.View(context.Background(), func(tx *storage.Tx) (err error) {
		g, err = tx.Game(id)
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	return g
}

// start makes alice challenge bob to variant (extra options appended) and bob accept;
// alice plays White. It returns the game's id.
func (h *harness) start(variant, extra string) string {
	h.t.Helper()
	h.ok("alice", "challenge variant:"+variant+" opponent:bob "+extra)
	r := h.ok("bob", "accept")
	if r.Started == nil {
		h.t.Fatalf("accept did not start a game: %s", r.PlainText())
	}
	h.notes.take()
	return r.Started.ID
}

// play plays moves alternately starting with user first (the other is the other of
// alice and bob) in game id.
func (h *harness) play(id, first string, moves ...string) Reply {
	h.t.Helper()
	users := map[string]string{"alice": "bob", "bob": "alice"}
	u := first
	var r Reply
	for _, m := range moves {
		r = h.ok(u, "move game:"+id+" move:"+m)
		u = users[u]
	}
	return r
}

// notesFor returns the kinds of the notifications sent to user.
func notesFor(ns []Notification, user string) []NoticeKind {
	var out []NoticeKind
	for _, n := range ns {
		if n.To.ID == user {
			out = append(out, n.Kind)
		}
	}
	return out
}

// replays checks that the game handed over in turn replays to its position.
func replays(turn EngineTurn) error {
	p := turn.Start
	for _, m := range turn.Moves {
		var err error
		if p, err = p.Play(m); err != nil {
			return err
		}
	}
	if p.String() != turn.Position.String() {
		return fmt.Errorf("start and moves give %s, not %s", p, turn.Position)
	}
	return nil
}
