package bottest

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

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/internal/toy"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// Renderer draws nothing: a "picture" is a short text naming the position and
// the options, so tests can check what would be drawn (and that no secret leaks).
type Renderer struct {
	Mu    sync.Mutex
	Panic bool // the next PNG call panics
}

func (f *Renderer) PNG(w io.Writer, pos rules.Position, o bot.BoardOptions) error {
	f.Mu.Lock()
	p := f.Panic
	f.Panic = false
	f.Mu.Unlock()
	if p {
		panic("fake renderer exploded")
	}
	_, err := fmt.Fprintf(w, "PNG %s viewer=%s theme=%s", pos.String(), o.Viewer, o.Theme)
	return err
}

func (f *Renderer) GIF(w io.Writer, frames []bot.Frame, o bot.BoardOptions) error {
	for _, fr := range frames {
		if _, err := fmt.Fprintln(w, fr.Position.String()); err != nil {
			return err
		}
	}
	return nil
}

func (f *Renderer) Text(pos rules.Position, o bot.BoardOptions) string { return "TEXT " + pos.String() }

func (f *Renderer) Themes() []string { return []string{"classic", "night"} }

func (f *Renderer) TablePNG(w io.Writer, t bot.Table) error {
	_, err := fmt.Fprintf(w, "TABLE %s\n%s", t.Title, t.Text(0))
	return err
}

// Engine plays the first legal move (or eligible cell) and hints the same.
type Engine struct {
	Mu    sync.Mutex
	Fail  int // the next fail calls of Move fail
	Moves int
	// resigns makes Move resign the game instead of moving.
	Resigns bool
	// gate, when set, holds every move until it is closed or the move's context ends.
	Gate chan struct{}
	// onMove, when set, runs at the start of each move (as the engine's thinking).
	OnMove func(turn bot.EngineTurn)
	// draws makes AcceptsDraw agree; judged counts its calls and judgedTurn keeps
	// the last turn; onJudge, when set, runs during each (as a request that arrives
	// while the engine thinks).
	Draws      bool
	Judged     int
	JudgedTurn bot.EngineTurn
	OnJudge    func()
	// offers makes OffersDraw offer, offerErr makes it fail; asked counts its calls
	// and offerTurn keeps the last turn.
	Offers    bool
	OfferErr  error
	Asked     int
	OfferTurn bot.EngineTurn
}

func (f *Engine) Opponent(name string, level int, variant string) (storage.Seat, error) {
	if name != "builtin" {
		return storage.Seat{}, bot.Refuse(bot.ErrRefused, "There is no engine %q; the engines here are: builtin.", name)
	}
	if level == 0 {
		level = 3
	}
	if level < 1 || level > engine.MaxLevel { // as the real adapter (engines.Opponent) refuses
		return storage.Seat{}, bot.Refuse(bot.ErrRefused, "The engine's level must be from 1 to %d.", engine.MaxLevel)
	}
	return storage.Seat{ID: fmt.Sprintf("engine:builtin:%d", level), Name: fmt.Sprintf("Missive engine (level %d)", level)}, nil
}

func (f *Engine) Move(ctx context.Context, turn bot.EngineTurn) (rules.Move, error) {
	pos, side := turn.Position, turn.Side
	if turn.Start != nil {
		if err := Replays(turn); err != nil {
			return rules.NullMove, err
		}
	}
	f.Mu.Lock()
	gate, hook := f.Gate, f.OnMove
	f.Mu.Unlock()
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
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Fail > 0 {
		f.Fail--
		return rules.NullMove, errors.New("engine crashed")
	}
	if f.Resigns {
		return rules.NullMove, fmt.Errorf("%w: the fake engine gives up", bot.ErrEngineResigned)
	}
	f.Moves++
	var ms []rules.Move
	if sim, ok := record.Round(pos); ok {
		ms = sim.LegalMovesFor(side)
	} else {
		ms = pos.LegalMoves()
	}
	if len(ms) == 0 {
		return rules.NullMove, errors.New("no move")
	}
	if _, ok := record.Round(pos); ok && strings.HasSuffix(turn.Player, "2") {
		return ms[len(ms)-1], nil // level 2 places from the other end: two engines' choices do not collide for ever
	}
	return ms[0], nil
}

func (f *Engine) Hint(ctx context.Context, pos rules.Position, side rules.Side) (bot.Hint, error) {
	m, err := f.Move(ctx, bot.EngineTurn{Position: pos, Side: side})
	return bot.Hint{Move: m, Scored: true, Pawns: 0.1}, err
}

func (f *Engine) AcceptsDraw(ctx context.Context, turn bot.EngineTurn) (bool, error) {
	f.Mu.Lock()
	f.Judged++
	f.JudgedTurn = turn
	draws, hook := f.Draws, f.OnJudge
	f.Mu.Unlock()
	if turn.Start == nil || !strings.HasPrefix(turn.Player, "engine:builtin:") {
		return false, fmt.Errorf("judging a draw for %s without the game's moves", turn.Player)
	}
	if err := Replays(turn); err != nil {
		return false, err
	}
	if hook != nil {
		hook()
	}
	return draws, nil
}

func (f *Engine) OffersDraw(ctx context.Context, turn bot.EngineTurn) (bool, error) {
	f.Mu.Lock()
	f.Asked++
	f.OfferTurn = turn
	offers, err := f.Offers, f.OfferErr
	f.Mu.Unlock()
	if turn.Start == nil || len(turn.Moves) == 0 || !strings.HasPrefix(turn.Player, "engine:builtin:") {
		return false, fmt.Errorf("asked whether %s offers a draw without the game's moves", turn.Player)
	}
	if err := Replays(turn); err != nil {
		return false, err
	}
	if turn.Position.Turn() == turn.Side {
		return false, fmt.Errorf("asked whether %s offers a draw before its move", turn.Side)
	}
	return offers, err
}

// Recorder is a bot.Notifier that keeps what it is given.
type Recorder struct {
	Mu    sync.Mutex
	notes []bot.Notification
}

func (r *Recorder) Notify(_ context.Context, n bot.Notification) error {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.notes = append(r.notes, n)
	return nil
}

// Take returns and forgets the notifications so far.
func (r *Recorder) Take() []bot.Notification {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	out := r.notes
	r.notes = nil
	return out
}

// Clock is a clock that tests move.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Harness is a service over a real data file in a temporary folder.
type Harness struct {
	T      *testing.T
	Path   string // the data file
	Reg    *rules.Registry
	Clock  *Clock
	Render *Renderer
	Engine *Engine
	Notes  *Recorder
	Store  *storage.Store
	Svc    *bot.Service
	// Features are plugged into the service after the product's own.
	Features []func(*bot.Service) bot.Feature
	// Notifier replaces Notes as the service's Notifier when set; Outbox tunes it.
	Notifier bot.Notifier
	Outbox   bot.OutboxOptions
	// Options configure the product's features.
	Options features.Options
	// Config, when set, changes the service's configuration before each open.
	Config func(*bot.Config)
	Seq    int
	Rand   uint64
}

// Registry holds the real variants and the toy.
func Registry() *rules.Registry {
	return rules.NewRegistry(append(variants.Registry().Variants(), toy.Place{})...)
}

// New opens a service over a new data file in a temporary folder, with the
// product's features and then extra plugged in; it closes when the test ends.
func New(t *testing.T, extra ...func(*bot.Service) bot.Feature) *Harness {
	t.Helper()
	h := &Harness{Features: extra,
		T: t, Path: filepath.Join(t.TempDir(), "missive.db"), Reg: Registry(),
		Clock:  &Clock{now: time.Date(2025, 3, 3, 12, 0, 0, 0, time.UTC)},
		Render: &Renderer{}, Engine: &Engine{}, Notes: &Recorder{},
	}
	h.Open()
	t.Cleanup(h.Close)
	return h
}

// Open opens the data file and builds the service from the harness's fakes,
// options and Config.
func (h *Harness) Open() {
	h.T.Helper()
	st, err := storage.Open(h.Path, h.Reg, &storage.Options{Now: h.Clock.Now, NoSync: true, NoBackupSocket: true})
	if err != nil {
		h.T.Fatal(err)
	}
	h.Store = st
	var notifier bot.Notifier = h.Notes
	if h.Notifier != nil {
		notifier = h.Notifier
	}
	cfg := bot.Config{Store: st, Registry: h.Reg, Renderer: h.Render, Engine: h.Engine, Notifier: notifier, Outbox: h.Outbox,
		Now: h.Clock.Now, Rand: func() uint64 { h.Rand++; return h.Rand * 2 }, // even: the challenger gets White
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Features: h.Features}
	features.Apply(&cfg, h.Options)
	if h.Config != nil {
		h.Config(&cfg)
	}
	svc, err := bot.New(cfg)
	if err != nil {
		h.T.Fatal(err)
	}
	h.Svc = svc
}

// Close stops the service and closes the data file.
func (h *Harness) Close() {
	if h.Svc != nil {
		h.Svc.Close()
		h.Svc = nil
	}
	if h.Store != nil {
		if err := h.Store.Close(); err != nil && !errors.Is(err, fs.ErrClosed) {
			h.T.Error(err)
		}
		h.Store = nil
	}
}

// Restart closes the service and the data file and opens them again, as after a
// crash or a deploy.
func (h *Harness) Restart() {
	h.Close()
	h.Open()
}

// Do runs a command line such as "move move:e2e4 game:1" as user and waits for its
// background work.
func (h *Harness) Do(user, line string) bot.Reply {
	h.T.Helper()
	h.Seq++
	return h.DoID(user, line, fmt.Sprintf("req-%d", h.Seq))
}

// DoID runs a command line as user with the request id id (a delivery seen twice
// carries the same id).
func (h *Harness) DoID(user, line, id string) bot.Reply {
	h.T.Helper()
	return h.Run(bot.Request{ID: id, User: bot.User{ID: user, Name: user}}, line)
}

// Run completes req with the command and name:value options of line (underscores
// for spaces), handles it and waits for the background work it starts.
func (h *Harness) Run(req bot.Request, line string) bot.Reply {
	h.T.Helper()
	f := strings.Fields(line)
	req.Command, req.Args = f[0], bot.Args{}
	for _, kv := range f[1:] {
		k, v, ok := strings.Cut(kv, ":")
		if !ok {
			h.T.Fatalf("bad test command %q", line)
		}
		req.Args[k] = strings.ReplaceAll(v, "_", " ")
	}
	r := h.Svc.Handle(context.Background(), req)
	h.Svc.Idle()
	return r
}

// Ok runs a command that must succeed.
func (h *Harness) Ok(user, line string) bot.Reply {
	h.T.Helper()
	r := h.Do(user, line)
	if r.Refused {
		h.T.Fatalf("%s: %s: refused: %s", user, line, r.Text)
	}
	return r
}

// Refused runs a command that must be refused with a message containing want.
func (h *Harness) Refused(user, line, want string) bot.Reply {
	h.T.Helper()
	r := h.Do(user, line)
	if !r.Refused {
		h.T.Fatalf("%s: %s: not refused: %s", user, line, r.PlainText())
	}
	if !strings.Contains(r.Text, want) {
		h.T.Fatalf("%s: %s: refusal %q does not say %q", user, line, r.Text, want)
	}
	return r
}

// Game loads game id.
func (h *Harness) Game(id string) *storage.Game {
	h.T.Helper()
	var g *storage.Game
	if err := h.Store.View(context.Background(), func(tx *storage.Tx) (err error) {
		g, err = tx.Game(id)
		return err
	}); err != nil {
		h.T.Fatal(err)
	}
	return g
}

// Start makes alice challenge bob to variant (extra options appended) and bob accept;
// alice plays White. It returns the game's id.
func (h *Harness) Start(variant, extra string) string {
	h.T.Helper()
	h.Ok("alice", "challenge variant:"+variant+" opponent:bob "+extra)
	r := h.Ok("bob", "accept")
	if r.Started == nil {
		h.T.Fatalf("accept did not start a game: %s", r.PlainText())
	}
	h.Notes.Take()
	return r.Started.ID
}

// Play plays moves alternately starting with user first (the other is the other of
// alice and bob) in game id.
func (h *Harness) Play(id, first string, moves ...string) bot.Reply {
	h.T.Helper()
	users := map[string]string{"alice": "bob", "bob": "alice"}
	u := first
	var r bot.Reply
	for _, m := range moves {
		r = h.Ok(u, "move game:"+id+" move:"+m)
		u = users[u]
	}
	return r
}

// NotesFor returns the kinds of the notifications sent to user.
func NotesFor(ns []bot.Notification, user string) []bot.NoticeKind {
	var out []bot.NoticeKind
	for _, n := range ns {
		if n.To.ID == user {
			out = append(out, n.Kind)
		}
	}
	return out
}

// Replays checks that the game handed over in turn Replays to its position.
func Replays(turn bot.EngineTurn) error {
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

// Day is the unit of the correspondence clock, for the tests' arithmetic.
const Day = clock.Day

// Where runs a command line as user from place, a kind of place where, with the
// server-management permission when admin is set.
func (h *Harness) Where(user string, place bot.Place, where bot.Context, admin bool, line string) bot.Reply {
	h.T.Helper()
	h.Seq++
	return h.Run(bot.Request{ID: fmt.Sprintf("req-%d", h.Seq), User: bot.User{ID: user, Name: user}, Place: place, Context: where, Admin: admin}, line)
}

// Tick runs one pass of the scheduler at the clock's time and waits for its
// background work.
func (h *Harness) Tick() {
	h.T.Helper()
	if _, err := h.Svc.Tick(h.T.Context()); err != nil {
		h.T.Fatal(err)
	}
	h.Svc.Idle()
}

// Resume gives the outage since the last heartbeat back to the running games.
func (h *Harness) Resume() {
	h.T.Helper()
	if err := h.Svc.Resume(h.T.Context(), h.Clock.Now()); err != nil {
		h.T.Fatal(err)
	}
	h.Svc.Idle()
}

// Player returns the stored settings of player id (the defaults when none).
func (h *Harness) Player(id string) *storage.Player {
	h.T.Helper()
	var p *storage.Player
	h.view(func(tx *storage.Tx) (err error) {
		p, err = bot.Settings(tx, id)
		return err
	})
	return p
}

// Challenge returns challenge id.
func (h *Harness) Challenge(id string) *storage.Challenge {
	h.T.Helper()
	var c *storage.Challenge
	h.view(func(tx *storage.Tx) (err error) {
		c, err = tx.Challenge(id)
		return err
	})
	return c
}

// OutboxLen returns how many notifications wait in the outbox.
func (h *Harness) OutboxLen() int {
	h.T.Helper()
	var n int
	h.view(func(tx *storage.Tx) (err error) {
		n, err = tx.OutboxLen()
		return err
	})
	return n
}

// MoveAny plays the first legal move of game id as user.
func (h *Harness) MoveAny(id, user string) {
	h.T.Helper()
	g := h.Game(id)
	h.Ok(user, "move game:"+id+" move:"+g.Position.UCI(g.Position.LegalMoves()[0]))
}

// view runs fn in a read transaction of the data file; an error fails the test.
func (h *Harness) view(fn func(tx *storage.Tx) error) {
	h.T.Helper()
	if err := h.Store.View(context.Background(), fn); err != nil {
		h.T.Fatal(err)
	}
}

// NoticesOf returns the notifications of kind sent to user.
func NoticesOf(ns []bot.Notification, user string, kind bot.NoticeKind) []bot.Notification {
	var out []bot.Notification
	for _, n := range ns {
		if n.To.ID == user && n.Kind == kind {
			out = append(out, n)
		}
	}
	return out
}
